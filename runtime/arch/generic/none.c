// SPDX-License-Identifier: MIT
/*
 * none.c - arch.h for architectures without files of their own: probes are
 * timed with CLOCK_MONOTONIC, instrumented code checks a flag at every
 * probe (the pass plants static branches on x86-64 only) and calls only
 * probe.c's entry points, so no vector state is kept by the runtime.
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

/* A flag check before each probe, as the pass plants it: the calibration's
 * own flag (set while it runs) or one that is never set. */
void pp_arch_calib_probes(unsigned n)
{
	const uint8_t *flag = &pp_calib_fn.flags[PP_CALIB_SITE];

	for (unsigned i = 0; i < n; i++) {
		if (pp_ld(flag))
			__pinpoint_enter(&pp_calib_fn, PP_CALIB_SITE);
		__asm__ volatile("" ::: "memory");
		if (pp_ld(flag))
			__pinpoint_exit(&pp_calib_fn, PP_CALIB_SITE);
	}
}

void pp_arch_calib_plain(unsigned n)
{
	static uint8_t unarmed;

	for (unsigned i = 0; i < n; i++) {
		if (pp_ld(&unarmed))
			__pinpoint_enter(&pp_calib_fn, PP_CALIB_SITE);
		__asm__ volatile("" ::: "memory");
		if (pp_ld(&unarmed))
			__pinpoint_exit(&pp_calib_fn, PP_CALIB_SITE);
	}
}
