// A function's entry as a static branch (pass/entry.c), the default on
// x86-64: the function keeps the plain build's code behind one 5-byte no-op
// ahead of its prologue, which the runtime patches into a jump to
// <f>.pinpoint.timed (body armed) or to the armed clone <f>.pinpoint (a
// small function with timed calls).  The jump lands with the caller's
// arguments and stack, so arguments on the stack (nine integers), a byval
// struct and a function ending in a musttail call need no forwarding, and
// counts stay exact through recursion and through a function pointer, also
// with --gc-sections.  Armed and unarmed output match the plain build's.
// A function the shared object exports (-fPIC) could be interposed and is
// left to a check (dispatch.c, stub.c), as is every function with
// PINPOINT_PASS_ENTRY=0 and every function of a module built for LTO
// (lto.test).
// REQUIRES: x86_64, pinpoint-runtime
// RUN: %ppcc -O2 -g -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// RUN: %ppcc -O2 -S %s -o - | %FileCheck --check-prefix=ASM %s
// RUN: %clang -O2 %s -o %t.plain
// RUN: %t.plain > %t.plain.out
// RUN: %ppcc -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: %t > %t.unarmed.out
// RUN: diff %t.plain.out %t.unarmed.out
// RUN: rm -f %t.res %t.res.*
// RUN: env "PINPOINT=out=%t.res;entry=main;fn=fib;fn=many;range=fib:0-1;fn=take;fn=twice;range=main:0-0" %t > %t.armed.out
// RUN: diff %t.plain.out %t.armed.out
// RUN: %FileCheck %s < %t.res
// Only the range of twice armed: its clone runs and times both calls.
// RUN: rm -f %t.res2 %t.res2.*
// RUN: env "PINPOINT=out=%t.res2;range=twice:0-1" %t > %t.armed2.out
// RUN: diff %t.plain.out %t.armed2.out
// RUN: %FileCheck --check-prefix=RANGE %s < %t.res2
// RUN: %ppcc -O2 -g -ffunction-sections -Wl,--gc-sections %s %runtime -lpthread -lm -o %t.gc
// RUN: rm -f %t.res3 %t.res3.*
// RUN: env "PINPOINT=out=%t.res3;entry=main;fn=fib;fn=many;range=fib:0-1;fn=take;fn=twice;range=main:0-0" %t.gc > %t.armed3.out
// RUN: diff %t.plain.out %t.armed3.out
// RUN: %FileCheck %s < %t.res3
// RUN: %ppcc -O2 -fPIC -S -emit-llvm %s -o - | %FileCheck --check-prefix=PIC %s
// RUN: %ppcc -O2 -fPIC -shared %s -o %t.so
// RUN: env PINPOINT_PASS_ENTRY=0 %ppcc -O2 -S -emit-llvm %s -o - | %FileCheck --check-prefix=OFF %s

#include <stdio.h>

#include "Inputs/fib-many.h"

struct in {
	long v[4];
};

__attribute__((noinline)) long take(struct in s)
{
	sink = (int)s.v[0];
	return s.v[0] - s.v[1] + s.v[2] * s.v[3];
}

__attribute__((noinline)) long twice(long x)
{
	struct in s = {{x, x + 1, x + 2, x + 3}};

	return take(s) + take(s);
}

__attribute__((visibility("hidden"))) long hidden_leaf(long x)
{
	sink = (int)x;
	return x + 1;
}

long exported_leaf(long x)
{
	sink = (int)x;
	return x - 1;
}

long (*volatile pick)(long) = twice;

int main(int argc, char **argv)
{
	long acc = 0;

	(void)argv;
	for (long i = 0; i < 100; i++)
		acc += many(i + 8, i + 7, i + 6, i + 5, i + 4, i + 3, i + 2, i + 1, i);
	acc += fib(15 + argc);
	for (long i = 0; i < 30; i++)
		acc += pick(i);
	acc += hidden_leaf(acc) + exported_leaf(acc);
	printf("%ld\n", acc);
	return 0;
}

// A recursive function and its ranges count at the outermost activation
// only (doc/semantics.md): fib once, its two calls twice.  twice runs
// through a function pointer, take from twice's clone.
// CHECK: slot 0 entry main found=1 total_ns={{[0-9]+}} count=1
// CHECK: slot 1 fn fib found=1 total_ns={{[0-9]+}} count=1{{$| }}
// CHECK: slot 2 fn many found=1 total_ns={{[0-9]+}} count=100{{$| }}
// CHECK: slot 3 range fib:0-1 found=1 total_ns={{[0-9]+}} count=2{{$| }}
// CHECK: slot 4 fn take found=1 total_ns={{[0-9]+}} count=60{{$| }}
// CHECK: slot 5 fn twice found=1 total_ns={{[0-9]+}} count=30{{$| }}
// CHECK: slot 6 range main:0-0 found=1 total_ns={{[0-9]+}} count=100{{$| }}

// RANGE: slot 0 range twice:0-1 found=1 total_ns={{[0-9]+}} count=60{{$| }}

// Each function keeps the plain body: no check, no probe, no musttail.
// IR-LABEL: define dso_local i32 @fib(
// IR-NOT:     asm
// IR-NOT:     @__pinpoint
// IR-NOT:     musttail
// IR-LABEL: {{^}}}
// IR-LABEL: define dso_local i64 @many(
// IR-NOT:     @__pinpoint
// IR-NOT:     asm
// IR-LABEL: {{^}}}
// IR-LABEL: define dso_local i64 @take(
// IR-NOT:     @__pinpoint
// IR-NOT:     asm
// IR-LABEL: {{^}}}
// IR-LABEL: define dso_local i64 @twice(
// IR-NOT:     @__pinpoint
// IR-NOT:     asm
// IR-LABEL: {{^}}}
// fib and twice (small, with timed calls) jump to their clones (kind 2).
// IR-LABEL: define internal i32 @fib.pinpoint(
// IR-NEXT:  entry:
// IR-NEXT:    call void asm sideeffect "{{.*}}.long 2\0A\09.popsection", "i,i,i"({{.*}}@fib{{.*}}, {{.*}}@fib.pinpoint{{.*}}, {{.*}}@__pinpoint_fn_fib{{.*}})
// IR:         {{@__pinpoint_enter(_fast)?|__pinpoint_enter_r11@GOTPCREL}}({{.*}}@__pinpoint_fn_fib{{.*}}, i32 1)
// many (stack-passed arguments) and take (byval) to their timed body
// (kind 1, the body's flag), which calls them past the no-op.
// IR-LABEL: define internal i64 @many.pinpoint.timed(
// IR-SAME:    section ".text.unlikely"
// IR-NEXT:  entry:
// IR-NEXT:    call void asm sideeffect "{{.*}}.long 1\0A\09.popsection", "i,i,i"({{.*}}@many{{.*}}, {{.*}}@many.pinpoint.timed{{.*}}, {{.*}}@__pinpoint_flags_many{{(, i32 0, i32 0\))?}})
// IR-NEXT:    call {{.*}}@__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn_many{{.*}}, i32 0)
// IR-NEXT:    [[R:%.*]] = call i64 {{.*}}getelementptr (i8, {{.*}}@many{{.*}}, i64 5){{.*}}(i64 noundef %a,
// IR-NEXT:    call {{.*}}@__pinpoint_exit{{(_fast)?}}({{.*}}@__pinpoint_fn_many{{.*}}, i32 0)
// IR-NEXT:    ret i64 [[R]]
// IR-LABEL: define internal i64 @take.pinpoint.timed(
// IR-SAME:    byval
// IR:         call i64 {{.*}}getelementptr (i8, {{.*}}@take{{.*}}, i64 5){{.*}} byval
// IR-LABEL: define internal i64 @twice.pinpoint(
// IR-NEXT:  entry:
// IR-NEXT:    %s = alloca
// IR-NEXT:    call void asm sideeffect "{{.*}}.long 2\0A\09.popsection", "i,i,i"({{.*}}@twice{{.*}}, {{.*}}@twice.pinpoint{{.*}}, {{.*}}@__pinpoint_fn_twice{{.*}})
// IR:         {{@__pinpoint_enter(_fast)?|__pinpoint_enter_r11@GOTPCREL}}({{.*}}@__pinpoint_fn_twice{{.*}}, i32 1)

// The no-op is each function's first instruction.
// ASM-LABEL: {{^}}fib:
// ASM:       # %bb.0:
// ASM-NEXT:    nopl 8(%rax,%rax)
// ASM-LABEL: {{^}}many:
// ASM:       # %bb.0:
// ASM-NEXT:    nopl 8(%rax,%rax)
// ASM-LABEL: {{^}}take:
// ASM:       # %bb.0:
// ASM-NEXT:    nopl 8(%rax,%rax)
// ASM-LABEL: {{^}}twice:
// ASM:       # %bb.0:
// ASM-NEXT:    nopl 8(%rax,%rax)

// Under -fPIC, a hidden function gets the no-op; an exported one, which
// another object could interpose, keeps the check that dispatches to its
// clone (dispatch.c).
// PIC-LABEL: define hidden {{.*}}i64 @hidden_leaf(
// PIC-SAME:    #[[PENTRY:[0-9]+]]
// PIC-LABEL: define {{.*}}i64 @exported_leaf(
// PIC:         musttail call {{.*}}i64 @exported_leaf.pinpoint(
// PIC:       attributes #[[PENTRY]] = { {{.*}}"patchable-function-entry"="5"

// OFF-NOT: patchable-function-entry
