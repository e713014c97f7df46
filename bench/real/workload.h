/* SPDX-License-Identifier: MIT */
/*
 * workload.h - what the bench-real drivers share to make their inputs: a
 * xorshift64 generator (seeded with WORKLOAD_SEED, defined by the driver
 * before including this) and a growing text buffer.  The inputs are the same
 * in every run and in the plain and instrumented builds.
 */
#ifndef PP_BENCH_REAL_WORKLOAD_H
#define PP_BENCH_REAL_WORKLOAD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = WORKLOAD_SEED;

static inline uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static char *buf;
static size_t len, cap;

/* Appends @s to buf (NUL-terminated); exits on out of memory. */
static inline void put(const char *s)
{
	size_t n = strlen(s);

	if (len + n + 1 > cap) {
		cap = (len + n + 1) * 2;
		buf = (char *)realloc(buf, cap); /* (C++ drivers include this too) */
		if (!buf)
			exit(1);
	}
	memcpy(buf + len, s, n + 1);
	len += n;
}

#endif /* PP_BENCH_REAL_WORKLOAD_H */
