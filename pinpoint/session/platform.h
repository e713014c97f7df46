/* SPDX-License-Identifier: MIT */
/*
 * platform.h - what the measurements were taken on: CPU, kernel, compilers.
 */
#ifndef PINPOINT_PLATFORM_H
#define PINPOINT_PLATFORM_H

struct pp_platform {
	char cpu[256];
	long cpus;
	char kernel[3 * 65 + 3];
	char machine[65];
	char llvm[64];	       /* the LLVM pinpoint's plugin was built for */
	char compiler[2][256]; /* what built each revision (.comment of its binary) */
};

struct pp_session;
/* Read @p on this machine for session @s (its binaries name the compilers). */
void pp_platform_read(struct pp_platform *p, const struct pp_session *s);

#endif /* PINPOINT_PLATFORM_H */
