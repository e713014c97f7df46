// Call lists in program order, the same at -O0 and -O2: direct, indirect and
// static callees, an unprototyped callee (a bitcast call with typed
// pointers), no intrinsics (memset, memcpy, llvm.dbg.*), no inline asm.
// Only the fates differ: at -O0 every call is timed, at -O2 twice() is
// inlined (and not emitted).
// RUN: %ppcc -O0 -g -w -c %s -o %t.O0.o
// RUN: %ppcc -O2 -g -w -c %s -o %t.O2.o
// RUN: %dump %t.O0.o > %t.O0.txt
// RUN: %dump %t.O2.o > %t.O2.txt
// RUN: %FileCheck --check-prefixes=CHECK,O0 %s < %t.O0.txt
// RUN: %FileCheck --check-prefixes=CHECK,O2 %s < %t.O2.txt
#include <string.h>

struct big {
	char b[256];
};

int ext(int);
int noproto();
static int twice(int x)
{
	return 2 * x;
}

int calls(int x, int (*fp)(int), struct big *d, const struct big *s)
{
	char buf[64];

	memset(buf, 0, sizeof(buf));
	*d = *s;
	__asm__ volatile("" ::: "memory");
	int y = ext(x) + twice(x);
	if (x > 3)
		y += fp(y);
	y += noproto(y);
	return y ? y : ext(y + buf[x & 63]);
}

// CHECK: blob module={{.*}}call-list.c producer=pinpoint {{[0-9.]+}} llvm {{[0-9.]+}} funcs=2 calls=5
// CHECK-NEXT: fn calls file={{.*}}call-list.c line=25 linkage=external calls=5 emitted{{$}}
// CHECK-NEXT:   call 0 direct ext {{.*}}call-list.c:32:10 timed{{$}}
// O0-NEXT:      call 1 direct twice {{.*}}call-list.c:32:19 timed{{$}}
// O2-NEXT:      call 1 direct twice {{.*}}call-list.c:32:19 inlined{{$}}
// CHECK-NEXT:   call 2 indirect - {{.*}}call-list.c:34:8 timed{{$}}
// CHECK-NEXT:   call 3 direct noproto {{.*}}call-list.c:35:7 timed{{$}}
// CHECK-NEXT:   call 4 direct ext {{.*}}call-list.c:36:17 timed{{$}}
// O0-NEXT:    fn twice file={{.*}}call-list.c line=20 linkage=internal calls=0 emitted{{$}}
// O2-NEXT:    fn twice file={{.*}}call-list.c line=20 linkage=internal calls=0 not-emitted{{$}}
// CHECK-EMPTY:
