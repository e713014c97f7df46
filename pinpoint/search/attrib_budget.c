// SPDX-License-Identifier: MIT
/*
 * attrib_budget.c - the arming plan of a function F's parts, from its counts
 * (attrib_count.c): what each call's probes would cost, so that what the
 * armed probes add to a run stays within --arm-budget (5 % of the entry's
 * time as built).  A call is left untimed, its time in F's own body, when
 *
 *   - each of its executions takes less than PP_SHORT_PROBES times what its
 *     probes cost: a timer read around a call of a few tens of ns
 *     serialises the core, work that overlapped no longer does, and the
 *     measured difference grows (a 30 ns function called 10^5 times was
 *     measured 5.5 times what the entry got slower by);
 *   - its probes alone, or with the calls that cost more, would cost more
 *     than the budget (the costliest are left out first).
 *
 * A function that may call itself has its own body measured by the fn=
 * item, which times every call it makes: where that would cost more than
 * the budget (an interpreter's loop, 10 times a plain run), the own body
 * is derived from the whole less its calls, as for any other function.
 * What a call's probes cost is the runtime's own estimate, what it took out
 * of the counting runs; a range of several calls is timed at every
 * execution, not on a sample, so the plan's figure is a lower bound there.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "core/stats_seq.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/settle.h"
#include "pinpoint/search/attrib_priv.h"

/* A call shorter than this many times what its probes cost is not timed. */
#define PP_SHORT_PROBES 4.0
/* What timing every call costs (fn=), in times what a sampled call's probes cost. */
#define PP_FN_PROBES 4.0

/* @q's means over its runs in revision @r: value, probes' cost, executions. */
static void means(const struct pp_session *s, const struct pp_quantity *q, int r, double *v,
		  double *removed, double *execs)
{
	double sv = 0, sr = 0, se = 0;
	size_t n = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *rec = &s->runs[i];
		int qi;

		if (rec->warmup || rec->spoiled || rec->rev != (enum pp_rev_id)r || !rec->values ||
		    !rec->execs || (qi = pp_run_value_at(s, rec, q)) < 0 || isnan(rec->execs[qi]))
			continue;
		sv += rec->values[qi];
		sr += rec->removed ? rec->removed[qi] : 0;
		se += rec->execs[qi];
		n++;
	}
	*v = n ? sv / (double)n : NAN;
	*removed = n ? sr / (double)n : NAN;
	*execs = n ? se / (double)n : NAN;
}

/* The entry's time as built: its mean over the previous revision's runs that armed nothing. */
static double entry_ns(const struct pp_session *s)
{
	const struct pp_series *e = s->nq ? &s->q[0]->series[PP_PREV] : NULL;

	return e && e->n ? gsl_stats_mean(e->v, 1, e->n) : NAN;
}

/* Leave place @k untimed, for @why. */
static void untime(struct pp_fnview *v, int k, const char *why)
{
	v->untimed[k] = true;
	v->why[k] = why;
	v->nuntimed++;
}

/*
 * F's quantities made before the plan (riders, in its caller's runs) that
 * hold an untimed call, or its own body measured by fn=: kept as they were,
 * and made again for the plan.
 */
static void retire(struct pp_session *s, const struct pp_fnview *v)
{
	for (size_t i = 0; i < s->nq; i++) {
		struct pp_quantity *q = s->q[i];

		if (q->fn[0] != v->fn[0] || q->fn[1] != v->fn[1] || q->retired)
			continue;
		if (q->kind == PP_Q_SELF || q->kind == PP_Q_GROUP || q->kind == PP_Q_CHANGED ||
		    (q->kind == PP_Q_RANGE && q->nterms))
			q->retired = true;
	}
}

int pp_attrib_plan_arming(struct pp_session *s, struct pp_fnview *v)
{
	double fn_ns = 0;
	int *order = NULL, n = 0;

	if (!v->ran || !v->fig || !(s->opt->arm_budget > 0))
		return 0;
	v->entry_ns = entry_ns(s);
	if (!(v->entry_ns > 0))
		return 0;
	v->budget_ns = s->opt->arm_budget / 100 * v->entry_ns;
	v->cost = calloc((size_t)v->nu, sizeof(*v->cost));
	v->each_ns = calloc((size_t)v->nu, sizeof(*v->each_ns));
	v->count_diff = calloc((size_t)v->nu, sizeof(*v->count_diff));
	v->untimed = calloc((size_t)v->nu, sizeof(*v->untimed));
	v->why = calloc((size_t)v->nu, sizeof(*v->why));
	order = calloc((size_t)v->nu, sizeof(*order));
	if (!v->cost || !v->each_ns || !v->count_diff || !v->untimed || !v->why || !order) {
		free(order);
		return -ENOMEM;
	}
	for (int k = 0; k < v->nu; k++) {
		double cost = 0, each = NAN, execs = 0;

		if (!v->fig[k])
			continue;
		for (int r = 0; r < 2; r++) {
			double val, removed, x;

			means(s, v->fig[k], r, &val, &removed, &x);
			if (isfinite(val))
				v->count_diff[k] += r == PP_CUR ? val : -val;
			if (!(x > 0))
				continue;
			if (removed > cost)
				cost = removed;
			if (isnan(each) || val / x > each)
				each = val / x;
			if (x > execs)
				execs = x;
		}
		v->cost[k] = cost;
		v->each_ns[k] = each;
		if (!(execs > 0))
			continue;
		/* every call timed on the general path: what fn= would cost */
		fn_ns += PP_FN_PROBES * cost;
		if (cost > 0 && each < PP_SHORT_PROBES * cost / execs)
			untime(v, k, "too short to time");
		else if (cost > v->budget_ns)
			untime(v, k, "beyond the arming budget");
		else
			order[n++] = k;
	}
	/* the costliest of the rest left out until the others fit */
	for (int i = 0; i < n; i++)
		v->planned_ns += v->cost[order[i]];
	while (v->planned_ns > v->budget_ns && n) {
		int most = 0;

		for (int i = 1; i < n; i++)
			if (v->cost[order[i]] > v->cost[order[most]])
				most = i;
		v->planned_ns -= v->cost[order[most]];
		untime(v, order[most], "beyond the arming budget with the others");
		order[most] = order[--n];
	}
	free(order);
	v->no_fn = pp_attrib_may_recurse(s, v->fn) && fn_ns > v->budget_ns;
	if (v->nuntimed || v->no_fn)
		retire(s, v);
	pr_dbg("arming plan of %s: %.0f ns of probes an execution of the entry (budget %.0f), "
	       "%d calls untimed%s",
	       v->fn[PP_CUR] ? v->fn[PP_CUR]->name : v->fn[PP_PREV]->name, v->planned_ns,
	       v->budget_ns, v->nuntimed, v->no_fn ? ", own body derived (fn= beyond it)" : "");
	return 0;
}

/* The untimed calls measured alone at most. */
#define PP_ALONE_MAX 4
/* A call measured alone may come out this much above the own body that holds it. */
#define PP_ALONE_SLACK 1.1

/*
 * F's own body, which holds the calls the plan left untimed, differs in F's
 * direction: those calls are measured each alone, in runs of their own that
 * arm nothing else, sharing the own body's alpha, at most PP_ALONE_MAX of
 * them, those whose counting runs differed most in F's direction first (one
 * run of each revision: an order, not a verdict).  One that differs as F
 * does becomes a node under the own body, named with what its probes cost;
 * one that comes out more than the own body that holds it was changed by
 * its timing (a call too short to time, timed anyway), and the own body's
 * note says so.  A figure measured alone is from other runs than F's parts:
 * it is part of the own body's difference, not one more part beside it.
 */
int pp_attrib_measure_alone(struct pp_session *s, struct pp_fnstate *st)
{
	const struct pp_fnview *v = st->v;
	int self = -1, cand[PP_ALONE_MAX], n = 0, err = 0;
	const struct pp_quantity *sq;

	if (!v->nuntimed)
		return 0;
	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].parent == st->node && s->nodes[i].kind == PP_NODE_SELF)
			self = (int)i;
	if (self < 0 || s->nodes[self].sign != st->dir || !(sq = s->nodes[self].q))
		return 0;
	for (int k = 0; k < v->nu; k++) {
		int at = n;

		if (!pp_attrib_untimed(v, k))
			continue;
		while (at > 0 &&
		       st->dir * v->count_diff[cand[at - 1]] < st->dir * v->count_diff[k]) {
			if (at < PP_ALONE_MAX)
				cand[at] = cand[at - 1];
			at--;
		}
		if (at < PP_ALONE_MAX) {
			cand[at] = k;
			if (n < PP_ALONE_MAX)
				n++;
		}
	}
	for (int i = 0; i < n && !err; i++) {
		bool oom = false;
		struct pp_quantity *q = pp_attrib_unit_q_as(s, v, cand[i], true, &oom);
		const struct pp_settle_how how = {.deadline =
						      pp_attrib_plan_time(s, st->layer, st->chain),
						  .layer = st->layer + 1};

		if (!q)
			return oom ? -ENOMEM : 0;
		if (!q->alpha && sq->alpha > 0)
			q->alpha = pp_seq_child_alpha(sq->alpha, (size_t)n);
		err = pp_settle(s, &q, 1, &how);
		if (err || pp_attrib_beyond(q) != st->dir)
			continue;
		/* more than the own body that holds it: timing it changed what it does */
		if (st->dir * pp_attrib_near_end(q->cmp.diff, st->dir) >
		    PP_ALONE_SLACK * st->dir * pp_attrib_far_end(s->nodes[self].diff, st->dir))
			err = pp_attrib_alone_inflated(s, st, cand[i], self, q);
		else
			err = pp_attrib_alone_node(s, st, cand[i], self, q);
	}
	return err;
}
