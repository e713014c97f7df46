// SPDX-License-Identifier: MIT
/*
 * calib.c - what the armed probes cost (kept in cost.c), so that the
 * results can leave it out (sample.c): every time they give is the
 * program's own.
 *
 * A probe execution that reaches a counter is one of two kinds (probe.c):
 * it reads the clock (the enter of a timed execution, the exit that ends
 * one) or it does not (the untimed executions of a sampled counter, nested
 * enters and exits).  Seen from outside, from a timed execution of another
 * counter around it, each kind costs its own time; seen from inside, a
 * timed execution measures part of its own two probes too: from the enter
 * probe's clock read to its return, and from the exit probe's call to its
 * clock read (the bias).  All three are measured here, once, when the
 * process arms and before any of its sites is: loops of real probe pairs
 * on a private record and site (pp_calib_fn, with counter 0 of the calling
 * thread), called as an armed call in an executable calls them
 * (pp_arch_calib_probes()), against the same loop with the probes unarmed
 * (pp_arch_calib_plain()): every execution sampled and untimed (a gap
 * that never runs out), then every one timed.  PP_CALIB_ROUNDS rounds of
 * PP_CALIB_PAIRS iterations of each loop, the first a warm-up; the cost of
 * a kind is the median over the rounds of its loop's time less the plain
 * loop's of the same round, per probe, the bias the median of the rounds'
 * mean timed duration (a preempted round moves a mean, not the median;
 * the median also left less error than the rounds' minima: README.md).
 * About 6000 probe pairs: well under a millisecond.
 */
#include <string.h>

#include "rt.h"

#define PP_CALIB_PAIRS 256u
#define PP_CALIB_ROUNDS 13u	 /* the first is a warm-up */
#define PP_CALIB_SKIP (1u << 30) /* a sampling gap that never runs out */
/* Rounds past the third stop after 1 ms: where the probes' timed path is
 * the general one (no tick clock), a round takes far longer. */
#define PP_CALIB_BUDGET_NS 1000000u

/* The median of @n values (sorted in place). */
static double median(double *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && v[j - 1] > v[j]; j--) {
			double x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Ticks of one loop of PP_CALIB_PAIRS probe pairs (@probes) or of the plain
 * loop; the counter starts afresh, its executions timed unless @skip. */
static uint64_t loop(struct pp_tcounter *c, bool probes, uint32_t skip)
{
	uint64_t t0;

	memset(c, 0, sizeof(*c));
	c->skip = skip;
	t0 = pp_ticks();
	if (probes)
		pp_arch_calib_probes(PP_CALIB_PAIRS);
	else
		pp_arch_calib_plain(PP_CALIB_PAIRS);
	return pp_ticks() - t0;
}

void pp_calibrate(void)
{
	double plain[PP_CALIB_ROUNDS], clock[PP_CALIB_ROUNDS], bias[PP_CALIB_ROUNDS];
	struct pp_thread *t = &pp_self;
	struct pp_tcounter *c = &t->c[0];
	uint64_t start = pp_ticks(), start_ns = pp_monotonic_ns();
	unsigned n = 0;

	if (t->state == PP_THREAD_NEW)
		pp_thread_attach(t);
	if (t->state != PP_THREAD_LISTED)
		return; /* its executions would go to the totals: costs stay 0 */
	/* site PP_CALIB_SITE enters counter 0 alone: the probes' usual case */
	pp_sites[PP_CALIB_SITE].mask[0] = 1;
	pp_calib_fn.flags[PP_CALIB_SITE] = 1;
	__atomic_store_n(&pp_calib_fn.armed, PP_ARMED_BASE, __ATOMIC_RELEASE);
	for (unsigned r = 0; r < PP_CALIB_ROUNDS; r++) {
		uint64_t base = loop(c, false, 0);
		uint64_t untimed = loop(c, true, PP_CALIB_SKIP);
		uint64_t timed = loop(c, true, 0);

		if (!r || c->count != PP_CALIB_PAIRS)
			continue; /* the warm-up, or a timed loop that lost an execution */
		plain[n] = ((double)untimed - (double)base) / (2.0 * PP_CALIB_PAIRS);
		clock[n] = ((double)timed - (double)base) / (2.0 * PP_CALIB_PAIRS);
		bias[n] = (double)c->sum / (double)c->count;
		if (++n >= 3 && pp_monotonic_ns() - start_ns > PP_CALIB_BUDGET_NS)
			break;
	}
	__atomic_store_n(&pp_calib_fn.armed, PP_ARMED_SEEN, __ATOMIC_RELEASE);
	pp_calib_fn.flags[PP_CALIB_SITE] = 0;
	memset(pp_sites, 0, 2 * sizeof(pp_sites[0]));
	memset(c, 0, sizeof(*c));
	pp_st(&t->plain, 0);
	pp_st(&t->clock, 0);
	if (n) {
		pp_cost_plain = median(plain, n);
		pp_cost_clock = median(clock, n);
		pp_cost_bias = median(bias, n);
	}
	/* a loop can only be slowed down; a cost below 0 is noise */
	if (pp_cost_plain < 0)
		pp_cost_plain = 0;
	if (pp_cost_clock < 0)
		pp_cost_clock = 0;
	if (pp_cost_bias < 0)
		pp_cost_bias = 0;
	pp_calib_ticks = pp_ticks() - start;
}
