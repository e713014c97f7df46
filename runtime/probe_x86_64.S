/* SPDX-License-Identifier: MIT */
/*
 * probe_x86_64.S - the probes' entry points on x86-64, called by the armed
 * path of instrumented code with calling convention preserve_most (every
 * general register but r11 is preserved; abi.h, 3.):
 *
 *	__pinpoint_enter_fast(struct pp_fn *fn, uint32_t site)
 *	__pinpoint_exit_fast(struct pp_fn *fn + PP_EXIT_BIAS, uint32_t site)
 *
 * Each first tries the short path of probe.c's enter_at() and exit_at(), an
 * untimed execution of a sampled counter that its site alone enters, with
 * three registers saved; everything else (a timed execution, several
 * counters, nesting, a thread not listed) saves the rest of the registers
 * the C convention lets a callee clobber and calls __pinpoint_enter_at() or
 * __pinpoint_exit(), which decide again from the start.  The short paths do
 * exactly the stores of their C versions (probe.c), which remain the only
 * path of __pinpoint_enter and of the other targets.
 *
 * Before, the pass gave every link unit preserve_most thunks that saved nine
 * registers and called the C entry points: 43 instructions per armed call
 * on top of the short paths' 93.  The pass declares these nonlazybind, so a
 * call goes through the GOT, bound at load time, and never through a lazily
 * bound PLT entry, whose resolver may clobber r10.
 */
#include "layout.h"

#define CFI_PUSH(r)                                                                                \
	push r;                                                                                    \
	.cfi_adjust_cfa_offset 8;                                                                  \
	.cfi_rel_offset r, 0
#define CFI_POP(r)                                                                                 \
	pop r;                                                                                     \
	.cfi_adjust_cfa_offset -8;                                                                 \
	.cfi_restore r

/*
 * The counter of the short path, or a jump to @slow: with rdi = the record
 * + @bias and esi = the site, leaves in rdx the site's one counter, in rax
 * the thread block; clobbers rcx and r11.  Returns (to @out) when the site
 * is not armed, as site_of() does.
 */
#define FIND_COUNTER(bias, out, slow)                                                              \
	mov (PP_OFF_FN_ARMED - (bias))(%rdi), %ecx;                                                    \
	cmp $PP_ARMED_BASE_VALUE, %ecx;                                                            \
	jb out;                                                                                    \
	cmp (PP_OFF_FN_NCALLS - (bias))(%rdi), %esi;                                                   \
	ja out;                                                                                    \
	lea -PP_ARMED_BASE_VALUE(%rcx, %rsi), %ecx;                                                \
	shl $PP_SIZEOF_SITE_SHIFT, %rcx;                                                           \
	lea pp_sites(%rip), %rdx;                                                                  \
	add %rdx, %rcx;                                                                            \
	cmpq $0, PP_OFF_SITE_MASK1(%rcx);                                                          \
	jne slow;                                                                                  \
	mov (%rcx), %rdx;                                                                          \
	lea -1(%rdx), %r11;                                                                        \
	test %rdx, %r11;                                                                           \
	jnz slow;                                                                                  \
	bsf %rdx, %rdx;                                                                            \
	jz slow;                                                                                   \
	imul $PP_SIZEOF_TCOUNTER, %rdx, %rdx;                                                      \
	lea pp_self@TLSDESC(%rip), %rax;                                                           \
	call *pp_self@TLSCALL(%rax);                                                               \
	add %fs:0, %rax;                                                                           \
	cmpl $PP_THREAD_LISTED_VALUE, PP_OFF_THREAD_STATE(%rax);                                   \
	jne slow;                                                                                  \
	lea PP_OFF_THREAD_C(%rax, %rdx), %rdx

/*
 * The general path: save what the C convention may clobber and preserve_most
 * may not (rax, rcx, rdx are saved already), call @fn with rdi less @bias.
 * With @cfa, pass the probe's caller's CFA and return address as the third
 * and fourth arguments.  At entry rsp was 8 mod 16; 8 pushes and 8 bytes
 * more align it for the call.
 */
#define GENERAL(fn, bias, cfa)                                                                     \
	CFI_PUSH(%rsi);                                                                            \
	CFI_PUSH(%rdi);                                                                            \
	CFI_PUSH(%r8);                                                                             \
	CFI_PUSH(%r9);                                                                             \
	CFI_PUSH(%r10);                                                                            \
	sub $8, %rsp;                                                                              \
	.cfi_adjust_cfa_offset 8;                                                                  \
	.if cfa;                                                                                   \
	lea 72(%rsp), %rdx;                                                                       \
	mov (%rdx), %rcx;                                                                          \
	add $8, %rdx;                                                                              \
	.endif;                                                                                    \
	.if bias;                                                                                  \
	sub $bias, %rdi;                                                                           \
	.endif;                                                                                    \
	call fn@PLT;                                                                               \
	add $8, %rsp;                                                                              \
	.cfi_adjust_cfa_offset -8;                                                                 \
	CFI_POP(%r10);                                                                             \
	CFI_POP(%r9);                                                                              \
	CFI_POP(%r8);                                                                              \
	CFI_POP(%rdi);                                                                             \
	CFI_POP(%rsi)

#define SAVE3                                                                                      \
	CFI_PUSH(%rax);                                                                            \
	CFI_PUSH(%rcx);                                                                            \
	CFI_PUSH(%rdx)
#define RESTORE3                                                                                   \
	CFI_POP(%rdx);                                                                             \
	CFI_POP(%rcx);                                                                             \
	CFI_POP(%rax)

	.text

	.p2align 4
	.globl __pinpoint_enter_fast
	.type __pinpoint_enter_fast, @function
__pinpoint_enter_fast:
	.cfi_startproc
	SAVE3
	FIND_COUNTER(0, .Lenter_out, .Lenter_general)
	/* a sampled counter's untimed outermost execution (enter_at()) */
	mov PP_OFF_TC_SKIP(%rdx), %ecx
	cmp $1, %ecx
	jbe .Lenter_general
	cmpl $0, PP_OFF_TC_DEPTH(%rdx)
	jne .Lenter_general
	lea 32(%rsp), %r11 /* the probe's caller's CFA: above 3 saves and the return address */
	mov %r11, PP_OFF_TC_FRAME(%rdx)
	mov 24(%rsp), %r11 /* the return address, in the probe's caller */
	mov %r11, PP_OFF_TC_RET(%rdx)
	movq $0, PP_OFF_TC_VFRAME(%rdx)
	dec %ecx
	mov %ecx, PP_OFF_TC_SKIP(%rdx)
	movq $0, PP_OFF_TC_START(%rdx)
	movl $1, PP_OFF_TC_DEPTH(%rdx)
.Lenter_out:
	.cfi_remember_state
	RESTORE3
	ret
	.cfi_restore_state /* three registers saved, as at the jumps here */
.Lenter_general:
	GENERAL(__pinpoint_enter_at, 0, 1)
	RESTORE3
	ret
	.cfi_endproc
	.size __pinpoint_enter_fast, . - __pinpoint_enter_fast

	.p2align 4
	.globl __pinpoint_exit_fast
	.type __pinpoint_exit_fast, @function
__pinpoint_exit_fast:
	.cfi_startproc
	SAVE3
	FIND_COUNTER(PP_EXIT_BIAS_VALUE, .Lexit_out, .Lexit_general)
	/* the end of a sampled counter's untimed outermost execution (exit_at()) */
	cmpl $0, PP_OFF_TC_SKIP(%rdx)
	je .Lexit_general
	cmpl $1, PP_OFF_TC_DEPTH(%rdx)
	jne .Lexit_general
	cmpq $0, PP_OFF_TC_START(%rdx)
	jne .Lexit_general
	movl $0, PP_OFF_TC_DEPTH(%rdx)
	incq PP_OFF_TC_SCOUNT(%rdx)
.Lexit_out:
	.cfi_remember_state
	RESTORE3
	ret
	.cfi_restore_state /* three registers saved, as at the jumps here */
.Lexit_general:
	GENERAL(__pinpoint_exit, PP_EXIT_BIAS_VALUE, 0)
	RESTORE3
	ret
	.cfi_endproc
	.size __pinpoint_exit_fast, . - __pinpoint_exit_fast

	.section .note.GNU-stack, "", @progbits
