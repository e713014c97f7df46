// A call of inlined code that the optimiser duplicates (here by unrolling
// the loop four times) is one place of the host's list: every copy has the
// probes of that one site, and armed, the site counts every execution.
// REQUIRES: pinpoint-runtime
// RUN: %ppcc -O2 -g -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// RUN: %ppcc -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: %dump %t | %FileCheck --check-prefix=TABLE %s
// RUN: rm -f %t.res %t.res.* && env "PINPOINT=out=%t.res;entry=f;range=f:1-1" %t
// RUN: %FileCheck %s < %t.res
#include <stdlib.h>

static volatile int sink;

__attribute__((noinline)) void g(int x)
{
	sink = x;
}

static inline void helper(int x)
{
	g(x * 3);
}

__attribute__((noinline)) void f(int n)
{
#pragma clang loop unroll_count(4)
	for (int i = 0; i < n; i++)
		helper(i);
}

int main(int argc, char **argv)
{
	(void)argv;
	f(1001 * argc);
	return 0;
}

// TABLE:      fn f {{.*}} calls=2 emitted
// TABLE-NEXT:   call 0 direct helper {{.*}}inlined-dup.c:29:3 inlined
// TABLE-NEXT:   call 1 direct g {{.*}}inlined-dup.c:22:2 via=0 timed

// Each copy of the call between the two sleds of site 2 (call 1).
// IR-LABEL: define {{.*}}void @f.pinpoint(
// IR:         pinpoint_enter_r11{{.*}}, i32 2, {{.*}}
// IR-NEXT:    call void @g(
// IR-NEXT:    pinpoint_exit_r11{{.*}}, i32 2, {{.*}}
// IR:         pinpoint_enter_r11{{.*}}, i32 2, {{.*}}
// IR-NEXT:    call void @g(
// IR-NEXT:    pinpoint_exit_r11{{.*}}, i32 2, {{.*}}
// IR:         pinpoint_enter_r11{{.*}}, i32 2, {{.*}}
// IR-NEXT:    call void @g(
// IR-NEXT:    pinpoint_exit_r11{{.*}}, i32 2, {{.*}}
// IR:         pinpoint_enter_r11{{.*}}, i32 2, {{.*}}
// IR-NEXT:    call void @g(
// IR-NEXT:    pinpoint_exit_r11{{.*}}, i32 2, {{.*}}
// IR-LABEL: {{^}}}

// CHECK: slot 0 entry f found=1 total_ns={{[0-9]+}} count=1{{$| }}
// CHECK: slot 1 range f:1-1 found=1 total_ns={{[0-9]+}} count=1001{{$| }}
