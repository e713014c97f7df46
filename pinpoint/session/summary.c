// SPDX-License-Identifier: MIT
/*
 * summary.c - what the outcome says of a session's runs as a whole
 * (summary.h): where its time went, how much the entry varied, how the
 * runs were made and what the code layouts were, in the sentences every
 * format prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/session/labels.h"
#include "pinpoint/session/summary.h"

void pp_time_use(const struct pp_session *s, struct pp_time_use *u)
{
	double runs_s = 0, first_s = 0;

	memset(u, 0, sizeof(*u));
	u->total_s = (s->finished > 0 ? s->finished : pp_session_now(s)) - s->started;
	u->builds_s = s->measuring > 0 ? s->measuring - s->started : 0;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *r = &s->runs[i];
		int l;

		runs_s += r->turn_s;
		if (!r->batch || r->batch > s->nbatches) {
			u->discovery_s += r->turn_s;
			u->discovery_runs++;
			continue;
		}
		l = s->batches[r->batch - 1].layer;
		if (l == PP_LAYER_CONFIRM) {
			u->confirm_s += r->turn_s;
			u->confirm_runs++;
			continue;
		}
		l = l < 0 ? 0 : l >= PP_TIME_LAYERS ? PP_TIME_LAYERS - 1 : l;
		u->layer_s[l] += r->turn_s;
		u->layer_runs[l]++;
		if ((unsigned)l + 1 > u->nlayers)
			u->nlayers = (unsigned)l + 1;
	}
	u->layouts_s =
	    pp_layouts_relink_s(&s->rev[PP_PREV].lay) + pp_layouts_relink_s(&s->rev[PP_CUR].lay);
	/* measuring's start moved past the first layouts' making (main.c): not a build; those
	 * the schedule made later were made while measuring (ahead.c) */
	for (int r = 0; r < 2; r++)
		for (unsigned k = 0; k < s->layouts_first && k < s->rev[r].lay.n; k++)
			first_s += s->rev[r].lay.relink_s[k];
	if (!s->layouts_first)
		first_s = u->layouts_s; /* not varied: all were made before measuring */
	u->builds_s = u->builds_s > first_s ? u->builds_s - first_s : 0;
	u->other_s = u->total_s - u->builds_s - runs_s - u->layouts_s;
	if (u->other_s < 0)
		u->other_s = 0;
}

double pp_series_cov(const struct pp_series *v)
{
	double mean = 0, ss = 0;

	if (v->n < 2)
		return NAN;
	for (size_t i = 0; i < v->n; i++)
		mean += v->v[i];
	mean /= (double)v->n;
	for (size_t i = 0; i < v->n; i++)
		ss += (v->v[i] - mean) * (v->v[i] - mean);
	return mean > 0 ? sqrt(ss / (double)(v->n - 1)) / mean : NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile @p of sorted @v[0..n-1], interpolated (type 7). */
static double quantile(const double *v, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t i = (size_t)floor(h);

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

void pp_series_box(const struct pp_series *sr, double *v, struct pp_outcome_box *b)
{
	size_t n = sr->n;
	double iqr;

	*b = (struct pp_outcome_box){NAN, NAN, NAN, NAN, NAN, 0, NULL};
	if (!n || !v)
		return;
	memcpy(v, sr->v, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	b->q1 = quantile(v, n, 0.25);
	b->median = quantile(v, n, 0.5);
	b->q3 = quantile(v, n, 0.75);
	iqr = b->q3 - b->q1;
	b->low = b->q1;
	b->high = b->q3;
	for (size_t i = 0; i < n; i++) {
		if (v[i] >= b->q1 - 1.5 * iqr && v[i] < b->low)
			b->low = v[i];
		if (v[i] <= b->q3 + 1.5 * iqr && v[i] > b->high)
			b->high = v[i];
	}
	b->n = n;
	b->sorted = v;
}

/* Modules of @l linked again in its layouts. */
static size_t relinked(const struct pp_layouts *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nmodules; i++)
		n += !l->modules[i].why;
	return n;
}

bool pp_layouts_varied(const struct pp_session *s)
{
	return s->rev[PP_PREV].lay.n > 1 && s->rev[PP_CUR].lay.n > 1;
}

/* Whether layout k of both revisions was linked with one seed, for every k. */
static bool seeds_shared(const struct pp_layouts *p, const struct pp_layouts *c)
{
	if (p->n != c->n)
		return false;
	for (unsigned k = 0; k < p->n; k++)
		if (p->seed[k] != c->seed[k])
			return false;
	return true;
}

const char *pp_runs_sentence(const struct pp_session *s, char *buf, size_t len)
{
	const char *note = s->duet_note[0] ? s->duet_note : NULL;

	switch (pp_session_runs(s)) {
	case PP_RUNS_DUET:
		if (s->duet_cpu[0] >= 0 && s->duet_cpu[1] >= 0)
			snprintf(buf, len,
				 "Each pair's two runs ran at the same time, one on CPU %d and "
				 "one on CPU %d (duet)%s%s.",
				 s->duet_cpu[0], s->duet_cpu[1], note ? ", " : "",
				 note ? note : "");
		else
			snprintf(buf, len,
				 "Each pair's two runs ran at the same time, on %d and %d CPUs of "
				 "their own (duet)%s%s.",
				 CPU_COUNT(&s->duet_cpus[0]), CPU_COUNT(&s->duet_cpus[1]),
				 note ? ", " : "", note ? note : "");
		break;
	case PP_RUNS_PAIRED:
		snprintf(buf, len, "Each pair's two runs ran one after the other (paired)%s%s.",
			 note ? ": " : "", note ? note : "");
		break;
	default:
		snprintf(buf, len, "The runs ran one at a time in a random order (shuffled).");
	}
	return buf;
}

void pp_layouts_sentence(const struct pp_session *s, char *buf, size_t len)
{
	const struct pp_layouts *p = &s->rev[PP_PREV].lay, *c = &s->rev[PP_CUR].lay;
	double t = pp_layouts_relink_s(p) + pp_layouts_relink_s(c);
	const struct pp_revision *flat =
	    p->n > 1 || p->as_other ? &s->rev[PP_CUR] : &s->rev[PP_PREV];
	char sched[384], every[32];

	if (s->layout_every > 1)
		snprintf(every, sizeof(every), "every %u measured pairs", s->layout_every);
	else
		snprintf(every, sizeof(every), "for every measured pair");
	if (!pp_layouts_varied(s))
		sched[0] = 0;
	else if (s->layouts_cap > s->layouts_first && s->layout_every)
		snprintf(sched, sizeof(sched), "%u first, then a new one %s%s, up to %u%s%s",
			 s->layouts_first, every,
			 s->layouts_same ? " (layout k of both revisions is the same file: what it "
					   "moves a pair's runs by leaves their difference)"
					 : "",
			 s->layouts_cap, p->n > s->layouts_first ? "" : " (none needed)",
			 s->layout_every > 1 ? ""
					     : " (with one pair a layout, the layouts' share of "
					       "the spread cannot be told apart)");
	else
		snprintf(sched, sizeof(sched),
			 "a fixed set (--max-layouts), the runs going round it");
	if (pp_layouts_varied(s) && !p->nmodules && !c->nmodules) {
		/* a program model's layouts (pinpoint/model/): nothing was linked */
		snprintf(buf, len, "each revision ran in %u code layouts of the program model: %s.",
			 p->n, sched);
	} else if (pp_layouts_varied(s)) {
		char cost[160] = "";

		if (s->layout_link_s > 0 && s->layout_pair_s > 0 && !s->opt->pairs_per_layout &&
		    s->layouts_cap > s->layouts_first)
			snprintf(cost, sizeof(cost),
				 " (linking a layout of each revision takes %.2f s, a pair of runs "
				 "%.3f s)",
				 s->layout_link_s, s->layout_pair_s);
		snprintf(
		    buf, len,
		    "each revision ran in %u code layouts (its modules linked again with their "
		    "functions in random orders%s: previous %zu of %zu, current %zu of %zu): %s%s; "
		    "linking took %.1f s%s.",
		    p->n, seeds_shared(p, c) ? ", layout k of both with one seed" : "", relinked(p),
		    p->nmodules, relinked(c), c->nmodules, sched, cost, t,
		    t > 0 ? "" : " (all reused from an earlier session)");
	} else if (s->opt->layouts <= 1) {
		snprintf(
		    buf, len,
		    "not varied (--layouts 1): each revision ran as built, in one code layout, "
		    "so the verdict can include the effect of where the linker put the code.");
	} else if (p->as_other || c->as_other) {
		snprintf(
		    buf, len,
		    "not varied: the %s revision could not be (%s), so both revisions ran as "
		    "built, in one code layout each, and the verdict can include the effect of "
		    "where the linker put the code.",
		    flat->label,
		    flat->lay.not_varied ? flat->lay.not_varied : "it was not measured");
	} else {
		snprintf(
		    buf, len,
		    "not varied: the %s revision ran as built (%s), so the verdict can include "
		    "the effect of where the linker put the code.",
		    flat->label,
		    flat->lay.not_varied ? flat->lay.not_varied : "it was not measured");
	}
}

bool pp_layouts_spread(const struct pp_session *s, char *buf, size_t len)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;
	char a[32];

	if (!e || !e->has_layout)
		return false;
	snprintf(buf, len,
		 "layout made %.0f%% of the entry's run-to-run variance in the previous revision "
		 "and %.0f%% in the current; two single layouts can differ by %s (2 sd) with "
		 "nothing changed.",
		 100 * e->layout[PP_PREV].share, 100 * e->layout[PP_CUR].share,
		 pp_fmt_ns(2 * e->layout_sd, a, sizeof(a)));
	return true;
}
