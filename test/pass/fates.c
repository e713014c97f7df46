// The table records what became of each call at -O2: timed (probed),
// inlined (code of the callee left at the call's line:col), removed
// (nothing left: a const call whose result is unused); a call whose callee
// was inlined and folded into the caller's code can be either; a call rewritten by the optimiser (printf to puts) is
// still timed, found by its line:col.  The call that work's inlined code
// makes is listed after it, timed, at its own line:col in work.  Without
// -g, calls that are not timed are of unknown fate, and calls of inlined
// code are not listed.
// RUN: %ppcc -O2 -g -w -c %s -o %t.o
// RUN: %dump %t.o | %FileCheck %s
// RUN: %ppcc -O2 -w -c %s -o %t.nodebug.o
// RUN: %dump %t.nodebug.o | %FileCheck --check-prefix=NODEBUG %s
// RUN: %ppcc -O0 -g -w -c %s -o %t.O0.o
// RUN: %dump %t.O0.o | %FileCheck --check-prefix=O0 %s
#include <stdio.h>

__attribute__((const)) int pure(int);
int ext(int);

static int work(int x)
{
	return ext(x) * 2;
}

static int triple(int x)
{
	return x * 3;
}

int f(int x)
{
	printf("hello\n");
	pure(x);
	return work(x) + triple(x);
}

// CHECK:      fn f {{.*}}line=30 linkage=external calls=5 emitted
// CHECK-NEXT:   call 0 direct printf {{.*}}fates.c:32:2 timed
// CHECK-NEXT:   call 1 direct pure {{.*}}fates.c:33:2 removed
// CHECK-NEXT:   call 2 direct work {{.*}}fates.c:34:9 inlined
// CHECK-NEXT:   call 3 direct ext {{.*}}fates.c:22:9 via=2 timed
// CHECK-NEXT:   call 4 direct triple {{.*}}fates.c:34:19 {{inlined|removed}}
// CHECK-DAG:  fn work {{.*}} linkage=internal calls=1 not-emitted
// CHECK-DAG:  fn triple {{.*}} linkage=internal calls=0 not-emitted

// NODEBUG:      fn f {{.*}} calls=4 emitted
// NODEBUG-NEXT:   call 0 direct printf - unknown
// NODEBUG-NEXT:   call 1 direct pure - unknown
// NODEBUG-NEXT:   call 2 direct work - unknown
// NODEBUG-NEXT:   call 3 direct triple - unknown

// O0:      fn f {{.*}} calls=4 emitted
// O0-NEXT:   call 0 direct printf {{.*}} timed
// O0-NEXT:   call 1 direct pure {{.*}} timed
// O0-NEXT:   call 2 direct work {{.*}} timed
// O0-NEXT:   call 3 direct triple {{.*}} timed
