// SPDX-License-Identifier: MIT
/*
 * nights.c - a history's sessions grouped by entry and machine (nights of
 * two machines are never one series: their times are not comparable), in
 * time order, each night's value the current revision's time.
 *
 * Where every night of a series compared the current build with one
 * baseline (the same previous directory, at the same commit where the lines
 * say), the value is the ratio of the two, current / previous, taken in the
 * same runs: what drifts on the machine from night to night (its clock, its
 * load, a kernel update) moves both revisions and cancels, and what is left
 * moves only with the current code.  It is scaled by the baseline's median
 * time so that sizes still read in ns.  Where the previous revision changes
 * (a nightly against the night before), that ratio is a night's step, not a
 * level, and a lasting slowdown would show as one night's spike: the
 * current time is the series then.  Nights run with --baseline are series
 * of their own, one per baseline (its directory and commit): a series
 * measures one thing, and accepting a new baseline starts a new one.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/util.h"
#include "pinpoint/changes/nights.h"

/* By time; in the file's order when equal (the lines are one array). */
static int by_time(const void *a, const void *b)
{
	const struct pp_history_entry *x = *(const struct pp_history_entry *const *)a;
	const struct pp_history_entry *y = *(const struct pp_history_entry *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool has_time(const struct pp_history_entry *e)
{
	return isfinite(e->cur_ns) && e->cur_ns > 0;
}

/* Whether every night of @s compared against one baseline, its time known each night. */
static bool one_baseline(const struct pp_nights *s)
{
	const char *commit = "";

	for (size_t i = 0; i < s->n; i++) {
		const struct pp_history_entry *e = s->night[i];

		if (!e->previous_hash || e->previous_hash != s->night[0]->previous_hash ||
		    !(isfinite(e->prev_ns) && e->prev_ns > 0))
			return false;
		if (*e->commit[PP_PREV] && *commit && strcmp(commit, e->commit[PP_PREV]))
			return false;
		if (*e->commit[PP_PREV])
			commit = e->commit[PP_PREV];
	}
	return s->n > 0;
}

/* @s's values from its nights. */
static int values(struct pp_nights *s)
{
	double *prev = NULL, scale;

	s->x = malloc((s->n ? s->n : 1) * sizeof(*s->x));
	if (!s->x)
		return -ENOMEM;
	s->kind = one_baseline(s) ? PP_NIGHTS_RATIO : PP_NIGHTS_CURRENT;
	for (size_t i = 0; i < s->n; i++)
		s->x[i] = s->night[i]->cur_ns;
	if (s->kind == PP_NIGHTS_CURRENT)
		return 0;
	prev = malloc(s->n * sizeof(*prev));
	if (!prev)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		prev[i] = s->night[i]->prev_ns;
	gsl_sort(prev, 1, s->n);
	scale = gsl_stats_median_from_sorted_data(prev, 1, s->n);
	for (size_t i = 0; i < s->n; i++)
		s->x[i] *= scale / s->night[i]->prev_ns;
	free(prev);
	return 0;
}

/*
 * Which baseline @e was measured against: 0 when it was not run with
 * --baseline, else its directory and commit; nights of two baselines are
 * two series (a new accepted build starts a new one).
 */
static uint64_t baseline_of(const struct pp_history_entry *e)
{
	return e->baseline ? e->previous_hash ^ pp_str_hash(e->commit[PP_PREV]) ^ 1 : 0;
}

/* The series of @e's entry, machine and baseline in @s[0, *@n), added when new; NULL: out of
 * memory. */
static struct pp_nights *series_of(const struct pp_history *h, const struct pp_history_entry *e,
				   struct pp_nights **s, size_t *n)
{
	struct pp_nights *ns;

	for (size_t i = 0; i < *n; i++)
		if ((*s)[i].entry == h->entry[e->entry_no] &&
		    !strcmp((*s)[i].machine, e->machine) && (*s)[i].baseline == baseline_of(e))
			return &(*s)[i];
	ns = realloc(*s, (*n + 1) * sizeof(**s));
	if (!ns)
		return NULL;
	*s = ns;
	memset(&ns[*n], 0, sizeof(ns[*n]));
	ns[*n].entry = h->entry[e->entry_no];
	ns[*n].machine = e->machine;
	ns[*n].baseline = baseline_of(e);
	ns[*n].first = e;
	return &ns[(*n)++];
}

int pp_nights_make(const struct pp_history *h, const char *entry, struct pp_nights **out, size_t *n)
{
	struct pp_nights *s;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < h->n; i++) {
		const struct pp_history_entry *e = &h->e[i], **nv;

		if (entry && strcmp(h->entry[e->entry_no], entry))
			continue;
		s = series_of(h, e, out, n);
		if (!s)
			return -ENOMEM;
		if (!has_time(e)) {
			s->undecided++;
			continue;
		}
		nv = realloc(s->night, (s->n + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		s->night = nv;
		s->night[s->n++] = e;
	}
	for (size_t i = 0; i < *n; i++) {
		s = &(*out)[i];
		if (s->n)
			qsort(s->night, s->n, sizeof(*s->night), by_time);
		if (values(s))
			return -ENOMEM;
	}
	return 0;
}

void pp_nights_free(struct pp_nights *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].x);
		free(s[i].night);
	}
	free(s);
}
