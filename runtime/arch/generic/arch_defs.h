/* SPDX-License-Identifier: MIT */
/*
 * arch_defs.h - the inline part of arch.h for architectures without files
 * of their own: no tick clock, no fast paths.
 */
#ifndef PINPOINT_ARCH_DEFS_H
#define PINPOINT_ARCH_DEFS_H

#include <stdint.h>

#define PP_ARCH_TICKS 0
#define PP_ARCH_TICKS_NAME "none" /* never written: PP_ARCH_TICKS is 0 */
#define PP_ARCH_FAST_PATHS 0

/* Never called: PP_ARCH_TICKS is 0, so the runtime reads CLOCK_MONOTONIC. */
static inline uint64_t pp_arch_ticks(void)
{
	return 0;
}

#endif /* PINPOINT_ARCH_DEFS_H */
