// Without entry no-ops (PINPOINT_PASS_ENTRY=0, or a target without static
// branches), a function that is not cloned gets a stub for its body probes (stub.c):
// its blocks move into <f>.pinpoint.body, with its attributes and its debug
// info, and f checks the body's flag and jumps to the body, or to
// <f>.pinpoint.timed, which times it.  Counts stay exact through recursion
// and arguments passed on the stack, armed and unarmed results match the
// plain build's, and the body's DWARF keeps f's name.  A function whose
// arguments do not all fit in registers (nine integers: x86-64 passes six
// in registers, AArch64 eight) keeps its body probes in its body: a stub would copy the
// stack-passed ones to where they already are on every call.
// REQUIRES: pinpoint-runtime
// RUN: env PINPOINT_PASS_ASM_PROBES=0 PINPOINT_PASS_ENTRY=0 PINPOINT_PASS_CLONE=0 %ppcc -O2 -g -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// RUN: %clang -O2 %s -o %t.plain
// RUN: %t.plain > %t.plain.out
// RUN: env PINPOINT_PASS_ENTRY=0 PINPOINT_PASS_CLONE=0 %ppcc -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: %t > %t.unarmed.out
// RUN: diff %t.plain.out %t.unarmed.out
// RUN: rm -f %t.res %t.res.*
// RUN: env "PINPOINT=out=%t.res;entry=main;fn=fib;fn=many;range=fib:0-1;range=main:1-1;fn=six" %t > %t.armed.out
// RUN: diff %t.plain.out %t.armed.out
// RUN: %FileCheck %s < %t.res
// RUN: %dwarfdump --name=fib %t | %FileCheck --check-prefix=DWARF %s
// With PINPOINT_PASS_STUB=0, the body probes stay in the body.
// RUN: env PINPOINT_PASS_ASM_PROBES=0 PINPOINT_PASS_ENTRY=0 PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %ppcc -O2 -S -emit-llvm %s -o - | %FileCheck --check-prefix=NOSTUB %s

#include <stdio.h>

#include "Inputs/fib-many.h"

__attribute__((noinline)) double six(long a, long b, long c, long d, long e, long f, double x,
				     double y)
{
	sink = (int)a;
	return (double)(a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f) * x - y;
}

int main(int argc, char **argv)
{
	long acc = 0;

	(void)argv;
	acc += fib(15 + argc);
	for (long i = 0; i < 100; i++)
		acc += many(i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8);
	for (long i = 0; i < 50; i++)
		acc += (long)six(i, i + 1, i + 2, i + 3, i + 4, i + 5, 0.5, 1.0);
	printf("%ld\n", acc);
	return 0;
}

// A recursive function and its ranges count at the outermost activation
// only (doc/semantics.md): fib once, its two calls twice.
// CHECK: slot 0 entry main found=1 total_ns={{[0-9]+}} count=1
// CHECK: slot 1 fn fib found=1 total_ns={{[0-9]+}} count=1{{$| }}
// CHECK: slot 2 fn many found=1 total_ns={{[0-9]+}} count=100{{$| }}
// CHECK: slot 3 range fib:0-1 found=1 total_ns={{[0-9]+}} count=2{{$| }}
// CHECK: slot 4 range main:1-1 found=1 total_ns={{[0-9]+}} count=100{{$| }}
// CHECK: slot 5 fn six found=1 total_ns={{[0-9]+}} count=50{{$| }}

// IR-LABEL: define dso_local i32 @fib(i32 noundef %n)
// IR-NOT:     !dbg
// IR:         musttail call i32 @fib.pinpoint.body(i32 noundef %n)
// IR:         musttail call i32 @fib.pinpoint.timed(i32 noundef %n)
// IR-LABEL: {{^}}}
// IR-LABEL: define dso_local i64 @many(
// IR-NOT:     pinpoint.body
// IR:         call {{.*}}@__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn_many{{.*}}, i32 0)
// IR-LABEL: {{^}}}
// IR-LABEL: define dso_local double @six(
// IR:         musttail call double @six.pinpoint.body(
// IR-LABEL: {{^}}}
// IR-LABEL: define internal i32 @fib.pinpoint.body(i32 noundef %n)
// IR-SAME:    unnamed_addr #[[BODY:[0-9]+]] !dbg ![[SP:[0-9]+]] {
// IR-NOT:     @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 0)
// IR:         call {{.*}}@__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn_fib{{.*}}, i32 1)
// IR-NEXT:    %call.armed = {{(tail )?}}call i32 @fib(i32 noundef %sub), !dbg
// IR-NOT:     @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 0)
// IR-LABEL: {{^}}}
// IR-LABEL: define internal i32 @fib.pinpoint.timed(i32 noundef %n)
// IR-SAME:    unnamed_addr #[[TIMED:[0-9]+]] section ".text.unlikely" {
// IR-NEXT:  entry:
// IR-NEXT:    call {{.*}}@__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn_fib{{.*}}, i32 0)
// IR-NEXT:    [[R:%.*]] = call i32 @fib.pinpoint.body(i32 noundef %n)
// IR-NEXT:    call {{.*}}@__pinpoint_exit{{(_fast)?}}({{.*}}@__pinpoint_fn_fib{{.*}}, i32 0)
// IR-NEXT:    ret i32 [[R]]
// IR:       attributes #[[BODY]] = { {{.*}}noinline nounwind
// IR:       attributes #[[TIMED]] = { cold {{.*}}noinline nounwind
// IR:       ![[SP]] = distinct !DISubprogram(name: "fib"

// DWARF: DW_TAG_subprogram
// DWARF: DW_AT_name ("fib")

// NOSTUB-NOT: pinpoint.body
// NOSTUB-LABEL: define dso_local i32 @fib(
// NOSTUB:         call {{.*}}@__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn_fib{{.*}}, i32 0)
// NOSTUB-NOT: pinpoint.body
