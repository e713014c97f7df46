// SPDX-License-Identifier: MIT
/*
 * schedule.c - the order of a batch's runs: warm-ups alternating, the
 * measured runs in pairs of one run of each revision (or, --runs shuffled,
 * in a random order with as many of each revision), each run's
 * code layout (every layout of a revision as often as the round allows) and
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
 * The layouts of revision @r's @runs measured runs, in @out: each layout
 * runs / n times, the rest of the round in those used least so far (ties
 * drawn at random), in a random order.
 */
static void draw_layouts(struct pp_session *s, enum pp_rev_id r, int runs, int *out)
{
	struct pp_layouts *l = &s->rev[r].lay;
	unsigned pick[PP_MAX_LAYOUTS];

	for (unsigned k = 0; k < l->n; k++)
		pick[k] = k;
	gsl_ran_shuffle(s->rng, pick, l->n, sizeof(*pick));
	/* least used first, a stable sort keeping the random order of ties */
	for (unsigned i = 1; i < l->n; i++)
		for (unsigned j = i; j && l->used[pick[j - 1]] > l->used[pick[j]]; j--) {
			unsigned t = pick[j];

			pick[j] = pick[j - 1];
			pick[j - 1] = t;
		}
	for (int i = 0; i < runs; i++) {
		out[i] = (int)pick[(unsigned)i % l->n];
		l->used[out[i]]++;
	}
	gsl_ran_shuffle(s->rng, out, (size_t)runs, sizeof(*out));
}

/*
 * Each run's layout in @layout, for the runs @order gives (@nwarm warm-ups
 * first).  With @paired, the measured runs come in pairs (turns nwarm + 2i
 * and nwarm + 2i + 1) and when both revisions have as many layouts, a pair
 * runs in layout k of each: the previous revision's draw decides k, and the
 * current one counts it as used.
 */
static int assign_layouts(struct pp_session *s, const enum pp_rev_id *order, size_t nwarm, int runs,
			  bool paired, int *layout)
{
	size_t total = nwarm + 2 * (size_t)runs;
	unsigned np = s->rev[PP_PREV].lay.n, nc = s->rev[PP_CUR].lay.n;
	bool shared = paired && np && np == nc;

	for (size_t i = 0; i < total; i++)
		layout[i] = -1;
	for (int r = 0; r < 2; r++) {
		unsigned n = s->rev[r].lay.n;
		int *mine = NULL, next = 0;

		if (!n)
			continue;
		/* warm-ups: any layout, drawn uniformly */
		for (size_t i = 0; i < nwarm; i++)
			if (order[i] == (enum pp_rev_id)r)
				layout[i] = (int)gsl_rng_uniform_int(s->rng, n);
		if (runs <= 0 || (shared && r == PP_CUR))
			continue;
		mine = calloc((size_t)runs, sizeof(*mine));
		if (!mine)
			return -ENOMEM;
		draw_layouts(s, r, runs, mine);
		for (size_t i = nwarm; i < total; i++)
			if (order[i] == (enum pp_rev_id)r)
				layout[i] = mine[next++];
		free(mine);
	}
	if (shared)
		for (size_t i = nwarm; i + 1 < total; i += 2) {
			size_t p = order[i] == PP_PREV ? i : i + 1;

			layout[p == i ? i + 1 : i] = layout[p];
			s->rev[PP_CUR].lay.used[layout[p]]++;
		}
	return 0;
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
	return layout ? assign_layouts(s, order, n, runs, paired, layout) : 0;
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
