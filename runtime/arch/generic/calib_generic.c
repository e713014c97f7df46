// SPDX-License-Identifier: MIT
/*
 * calib_generic.c - the loops calib.c times (arch.h), for architectures
 * without files of their own: in C, a check of the flag before each probe
 * and a call of probe.c's entry points, as the pass plants them there.
 */
#include "rt.h"

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
