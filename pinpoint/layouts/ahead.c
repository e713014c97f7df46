// SPDX-License-Identifier: MIT
/*
 * ahead.c - the code layouts' schedule: a new layout of each revision every
 * m measured pairs, made before the round that first runs in it.
 *
 * A fixed set of k layouts puts a floor under every interval: the layouts'
 * part of it, t sqrt(2 sigma_b^2 / k), does not shrink with the runs.
 * Where the layouts grow with the runs instead, what a layout adds is one
 * more part of the pairs' variance and shrinks with sqrt(n) like the rest
 * (Curtsinger and Berger, STABILIZER, ASPLOS 2013): the variance of the
 * difference after n pairs is (2 sigma_b^2 m + sigma_w^2) / n.  m is fixed
 * before any value is seen, from what the session costs, never from what it
 * measures: linking a layout of both revisions against a pair of runs, so
 * that linking takes about as long as the runs it serves.  m = 1 (a
 * layout a pair, where a link costs less than a pair) halves the pairs a
 * layout-dominated comparison needs against m = 2, but leaves no layout
 * with two runs of a revision, so that the layouts' share of the spread
 * cannot be told (decide_layout.c) and the report says so.
 * doc/statistics.md, "Layouts on a schedule fixed before the data".
 */
#include <errno.h>
#include <math.h>

#include "pinpoint/layouts/both.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/backend.h"
#include "pinpoint/measure/schedule.h"
#include "pinpoint/session/summary.h"

/* The fewest measured pairs in a layout. */
#define PP_PAIRS_PER_LAYOUT_MIN 1
/*
 * Where layout k of both revisions is the same file (pp_layouts_same_code),
 * linking takes about 1/PP_SAME_CODE_LINK_SHARE of what the pairs it serves
 * take, instead of as long.
 */
#define PP_SAME_CODE_LINK_SHARE 16
/* Layouts found in the cache, one by one, before the session gives up timing a link. */
#define PP_TIME_LINK_TRIES 16

/*
 * Seconds a measured pair takes, from the discovery runs: each one's wall
 * time, cut to the executions a measured run makes (entry_stop of
 * entry_count), the two runs of a pair at once in a duet.
 */
static double pair_cost(const struct pp_session *s)
{
	double t = 0, cut = 1;
	size_t n = 0;

	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].batch == 0 && s->runs[i].st.wall_s > 0) {
			t += s->runs[i].st.wall_s;
			n++;
		}
	if (!n)
		return 0;
	if (s->entry_stop && s->entry_count > s->entry_stop)
		cut = (double)s->entry_stop / (double)s->entry_count;
	return t / (double)n * cut * (s->duet ? 1 : 2);
}

/*
 * Both revisions' layouts made up to @want (the fewer either could make):
 * when that is fewer, the session makes no more and the schedule goes round
 * those it has.  0, -EINTR or -ENOMEM.
 */
static int grow(struct pp_session *s, unsigned want)
{
	unsigned had = s->rev[PP_PREV].lay.n, n = want;
	double t0 = pp_session_now(s);

	for (int r = 0; r < 2; r++) {
		struct pp_revision *rev = &s->rev[r];
		int got = pp_backend_of(s)->layouts
			      ? pp_backend_of(s)->layouts(s, r, want)
			      : pp_layouts_grow(&rev->lay, rev->label, rev->dir, want,
						pp_session_layout_rng(s), s->stop);

		if (got < 0) {
			/* interrupted: the runs so far were in the layouts they had */
			for (int k = 0; k < 2; k++)
				s->rev[k].lay.n = had;
			return got;
		}
		n = (unsigned)got < n ? (unsigned)got : n;
	}
	/* both alike, so that a pair keeps running in layouts of one index */
	for (int r = 0; r < 2; r++)
		s->rev[r].lay.n = n;
	if (n < want) {
		s->layouts_cap = n;
		pr_info("no more code layouts could be made: the session goes round its %u", n);
	}
	s->layouts_more_s += pp_session_now(s) - t0;
	pr_dbg("%u code layouts of each revision now, %u more made in %.2f s", n, n - had,
	       pp_session_now(s) - t0);
	return 0;
}

int pp_layouts_fix_every(struct pp_session *s)
{
	unsigned m, have = s->rev[PP_PREV].lay.n;
	int err;

	if (s->layout_every)
		return 0; /* given, or a replay's as recorded */
	if (s->opt->pairs_per_layout > 0) {
		s->layout_every = (unsigned)s->opt->pairs_per_layout;
		return 0;
	}
	/* what one layout's link took (relink.c: this session's mean, else the cache's, link_s);
	 * every layout so far was reused from a cache that kept no link's time: one more of
	 * each, until one is linked and timed (the cache may hold more from earlier sessions) */
	for (unsigned tries = 0;
	     !s->backend && tries < PP_TIME_LINK_TRIES && s->layouts_cap > have &&
	     !s->rev[PP_PREV].lay.link_s && !s->rev[PP_CUR].lay.link_s;
	     tries++) {
		if ((err = grow(s, have + 1)))
			return err;
		if (s->rev[PP_PREV].lay.n == have)
			break;
		have = s->rev[PP_PREV].lay.n;
	}
	s->layout_link_s = s->rev[PP_PREV].lay.link_s + s->rev[PP_CUR].lay.link_s;
	s->layout_pair_s = pair_cost(s);
	m = PP_PAIRS_PER_LAYOUT_MIN;
	if (s->layout_pair_s > 0 && s->layout_link_s / s->layout_pair_s > m)
		m = (unsigned)fmin(ceil(s->layout_link_s / s->layout_pair_s), 1e6);
	/*
	 * The same code in layout k of both (identical builds, or changes that
	 * left every relinked module as it was): what a layout moves a pair's
	 * runs by, it moves both alike, and it leaves their difference.  New
	 * layouts then guard only against what differs besides the code (data,
	 * modules that run as built), and are made less often.
	 */
	s->layouts_same = !s->backend && s->opt->runs != PP_RUNS_SHUFFLED &&
			  pp_layouts_same_code(&s->rev[PP_PREV].lay, &s->rev[PP_CUR].lay);
	if (s->layouts_same && s->layout_pair_s > 0 && s->layout_link_s > 0)
		m = (unsigned)fmin(
		    fmax(m, ceil(PP_SAME_CODE_LINK_SHARE * s->layout_link_s / s->layout_pair_s)),
		    1e6);
	/* a fixed set (--max-layouts at --layouts): spread over all of it as soon as it can */
	if (s->layouts_cap <= s->layouts_first)
		m = 1;
	s->layout_every = m;
	pr_dbg("a new code layout every %u pairs: linking one took %.3f s, a pair %.3f s%s", m,
	       s->layout_link_s, s->layout_pair_s,
	       s->layouts_same ? "; layout k of both revisions is the same file" : "");
	return 0;
}

unsigned pp_layouts_needed(const struct pp_session *s, int runs)
{
	unsigned long long next = s->layout_runs[PP_PREV] > s->layout_runs[PP_CUR]
				      ? s->layout_runs[PP_PREV]
				      : s->layout_runs[PP_CUR];
	unsigned m = s->layout_every ? s->layout_every : 1;
	unsigned long long units = (next + (unsigned long long)(runs > 0 ? runs : 0) + m - 1) / m;

	return units < s->layouts_cap ? (unsigned)units : s->layouts_cap;
}

unsigned pp_layouts_reusable_both(const struct pp_session *s)
{
	unsigned p = s->rev[PP_PREV].lay.n, c = s->rev[PP_CUR].lay.n, n = p < c ? p : c;

	return n > s->layouts_cached ? n : s->layouts_cached;
}

double pp_layouts_ahead_s(const struct pp_session *s, int runs)
{
	unsigned need, have;

	if (!pp_layouts_varied(s) || runs <= 0 || !(s->layout_link_s > 0) || !s->layout_every)
		return 0;
	need = pp_layouts_needed(s, runs);
	have = pp_layouts_reusable_both(s);
	return need > have ? (double)(need - have) * s->layout_link_s : 0.0;
}

int pp_layouts_ahead(struct pp_session *s, int runs)
{
	unsigned units;
	int err;

	if (!pp_layouts_varied(s) || runs <= 0)
		return 0;
	if ((err = pp_layouts_fix_every(s)))
		return err;
	units = pp_layouts_needed(s, runs);
	if (units <= s->rev[PP_PREV].lay.n || s->rev[PP_CUR].lay.n != s->rev[PP_PREV].lay.n)
		return 0;
	return grow(s, units);
}
