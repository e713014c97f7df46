/* SPDX-License-Identifier: MIT */
/*
 * fast_call_x86_64.S - calls one of the runtime's preserve_most entry points
 * (runtime/arch/x86_64/probe_x86_64.S) the way instrumented code does, with a known
 * value in every general register, and keeps what each holds afterwards:
 *
 *	void pp_test_fast_call(void *entry, void *record, uint32_t site)
 *
 * pp_test_fast_got[] then holds rax, rcx, rdx, rsi, rdi, r8, r9, r10, rbx,
 * rbp, r12, r13, r14, r15 after the call; rdi and rsi must still be the
 * record and the site, every other register its value of
 * pp_test_fast_sentinel() (rt_unit.c).  Only r11 is the callee's.
 *
 *	void pp_test_r11_call(void *entry, void *record, uint32_t site)
 *
 * calls an r11 entry point as the inline asm probes do, with every general
 * register but r10 and r11 and every SSE register set; pp_test_fast_got[]
 * and pp_test_fast_xmm[] (two quadwords each of xmm0-xmm15) then hold them.
 */
/* Saves the callee-saved registers, aligns the stack for the call. */
.macro PROLOGUE
	.cfi_startproc
	push %rbx
	.cfi_adjust_cfa_offset 8
	push %rbp
	.cfi_adjust_cfa_offset 8
	push %r12
	.cfi_adjust_cfa_offset 8
	push %r13
	.cfi_adjust_cfa_offset 8
	push %r14
	.cfi_adjust_cfa_offset 8
	push %r15
	.cfi_adjust_cfa_offset 8
	sub $8, %rsp /* 16-byte aligned at the call, as compiled code keeps it */
	.cfi_adjust_cfa_offset 8
.endm

/* The sentinels of every register but the ones the call takes (and r11). */
.macro SENTINELS
	movabs $0x5a5a000000000001, %rax
	movabs $0x5a5a000000000002, %rcx
	movabs $0x5a5a000000000003, %rdx
	movabs $0x5a5a000000000006, %r8
	movabs $0x5a5a000000000007, %r9
	movabs $0x5a5a000000000009, %rbx
	movabs $0x5a5a00000000000a, %rbp
	movabs $0x5a5a00000000000b, %r12
	movabs $0x5a5a00000000000c, %r13
	movabs $0x5a5a00000000000d, %r14
	movabs $0x5a5a00000000000e, %r15
.endm

/* Keeps every register in pp_test_fast_got[], restores and returns. */
.macro EPILOGUE
	lea pp_test_fast_got(%rip), %r11
	mov %rax, 0(%r11)
	mov %rcx, 8(%r11)
	mov %rdx, 16(%r11)
	mov %rsi, 24(%r11)
	mov %rdi, 32(%r11)
	mov %r8, 40(%r11)
	mov %r9, 48(%r11)
	mov %r10, 56(%r11)
	mov %rbx, 64(%r11)
	mov %rbp, 72(%r11)
	mov %r12, 80(%r11)
	mov %r13, 88(%r11)
	mov %r14, 96(%r11)
	mov %r15, 104(%r11)
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	pop %r15
	.cfi_adjust_cfa_offset -8
	pop %r14
	.cfi_adjust_cfa_offset -8
	pop %r13
	.cfi_adjust_cfa_offset -8
	pop %r12
	.cfi_adjust_cfa_offset -8
	pop %rbp
	.cfi_adjust_cfa_offset -8
	pop %rbx
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
.endm

	.text
	.p2align 4
	.globl pp_test_fast_call
	.type pp_test_fast_call, @function
pp_test_fast_call:
	PROLOGUE
	mov %rdi, %r11
	mov %rsi, %rdi
	mov %edx, %esi
	SENTINELS
	movabs $0x5a5a000000000008, %r10
	call *%r11
	EPILOGUE
	.size pp_test_fast_call, . - pp_test_fast_call

	.p2align 4
	.globl pp_test_r11_call
	.type pp_test_r11_call, @function
pp_test_r11_call:
	PROLOGUE
	mov %rdi, pp_test_r11_entry(%rip)
	mov %rsi, %r11
	mov %edx, %r10d
	SENTINELS
	lea pp_test_xmm_in(%rip), %rax
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	movdqu (16 * \i)(%rax), %xmm\i
	.endr
	SENTINELS
	movabs $0x5a5a000000000004, %rsi
	movabs $0x5a5a000000000005, %rdi
	call *pp_test_r11_entry(%rip)
	lea pp_test_fast_xmm(%rip), %r11
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	movdqu %xmm\i, (16 * \i)(%r11)
	.endr
	EPILOGUE
	.size pp_test_r11_call, . - pp_test_r11_call

	.section .rodata
	.p2align 4
pp_test_xmm_in: /* xmm i: 0x6b6b0000000000(2i+1), 0x6b6b0000000000(2i+2) */
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.quad 0x6b6b000000000000 + 2 * \i + 1, 0x6b6b000000000000 + 2 * \i + 2
	.endr

	.bss
	.p2align 4
	.globl pp_test_fast_xmm
pp_test_fast_xmm:
	.zero 32 * 8
pp_test_r11_entry:
	.zero 8
	.globl pp_test_fast_got
pp_test_fast_got:
	.zero 14 * 8

	.section .note.GNU-stack, "", @progbits
