/* SPDX-License-Identifier: MIT */
/*
 * probe_x86_64.S - the probes' entry points on x86-64, called by the armed
 * path of instrumented code with calling convention preserve_most (every
 * general register but r11 is preserved; abi.h, 3.):
 *
 *	__pinpoint_enter_fast(struct pp_fn *fn, uint32_t site)
 *	__pinpoint_exit_fast(struct pp_fn *fn + PP_EXIT_BIAS, uint32_t site)
 *
 * Each takes the paths of probe.c's enter_at() and exit_at() for the usual
 * case, an outermost execution of the one counter a site enters on a listed
 * thread, with three registers saved: the short path when the execution is
 * sampled and not timed, and the timed path when it is timed (every
 * execution, or the last of a sampling gap, drawing the next gap as
 * pp_sample_gap() does) and the clock is the TSC.  Everything else (several
 * counters, nesting or a lost execution, the entry's counter with samples
 * or stop=N, the 8192nd all-timed execution, where sampling may start, a
 * thread not listed, the monotonic clock) saves the rest of the registers
 * the C convention lets a callee clobber and calls __pinpoint_enter_at() or
 * __pinpoint_exit(), which decide again from the start.  Both paths do
 * the stores of their C versions (probe.c: enter_word(), exit_word(),
 * finish(), count_probe()), which remain the only paths of
 * __pinpoint_enter and of the other targets.  The one counter may be a
 * function's calls (mask[1], index PP_MAX_SLOTS up), always timed.
 *
 * A site of delay= that no slot measures has delay='s mark alone in both
 * masks (arm.c): its probes take a path of their own, found where a site
 * of several counters leaves for the general path, so that the fast paths
 * are as they were: the enter counts itself and, one execution in
 * delay_every=K on each thread, waits (probe.c, delay_wait()); the exit
 * counts itself.  A delayed site that a slot
 * measures too takes the general path.
 *
 * __pinpoint_enter_r11 and __pinpoint_exit_r11 are the same paths for the
 * inline asm probes around a call (abi.h, 3.): the record in r11 and the
 * site in r10d, and rdi and rsi saved too.
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
 * The counter of the fast paths, or a jump to @slow: with rdi = the record
 * + @bias and esi = the site, leaves in rcx the site's one counter, in edx
 * its index and in rax the thread block; clobbers r11.  Returns (to @out)
 * when the site is not armed, as site_of() does.  The one counter is in
 * either mask (one_counter()).  A site with bits in both masks goes to
 * @both instead, with mask[0] in rdx and mask[1] in r11: several counters,
 * or delay='s mark (arm.c).  The TLS descriptor call preserves every
 * register but rax.
 */
#define FIND_COUNTER(bias, out, slow, both)                                                        \
	mov (PP_OFF_FN_ARMED - (bias))(%rdi), %ecx;                                                \
	cmp $PP_ARMED_BASE_VALUE, %ecx;                                                            \
	jb out;                                                                                    \
	cmp (PP_OFF_FN_NCALLS - (bias))(%rdi), %esi;                                               \
	ja out;                                                                                    \
	lea -PP_ARMED_BASE_VALUE(%rcx, %rsi), %ecx;                                                \
	shl $PP_SIZEOF_SITE_SHIFT, %rcx;                                                           \
	lea pp_sites(%rip), %rdx;                                                                  \
	add %rdx, %rcx;                                                                            \
	mov (%rcx), %rdx;                                                                          \
	mov PP_OFF_SITE_MASK1(%rcx), %r11;                                                         \
	xor %eax, %eax;                                                                            \
	test %rdx, %rdx;                                                                           \
	jnz 5f;                                                                                    \
	mov %r11, %rdx;                                                                            \
	xor %r11d, %r11d;                                                                          \
	mov $PP_MAX_SLOTS_VALUE, %eax;                                                             \
5:	test %r11, %r11;                                                                           \
	jnz both;                                                                                  \
	lea -1(%rdx), %r11;                                                                        \
	test %rdx, %r11;                                                                           \
	jnz slow;                                                                                  \
	bsf %rdx, %rdx;                                                                            \
	jz slow;                                                                                   \
	add %rax, %rdx;                                                                            \
	imul $PP_SIZEOF_TCOUNTER, %rdx, %rcx;                                                      \
	lea pp_self@TLSDESC(%rip), %rax;                                                           \
	call *pp_self@TLSCALL(%rax);                                                               \
	add %fs:0, %rax;                                                                           \
	cmpl $PP_THREAD_LISTED_VALUE, PP_OFF_THREAD_STATE(%rax);                                   \
	jne slow;                                                                                  \
	lea PP_OFF_THREAD_C(%rax, %rcx), %rcx

/*
 * The r11 entry points' general path also keeps the vector and x87 state:
 * the inline asm probes and sleds around a call do not declare it clobbered
 * (abi.h, 3.), and the C path may use it (and the C library, AVX-512 too).
 * pp_vsave_size bytes of stack, 64-byte aligned, below rbx, which holds the
 * stack pointer before: XSAVE of the PP_XSAVE_MASK components, its header
 * zeroed as XRSTOR needs it, or FXSAVE (vsave.c, pp_arch_vsave_init()).
 * Clobbers rax and rdx, which the entry points saved.
 */
#define VSAVE                                                                                      \
	sub pp_vsave_size(%rip), %rsp;                                                             \
	and $-64, %rsp;                                                                            \
	cmpb $0, pp_vsave_xsave(%rip);                                                             \
	je 8f;                                                                                     \
	xor %eax, %eax;                                                                            \
	mov %rax, 512(%rsp);                                                                       \
	mov %rax, 520(%rsp);                                                                       \
	mov %rax, 528(%rsp);                                                                       \
	mov %rax, 536(%rsp);                                                                       \
	mov %rax, 544(%rsp);                                                                       \
	mov %rax, 552(%rsp);                                                                       \
	mov %rax, 560(%rsp);                                                                       \
	mov %rax, 568(%rsp);                                                                       \
	mov $PP_XSAVE_MASK, %eax;                                                                  \
	xor %edx, %edx;                                                                            \
	xsave (%rsp);                                                                              \
	jmp 9f;                                                                                    \
8:	fxsave (%rsp);                                                                             \
9:
#define VRESTORE                                                                                   \
	cmpb $0, pp_vsave_xsave(%rip);                                                             \
	je 8f;                                                                                     \
	mov $PP_XSAVE_MASK, %eax;                                                                  \
	xor %edx, %edx;                                                                            \
	xrstor (%rsp);                                                                             \
	jmp 9f;                                                                                    \
8:	fxrstor (%rsp);                                                                            \
9:

/*
 * The general path: save what the C convention may clobber and preserve_most
 * may not (rax, rcx, rdx are saved already), call @fn with rdi less @bias.
 * With @cfa, pass the probe's caller's CFA and return address as the third
 * and fourth arguments; @nsave registers were saved since the entry.  At
 * entry rsp was 8 mod 16; 3 + 5 (or 5 + 5) pushes and 8 bytes more align it
 * for the call; with @nsave 5 (the r11 entry points) the eighth is rbx's
 * and the vector state is kept too (VSAVE).
 */
#define GENERAL(fn, bias, cfa, nsave)                                                              \
	CFI_PUSH(%rsi);                                                                            \
	CFI_PUSH(%rdi);                                                                            \
	CFI_PUSH(%r8);                                                                             \
	CFI_PUSH(%r9);                                                                             \
	CFI_PUSH(%r10);                                                                            \
	.if (nsave) == 5;                                                                          \
	CFI_PUSH(%rbx);                                                                            \
	mov %rsp, %rbx;                                                                            \
	.cfi_def_cfa_register %rbx;                                                                \
	VSAVE;                                                                                     \
	.else;                                                                                     \
	sub $8, %rsp;                                                                              \
	.cfi_adjust_cfa_offset 8;                                                                  \
	.endif;                                                                                    \
	.if cfa;                                                                                   \
	.if (nsave) == 5;                                                                          \
	lea (48 + 8 * (nsave))(%rbx), %rdx;                                                        \
	.else;                                                                                     \
	lea (48 + 8 * (nsave))(%rsp), %rdx;                                                        \
	.endif;                                                                                    \
	mov (%rdx), %rcx;                                                                          \
	add $8, %rdx;                                                                              \
	.endif;                                                                                    \
	.if bias;                                                                                  \
	sub $bias, %rdi;                                                                           \
	.endif;                                                                                    \
	call fn@PLT;                                                                               \
	.if (nsave) == 5;                                                                          \
	VRESTORE;                                                                                  \
	mov %rbx, %rsp;                                                                            \
	.cfi_def_cfa_register %rsp;                                                                \
	CFI_POP(%rbx);                                                                             \
	.else;                                                                                     \
	add $8, %rsp;                                                                              \
	.cfi_adjust_cfa_offset -8;                                                                 \
	.endif;                                                                                    \
	CFI_POP(%r10);                                                                             \
	CFI_POP(%r9);                                                                              \
	CFI_POP(%r8);                                                                              \
	CFI_POP(%rdi);                                                                             \
	CFI_POP(%rsi)

/* What an entry point saves first: rax, rcx and rdx, which its paths use;
 * the r11 entry points also rdi and rsi, where they move their arguments. */
.macro SAVE nsave
	.if \nsave == 5
	CFI_PUSH(%rsi)
	CFI_PUSH(%rdi)
	.endif
	CFI_PUSH(%rax)
	CFI_PUSH(%rcx)
	CFI_PUSH(%rdx)
	.if \nsave == 5
	mov %r11, %rdi
	mov %r10d, %esi
	.endif
.endm
.macro RESTORE nsave
	CFI_POP(%rdx)
	CFI_POP(%rcx)
	CFI_POP(%rax)
	.if \nsave == 5
	CFI_POP(%rdi)
	CFI_POP(%rsi)
	.endif
.endm

	.text

/* __pinpoint_enter_fast (@nsave 3: record in rdi, site in esi) or
 * __pinpoint_enter_r11 (5: in r11 and r10d). */
.macro ENTER name, nsave
	.p2align 4
	.globl \name
	.type \name, @function
\name:
	.cfi_startproc
	SAVE \nsave
	FIND_COUNTER(0, .L\name\()_out, .L\name\()_general, .L\name\()_both)
	/* an outermost execution of the site's one counter (enter_word());
	 * the C path, if it is taken below, stores the same position again */
	cmpl $0, PP_OFF_TC_DEPTH(%rcx)
	jne .L\name\()_general
	lea (8 + 8 * \nsave)(%rsp), %r11 /* the probe's caller's CFA: above the saves and the return address */
	mov %r11, PP_OFF_TC_FRAME(%rcx)
	mov (8 * \nsave)(%rsp), %r11 /* the return address, in the probe's caller */
	mov %r11, PP_OFF_TC_RET(%rcx)
	movq $0, PP_OFF_TC_VFRAME(%rcx)
	mov PP_OFF_TC_SKIP(%rcx), %edx
	cmp $1, %edx
	jbe .L\name\()_timed
	/* sampled and not timed: the short path (enter_at()) */
	dec %edx
	mov %edx, PP_OFF_TC_SKIP(%rcx)
	movq $0, PP_OFF_TC_START(%rcx)
	movl $1, PP_OFF_TC_DEPTH(%rcx)
	incq PP_OFF_THREAD_PLAIN(%rax)
.L\name\()_out:
	.cfi_remember_state
	RESTORE \nsave
	ret
	.cfi_restore_state /* the registers saved, as at the jumps here */
.L\name\()_timed:
	/* timed: every execution (skip 0) or the last of a gap (skip 1,
	 * starts_timed()); the clock is the TSC's, or the C path reads it */
	cmpb $0, pp_use_ticks(%rip)
	je .L\name\()_general
	test %edx, %edx
	jz 1f
	/* the next gap: pp_sample_gap()'s xorshift64 on the thread's generator */
	mov PP_OFF_THREAD_RNG(%rax), %rdx
	mov %rdx, %r11
	shl $13, %r11
	xor %r11, %rdx
	mov %rdx, %r11
	shr $7, %r11
	xor %r11, %rdx
	mov %rdx, %r11
	shl $17, %r11
	xor %r11, %rdx
	mov %rdx, PP_OFF_THREAD_RNG(%rax)
	mov %rdx, %r11
	shr $58, %r11
	and $7, %r11d
	shr $61, %rdx
	lea 1(%rdx, %r11), %edx
	mov %edx, PP_OFF_TC_SKIP(%rcx)
	/* the probe counts itself, then the execution keeps the counts */
1:	mov PP_OFF_THREAD_CLOCK(%rax), %r11
	inc %r11
	mov %r11, PP_OFF_THREAD_CLOCK(%rax)
	mov %r11, PP_OFF_TC_CLOCK0(%rcx)
	mov PP_OFF_THREAD_PLAIN(%rax), %r11
	mov %r11, PP_OFF_TC_PLAIN0(%rcx)
	movl $1, PP_OFF_TC_DEPTH(%rcx)
	/* read the clock last, so that the probe's own work is not measured */
	rdtsc
	shl $32, %rdx
	or %rdx, %rax
	mov %rax, PP_OFF_TC_START(%rcx)
	jmp .L\name\()_out
.L\name\()_general:
	GENERAL(__pinpoint_enter_at, 0, 1, \nsave)
	.cfi_remember_state
	RESTORE \nsave
	ret
	.cfi_restore_state
	/* after the others: the fast paths' jumps keep their lengths */
.L\name\()_both:
	/* a site of delay= alone, both masks its mark and nothing else, on a
	 * listed thread with the TSC: the probe counts itself (no counter
	 * timed: a plain one, as enter_slow() counts it), then, on the
	 * thread's pp_delay_every-th such execution, waits as delay_wait()
	 * does.  Several counters, or a delayed site that is measured too,
	 * take the general path. */
	cmp pp_delay_mark(%rip), %rdx
	jne .L\name\()_general
	cmp %rdx, %r11
	jne .L\name\()_general
	cmpb $0, pp_use_ticks(%rip)
	je .L\name\()_general
	lea pp_self@TLSDESC(%rip), %rax
	call *pp_self@TLSCALL(%rax)
	add %fs:0, %rax
	cmpl $PP_THREAD_LISTED_VALUE, PP_OFF_THREAD_STATE(%rax)
	jne .L\name\()_general
	incq PP_OFF_THREAD_PLAIN(%rax)
	/* no wait before skip=K's executions end (pp_delay_on: probe.c) */
	cmpl $0, pp_delay_on(%rip)
	je .L\name\()_out
	mov PP_OFF_THREAD_DELAY_SINCE(%rax), %rcx
	inc %rcx
	cmp pp_delay_every(%rip), %rcx
	jae 6f
	mov %rcx, PP_OFF_THREAD_DELAY_SINCE(%rax)
	jmp .L\name\()_out
6:	movq $0, PP_OFF_THREAD_DELAY_SINCE(%rax)
	mov %rax, %r11
	rdtsc
	shl $32, %rdx
	or %rdx, %rax
	mov %rax, %rcx
4:	rdtsc
	shl $32, %rdx
	or %rdx, %rax
	sub %rcx, %rax
	cmp pp_delay_ticks(%rip), %rax
	jb 4b
	incq PP_OFF_THREAD_DELAYED(%r11)
	jmp .L\name\()_out
	.cfi_endproc
	.size \name, . - \name
.endm

/* __pinpoint_exit_fast (@nsave 3) or __pinpoint_exit_r11 (5), the record
 * PP_EXIT_BIAS bytes past its address. */
.macro EXIT name, nsave
	.p2align 4
	.globl \name
	.type \name, @function
\name:
	.cfi_startproc
	SAVE \nsave
	FIND_COUNTER(PP_EXIT_BIAS_VALUE, .L\name\()_out, .L\name\()_general, .L\name\()_both)
	/* the end of an outermost execution of the site's one counter */
	cmpl $1, PP_OFF_TC_DEPTH(%rcx)
	jne .L\name\()_general
	cmpq $0, PP_OFF_TC_START(%rcx)
	jne .L\name\()_timed
	/* sampled and not timed: the short path (exit_at()) */
	cmpl $0, PP_OFF_TC_SKIP(%rcx)
	je .L\name\()_general
	movl $0, PP_OFF_TC_DEPTH(%rcx)
	incq PP_OFF_TC_SCOUNT(%rcx)
	incq PP_OFF_THREAD_PLAIN(%rax)
.L\name\()_out:
	.cfi_remember_state
	RESTORE \nsave
	ret
	.cfi_restore_state /* the registers saved, as at the jumps here */
.L\name\()_timed:
	/* a timed execution ends (exit_slow(), finish() for a listed thread);
	 * the entry's counter (samples=, stop=, skip=), its 8192nd all-timed
	 * execution and the other clock are the C path's */
	cmp pp_sample_counter(%rip), %edx
	je .L\name\()_general
	cmp pp_seen_counter(%rip), %edx
	je .L\name\()_general
	cmpb $0, pp_use_ticks(%rip)
	je .L\name\()_general
	cmpl $0, PP_OFF_TC_SKIP(%rcx)
	jne 2f
	cmpq $(PP_SAMPLE_AFTER_VALUE - 1), PP_OFF_TC_COUNT(%rcx)
	je .L\name\()_general
	/* the clock before the updates; the thread block in r11 meanwhile */
2:	mov %rax, %r11
	rdtsc
	shl $32, %rdx
	or %rdx, %rax
	sub PP_OFF_TC_START(%rcx), %rax
	movl $0, PP_OFF_TC_DEPTH(%rcx)
	/* the probes inside, before this one counts itself */
	mov PP_OFF_THREAD_CLOCK(%r11), %rdx
	sub PP_OFF_TC_CLOCK0(%rcx), %rdx
	incq PP_OFF_THREAD_CLOCK(%r11)
	cmpl $0, PP_OFF_TC_SKIP(%rcx)
	jne 3f
	add %rax, PP_OFF_TC_SUM(%rcx)
	incq PP_OFF_TC_COUNT(%rcx)
	add %rdx, PP_OFF_TC_CLOCK(%rcx)
	mov PP_OFF_THREAD_PLAIN(%r11), %rdx
	sub PP_OFF_TC_PLAIN0(%rcx), %rdx
	add %rdx, PP_OFF_TC_PLAIN(%rcx)
	jmp .L\name\()_out
3:	add %rax, PP_OFF_TC_SSUM(%rcx)
	incq PP_OFF_TC_STIMED(%rcx)
	add %rdx, PP_OFF_TC_SCLOCK(%rcx)
	mov PP_OFF_THREAD_PLAIN(%r11), %rdx
	sub PP_OFF_TC_PLAIN0(%rcx), %rdx
	add %rdx, PP_OFF_TC_SPLAIN(%rcx)
	incq PP_OFF_TC_SCOUNT(%rcx)
	jmp .L\name\()_out
.L\name\()_general:
	GENERAL(__pinpoint_exit, PP_EXIT_BIAS_VALUE, 0, \nsave)
	.cfi_remember_state
	RESTORE \nsave
	ret
	.cfi_restore_state
.L\name\()_both:
	/* the exit of a site of delay= alone: the probe counts itself, a
	 * plain one (exit_slow()) */
	cmp pp_delay_mark(%rip), %rdx
	jne .L\name\()_general
	cmp %rdx, %r11
	jne .L\name\()_general
	lea pp_self@TLSDESC(%rip), %rax
	call *pp_self@TLSCALL(%rax)
	add %fs:0, %rax
	incq PP_OFF_THREAD_PLAIN(%rax)
	jmp .L\name\()_out
	.cfi_endproc
	.size \name, . - \name
.endm

	ENTER __pinpoint_enter_fast, 3
	EXIT __pinpoint_exit_fast, 3
	ENTER __pinpoint_enter_r11, 5
	EXIT __pinpoint_exit_r11, 5

/*
 * __pinpoint_target_r11: an indirect call's target (abi.h, 5.), the record
 * in r11, the site in r10d and the target in rax, which the inline asm
 * declares clobbered.  Saves the other registers the C convention lets
 * pp_target_note() clobber; that function (target.c, -mgeneral-regs-only)
 * leaves the vector and x87 state alone.  At entry rsp is 8 mod 16: six
 * pushes and 8 bytes align it for the call.
 */
	.p2align 4
	.globl __pinpoint_target_r11
	.type __pinpoint_target_r11, @function
__pinpoint_target_r11:
	.cfi_startproc
	CFI_PUSH(%rcx)
	CFI_PUSH(%rdx)
	CFI_PUSH(%rsi)
	CFI_PUSH(%rdi)
	CFI_PUSH(%r8)
	CFI_PUSH(%r9)
	sub $8, %rsp
	.cfi_adjust_cfa_offset 8
	mov %r11, %rdi
	mov %r10d, %esi
	mov %rax, %rdx
	call pp_target_note
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	CFI_POP(%r9)
	CFI_POP(%r8)
	CFI_POP(%rdi)
	CFI_POP(%rsi)
	CFI_POP(%rdx)
	CFI_POP(%rcx)
	ret
	.cfi_endproc
	.size __pinpoint_target_r11, . - __pinpoint_target_r11

	.section .note.GNU-stack, "", @progbits
