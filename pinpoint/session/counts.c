// SPDX-License-Identifier: MIT
/*
 * counts.c - how often each comparison's calls ran, beside their time
 * (outcome.h): the runtime counts every execution of an armed slot, timed
 * or sampled, and measure.c keeps them per run as executions per execution
 * of the entry.  A part that got slower because it ran more often is told
 * from one whose every call got slower: the difference is split into the
 * runs' count and their time per execution, each compared at the
 * comparison's level, and the comparison gets a cause ("more calls",
 * "slower calls", "both") and, where its count changed, a sentence the
 * text and HTML reports print beside its figure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/stats.h"
#include "core/util.h"
#include "pinpoint/session/counts.h"
#include "pinpoint/session/outcome_priv.h"
#include "pinpoint/session/session.h"

/* Relative change of a count taken for noise in the count itself (sampled inputs). */
#define PP_COUNT_SAME 1e-3

/* The median of @v[0..@n) (sorted in place); NaN for none. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

/*
 * One revision's counts and times per execution of @q into @execs and
 * @per (malloc'ed, *@n of each: the runs that counted an execution); 0,
 * 1 when some run has no count (not counted), -ENOMEM.
 */
static int per_run(const struct pp_quantity *q, int r, double **execs, double **per, size_t *n)
{
	const struct pp_series *x = &q->execs[r], *v = &q->series[r];

	*n = 0;
	*execs = *per = NULL;
	if (!x->n || x->n != v->n)
		return 1;
	*execs = malloc(x->n * sizeof(double));
	*per = malloc(x->n * sizeof(double));
	if (!*execs || !*per)
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++) {
		if (!isfinite(x->v[i]))
			return 1;
		(*execs)[i] = x->v[i];
		if (x->v[i] > 0)
			(*per)[(*n)++] = v->v[i] / x->v[i];
	}
	return 0;
}

/* Whether @a and @b, the two revisions' counts, differ beyond noise (at @conf). */
static bool counts_differ(enum pp_test test, const double *a, size_t na, const double *b, size_t nb,
			  double ma, double mb, double conf)
{
	struct pp_comparison c;

	if (fabs(mb - ma) <= PP_COUNT_SAME * fmax(fabs(ma), fabs(mb)))
		return false;
	/* counts alike in every run of each revision: they differ as they are */
	if (a[0] == a[na - 1] && b[0] == b[nb - 1])
		return true;
	return !pp_compare(test, a, na, b, nb, conf, &c) && c.significant;
}

int pp_counts_of(const struct pp_quantity *q, const struct pp_options *opt, struct pp_counts *c)
{
	double *execs[2] = {NULL, NULL}, *per[2] = {NULL, NULL};
	double conf = q->cmp.confidence;
	size_t n[2] = {0, 0};
	struct pp_comparison pc;
	int err = 0, d, dc, dp;

	*c = (struct pp_counts){.execs = {NAN, NAN}, .per_exec = {NAN, NAN, NAN}};
	/* calls only one revision makes: different calls, no count to compare */
	if (q->kind == PP_Q_CHANGED)
		return 0;
	for (int r = 0; r < 2 && !err; r++)
		err = per_run(q, r, &execs[r], &per[r], &n[r]);
	if (err)
		goto out;
	/* n[] counts the runs that executed it; per_run() kept every run's count */
	c->execs[PP_PREV] = median(execs[PP_PREV], q->execs[PP_PREV].n);
	c->execs[PP_CUR] = median(execs[PP_CUR], q->execs[PP_CUR].n);
	c->execs_changed =
	    counts_differ(opt->test, execs[PP_PREV], q->execs[PP_PREV].n, execs[PP_CUR],
			  q->execs[PP_CUR].n, c->execs[PP_PREV], c->execs[PP_CUR], conf);
	if (n[PP_PREV] >= 2 && n[PP_CUR] >= 2 &&
	    !pp_compare(opt->test, per[PP_PREV], n[PP_PREV], per[PP_CUR], n[PP_CUR], conf, &pc)) {
		c->per_exec = pc.diff;
		/* what the change per execution adds at the current count: half
		 * the threshold or more is a change of its own */
		c->per_exec_changed = pc.significant && fabs(pc.diff.centre) * c->execs[PP_CUR] >=
							    q->threshold_ns / 2;
	}
	if (q->kind == PP_Q_ENTRY || !q->cmp.significant || !isfinite(q->cmp.diff.centre))
		goto out;
	d = q->cmp.diff.centre > 0 ? 1 : -1;
	dc = !c->execs_changed ? 0 : c->execs[PP_CUR] > c->execs[PP_PREV] ? 1 : -1;
	dp = !c->per_exec_changed ? 0 : c->per_exec.centre > 0 ? 1 : -1;
	if (dc == d && dp == d)
		c->cause = "both";
	else if (dc == d)
		c->cause = d > 0 ? "more calls" : "fewer calls";
	else if (dp == d || !dc)
		c->cause = d > 0 ? "slower calls" : "faster calls";
out:
	for (int r = 0; r < 2; r++) {
		free(execs[r]);
		free(per[r]);
	}
	return err < 0 ? err : 0;
}

/* A count as people read it: "115", "4,000", "2.5". */
static const char *fmt_count(double x, char *buf, size_t len)
{
	unsigned long long k = (unsigned long long)llround(x);
	char digits[32];
	size_t nd, o = 0;

	if (fabs(x - (double)k) > 0.05 || x < 0) {
		snprintf(buf, len, "%.3g", x);
		return buf;
	}
	nd = (size_t)snprintf(digits, sizeof(digits), "%llu", k);
	for (size_t i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/*
 * "called 1.15x as often (100 → 115 per execution of render), each call the
 * same" (malloc'ed), for a comparison whose count changed; NULL otherwise.
 */
static char *counts_sentence(const struct pp_outcome_cmp *c, const char *entry)
{
	char a[32], b[32], x[32], y[32], z[32], each[128], *s;

	if (!c->cause || !c->execs_changed || !(c->execs[PP_PREV] > 0))
		return NULL;
	if (!c->per_exec_changed)
		snprintf(each, sizeof(each), "each call the same");
	else
		snprintf(each, sizeof(each), "each call %s%s [%s, %s]",
			 c->per_exec.centre >= 0 ? "+" : "", pp_fmt_ns(c->per_exec.centre, x, 32),
			 pp_fmt_ns(c->per_exec.low, y, 32), pp_fmt_ns(c->per_exec.high, z, 32));
	if (asprintf(&s, "called %.2fx as often (%s → %s per execution of %s), %s",
		     c->execs[PP_CUR] / c->execs[PP_PREV], fmt_count(c->execs[PP_PREV], a, 32),
		     fmt_count(c->execs[PP_CUR], b, 32), entry, each) < 0)
		return NULL;
	return s;
}

void pp_outcome_counts(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s)
{
	for (size_t i = 0; i < o->ncmp && i < s->nq; i++) {
		struct pp_outcome_cmp *c = &o->cmp[i];
		struct pp_counts k;
		char *said;

		if (pp_counts_of(s->q[i], s->opt, &k)) {
			m->err = -ENOMEM;
			return;
		}
		c->execs[PP_PREV] = k.execs[PP_PREV];
		c->execs[PP_CUR] = k.execs[PP_CUR];
		c->execs_changed = k.execs_changed;
		c->per_exec = k.per_exec;
		c->per_exec_changed = k.per_exec_changed;
		c->cause = k.cause;
		said = counts_sentence(c, o->entry_name ? o->entry_name : "the entry");
		if (said)
			c->counts_said = pp_copy_take(m, said);
	}
}
