// SPDX-License-Identifier: MIT
/*
 * plan_attrib.c - the attribution search (the default): name the dominant
 * cause of a slowdown and every significant one.
 *
 * At a slower function F, the two revisions' call lists are aligned
 * (align.c) and F's parts are measured in the same runs: its own body and,
 * for a list of up to PP_ATTRIB_SHORT places, every call at once with the
 * list's two halves riding along; a longer list is halved, the halves' halves
 * riding along, and a half is followed when it is found slower or faster
 * (significantly, and not shown within the threshold: core/stats_seq.h),
 * when its interval is too wide to call it empty, or when one of its halves
 * differs (an improvement can mask a regression in the same half).  Every
 * call found slower or faster becomes a node; a half found slower with no
 * slower call in it becomes a range node.  Calls only one revision makes are grouped under a
 * structural node, each with its cost in its revision.  What the parts leave of F's difference is
 * the remainder (a point estimate).  Then the slower calls are dug into, largest first, down to
 * --depth, for at most --max-paths calls.  While some of F's parts are measured again, the
 * parts of the call to be dug into first ride along in those runs (ride_next_layer).
 *
 * A call that has no probes (its callee was inlined, or it was removed by
 * the optimiser) cannot be measured: its time is part of F's own body, whose
 * node lists it ("inlined here").  A call timed in one revision only is
 * measured there alone and named so; its other revision's time is in F's
 * own body.  A call that came into F with inlined code is a call of F like
 * any other; one that one revision has only because the other calls what
 * it inlined is measured in that revision alone, as well.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats_seq.h"
#include "core/util.h"
#include "pinpoint/align.h"
#include "pinpoint/measure.h"
#include "pinpoint/plan.h"
#include "pinpoint/settle.h"

/* Call lists of up to this many places have every call measured at once. */
#define PP_ATTRIB_SHORT 24

struct attrib {
	struct pp_session *s;
	int paths; /* calls dug into */
	size_t nseen;
	const struct pp_prog_fn *seen[256]; /* functions inspected */
};

/* One function being searched: its aligned call list. */
struct fnview {
	const struct pp_prog_fn *fn[2];
	struct pp_unit *u;
	int nu;
};

static bool timed_in(const struct fnview *v, int k, int r)
{
	int at = v->u[k].at[r];

	return at >= 0 && pp_call_timed(&v->fn[r]->calls[at]);
}

/* The quantity of place @k alone, or NULL when it cannot be timed in either revision. */
static struct pp_quantity *unit_q(struct pp_session *s, const struct fnview *v, int k, bool *oom)
{
	unsigned first[2] = {0, 0}, last[2] = {0, 0};
	bool absent[2];
	struct pp_quantity *q;

	for (int r = 0; r < 2; r++) {
		absent[r] = !timed_in(v, k, r);
		if (!absent[r])
			first[r] = last[r] = (unsigned)v->u[k].at[r];
	}
	if (absent[0] && absent[1])
		return NULL;
	q = pp_quantity_range(s, v->fn, first, last, absent);
	if (!q)
		*oom = true;
	return q;
}

/* The quantity of places @u0..@u1 together. */
static struct pp_quantity *range_q(struct pp_session *s, const struct fnview *v, int u0, int u1)
{
	unsigned first[2] = {0, 0}, last[2] = {0, 0};
	bool absent[2] = {true, true};

	for (int k = u0; k <= u1; k++)
		for (int r = 0; r < 2; r++) {
			int at = v->u[k].at[r];

			if (at < 0)
				continue;
			if (absent[r] || (unsigned)at < first[r])
				first[r] = (unsigned)at;
			if (absent[r] || (unsigned)at > last[r])
				last[r] = (unsigned)at;
			absent[r] = false;
		}
	return pp_quantity_range(s, v->fn, first, last, absent);
}

static int push(struct pp_quantity **batch, size_t *n, size_t max, struct pp_quantity *q)
{
	if (!q)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++)
		if (batch[i] == q)
			return 0;
	if (*n < max)
		batch[(*n)++] = q;
	return 0;
}

/* The quantities that show places @u0..@u1: every call, or halves and quarters. */
static int parts(struct pp_session *s, const struct fnview *v, int u0, int u1,
		 struct pp_quantity **batch, size_t *n, size_t max)
{
	int len = u1 - u0 + 1, mid = u0 + len / 2 - 1;
	bool oom = false;
	int err = 0;

	if (len <= 0)
		return 0;
	if (len <= PP_ATTRIB_SHORT) {
		for (int k = u0; k <= u1 && !err; k++) {
			struct pp_quantity *q = unit_q(s, v, k, &oom);

			if (q)
				err = push(batch, n, max, q);
		}
		if (len >= 3 && !err)
			err = push(batch, n, max, range_q(s, v, u0, mid));
		if (len >= 3 && !err)
			err = push(batch, n, max, range_q(s, v, mid + 1, u1));
		return oom ? -ENOMEM : err;
	}
	err = push(batch, n, max, range_q(s, v, u0, mid));
	if (!err)
		err = push(batch, n, max, range_q(s, v, mid + 1, u1));
	for (int h = 0; h < 2 && !err; h++) {
		int a = h ? mid + 1 : u0, b = h ? u1 : mid, m = a + (b - a + 1) / 2 - 1;

		err = push(batch, n, max, range_q(s, v, a, m));
		if (!err)
			err = push(batch, n, max, range_q(s, v, m + 1, b));
	}
	return err;
}

/* The parts @batch[from..n) measured under a comparison of @alpha share it. */
static void share_alpha(struct pp_quantity **batch, size_t from, size_t n, double alpha)
{
	for (size_t i = from; i < n; i++)
		if (!batch[i]->alpha && alpha > 0)
			batch[i]->alpha = pp_seq_child_alpha(alpha, n - from);
}

static int view(struct fnview *v, const struct pp_prog_fn *const fn[2])
{
	v->fn[0] = fn[0];
	v->fn[1] = fn[1];
	v->nu = pp_align(fn[PP_PREV], fn[PP_CUR], &v->u);
	return v->nu < 0 ? v->nu : 0;
}

int pp_plan_attrib_ride_along(struct pp_session *s, struct pp_quantity **batch, size_t *n,
			      size_t max)
{
	const struct pp_prog_fn *entry[2] = {s->rev[PP_PREV].entry, s->rev[PP_CUR].entry};
	struct fnview v;
	size_t from = *n;
	int err = view(&v, entry);

	if (err)
		return err;

	err = push(batch, n, max, pp_quantity_get(s, PP_Q_SELF, entry, 0, 0));
	if (!err)
		err = parts(s, &v, 0, v.nu - 1, batch, n, max);
	if (!err)
		share_alpha(batch, from, *n, 1 - s->opt->confidence);
	free(v.u);
	return err;
}

/* Significantly slower, or faster, and not shown within the threshold. */
static int beyond(const struct pp_quantity *q)
{
	if (!q || !q->decided)
		return 0;
	if (q->verdict == PP_V_SLOWER)
		return 1;
	if (q->verdict == PP_V_FASTER)
		return -1;
	return 0;
}

/* Measure @qs once, then settle them, @ride's quantities (or none) riding along. */
static int settle_all(struct pp_session *s, struct pp_quantity **qs, size_t n,
		      const struct pp_ride *ride)
{
	int err = pp_measure(s, qs, n, s->opt->measurements, false);

	return err ? err : pp_settle_ride(s, qs, n, ride);
}

/* The node of place @k under @parent (F's node or its structural group). */
static int unit_node(struct pp_session *s, const struct fnview *v, int k, int parent,
		     enum pp_node_kind kind, const struct pp_quantity *q)
{
	int i = pp_node_add(s, kind, parent, v->fn, q);
	struct pp_node *n;

	if (i < 0)
		return -1;
	n = &s->nodes[i];
	for (int r = 0; r < 2; r++) {
		n->first[r] = v->u[k].at[r] >= 0 ? (unsigned)v->u[k].at[r] : 1;
		n->last[r] = v->u[k].at[r] >= 0 ? (unsigned)v->u[k].at[r] : 0;
	}
	n->sign = beyond(q);
	return i;
}

struct fnstate {
	struct attrib *a;
	int layer; /* F's */
	const struct fnview *v;
	int node;	/* F's node */
	int group;	/* the structural group under it, -1 until needed */
	char *inlined;	/* "g (file:line), ..." */
	bool one_sided; /* a call is timed in one revision and inlined in the other */
	size_t ninlined;
};

/* Call @k of @fn, which has no probes, goes into the own body's note. */
static void note_inlined(struct fnstate *st, const char *what, const struct pp_prog_fn *fn,
			 unsigned k)
{
	const struct pp_prog_call *c = &fn->calls[k];
	char *n = NULL, *label = pp_prog_call_label(fn, k);

	if (label && asprintf(&n, "%s%s%s (%s:%u)%s", st->inlined ? st->inlined : "",
			      st->inlined ? ", " : "", label, c->file, c->line, what) < 0)
		n = NULL;
	free(label);
	if (!n)
		return;
	free(st->inlined);
	st->inlined = n;
	st->ninlined++;
}

/* The place of call @at of revision @r, or -1. */
static int place_of(const struct fnview *v, int r, int at)
{
	for (int k = 0; k < v->nu; k++)
		if (v->u[k].at[r] == at)
			return k;
	return -1;
}

/*
 * Whether place @k, a call of revision @r only, is so because the revisions
 * inlined differently: it came into F by inlining, and the nearest call it
 * came through that both revisions have is timed in the other one, where
 * the call's time is part of that call's.
 */
static bool inlined_in_one(const struct fnview *v, int k, int r)
{
	const struct pp_prog_fn *fn = v->fn[r];
	uint32_t via = fn->calls[v->u[k].at[r]].via;

	for (; via; via = fn->calls[via - 1].via) {
		int p = place_of(v, r, (int)via - 1), o = p >= 0 ? v->u[p].at[1 - r] : -1;

		if (o >= 0)
			return pp_call_timed(&v->fn[1 - r]->calls[o]);
	}
	return false;
}

/* Nodes for places @u0..@u1, all measured; returns how many slower ones, or -ENOMEM. */
static int emit_units(struct pp_session *s, struct fnstate *st, int u0, int u1)
{
	const struct fnview *v = st->v;
	int slower = 0;

	for (int k = u0; k <= u1; k++) {
		bool oom = false, both = v->u[k].at[0] >= 0 && v->u[k].at[1] >= 0;
		struct pp_quantity *q = unit_q(s, v, k, &oom);
		int i, r = v->u[k].at[PP_CUR] >= 0 ? PP_CUR : PP_PREV;

		if (oom)
			return -ENOMEM;
		if (!q) { /* no probes in either revision: part of the own body */
			/* What came in with an inlined call is inside the one noted. */
			if (v->fn[r]->calls[v->u[k].at[r]].via)
				continue;
			note_inlined(st,
				     both	   ? ""
				     : r == PP_CUR ? " only in the current revision"
						   : " only in the previous revision",
				     v->fn[r], (unsigned)v->u[k].at[r]);
			continue;
		}
		if (both && !q->absent[0] && !q->absent[1]) {
			if (!beyond(q) && !(q->verdict == PP_V_UNDECIDED &&
					    fabs(q->cmp.diff.centre) > q->threshold_ns))
				continue;
			i = unit_node(s, v, k, st->node, PP_NODE_CALL, q);
			if (i < 0)
				return -ENOMEM;
			if (q->verdict == PP_V_UNDECIDED)
				s->nodes[i].stop = "undecided: the runs allowed ran out before its "
						   "interval could decide";
			slower += s->nodes[i].sign > 0;
			continue;
		}
		if (both) { /* timed in one revision only */
			int t = q->absent[PP_PREV] ? PP_CUR : PP_PREV;

			st->one_sided = true;
			note_inlined(st,
				     t == PP_CUR ? " in the previous revision only"
						 : " in the current revision only",
				     v->fn[1 - t], (unsigned)v->u[k].at[1 - t]);
			i = unit_node(s, v, k, st->node, PP_NODE_CALL, q);
			if (i < 0)
				return -ENOMEM;
			s->nodes[i].stop = t == PP_CUR
					       ? "timed in the current revision only: inlined in "
						 "the previous one, where its time is part of the "
						 "own body"
					       : "timed in the previous revision only: inlined in "
						 "the current one, where its time is part of the "
						 "own body";
			slower += s->nodes[i].sign > 0;
			continue;
		}
		if (inlined_in_one(v, k, r)) {
			st->one_sided = true;
			i = unit_node(s, v, k, st->node, PP_NODE_CALL, q);
			if (i < 0)
				return -ENOMEM;
			s->nodes[i].stop =
			    r == PP_CUR ? "timed in the current revision only: it came with "
					  "inlined code, which the previous one calls, where its "
					  "time is part of that call"
					: "timed in the previous revision only: it came with "
					  "inlined code, which the current one calls, where its "
					  "time is part of that call";
			slower += s->nodes[i].sign > 0;
			continue;
		}
		if (st->group < 0) {
			char *why = NULL;

			st->group = pp_node_add(s, PP_NODE_STRUCTURAL, st->node, v->fn, NULL);
			if (st->group < 0)
				return -ENOMEM;
			pp_same_call_list(v->fn[PP_PREV], v->fn[PP_CUR], &why);
			s->nodes[st->group].detail = why;
			s->nodes[st->group].diff = (struct pp_interval){0, 0, 0};
		}
		i = unit_node(s, v, k, st->group, r == PP_CUR ? PP_NODE_ADDED : PP_NODE_REMOVED, q);
		if (i < 0)
			return -ENOMEM;
		slower += s->nodes[i].sign > 0; /* an added call explains its range */
		s->nodes[st->group].diff.centre += q->cmp.diff.centre;
		s->nodes[st->group].diff.low += q->cmp.diff.low;
		s->nodes[st->group].diff.high += q->cmp.diff.high;
	}
	return slower;
}

static int range_node(struct pp_session *s, struct fnstate *st, int u0, int u1,
		      const struct pp_quantity *q)
{
	int i = pp_node_add(s, PP_NODE_RANGE, st->node, st->v->fn, q);

	if (i < 0)
		return -ENOMEM;
	for (int r = 0; r < 2; r++) {
		s->nodes[i].first[r] = q->absent[r] ? 1 : r == PP_CUR ? q->first : q->prev_first;
		s->nodes[i].last[r] = q->absent[r] ? 0 : r == PP_CUR ? q->last : q->prev_last;
	}
	s->nodes[i].sign = 1;
	s->nodes[i].stop = "slower only as a range";
	(void)u0;
	(void)u1;
	return 0;
}

static bool seen(const struct attrib *a, const struct pp_prog_fn *fn)
{
	for (size_t i = 0; i < a->nseen; i++)
		if (a->seen[i] == fn)
			return true;
	return false;
}

/* Does open comparison @q time place @k of @v (its call alone, or a range holding it)? */
static bool times_place(const struct pp_quantity *q, const struct fnview *v, int k)
{
	for (int r = 0; r < 2; r++) {
		int at = v->u[k].at[r];
		unsigned first = r == PP_CUR ? q->first : q->prev_first;
		unsigned last = r == PP_CUR ? q->last : q->prev_last;

		if (q->kind == PP_Q_RANGE && q->fn[r] == v->fn[r] && !q->absent[r] && at >= 0 &&
		    (unsigned)at >= first && (unsigned)at <= last)
			return true;
	}
	return false;
}

struct next_ride {
	const struct fnstate *st;
	int u0, u1;
	struct pp_quantity **qs; /* the comparisons being settled */
	size_t nq;
};

/*
 * While some parts of F are settled, the parts of the call the search will
 * dig into first ride along: the slower call with the largest difference, if
 * it can be dug into and no comparison still open times it (its callee's
 * probes would add their cost to that comparison's later rounds only).
 */
static int ride_next_layer(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *n,
			   size_t max)
{
	struct next_ride *nr = arg;
	const struct fnstate *st = nr->st;
	const struct fnview *v = st->v;
	const struct pp_prog_fn *callee[2];
	struct pp_quantity *lead = NULL;
	struct fnview cv;
	int best = -1, err;

	if (st->a->paths >= s->opt->max_paths)
		return 0;
	for (int k = nr->u0; k <= nr->u1; k++) {
		bool oom = false;
		struct pp_quantity *q;

		if (v->u[k].at[0] < 0 || v->u[k].at[1] < 0)
			continue;
		q = unit_q(s, v, k, &oom);
		if (oom)
			return -ENOMEM;
		if (!q || q->absent[0] || q->absent[1] || beyond(q) <= 0)
			continue;
		if (!lead || q->cmp.diff.centre > lead->cmp.diff.centre) {
			lead = q;
			best = k;
		}
	}
	if (best < 0)
		return 0;
	for (size_t i = 0; i < nr->nq; i++)
		if (!nr->qs[i]->decided && times_place(nr->qs[i], v, best))
			return 0;
	{
		const int at[2] = {v->u[best].at[PP_PREV], v->u[best].at[PP_CUR]};

		if (pp_dig_stop(s, v->fn, at, st->layer, callee) || seen(st->a, callee[PP_CUR]))
			return 0;
	}
	err = view(&cv, callee);
	if (err)
		return err;
	err = push(out, n, max, pp_quantity_get(s, PP_Q_SELF, callee, 0, 0));
	if (!err)
		err = parts(s, &cv, 0, cv.nu - 1, out, n, max);
	free(cv.u);
	return err;
}

/* Find the parts of places @u0..@u1 that differ; returns slower nodes made, or an error. */
static int explore(struct pp_session *s, struct fnstate *st, int u0, int u1,
		   struct pp_quantity *extra, double alpha)
{
	const struct fnview *v = st->v;
	struct pp_quantity *batch[PP_BATCH_MAX_SLOTS], *half[2] = {NULL, NULL};
	int len = u1 - u0 + 1, mid = u0 + len / 2 - 1, slower = 0, err;
	size_t n = 0;

	if (extra)
		batch[n++] = extra;
	err = parts(s, v, u0, u1, batch, &n, PP_BATCH_MAX_SLOTS);
	if (!err) {
		struct next_ride nr = {st, u0, u1, batch, n};
		const struct pp_ride ride = {ride_next_layer, &nr};

		share_alpha(batch, 0, n, alpha);
		err = settle_all(s, batch, n, len <= PP_ATTRIB_SHORT ? &ride : NULL);
	}
	if (err)
		return err;
	if (len >= 3 || len > PP_ATTRIB_SHORT) {
		half[0] = range_q(s, v, u0, mid);
		half[1] = range_q(s, v, mid + 1, u1);
		if (!half[0] || !half[1])
			return -ENOMEM;
	}
	if (len <= PP_ATTRIB_SHORT) {
		for (int h = 0; h < 2; h++) {
			int a = half[0] ? (h ? mid + 1 : u0) : (h ? u1 + 1 : u0);
			int b = half[0] ? (h ? u1 : mid) : u1;
			int got = a <= b ? emit_units(s, st, a, b) : 0;

			if (got < 0)
				return got;
			slower += got;
			if (half[h] && !got && beyond(half[h]) > 0) {
				err = range_node(s, st, a, b, half[h]);
				if (err)
					return err;
				slower++;
			}
		}
		return slower;
	}
	for (int h = 0; h < 2; h++) {
		int a = h ? mid + 1 : u0, b = h ? u1 : mid, m = a + (b - a + 1) / 2 - 1;
		struct pp_quantity *q = half[h], *qa = range_q(s, v, a, m),
				   *qb = range_q(s, v, m + 1, b);
		bool follow;
		int got;

		if (!qa || !qb)
			return -ENOMEM;
		follow = beyond(q) || q->verdict == PP_V_UNDECIDED ||
			 q->cmp.diff.low < -q->threshold_ns || q->cmp.diff.high > q->threshold_ns ||
			 beyond(qa) || beyond(qb);
		if (!follow)
			continue;
		got = explore(s, st, a, b, NULL, q->alpha);
		if (got < 0)
			return got;
		slower += got;
		if (!got && beyond(q) > 0) {
			err = range_node(s, st, a, b, q);
			if (err)
				return err;
			slower++;
		}
	}
	return slower;
}

/* Whether runs abandoned measured executions: their own bodies lose their calls' exits. */
static bool lost_runs(const struct pp_session *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].lost)
			return true;
	return false;
}

/* The slower calls under @node that can be dug into, largest first; how many, or -ENOMEM. */
static int dig_list(const struct pp_session *s, int node, int **out)
{
	int *l = NULL, n = 0;

	for (size_t i = 0; i < s->nnodes; i++) {
		const struct pp_node *x = &s->nodes[i];
		int *nl;

		if (x->parent != node || x->kind != PP_NODE_CALL || x->sign <= 0 || x->stop)
			continue;
		nl = realloc(l, (size_t)(n + 1) * sizeof(*nl));
		if (!nl) {
			free(l);
			return -ENOMEM;
		}
		l = nl;
		l[n++] = (int)i;
	}
	for (int i = 1; i < n; i++)
		for (int j = i;
		     j > 0 && s->nodes[l[j]].diff.centre > s->nodes[l[j - 1]].diff.centre; j--) {
			int t = l[j];

			l[j] = l[j - 1];
			l[j - 1] = t;
		}
	*out = l;
	return n;
}

static int search_fn(struct attrib *a, int node, const struct pp_prog_fn *const fn[2], int layer)
{
	struct pp_session *s = a->s;
	struct fnstate st = {0};
	struct fnview v;
	struct pp_quantity *self;
	double rest;
	int *dig = NULL;
	int err, i, ndig;
	size_t first_child = s->nnodes;

	if (a->nseen < 256)
		a->seen[a->nseen++] = fn[PP_CUR];
	err = view(&v, fn);
	if (err)
		return err;
	st.a = a;
	st.layer = layer;
	st.v = &v;
	st.node = node;
	st.group = -1;
	self = pp_quantity_get(s, PP_Q_SELF, fn, 0, 0);
	if (!self) {
		err = -ENOMEM;
		goto out;
	}
	{
		const struct pp_quantity *fq = s->nodes[node].q;
		double alpha = fq && fq->alpha > 0 ? fq->alpha : 1 - s->opt->confidence;

		if (!v.nu && !self->alpha)
			self->alpha = alpha;
		err = v.nu ? explore(s, &st, 0, v.nu - 1, self, alpha)
			   : settle_all(s, &self, 1, NULL);
	}
	if (err < 0)
		goto out;
	err = 0;
	i = pp_node_add(s, PP_NODE_SELF, node, fn, self);
	if (i < 0) {
		err = -ENOMEM;
		goto out;
	}
	/* With a call inlined in one revision only, the own body's difference holds
	 * that call's time on one side: no verdict of its own. */
	s->nodes[i].sign = st.one_sided || lost_runs(s) ? 0 : beyond(self);
	if (lost_runs(s) && !st.inlined)
		s->nodes[i].detail =
		    strdup("executions were abandoned (longjmp, exceptions): an own "
			   "body is not told from its calls, no verdict of its own");
	if (st.inlined && asprintf(&s->nodes[i].detail, "inlined here: %s", st.inlined) < 0)
		s->nodes[i].detail = NULL;
	if (st.group >= 0) {
		struct pp_node *g = &s->nodes[st.group];

		g->sign = g->diff.low > 0 && g->diff.centre > self->threshold_ns     ? 1
			  : g->diff.high < 0 && -g->diff.centre > self->threshold_ns ? -1
										     : 0;
	}
	/* The remainder: F's difference less its parts' (point estimates). */
	rest = s->nodes[node].diff.centre;
	for (size_t k = first_child; k < s->nnodes; k++)
		if (s->nodes[k].parent == node)
			rest -= s->nodes[k].diff.centre;
	i = pp_node_add(s, PP_NODE_REST, node, fn, NULL);
	if (i < 0) {
		err = -ENOMEM;
		goto out;
	}
	s->nodes[i].diff = (struct pp_interval){rest, rest, rest};
	s->nodes[i].stop = "unexplained: spread over calls below the threshold, or noise";

	/* Dig into the slower calls, largest first. */
	ndig = dig_list(s, node, &dig);
	if (ndig < 0) {
		err = ndig;
		goto out;
	}
	for (int d = 0; d < ndig; d++) {
		const struct pp_prog_fn *callee[2];
		const int c = dig[d];
		const int at[2] = {(int)s->nodes[c].first[PP_PREV], (int)s->nodes[c].first[PP_CUR]};
		const char *stop = pp_dig_stop(s, fn, at, layer, callee);

		if (!stop && seen(a, callee[PP_CUR]))
			stop = "recursion: already inspected";
		if (!stop && a->paths >= s->opt->max_paths) {
			stop = "budget: --max-paths reached";
			s->budget_cut = true;
		}
		if (stop) {
			s->nodes[c].stop = stop;
			continue;
		}
		a->paths++;
		err = search_fn(a, c, callee, layer + 1);
		if (err)
			goto out;
	}
out:
	free(dig);
	free(st.inlined);
	free(v.u);
	return err;
}

int pp_plan_attrib(struct pp_session *s, int root)
{
	struct attrib *a = calloc(1, sizeof(*a));
	const struct pp_prog_fn *entry[2] = {s->nodes[root].fn[0], s->nodes[root].fn[1]};
	int err;

	if (!a)
		return -ENOMEM;
	a->s = s;
	err = search_fn(a, root, entry, 0);
	free(a);
	return err;
}
