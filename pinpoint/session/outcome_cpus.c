// SPDX-License-Identifier: MIT
/*
 * outcome_cpus.c - the check each duet session makes of its two CPUs.
 *
 * In a duet the two runs of a pair run at once, one on each CPU, and which
 * revision has which CPU is drawn with as many of each (duet.h).  A CPU
 * that is slower than the other (it takes the interrupts, it is a slower
 * core, a neighbour's vCPU shares it) then adds +c to the pairs whose
 * current run had it and -c to the others: no part of the estimate, but c²
 * more in the variance of the pairs' differences, so a wider interval.
 *
 * The entry's pairs tell c apart: grouped by the CPU the previous run had,
 * the two groups' differences are D + c and D - c, so half the shift
 * between them (the session's test, at 95 %: core/stats.h,
 * pp_paired_order_term()) is what a run on the second CPU takes more than
 * on the first.  The check says so in every duet
 * session, and how much wider the CPUs made the intervals where they
 * differ (c² of the differences' variance): with --cpu-term on, the
 * default, each comparison took its own c out of its pairs
 * (pinpoint/measure/decide_cpu.c), and the figure is what that spared.
 * It reads only the outcome's runs and batches: a replay makes the same
 * check.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_statistics_double.h>

#include "core/stats.h"
#include "core/util.h"
#include "pinpoint/session/outcome_priv.h"

/* The share of the differences' variance from which a CPU difference matters. */
#define PP_CPUS_MATTERS 0.1

/* A measured run of the entry: where its pair is, its revision, side and value. */
struct entry_run {
	unsigned batch, index;
	enum pp_rev_id rev;
	int side;
	double v;
};

static int by_pair(const void *a, const void *b)
{
	const struct entry_run *x = a, *y = b;

	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return (int)x->rev - (int)y->rev;
}

/* The slot of quantity @id in batch @b's values, -1: not measured there. */
static int slot_in(const struct pp_outcome *o, unsigned batch, unsigned id)
{
	for (size_t i = 0; i < o->nbatches; i++)
		if (o->batches[i].id == batch) {
			for (size_t j = 0; j < o->batches[i].nq; j++)
				if (o->batches[i].qids[j] == id)
					return (int)j;
			return -1;
		}
	return -1;
}

/* The side of @cpu in the session's duet, -1: neither. */
static int side_of(const struct pp_outcome *o, int cpu)
{
	const int *c = o->measurement.duet_cpu;

	return cpu < 0 ? -1 : cpu == c[0] ? 0 : cpu == c[1] ? 1 : -1;
}

/* The entry's measured duet runs in @out (*@n of them, by pair); 0 or -ENOMEM. */
static int entry_runs(const struct pp_outcome *o, struct entry_run **out, size_t *n)
{
	unsigned id = o->entry->id;

	*n = 0;
	*out = malloc((o->nruns ? o->nruns : 1) * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < o->nruns; i++) {
		const struct pp_outcome_run *r = &o->runs[i];
		int j = r->batch && !r->warmup ? slot_in(o, r->batch, id) : -1;
		int side = side_of(o, r->cpu);

		if (j < 0 || side < 0 || (size_t)j >= r->nvalues || !isfinite(r->values[j]))
			continue;
		(*out)[(*n)++] = (struct entry_run){r->batch, r->index, r->rev, side, r->values[j]};
	}
	qsort(*out, *n, sizeof(**out), by_pair);
	return 0;
}

/* The sentence of a check that ran, into c->sentence (@term: the entry's comparison took c out). */
static void say(struct pp_outcome_cpus *c, double base, bool term)
{
	char x[32], lo[32], hi[32];
	const struct pp_interval *d = &c->slower_ns;
	bool second = d->centre >= 0;
	int slow = c->cpu[second ? 1 : 0], fast = c->cpu[second ? 0 : 1];
	double k = second ? 1 : -1, pct = base > 0 ? 100 * fabs(d->centre) / base : NAN;
	size_t pairs = c->pairs[0] + c->pairs[1];

	if (!c->differ) {
		/* as measured: the second CPU's runs less the first's */
		pp_fmt_ns(d->centre, x, sizeof(x));
		pp_fmt_ns(d->low, lo, sizeof(lo));
		pp_fmt_ns(d->high, hi, sizeof(hi));
		snprintf(c->sentence, sizeof(c->sentence),
			 "CPU check: CPUs %d and %d ran the entry alike (a run on CPU %d less one "
			 "on CPU %d: %s%s [%s, %s], an interval that holds 0; %zu pairs).",
			 c->cpu[0], c->cpu[1], c->cpu[1], c->cpu[0], d->centre >= 0 ? "+" : "", x,
			 lo, hi, pairs);
		return;
	}
	/* the slower CPU's runs less the other's */
	pp_fmt_ns(k * d->centre, x, sizeof(x));
	pp_fmt_ns(second ? d->low : -d->high, lo, sizeof(lo));
	pp_fmt_ns(second ? d->high : -d->low, hi, sizeof(hi));
	if (term) {
		snprintf(
		    c->sentence, sizeof(c->sentence),
		    "CPU check: on CPU %d a run of the entry took %s [%s, %s] (%.1f%%) longer "
		    "than on CPU %d (%zu pairs).  Each revision had each CPU in half the pairs, "
		    "so this is no part of any difference, and each comparison took its own "
		    "such difference out of its pairs (--cpu-term), which would have widened "
		    "the entry's interval by about %.0f%%.",
		    slow, x, lo, hi, pct, fast, pairs, 100 * c->widened);
		return;
	}
	snprintf(c->sentence, sizeof(c->sentence),
		 "CPU check: on CPU %d a run of the entry took %s [%s, %s] (%.1f%%) longer than on "
		 "CPU %d (%zu pairs).  Each revision had each CPU in half the pairs, so this is no "
		 "part of any difference, but it widened the intervals by about %.0f%%%s",
		 slow, x, lo, hi, pct, fast, pairs, 100 * c->widened,
		 c->matters ? ": --cpu-term on, two CPUs alike (--cpu), or --runs paired, would "
			      "narrow them."
			    : ".");
}

void pp_outcome_cpus(struct pp_copy *m, struct pp_outcome *o)
{
	struct pp_outcome_cpus *c = &o->cpus;
	struct entry_run *er = NULL;
	double *x = NULL, *y = NULL, *adj = NULL, base = 0, est, var;
	signed char *order = NULL;
	size_t n = 0, np = 0;
	int err;

	*c = (struct pp_outcome_cpus){.slower_ns = {NAN, NAN, NAN}, .share = NAN, .widened = NAN};
	c->cpu[0] = o->measurement.duet_cpu[0];
	c->cpu[1] = o->measurement.duet_cpu[1];
	if (!o->measurement.duet || c->cpu[0] < 0 || c->cpu[1] < 0 || !o->entry)
		return;
	if ((err = entry_runs(o, &er, &n)))
		goto out;
	x = malloc((n ? n : 1) * sizeof(double));
	y = malloc((n ? n : 1) * sizeof(double));
	order = malloc(n ? n : 1);
	if (!x || !y || !order) {
		err = -ENOMEM;
		goto out;
	}
	/* by_pair put a pair's previous run first: a pair is two runs of one
	 * batch and index, one of each revision, on the two sides; its order
	 * is the current run's side */
	for (size_t i = 0; i + 1 < n; i++) {
		const struct entry_run *p = &er[i], *q = &er[i + 1];

		if (p->batch != q->batch || p->index != q->index || p->rev != PP_PREV ||
		    q->rev != PP_CUR || p->side == q->side)
			continue;
		x[np] = p->v;
		y[np] = q->v;
		order[np] = (signed char)q->side;
		c->pairs[p->side]++;
		base += p->v;
		np++;
		i++;
	}
	/* current on the second CPU: D + c; on the first: D - c (core/stats.h) */
	err = pp_paired_order_term(o->opt.test, x, y, order, np, &adj, &est, &c->slower_ns);
	if (err || !adj)
		goto out;
	c->checked = true;
	c->differ = c->slower_ns.low > 0 || c->slower_ns.high < 0;
	for (size_t i = 0; i < np; i++)
		y[i] -= x[i];
	var = gsl_stats_variance(y, 1, np);
	/* at most 0.99: a CPU difference beyond the differences' spread is noise in c */
	c->share = var > 0 ? fmin(0.99, est * est / var) : 0;
	c->widened = 1 / sqrt(1 - c->share) - 1;
	c->matters = c->differ && c->share >= PP_CPUS_MATTERS;
	say(c, base / (double)np, isfinite(o->entry->cpu_term_ns));
out:
	if (err)
		m->err = err;
	free(er);
	free(x);
	free(y);
	free(order);
	free(adj);
}
