// Sleds (abi.h, 4.; pass/jumps.c): in an executable's code, a timed call
// gets a 5-byte no-op right before it and one right after it, and nothing
// else: the block is not split, the call not copied, and the asm clobbers
// only r10, r11 and the flags (the runtime's r11 entry points keep the rest,
// vector state included).  Armed, each no-op becomes a call of its thunk.
// A call in tail position keeps the asm goto check and the armed copy, so
// that the unarmed call is still a jump; so does every call in -fPIC code,
// whose asm probes declare the vector registers clobbered.  The functions'
// bodies keep their probes (PINPOINT_PASS_CLONE=0), the inline one's sleds
// go into its comdat group.
// REQUIRES: x86_64, pinpoint-runtime
// RUN: env PINPOINT_PASS_CLONE=0 %ppcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// RUN: env PINPOINT_PASS_CLONE=0 %ppcxx -O2 -S %s -o %t.s
// RUN: %FileCheck --check-prefix=ASM %s < %t.s
// RUN: env PINPOINT_PASS_CLONE=0 %ppcxx -fPIC -O2 -S -emit-llvm %s -o %t.pic.ll
// RUN: %FileCheck --check-prefix=PIC %s < %t.pic.ll
// RUN: env PINPOINT_PASS_CLONE=0 %ppcxx -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: rm -f %t.res %t.res.* && env "PINPOINT=out=%t.res;entry=main;fn=work;range=loop:0-0;range=last:0-0;range=twice:1-1;fn=main" %t 3 > %t.armed.out
// RUN: %FileCheck --check-prefix=EXEC %s < %t.res
// The patched program computes what the unpatched one does.
// RUN: %t 3 > %t.plain.out && cmp %t.plain.out %t.armed.out

#include <stdio.h>

static volatile int sink;

extern "C" {
__attribute__((noinline)) int work(int i)
{
	sink = i;
	return i & 7;
}

__attribute__((noinline)) int last(int i)
{
	return work(i + 1);
}

__attribute__((noinline)) int loop(int n)
{
	int acc = 0;

	for (int i = 0; i < n; i++)
		acc += work(i);
	return acc;
}

inline __attribute__((noinline)) int twice(int i)
{
	return work(i) + work(i + 1);
}
}

// A comdat group whose name is long: its sleds' text is as long as it needs.
struct A_type_name_long_enough_that_two_of_them_give_a_comdat_group_name_of_well_over_two_hundred_bytes_first {};
struct A_type_name_long_enough_that_two_of_them_give_a_comdat_group_name_of_well_over_two_hundred_bytes_second {};

template <typename A, typename B> __attribute__((noinline)) int named(int i)
{
	return work(i) + work(i + 2);
}

int main(int argc, char **argv)
{
	int n = 1000 * (argc > 1 ? argv[1][0] - '0' : 1), acc = 0;

	acc += loop(n);
	for (int i = 0; i < n; i++)
		acc += last(i) + twice(i) +
		       named<A_type_name_long_enough_that_two_of_them_give_a_comdat_group_name_of_well_over_two_hundred_bytes_first,
			     A_type_name_long_enough_that_two_of_them_give_a_comdat_group_name_of_well_over_two_hundred_bytes_second>(
			   i);
	printf("%d\n", acc);
	return 0;
}

// IR-LABEL: define {{.*}}i32 @last(
// IR:         callbr void asm sideeffect {{.*}}\0A\09.long 1\0A\09.popsection", "i,{{!?}}i"({{.*}}@__pinpoint_flags_last, i32 0, i32 1)
// IR-NEXT:      to label %{{.*}} [label %{{.*}}]
// IR-NOT:     .pinpoint_sleds
// IR:         call void asm sideeffect "leaq ${0:c}(%rip), %r11\0A\09movl $$${1:c}, %r10d\0A\09call *__pinpoint_enter_r11@GOTPCREL(%rip)", "i,i,~{r10},~{r11},~{memory},~{dirflag},~{fpsr},~{flags}"({{.*}}@__pinpoint_fn_last{{.*}}, i32 1)
// IR-NEXT:    {{(tail )?}}call i32 @work(
// IR-NOT:     .pinpoint_sleds
// IR:       {{^}}}
// IR-LABEL: define {{.*}}i32 @loop(
// IR-NOT:     callbr
// IR:         call void asm sideeffect "${:private}pinpoint_jump${:uid}:\0A\09.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\0A\09.pushsection pinpoint_jumps, \22ao\22, @progbits, ${3:c}\0A{{.*}}\0A\09.long 3\0A\09.popsection\0A\09.pushsection .pinpoint_sleds, \22axo\22, @progbits, ${3:c}\0A{{.*}}__pinpoint_enter_r11{{.*}}", "i,i,i,i,~{r10},~{r11},~{dirflag},~{fpsr},~{flags}"({{.*}}@__pinpoint_fn_loop{{.*}}, i32 1, {{.*}}@__pinpoint_flags_loop, i32 0, i32 1){{.*}}, {{.*}}@loop{{.*}})
// IR-NEXT:    [[R:%.*]] = {{(tail )?}}call i32 @work(
// IR-NEXT:    call void asm sideeffect "{{.*}}__pinpoint_exit_r11{{.*}}"({{.*}}@__pinpoint_fn_loop{{.*}}, i32 1, {{.*}}@__pinpoint_flags_loop, i32 0, i32 1){{.*}}, {{.*}}@loop{{.*}})
// IR-NEXT:    add {{(nuw )?}}nsw i32 [[R]],
// IR-NOT:     callbr
// IR:       {{^}}}
// IR-LABEL: define linkonce_odr {{.*}}i32 @twice({{.*}} comdat {
// IR:         call void asm sideeffect "{{.*}}\0A\09.pushsection pinpoint_jumps, \22aG\22, @progbits, twice, comdat\0A{{.*}}\0A\09.pushsection .pinpoint_sleds, \22axG\22, @progbits, twice, comdat\0A{{.*}}__pinpoint_enter_r11
// IR-NEXT:    {{(tail )?}}call i32 @work(
// IR-LABEL: define linkonce_odr {{.*}}i32 @_Z5namedI{{[0-9]+}}A_type_name{{[A-Za-z_]+}}_first{{[0-9]+}}A_type_name{{[A-Za-z_]+}}_secondEii({{.*}} comdat {
// IR-NOT:     callbr
// IR:         call void asm sideeffect "{{.*}}\0A\09.pushsection .pinpoint_sleds, \22axG\22, @progbits, _Z5namedI{{[A-Za-z0-9_]+}}_secondEii, comdat\0A{{.*}}__pinpoint_enter_r11
// IR-NEXT:    {{(tail )?}}call i32 @work(
// IR-NOT:     callbr
// IR:       {{^}}}

// The unarmed tail call stays a jump; the loop's call is the plain one
// between two no-ops, its thunks in a section of their own.
// ASM-LABEL: {{^}}last:
// ASM:         jmp work{{.*}}TAILCALL
// ASM-LABEL: {{^}}loop:
// ASM:       .Lpinpoint_jump[[N:[0-9]+]]:
// ASM:         .section .pinpoint_sleds,"axo",@progbits,loop
// ASM-NEXT:  .Lpinpoint_thunk[[N]]:
// ASM-NEXT:    leaq .L__pinpoint_fn_loop(%rip), %r11
// ASM-NEXT:    movl $1, %r10d
// ASM-NEXT:    {{jmpq?}} *__pinpoint_enter_r11@GOTPCREL(%rip)
// ASM-NOT:     work
// ASM:         {{callq?}} work
// ASM-NEXT:    #APP
// ASM-NEXT:  .Lpinpoint_jump{{[0-9]+}}:
// ASM-LABEL: .Lfunc_end

// PIC-NOT:   .pinpoint_sleds
// PIC-LABEL: define {{.*}}i32 @loop(
// PIC:         callbr void asm sideeffect
// PIC:         call void asm sideeffect "leaq ${0:c}(%rip), %r11\0A\09movl $$${1:c}, %r10d\0A\09call *__pinpoint_enter_r11@GOTPCREL(%rip)", "i,i,~{r10},~{r11},~{xmm0},{{.*}},~{xmm15},~{memory},~{dirflag},~{fpsr},~{flags}"
// PIC-NOT:   .pinpoint_sleds

// EXEC:      slot 0 entry main found=1 total_ns={{[0-9]+}} count=1 probes_ns={{[0-9]+$}}
// EXEC-NEXT: slot 1 fn work found=1 total_ns={{[0-9]+}} count=18000 calls_ns=0
// EXEC-NEXT: slot 2 range loop:0-0 found=1 total_ns={{[0-9]+}} count=3000
// EXEC-NEXT: slot 3 range last:0-0 found=1 total_ns={{[0-9]+}} count=3000
// EXEC-NEXT: slot 4 range twice:1-1 found=1 total_ns={{[0-9]+}} count=3000
// EXEC-NEXT: slot 5 fn main found=1 total_ns={{[0-9]+}} count=1 calls_ns={{[0-9]+}}
