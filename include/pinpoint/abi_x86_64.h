/* SPDX-License-Identifier: MIT */
/*
 * abi_x86_64.h - the x86-64 encodings of static branches (abi.h, 4.), the
 * only architecture that has them: the no-ops the pass plants and the
 * jmp rel32 or call rel32 the runtime writes over them
 * (runtime/arch/x86_64/branch.c).  Included by abi.h, on every host: the
 * pass may compile for x86-64 elsewhere.
 */
#ifndef PINPOINT_ABI_X86_64_H
#define PINPOINT_ABI_X86_64_H

/* The no-op a static branch starts as (nopl 0(%rax,%rax)), and the opcodes
 * of the jmp rel32 and of the call rel32 (PP_JUMP_CALL) it becomes. */
#define PP_JUMP_NOP "\x0f\x1f\x44\x00\x00"
#define PP_JUMP_LEN 5
#define PP_JUMP_JMP 0xe9
#define PP_JUMP_CALL_OP 0xe8
/* The no-op LLVM puts at a function's entry for "patchable-function-entry"
 * of 5 bytes (nopl 8(%rax,%rax)): a static branch at a function's address
 * (the pass's entry.c) starts as this one. */
#define PP_JUMP_ENTRY_NOP "\x0f\x1f\x44\x00\x08"

#endif /* PINPOINT_ABI_X86_64_H */
