/* SPDX-License-Identifier: MIT */
/*
 * calib_x86_64.S - the loops calib.c times (arch.h):
 *
 *	void pp_arch_calib_probes(unsigned n)
 *	void pp_arch_calib_plain(unsigned n)
 *
 * n times the two probes of an armed call in an executable's code, a sled
 * before it and one after (abi.h, 4.): a call of a thunk of its own that
 * loads the record into r11 and the site into r10d and jumps to the r11
 * entry point through the GOT; the call itself is left out.  The plain
 * loop has the sleds' unarmed 5-byte no-ops instead.  The record is
 * calib.c's pp_calib_fn, the site PP_CALIB_SITE.
 */
#include "layout.h"

	.text

/* Like the stack of compiled code at a call: 16-byte aligned. */
.macro CALIB_LOOP name
	.p2align 4
	.globl \name
	.hidden \name
	.type \name, @function
\name:
	.cfi_startproc
	sub $8, %rsp
	.cfi_adjust_cfa_offset 8
	test %edi, %edi
	jz 2f
	.p2align 4
1:
.endm
.macro CALIB_END name
	dec %edi
	jnz 1b
2:	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size \name, . - \name
.endm

	CALIB_LOOP pp_arch_calib_probes
	call pp_calib_enter_sled
	call pp_calib_exit_sled
	CALIB_END pp_arch_calib_probes

	CALIB_LOOP pp_arch_calib_plain
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00
	CALIB_END pp_arch_calib_plain

/* The thunks, as the pass writes them in .pinpoint_sleds, one after the
 * other. */
	.type pp_calib_enter_sled, @function
pp_calib_enter_sled:
	.cfi_startproc
	leaq pp_calib_fn(%rip), %r11
	movl $PP_CALIB_SITE_VALUE, %r10d
	jmp *__pinpoint_enter_r11@GOTPCREL(%rip)
	.cfi_endproc
	.size pp_calib_enter_sled, . - pp_calib_enter_sled

	.type pp_calib_exit_sled, @function
pp_calib_exit_sled:
	.cfi_startproc
	leaq pp_calib_fn + PP_EXIT_BIAS_VALUE(%rip), %r11
	movl $PP_CALIB_SITE_VALUE, %r10d
	jmp *__pinpoint_exit_r11@GOTPCREL(%rip)
	.cfi_endproc
	.size pp_calib_exit_sled, . - pp_calib_exit_sled

	.section .note.GNU-stack, "", @progbits
