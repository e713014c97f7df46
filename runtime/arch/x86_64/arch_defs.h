/* SPDX-License-Identifier: MIT */
/*
 * arch_defs.h - x86-64's inline part of arch.h: the TSC, and what the fast
 * paths (probe_x86_64.S) share with the C files.
 */
#ifndef PINPOINT_ARCH_DEFS_H
#define PINPOINT_ARCH_DEFS_H

#include <stdbool.h>
#include <stdint.h>
#include <x86intrin.h>

#define PP_ARCH_TICKS 1
#define PP_ARCH_TICKS_NAME "tsc"
#define PP_ARCH_FAST_PATHS 1

static inline uint64_t pp_arch_ticks(void)
{
	return __rdtsc();
}

#pragma GCC visibility push(hidden)
/* The r11 entry points' vector state save (probe_x86_64.S): its size and
 * kind for this CPU (vsave.c).  Before any probe can run (it is 512 bytes
 * of FXSAVE until then). */
extern uint64_t pp_vsave_size;
extern bool pp_vsave_xsave;
#pragma GCC visibility pop

#endif /* PINPOINT_ARCH_DEFS_H */
