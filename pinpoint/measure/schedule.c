// SPDX-License-Identifier: MIT
/*
 * schedule.c - the order of a batch's runs: warm-ups alternating, the
 * measured runs in pairs of one run of each revision (or, --runs shuffled,
 * in a random order with as many of each revision), each run's
 * code layout (by the layouts' schedule: a new one every few pairs) and
 * the environment's and the heap's offsets (schedule.h has why).
 */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "pinpoint/protocol.h"
#include "pinpoint/measure/schedule.h"

/* 32 bits: all of a seed that MT19937 uses, and exact as a JSON number. */
static unsigned long fresh_seed(void)
{
	uint32_t seed;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((unsigned long)ts.tv_nsec ^ (unsigned long)ts.tv_sec ^ (unsigned long)getpid()) &
	       0xffffffffUL;
}

int pp_session_rng(struct pp_session *s)
{
	if (s->rng)
		return 0;
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!s->rng)
		return -ENOMEM;
	if (!s->seeded) {
		s->seed = s->opt && s->opt->have_seed ? s->opt->seed : fresh_seed();
		s->seeded = true;
	}
	gsl_rng_set(s->rng, s->seed);
	return 0;
}

gsl_rng *pp_session_layout_rng(struct pp_session *s)
{
	if (s->layout_rng)
		return s->layout_rng;
	if (pp_session_rng(s))
		return NULL;
	s->layout_rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (s->layout_rng)
		gsl_rng_set(s->layout_rng, s->seed ^ 0x6c61796fUL);
	return s->layout_rng;
}

/*
 * The layout of revision @r's @i-th measured run of the session: its unit,
 * i / m (a new unit every m runs: s->layout_every), in the unit's file, the
 * unit's index round the layouts the revision has (all of them new while
 * the schedule can make them: measure.c makes them before the round).
 */
static int unit_layout(const struct pp_session *s, enum pp_rev_id r, unsigned long long i)
{
	unsigned m = s->layout_every ? s->layout_every : 1;

	return (int)((i / m) % s->rev[r].lay.n);
}

/*
 * Each run's layout in @layout, for the runs @order gives (@nwarm warm-ups
 * first): the measured runs of each revision by the schedule, in the order
 * they run, and a warm-up in the layout of its revision's next measured
 * run.  With @paired and as many layouts on both sides, a pair runs in
 * layout k of each: its units are counted in pairs.
 */
static void assign_layouts(struct pp_session *s, const enum pp_rev_id *order, size_t nwarm,
			   int runs, bool paired, int *layout)
{
	size_t total = nwarm + 2 * (size_t)runs;
	unsigned np = s->rev[PP_PREV].lay.n, nc = s->rev[PP_CUR].lay.n;
	bool shared = paired && np && np == nc;

	if (shared) /* one count of pairs, the larger if they ever differed */
		s->layout_runs[PP_PREV] = s->layout_runs[PP_CUR] =
		    s->layout_runs[PP_PREV] > s->layout_runs[PP_CUR] ? s->layout_runs[PP_PREV]
								     : s->layout_runs[PP_CUR];
	for (size_t i = 0; i < total; i++) {
		enum pp_rev_id r = order[i];

		layout[i] = s->rev[r].lay.n ? unit_layout(s, r, s->layout_runs[r]) : -1;
		if (i < nwarm)
			continue;
		if (!shared)
			s->layout_runs[r]++;
		else if (i % 2 != nwarm % 2) /* the second run of a pair */
			s->layout_runs[PP_PREV] = ++s->layout_runs[PP_CUR];
	}
}

int pp_schedule(struct pp_session *s, int warmups, int runs, enum pp_rev_id *order, int *layout)
{
	bool paired = !s->opt || s->opt->runs != PP_RUNS_SHUFFLED;
	size_t n = 0;
	int err;

	for (int i = 0; i < warmups; i++) {
		order[n++] = i % 2 ? PP_CUR : PP_PREV;
		order[n++] = i % 2 ? PP_PREV : PP_CUR;
	}
	if (runs > 0 || (layout && (s->rev[PP_PREV].lay.n || s->rev[PP_CUR].lay.n))) {
		if ((err = pp_session_rng(s)))
			return err;
	}
	if (runs > 0 && paired) {
		/* pairs: as many previous-first as current-first (one more of either for an odd
		 * count, drawn), in a random order */
		enum pp_rev_id *first = calloc((size_t)runs, sizeof(*first));

		if (!first)
			return -ENOMEM;
		for (int i = 0; i < runs; i++)
			first[i] = i % 2 ? PP_CUR : PP_PREV;
		if (runs % 2 && gsl_rng_uniform_int(s->rng, 2))
			first[runs - 1] = PP_CUR;
		gsl_ran_shuffle(s->rng, first, (size_t)runs, sizeof(*first));
		for (int i = 0; i < runs; i++) {
			order[n + 2 * (size_t)i] = first[i];
			order[n + 2 * (size_t)i + 1] = first[i] == PP_PREV ? PP_CUR : PP_PREV;
		}
		free(first);
	} else if (runs > 0) {
		for (int i = 0; i < runs; i++) {
			order[n + (size_t)i] = PP_PREV;
			order[n + (size_t)runs + (size_t)i] = PP_CUR;
		}
		gsl_ran_shuffle(s->rng, order + n, 2 * (size_t)runs, sizeof(*order));
	}
	if (layout)
		assign_layouts(s, order, n, runs, paired, layout);
	return 0;
}

int pp_schedule_setup(struct pp_session *s, int layout, struct pp_run_setup *setup)
{
	int err = pp_session_rng(s);

	if (err)
		return err;
	setup->layout = layout;
	setup->env_pad = (unsigned)gsl_rng_uniform_int(s->rng, PP_ENV_PAD_MAX + 1);
	setup->heap = 16 * (unsigned)gsl_rng_uniform_int(s->rng, PP_HEAP_SHIFT_MAX / 16 + 1);
	return 0;
}
