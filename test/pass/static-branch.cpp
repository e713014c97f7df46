// Static branches (abi.h, 4.; pass/jumps.c), the default on x86-64: a
// function's entry is a 5-byte no-op (pass/entry.c), a timed call has a
// 5-byte no-op before it and one after (sleds, which become calls of its
// enter and exit thunks), and every other check is "asm goto" of a 5-byte
// no-op that falls through to the unarmed path, each with a struct pp_jump
// {code, target, key, kind} in pinpoint_jumps (offsets from each field).  No flag is loaded on the unarmed path.  The
// entries go into a section linked to the function's code, or into its
// comdat group (the inline function).  Armed, the runtime patches the no-ops
// of the armed sites into jumps: the counts are exact, also in a binary
// linked with --gc-sections (by lld: static-branch-lld.test), and nothing
// else is patched.  PINPOINT_PASS_JUMPS=0 gives load checks (emit-llvm.c).
// REQUIRES: x86_64, pinpoint-runtime
// RUN: %ppcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// RUN: %ppcxx -O2 -S %s -o %t.s
// RUN: %FileCheck --check-prefix=ASM %s < %t.s
// RUN: env PINPOINT_PASS_JUMPS=0 %ppcxx -O2 -S -emit-llvm %s -o %t.off.ll
// RUN: %FileCheck --check-prefix=OFF %s < %t.off.ll
// RUN: %ppcxx -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: rm -f %t.res %t.res.* && env "PINPOINT=out=%t.res;entry=main;fn=work;range=loop:0-0;fn=main" %t 3
// RUN: %FileCheck --check-prefix=EXEC %s < %t.res
// RUN: rm -f %t.res %t.res.* && %t 3 > /dev/null && test ! -e %t.res
// RUN: %ppcxx -O2 -g -ffunction-sections -Wl,--gc-sections %s %runtime -lpthread -lm -o %t.gc
// RUN: rm -f %t.res %t.res.* && env "PINPOINT=out=%t.res;entry=main;fn=work;range=loop:0-0;fn=main" %t.gc 3
// RUN: %FileCheck --check-prefix=EXEC %s < %t.res
// The patched program computes what the unpatched one does.
// RUN: %t 3 > %t.plain.out && env "PINPOINT=out=%t.res2;fn=work;fn=loop" %t 3 > %t.armed.out
// RUN: cmp %t.plain.out %t.armed.out

#include <stdio.h>

static volatile int sink;

extern "C" {
__attribute__((noinline)) int work(int i)
{
	sink = i;
	return i & 7;
}

__attribute__((noinline)) int unused(int i)
{
	return work(i) + 1;
}

inline __attribute__((noinline)) int twice(int i)
{
	return work(i) + work(i + 1);
}

__attribute__((noinline)) int loop(int n)
{
	int acc = 0;

	for (int i = 0; i < n; i++)
		acc += work(i);
	return acc;
}
}

int main(int argc, char **argv)
{
	int n = 100000 * (argc > 1 ? argv[1][0] - '0' : 1);

	printf("%d\n", loop(n) + twice(n));
	return 0;
}

// A function's entry (entry.c): work has no check of its own, only the
// 5-byte no-op that "patchable-function-entry" puts ahead of its prologue;
// the entry (kind 1, keyed by the body's flag) is emitted by
// work.pinpoint.timed, which times work past the no-op.
// IR-LABEL: define {{.*}}i32 @work(
// IR-SAME:    #[[ENTRY:[0-9]+]] {
// IR-NOT:     asm
// IR-NOT:     load
// IR:       {{^}}}
// A small function with timed calls: its no-op jumps to its armed clone
// (kind 2, keyed by the armed word of its record).  The inline function's
// entries go into its comdat group (its clone is local).
// IR-LABEL: define linkonce_odr {{.*}}i32 @twice({{.*}} comdat {
// IR-NOT:     asm
// IR:       {{^}}}
// IR-LABEL: define internal {{.*}}i32 @work.pinpoint.timed(
// IR-NEXT:    call void asm sideeffect "\09.pushsection pinpoint_jumps, \22ao\22, @progbits, ${0:c}\0A\09.balign 4\0A\09.long ${0:c} - .\0A\09.long ${1:c} - .\0A\09.long ${2:c} - .\0A\09.long 1\0A\09.popsection", "i,i,i"({{.*}}@work{{.*}}, {{.*}}@work.pinpoint.timed{{.*}}, {{.*}}@__pinpoint_flags_work{{(, i32 0, i32 0\))?}})
// IR:         call {{.*}}@__pinpoint_enter_fast({{.*}}, i32 0)
// IR-NEXT:    call {{.*}}i32 {{.*}}getelementptr (i8, {{.*}}@work{{.*}}, i64 5)
// In the clone, the body's check (kind 1): asm goto to its armed path,
// keyed by the body's flag.
// IR-LABEL: define internal {{.*}}i32 @loop.pinpoint(
// IR-NEXT:    call void asm sideeffect {{.*}}\0A\09.long 2\0A\09.popsection", "i,i,i"({{.*}}@loop{{.*}}, {{.*}}@loop.pinpoint{{.*}}, {{.*}}@__pinpoint_fn_loop, i32 0, i32 4){{( to i8\*)?}})
// IR-NOT:     load i8, {{.*}}@__pinpoint_flags_loop
// IR:         callbr void asm sideeffect "${:private}pinpoint_jump${:uid}:\0A\09.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\0A\09.pushsection pinpoint_jumps, \22ao\22, @progbits, ${:private}pinpoint_jump${:uid}\0A\09.balign 4\0A\09.long ${:private}pinpoint_jump${:uid} - .\0A\09.long ${1:l} - .\0A\09.long ${0:c} - .\0A\09.long 1\0A\09.popsection", "i,{{!?}}i"({{.*}}@__pinpoint_flags_loop{{(, i32 0, i32 0\))?}}
// The call's probes (kind 3): a sled before it and one after, in the same
// block, keyed by the site's flag; each thunk, in a section that goes with
// the function's, passes the record in r11 and the site in r10d to the
// runtime (jumps.c), the call's argument registers and the vector
// registers left alone.
// IR-NOT:     load i8, {{.*}}@__pinpoint_flags_loop
// IR:         call void asm sideeffect "${:private}pinpoint_jump${:uid}:\0A\09.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\0A\09.pushsection pinpoint_jumps, \22ao\22, @progbits, ${3:c}\0A\09.balign 4\0A\09.long ${:private}pinpoint_jump${:uid} - .\0A\09.long ${:private}pinpoint_thunk${:uid} - .\0A\09.long ${2:c} - .\0A\09.long 3\0A\09.popsection\0A\09.pushsection .pinpoint_sleds, \22axo\22, @progbits, ${3:c}\0A${:private}pinpoint_thunk${:uid}:\0A\09leaq ${0:c}(%rip), %r11\0A\09movl $$${1:c}, %r10d\0A\09jmp *__pinpoint_enter_r11@GOTPCREL(%rip)\0A\09.popsection", "i,i,i,i,~{r10},~{r11},~{dirflag},~{fpsr},~{flags}"({{.*}}@__pinpoint_fn_loop{{.*}}, i32 1, {{.*}}@__pinpoint_flags_loop, i32 0, i32 1){{.*}}, {{.*}}@loop.pinpoint{{.*}})
// IR-NEXT:    call {{.*}}i32 @work(
// IR-NEXT:    call void asm sideeffect "{{.*}}\0A\09jmp *__pinpoint_exit_r11@GOTPCREL(%rip)\0A\09.popsection", "i,i,i,i,~{r10},~{r11},~{dirflag},~{fpsr},~{flags}"({{.*}}@__pinpoint_fn_loop{{.*}} 1){{.*}}, i32 1, {{.*}}@__pinpoint_flags_loop, i32 0, i32 1){{.*}}, {{.*}}@loop.pinpoint{{.*}})
// IR-LABEL: define internal {{.*}}i32 @twice.pinpoint(
// IR-NEXT:    call void asm sideeffect "\09.pushsection pinpoint_jumps, \22aG\22, @progbits, twice, comdat\0A

// IR:         attributes #[[ENTRY]] = { {{.*}}"patchable-function-entry"="5"

// What the assembler makes of it (clang -S prints it back, parsed):
// ASM-LABEL: {{^}}work:
// ASM:         # %bb.0:
// ASM-NEXT:    nopl 8(%rax,%rax)
// ASM-LABEL: loop.pinpoint:
// ASM:       .Lpinpoint_jump[[N:[0-9]+]]:
// ASM-NEXT:    .byte 15
// ASM-NEXT:    .byte 31
// ASM-NEXT:    .byte 68
// ASM-NEXT:    .byte 0
// ASM-NEXT:    .byte 0
// ASM-NEXT:    .section pinpoint_jumps,"ao",@progbits,.Lpinpoint_jump[[N]]
// ASM-NEXT:    .p2align 2{{(, 0x0)?}}
// ASM-NEXT:  [[A:.Ltmp[0-9]+]]:
// ASM-NEXT:    .long .Lpinpoint_jump[[N]]-[[A]]
// ASM-NEXT:  [[B:.Ltmp[0-9]+]]:
// ASM-NEXT:    .long .L{{tmp|BB}}{{[0-9_]+}}-[[B]]
// ASM-NEXT:  [[C:.Ltmp[0-9]+]]:
// ASM-NEXT:    .long .L__pinpoint_flags_loop-[[C]]
// ASM-NEXT:    .long 1
// ASM-NOT:     __pinpoint_flags_loop(%rip)
// ASM:       .Lpinpoint_jump[[S:[0-9]+]]:
// ASM-NEXT:    .byte 15
// ASM-NEXT:    .byte 31
// ASM-NEXT:    .byte 68
// ASM-NEXT:    .byte 0
// ASM-NEXT:    .byte 0
// ASM-NEXT:    .section pinpoint_jumps,"ao",@progbits,loop.pinpoint
// ASM-NEXT:    .p2align 2{{(, 0x0)?}}
// ASM-NEXT:  [[D:.Ltmp[0-9]+]]:
// ASM-NEXT:    .long .Lpinpoint_jump[[S]]-[[D]]
// ASM-NEXT:  [[E:.Ltmp[0-9]+]]:
// ASM-NEXT:    .long .Lpinpoint_thunk[[S]]-[[E]]
// ASM-NEXT:  [[F:.Ltmp[0-9]+]]:
// ASM-NEXT:    .long (.L__pinpoint_flags_loop+1)-[[F]]
// ASM-NEXT:    .long 3
// ASM-NEXT:    .section .text{{.*}}
// ASM-EMPTY:
// ASM-NEXT:    .section .pinpoint_sleds,"axo",@progbits,loop.pinpoint
// ASM-NEXT:  .Lpinpoint_thunk[[S]]:
// ASM-NEXT:    leaq .L__pinpoint_fn_loop(%rip), %r11
// ASM-NEXT:    movl $1, %r10d
// ASM-NEXT:    {{jmpq?}} *__pinpoint_enter_r11@GOTPCREL(%rip)
// ASM-NEXT:    .section .text{{.*}}
// ASM-NOT:     __pinpoint_flags_loop(%rip)
// ASM:         {{callq?}} work
// ASM-NEXT:    #APP
// ASM-NEXT:  .Lpinpoint_jump{{[0-9]+}}:
// ASM-LABEL: .Lfunc_end

// OFF-LABEL: define internal {{.*}}i32 @loop.pinpoint(
// OFF-NOT:     callbr
// OFF:         load i8, {{.*}}@__pinpoint_flags_loop
// OFF-NOT:     callbr
// OFF:       {{^}}}

// EXEC:      slot 0 entry main found=1 total_ns={{[0-9]+}} count=1 probes_ns={{[0-9]+$}}
// EXEC-NEXT: slot 1 fn work found=1 total_ns={{[0-9]+}} count=300002 calls_ns=0
// EXEC-NEXT: slot 2 range loop:0-0 found=1 total_ns={{[0-9]+}} count=300000
// EXEC-NEXT: slot 3 fn main found=1 total_ns={{[0-9]+}} count=1 calls_ns={{[0-9]+}}
