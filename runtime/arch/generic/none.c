// SPDX-License-Identifier: MIT
/*
 * none.c - arch.h for architectures without files of their own: probes are
 * timed with CLOCK_MONOTONIC, instrumented code checks a flag at every
 * probe (the pass plants static branches on x86-64 only) and calls only
 * probe.c's entry points, so no vector state is kept by the runtime.
 * The calibration's loops are in calib_generic.c.
 */
#include <errno.h>

#include "rt.h"

bool pp_arch_ticks_usable(void)
{
	return false;
}

int pp_arch_branch(uint8_t insn[PP_JUMP_LEN], const uint8_t *code, const uint8_t *target, bool call)
{
	(void)insn;
	(void)code;
	(void)target;
	(void)call;
	return -EOPNOTSUPP;
}

bool pp_arch_branch_unpatched(const uint8_t *code)
{
	(void)code;
	return false;
}

void pp_arch_vsave_init(void)
{
}
