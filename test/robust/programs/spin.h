/*
 * spin.h - busy work and pauses shared by the robustness test programs.
 * REV(p, c) picks the previous or the current revision's value (-DCURRENT).
 */
#ifndef ROBUST_SPIN_H
#define ROBUST_SPIN_H

#include <time.h>

#ifdef CURRENT
#define REV(prev, cur) (cur)
#else
#define REV(prev, cur) (prev)
#endif

static volatile long spin_sink;

static inline void spin_loop(long n)
{
	for (long i = 0; i < n; i++)
		spin_sink += i;
}

static inline void pause_us(long us)
{
	struct timespec ts = {us / 1000000, (us % 1000000) * 1000};

	while (nanosleep(&ts, &ts))
		;
}

#endif
