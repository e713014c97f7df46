// SPDX-License-Identifier: MIT
/*
 * attrib_count.c - the calls that ran.  Before a function F is searched, its
 * calls are counted: ranges of its places are armed in runs of both
 * revisions (PP_Q_COUNT, one run each), and only their executions are read.
 * A range's count is the sum of its calls' (the calls of one function run
 * one after another), so a range that did not run holds no call that ran,
 * and one that did is cut and counted again, down to single calls.  A short
 * list that rode along in its caller's runs (attrib_riders.c) was counted
 * there.  The search then considers only the calls that ran in either
 * revision (pp_attrib_timed_in()): an interpreter's hundreds of calls
 * become the few that run, a list short enough is measured call by call,
 * with its callee groups over the whole list, and a long one is halved by
 * the calls that ran, not by those listed (its first batch groups its
 * callees' calls over the whole of it: pp_attrib_list_groups()); and the
 * counts plan F's arming (attrib_budget.c).
 *
 * A count is a count, not a time: nothing here is compared, and the runs
 * spend no error rate (the ranges' times in them only plan the arming).  A
 * call that ran in other runs but not in the counting ones is left out of
 * the parts: its time, if any, is in F's own body.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/log.h"
#include "pinpoint/measure/measure.h"
#include "pinpoint/search/attrib_priv.h"

/* A range of counted places, by index into the probed places. */
struct span {
	int a, b;
};

/* Pieces a range that ran is cut into for its next count. */
#define PP_COUNT_FANOUT 8

/* Revision @r's executions of @q per execution of the entry in its last run; NaN: none. */
static double last_execs(const struct pp_quantity *q, int r)
{
	const struct pp_series *e = &q->execs[r];

	if (q->absent[r])
		return 0;
	return e->n ? e->v[e->n - 1] : NAN;
}

/* Cut @sp into @k spans (at most its length) at @out; how many. */
static size_t cut(struct span sp, struct span *out, int k)
{
	int len = sp.b - sp.a + 1;

	if (k > len)
		k = len;
	for (int i = 0; i < k; i++)
		out[i] = (struct span){sp.a + (int)((long)len * i / k),
				       sp.a + (int)((long)len * (i + 1) / k) - 1};
	return (size_t)k;
}

/* Revision @r's most executions per execution of the entry in @q's runs; NaN: none. */
static double most_execs(const struct pp_quantity *q, int r)
{
	double most = NAN;

	for (size_t i = 0; i < q->execs[r].n; i++)
		if (isnan(most) || q->execs[r].v[i] > most)
			most = q->execs[r].v[i];
	return q->absent[r] ? 0 : most;
}

/*
 * A short list whose every call was measured, with its executions, in
 * runs of its caller's parts (it rode along: attrib_riders.c): those runs
 * counted it.  0 when they did (v->ran set), 1 when not, -ENOMEM.
 */
static int counted_as_riders(struct pp_session *s, struct pp_fnview *v)
{
	bool *ran = calloc((size_t)v->nu, sizeof(*ran));
	double *execs[2] = {calloc((size_t)v->nu, sizeof(double)),
			    calloc((size_t)v->nu, sizeof(double))};
	int err = 1;

	if (!ran || !execs[0] || !execs[1]) {
		err = -ENOMEM;
		goto out;
	}
	for (int k = 0; k < v->nu; k++) {
		bool oom = false;
		struct pp_quantity *q;

		if (!pp_attrib_probed(v, k))
			continue;
		q = pp_attrib_unit_q(s, v, k, &oom);
		if (oom) {
			err = -ENOMEM;
			goto out;
		}
		for (int r = 0; r < 2; r++) {
			execs[r][k] = most_execs(q, r);
			if (isnan(execs[r][k]))
				goto out;
		}
		ran[k] = execs[0][k] > 0 || execs[1][k] > 0;
		v->fig[k] = ran[k] ? q : NULL;
	}
	v->ran = ran;
	v->execs[0] = execs[0];
	v->execs[1] = execs[1];
	ran = NULL;
	execs[0] = execs[1] = NULL;
	for (int k = 0; k < v->nu; k++)
		v->nran += v->ran[k];
	err = 0;
out:
	if (err > 0)
		memset(v->fig, 0, (size_t)v->nu * sizeof(*v->fig));
	free(ran);
	free(execs[0]);
	free(execs[1]);
	return err;
}

int pp_attrib_count_calls(struct pp_session *s, struct pp_fnview *v, int layer)
{
	size_t max = PP_BATCH_MAX_SLOTS - 1, npend = 0, cap;
	struct pp_quantity **qs = NULL;
	struct span *pend = NULL, *next = NULL;
	int *pl = NULL, np = 0, err = 0;
	bool *ran = NULL;
	double *execs[2] = {NULL, NULL};

	v->listed = 0;
	for (int k = 0; k < v->nu; k++)
		v->listed += pp_attrib_probed(v, k);
	if (!v->listed || v->ran)
		return 0;
	v->fig = calloc((size_t)v->nu, sizeof(*v->fig));
	if (!v->fig)
		return -ENOMEM;
	/* a short list whose calls rode along in its caller's runs: counted there */
	if (v->listed <= PP_ATTRIB_SHORT) {
		err = counted_as_riders(s, v);
		if (err <= 0)
			return err;
		err = 0;
	}
	pl = calloc((size_t)v->listed, sizeof(*pl));
	ran = calloc((size_t)v->nu, sizeof(*ran));
	execs[0] = calloc((size_t)v->nu, sizeof(double));
	execs[1] = calloc((size_t)v->nu, sizeof(double));
	/* the pending spans are disjoint and not empty: at most one a place */
	cap = (size_t)v->listed;
	pend = calloc(cap, sizeof(*pend));
	next = calloc(cap, sizeof(*next));
	qs = calloc(max, sizeof(*qs));
	if (!pl || !ran || !execs[0] || !execs[1] || !pend || !next || !qs) {
		err = -ENOMEM;
		goto out;
	}
	for (int k = 0; k < v->nu; k++)
		if (pp_attrib_probed(v, k))
			pl[np++] = k;
	/* the first round: as many ranges as a run arms */
	npend = cut((struct span){0, np - 1}, pend, (int)max);
	while (npend) {
		size_t n = npend < max ? npend : max, nnext = 0;
		size_t runs0 = s->runs_used;

		for (size_t i = 0; i < n; i++) {
			qs[i] = pp_attrib_span_q(s, v, PP_Q_COUNT, pl[pend[i].a], pl[pend[i].b]);
			if (!qs[i]) {
				err = -ENOMEM;
				goto out;
			}
		}
		err = pp_measure(s, qs, n, 1, layer);
		if (err)
			goto out;
		if (s->runs_used == runs0) { /* the session's budget is spent: not counted */
			pr_dbg("the calls of %s: not counted (budget spent)",
			       v->fn[PP_CUR] ? v->fn[PP_CUR]->name : v->fn[PP_PREV]->name);
			goto out;
		}
		v->count_rounds++;
		for (size_t i = 0; i < n; i++) {
			double e[2] = {last_execs(qs[i], PP_PREV), last_execs(qs[i], PP_CUR)};

			if (isnan(e[0]) || isnan(e[1])) {
				pr_dbg("a count range was not measured: the calls are not counted");
				goto out;
			}
			if (!(e[0] > 0 || e[1] > 0))
				continue;
			if (pend[i].a == pend[i].b) {
				ran[pl[pend[i].a]] = true;
				v->fig[pl[pend[i].a]] = qs[i];
				execs[0][pl[pend[i].a]] = e[0];
				execs[1][pl[pend[i].a]] = e[1];
				continue;
			}
			nnext += cut(pend[i], next + nnext, PP_COUNT_FANOUT);
		}
		/* what this round did not reach waits behind what it cut */
		for (size_t i = n; i < npend; i++)
			next[nnext++] = pend[i];
		{
			struct span *t = pend;

			pend = next;
			next = t;
			npend = nnext;
		}
	}
	v->ran = ran;
	v->execs[0] = execs[0];
	v->execs[1] = execs[1];
	ran = NULL;
	execs[0] = execs[1] = NULL;
	v->nran = 0;
	for (int k = 0; k < v->nu; k++)
		v->nran += v->ran[k];
	pr_dbg("the calls of %s: %d of %d ran, counted in %d rounds",
	       v->fn[PP_CUR] ? v->fn[PP_CUR]->name : v->fn[PP_PREV]->name, v->nran, v->listed,
	       v->count_rounds);
out:
	if (!v->ran)
		memset(v->fig, 0, (size_t)v->nu * sizeof(*v->fig));
	free(pl);
	free(ran);
	free(execs[0]);
	free(execs[1]);
	free(pend);
	free(next);
	free(qs);
	return err;
}

void pp_attrib_view_free(struct pp_fnview *v)
{
	free(v->u);
	free(v->ran);
	free(v->execs[0]);
	free(v->execs[1]);
	free(v->fig);
	free(v->cost);
	free(v->each_ns);
	free(v->count_diff);
	free(v->untimed);
	free(v->why);
}
