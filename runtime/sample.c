// SPDX-License-Identifier: MIT
/*
 * sample.c - timing a random sample of a hot, short counter's executions.
 *
 * Reading the clock twice costs about 20 ns on some hosts (two rdtsc in a
 * VM), which is more than a short call itself.  A counter whose first
 * PP_SAMPLE_AFTER executions on a thread were all timed and averaged less
 * than pp_sample_below() ticks, where timing each would add more than 1 %
 * to it, is therefore sampled from then on: every
 * execution is still counted, and one in 8 on average is timed.  The gaps
 * between timed executions are random (1 to 15, mean 8, from a per-thread
 * xorshift generator seeded afresh in every process), so a workload whose
 * calls repeat with a period cannot line up with them, and the sampling
 * error of one run is independent of another's.  The sampled part's ticks
 * are estimated by the ratio estimator: the timed executions' ticks times
 * executions / timed executions.  What the probes add to the timed
 * executions (calib.c) is taken out before they are scaled up: only they
 * read the clock.  Only a counter of one site is sampled (below); the
 * entry and the stop=N counter never are, nor anything with timing=all.
 */
#include <unistd.h>

#include "rt.h"

void pp_sample_seed(struct pp_thread *t)
{
	/* a fresh sample in every run and thread: the sampling error is then
	 * independent from run to run, part of the noise the tests see */
	uint64_t x = pp_ticks() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)t;

	x += 0x9e3779b97f4a7c15ull * ((uint64_t)t->reg + 1);
	x ^= x >> 31; /* splitmix64's finaliser: neighbouring seeds, unrelated streams */
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	t->rng = x ? x : 1;
}

/*
 * Only a counter that one site enters is sampled: a range of one call, or
 * the body of one function (fn= or whole=).  A range of several calls mixes their
 * durations, and a rare long call among many short ones (a tree freed once
 * a parse among thousands of node visits) would be timed one time in 8 and
 * counted 8 times: a run's estimate would swing by several times that
 * call's cost.  A function's calls (calls_ns) are many sites too.
 */
static bool one_site(unsigned i)
{
	const struct pp_slot *slot;

	if (i >= pp_spec.nslots)
		return false;
	slot = &pp_spec.slots[i];
	if (pp_ld(&slot->found) != 1)
		return false;
	return slot->kind == PP_KIND_FN || slot->kind == PP_KIND_WHOLE ||
	       (slot->kind == PP_KIND_RANGE && slot->first == slot->last);
}

/*
 * A longer call is timed every time: its clock reads are a small part of
 * it, and its estimate would add sampling noise (doc/statistics.md) for
 * little.  The bounds keep a host whose clock is very cheap sampling what
 * is under 1024 ticks, and one whose clock traps into the hypervisor
 * timing what is over 16384 ticks (5-7 us at 2.4-3 GHz).
 */
uint64_t pp_sample_below(void)
{
	uint64_t below = (uint64_t)PP_SAMPLE_SHARE * pp_clock_pair;

	if (below < PP_SAMPLE_BELOW_MIN)
		return PP_SAMPLE_BELOW_MIN;
	return below > PP_SAMPLE_BELOW_MAX ? PP_SAMPLE_BELOW_MAX : below;
}

void pp_sample_consider(struct pp_thread *t, struct pp_tcounter *c, unsigned i)
{
	/* one_site() rules out the entry, which is also the stop=N counter;
	 * finish() calls this for listed threads only */
	if (pp_spec.every || !one_site(i))
		return;
	if (c->sum >= pp_sample_below() * c->count)
		return;
	pp_st(&c->skip, pp_sample_gap(t));
}

/* What the probes add to the timed executions of @timed with @plain and
 * @clock probe executions inside them, in ticks. */
static double probes(uint64_t timed, uint64_t plain, uint64_t clock)
{
	return pp_cost_bias * (double)timed + pp_cost_plain * (double)plain +
	       pp_cost_clock * (double)clock;
}

void pp_sample_estimate(const struct pp_total *v, double *raw, double *removed)
{
	double rm = probes(v->count, v->plain, v->clock), scale;

	*raw = (double)v->sum;
	*removed = rm;
	if (!v->scount)
		return;
	if (v->stimed) {
		scale = (double)v->scount / (double)v->stimed;
		*raw += (double)v->ssum * scale;
		*removed += probes(v->stimed, v->splain, v->sclock) * scale;
	} else if (v->count) { /* fewer executions than a gap since sampling began */
		scale = (double)v->scount / (double)v->count;
		*raw += (double)v->sum * scale;
		*removed += rm * scale;
	}
}
