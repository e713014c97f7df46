// SPDX-License-Identifier: MIT
/*
 * branch.c - x86-64's static branches (abi.h, 4.; the encodings in
 * abi_x86_64.h): a 5-byte no-op becomes a jmp rel32 to the armed path, or
 * a call rel32 of a sled's thunk, within 2 GiB of the no-op's end.
 * jumps.c writes them; x86-64 keeps instruction fetch coherent with the
 * writes, so nothing is flushed after.
 */
#include <errno.h>
#include <string.h>

#include "arch.h"

int pp_arch_branch(uint8_t insn[PP_JUMP_LEN], const uint8_t *code, const uint8_t *target, bool call)
{
	intptr_t rel = (intptr_t)target - (intptr_t)(code + PP_JUMP_LEN);
	int32_t rel32 = (int32_t)rel;

	if ((intptr_t)rel32 != rel)
		return -ERANGE;
	insn[0] = call ? PP_JUMP_CALL_OP : PP_JUMP_JMP;
	memcpy(insn + 1, &rel32, sizeof(rel32));
	return 0;
}

bool pp_arch_branch_unpatched(const uint8_t *code)
{
	return !memcmp(code, PP_JUMP_NOP, PP_JUMP_LEN) ||
	       !memcmp(code, PP_JUMP_ENTRY_NOP, PP_JUMP_LEN);
}
