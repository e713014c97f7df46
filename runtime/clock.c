// SPDX-License-Identifier: MIT
/*
 * clock.c - the probes' clock: the architecture's tick clock when the CPU
 * has a usable one (arch.h: the invariant TSC on x86-64, one rdtsc per
 * probe), else CLOCK_MONOTONIC.  Ticks are calibrated against
 * CLOCK_MONOTONIC from two (ticks, ns) pairs, one taken at initialisation and
 * one at exit, so calibration costs nothing at startup; a process that lived
 * less than PP_CALIB_NS sleeps for the rest of it at exit.  delay= needs a
 * rate when the process arms: one over the first ms (pp_clock_rate()).  What two reads
 * cost is measured once, at initialisation: sampling (sample.c) follows it.
 */
#include <errno.h>
#include <time.h>

#include "rt.h"

#define PP_CALIB_NS 10000000u /* 10 ms: error of a pair / 10 ms < 1e-5 */

bool pp_use_ticks;
uint64_t pp_clock_pair;
static uint64_t pp_t0_ticks, pp_t0_ns;

/* The tightest of a few (ticks, ns) readings: ticks is the middle of the
 * two tick reads around clock_gettime. */
static void read_pair(uint64_t *ticks, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t a = pp_ticks();
		uint64_t n = pp_monotonic_ns();
		uint64_t b = pp_ticks();

		if (b >= a && b - a < best) {
			best = b - a;
			*ticks = a + (b - a) / 2;
			*ns = n;
		}
	}
}

/* What a timed execution's two clock reads cost, in ticks: twice the least
 * of 32 gaps between back-to-back reads (19-25 ns for a pair of rdtsc in the
 * VMs measured). */
static uint64_t read_cost(void)
{
	uint64_t best = UINT64_MAX, a = pp_ticks();

	for (int i = 0; i < 32; i++) {
		uint64_t b = pp_ticks();

		if (b > a && b - a < best)
			best = b - a;
		a = b;
	}
	return best == UINT64_MAX ? 0 : 2 * best;
}

void pp_clock_init(void)
{
	pp_use_ticks = PP_ARCH_TICKS && pp_arch_ticks_usable();
	if (pp_use_ticks)
		read_pair(&pp_t0_ticks, &pp_t0_ns);
	pp_clock_pair = read_cost();
}

double pp_clock_ticks_per_ns(void)
{
	return pp_clock_rate(PP_CALIB_NS);
}

double pp_clock_rate(uint64_t span_ns)
{
	uint64_t t1 = 0, n1 = 0;

	if (!pp_use_ticks)
		return 1.0;
	for (;;) {
		struct timespec ts;
		uint64_t left;

		read_pair(&t1, &n1);
		if (n1 - pp_t0_ns >= span_ns)
			break;
		left = span_ns - (n1 - pp_t0_ns);
		ts.tv_sec = 0;
		ts.tv_nsec = (long)left;
		nanosleep(&ts, NULL); /* EINTR: the loop measures again */
	}
	if (t1 <= pp_t0_ticks)
		return 1.0; /* a clock that went backwards; cannot happen when invariant */
	return (double)(t1 - pp_t0_ticks) / (double)(n1 - pp_t0_ns);
}
