// SPDX-License-Identifier: MIT
/*
 * search_attrib.c - the attribution search (the default): name the dominant
 * cause of a slowdown and every significant one.
 *
 * At a slower function F, the two revisions' call lists are aligned
 * (align.c) and F's parts are measured in the same runs, with F's whole time
 * beside them: its own body and, for a list of up to PP_ATTRIB_SHORT
 * timed places, every call at once with the list's two halves riding along; a
 * longer list is halved, the halves' halves riding along, and a half is
 * followed only when it is found slower or faster (a regression or
 * improvement of at least the threshold: core/stats_seq.h), which is what
 * lets it hand its alpha on (doc/statistics.md, "A session").  The parts are
 * measured together until the last of them is settled, so that the tree's
 * numbers come from the same runs (tree.c); a part whose interval shows it
 * can no longer lead F's slowdown (its upper end below the lower end of the
 * part that leads) nor be a named improvement is left open at what is known
 * (matters()), and a time plan gives F's parts their share of what is left
 * of --max-time.  Every call found slower or faster becomes a node, and so
 * does one left open or undecided that may still be as large as the
 * threshold; a half found slower with no slower call in it becomes a range
 * node.  Calls only one revision makes are grouped under a structural node,
 * each with its cost in its revision.  What the parts leave of F's
 * difference is the remainder.  Then the slower calls are dug into, largest
 * first, down to --depth, for at most --max-paths calls; the faster ones
 * too where F has a slower part they may mask, or where F is itself an
 * improvement.  While some of F's parts are measured again, the parts of
 * the call to be dug into first ride along in those runs (ride_next_layer).
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
#include "pinpoint/search/align.h"
#include "pinpoint/measure/decide.h"
#include "pinpoint/measure/measure.h"
#include "pinpoint/search/search.h"
#include "pinpoint/measure/settle.h"
#include "pinpoint/search/tree.h"

/* Call lists of up to this many places have every call measured at once. */
#define PP_ATTRIB_SHORT 24

struct attrib {
	struct pp_session *s;
	bool off_chain;	      /* the search has left the bottleneck chain */
	int paths;	      /* calls dug into */
	struct pp_fnset seen; /* functions inspected */
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

/* Places of @u0..@u1 with a timed call in either revision: what measuring them costs. */
static int timed_places(const struct fnview *v, int u0, int u1)
{
	int t = 0;

	for (int k = u0; k <= u1; k++)
		t += timed_in(v, k, PP_PREV) || timed_in(v, k, PP_CUR);
	return t;
}

/*
 * Where places @u0..@u1 are halved: the first half ends at the place that
 * holds half of their timed places (calls of inlined code make long lists of
 * places of which few may be timed).
 */
static int split(const struct fnview *v, int u0, int u1)
{
	int t = timed_places(v, u0, u1), want = t / 2, seen = 0;

	if (want < 1)
		return u0 + (u1 - u0 + 1) / 2 - 1;
	for (int k = u0; k <= u1; k++) {
		seen += timed_in(v, k, PP_PREV) || timed_in(v, k, PP_CUR);
		if (seen == want)
			return k;
	}
	return u1;
}

/* @q, the range of places @u0..@u1, is their calls' ranges added up in the same run. */
static int derive_from_units(struct pp_session *s, const struct fnview *v, struct pp_quantity *q,
			     int u0, int u1)
{
	struct pp_quantity **terms = calloc((size_t)(u1 - u0 + 1), sizeof(*terms));
	signed char *signs = calloc((size_t)(u1 - u0 + 1), sizeof(*signs));
	size_t n = 0;
	int err = 0;

	if (!terms || !signs) {
		err = -ENOMEM;
		goto out;
	}
	for (int k = u0; k <= u1; k++) {
		bool oom = false;
		struct pp_quantity *t = unit_q(s, v, k, &oom);

		if (oom) {
			err = -ENOMEM;
			goto out;
		}
		if (t) {
			terms[n] = t;
			signs[n++] = 1;
		}
	}
	err = n ? pp_quantity_derive(q, terms, signs, n) : 0;
out:
	free(terms);
	free(signs);
	return err;
}

/*
 * The callee of place @k when the place is a direct call timed in both
 * revisions to the same function, by name (its call list entries); NULL
 * otherwise: only such calls form callee groups.
 */
static const char *group_callee(const struct fnview *v, int k)
{
	const struct pp_prog_call *c[2];

	for (int r = 0; r < 2; r++) {
		if (!timed_in(v, k, r))
			return NULL;
		c[r] = &v->fn[r]->calls[v->u[k].at[r]];
		if (pp_call_indirect(c[r]) || !c[r]->callee[0])
			return NULL;
	}
	return strcmp(c[0]->callee, c[1]->callee) ? NULL : c[PP_CUR]->callee;
}

/*
 * The group of @callee's calls among places @u0..@u1 (two or more), derived
 * from each call's quantity: NULL with *@oom false when there are fewer
 * than two.
 */
static struct pp_quantity *group_q(struct pp_session *s, const struct fnview *v, int u0, int u1,
				   const char *callee, bool *oom)
{
	struct pp_quantity **terms = calloc((size_t)(u1 - u0 + 1), sizeof(*terms)), *q = NULL;
	signed char *signs = calloc((size_t)(u1 - u0 + 1), sizeof(*signs));
	unsigned first[2] = {0, 0}, last[2] = {0, 0};
	const struct pp_prog_fn *cfn[2] = {NULL, NULL};
	size_t n = 0;

	if (!terms || !signs) {
		*oom = true;
		goto out;
	}
	for (int k = u0; k <= u1 && !*oom; k++) {
		const char *c = group_callee(v, k);

		if (!c || strcmp(c, callee))
			continue;
		terms[n] = unit_q(s, v, k, oom);
		if (!terms[n])
			continue;
		signs[n] = 1;
		for (int r = 0; r < 2; r++) {
			unsigned at = (unsigned)v->u[k].at[r];

			if (!n) {
				first[r] = at;
				cfn[r] = pp_program_resolve(&s->rev[r].prog, v->fn[r],
							    &v->fn[r]->calls[at]);
			}
			last[r] = at;
		}
		n++;
	}
	if (*oom || n < 2)
		goto out;
	q = pp_quantity_group(s, v->fn, callee, cfn, first, last);
	if (!q || pp_quantity_derive(q, terms, signs, n)) {
		*oom = true;
		q = NULL;
	}
out:
	free(terms);
	free(signs);
	return q;
}

/*
 * The callee groups of places @u0..@u1: for each callee called from two
 * places or more, the group of its calls, in @out (at most @max); how
 * many, or -ENOMEM.
 */
static int groups_of(struct pp_session *s, const struct fnview *v, int u0, int u1,
		     struct pp_quantity **out, int max)
{
	int n = 0;

	if (!s->opt->groups)
		return 0;
	for (int k = u0; k <= u1 && n < max; k++) {
		const char *c = group_callee(v, k);
		bool oom = false, known = false;
		struct pp_quantity *q;

		if (!c)
			continue;
		for (int i = 0; i < n && !known; i++)
			known = !strcmp(out[i]->callee, c);
		if (known)
			continue;
		q = group_q(s, v, k, u1, c, &oom);
		if (oom)
			return -ENOMEM;
		if (q)
			out[n++] = q;
	}
	return n;
}

/* The callee groups among @qs[0..@n) (a batch of F's parts), in @out; how many. */
static int groups_in(struct pp_quantity *const *qs, size_t n, struct pp_quantity **out, int max)
{
	int ng = 0;

	for (size_t i = 0; i < n && ng < max; i++)
		if (qs[i]->kind == PP_Q_GROUP)
			out[ng++] = qs[i];
	return ng;
}

/* Whether place @k is one of group @g's calls. */
static bool in_group(const struct pp_quantity *g, const struct fnview *v, int k)
{
	for (size_t t = 0; t < g->nterms; t++)
		if (!g->terms[t]->absent[PP_CUR] && v->u[k].at[PP_CUR] >= 0 &&
		    g->terms[t]->first == (unsigned)v->u[k].at[PP_CUR])
			return true;
	return false;
}

/*
 * Whether @fn may call itself, in either revision: through direct calls
 * that have tables, searched breadth first (calls through pointers are not
 * followed: doc/semantics.md says what that misses).
 */
static bool may_recurse(const struct pp_session *s, const struct pp_prog_fn *const fn[2])
{
	for (int r = 0; r < 2; r++) {
		const struct pp_program *prog = &s->rev[r].prog;
		const struct pp_prog_fn *queue[256];
		size_t head = 0, tail = 0;

		queue[tail++] = fn[r];
		while (head < tail) {
			const struct pp_prog_fn *f = queue[head++];

			for (uint32_t k = 0; k < f->ncalls; k++) {
				const struct pp_prog_fn *c;
				bool known = false;

				if (!pp_call_timed(&f->calls[k]))
					continue;
				c = pp_program_resolve(prog, f, &f->calls[k]);
				if (!c)
					continue;
				if (c == fn[r])
					return true;
				for (size_t i = 0; i < tail && !known; i++)
					known = queue[i] == c;
				if (known)
					continue;
				if (tail == 256)
					return true; /* too many to follow: assume it may */
				queue[tail++] = c;
			}
		}
	}
	return false;
}

/* The quantities that show places @u0..@u1: every call, or halves and quarters. */
static int parts(struct pp_session *s, const struct fnview *v, int u0, int u1,
		 struct pp_quantity **batch, size_t *n, size_t max)
{
	int len = timed_places(v, u0, u1), mid = split(v, u0, u1);
	bool oom = false;
	int err = 0;

	if (u1 < u0)
		return 0;
	if (len <= PP_ATTRIB_SHORT) {
		for (int k = u0; k <= u1 && !err; k++) {
			struct pp_quantity *q = unit_q(s, v, k, &oom);

			if (q)
				err = push(batch, n, max, q);
		}
		/* the halves are their calls added up in the same runs */
		for (int h = 0; h < 2 && len >= 3 && !err; h++) {
			struct pp_quantity *half = range_q(s, v, h ? mid + 1 : u0, h ? u1 : mid);

			err = half ? derive_from_units(s, v, half, h ? mid + 1 : u0, h ? u1 : mid)
				   : -ENOMEM;
			if (!err)
				err = push(batch, n, max, half);
		}
		/* and so is each callee's group of calls */
		if (!err && !oom) {
			struct pp_quantity *g[PP_ATTRIB_SHORT];
			int ng = groups_of(s, v, u0, u1, g, PP_ATTRIB_SHORT);

			err = ng < 0 ? ng : 0;
			for (int i = 0; i < ng && !err; i++)
				err = push(batch, n, max, g[i]);
		}
		return oom ? -ENOMEM : err;
	}
	/* the quarters are armed, the halves are their quarters added up */
	for (int h = 0; h < 2 && !err; h++) {
		int a = h ? mid + 1 : u0, b = h ? u1 : mid, m = split(v, a, b);
		struct pp_quantity *q[2] = {range_q(s, v, a, m), range_q(s, v, m + 1, b)};
		struct pp_quantity *half = range_q(s, v, a, b);
		const signed char plus[2] = {1, 1};

		if (!q[0] || !q[1] || !half)
			return -ENOMEM;
		err = pp_quantity_derive(half, q, plus, 2);
		if (!err)
			err = push(batch, n, max, half);
		if (!err)
			err = push(batch, n, max, q[0]);
		if (!err)
			err = push(batch, n, max, q[1]);
	}
	return err;
}

/*
 * A function's own body is its whole less its calls, measured in the same
 * runs: @self from @total and the quantities that show places 0..nu-1 (each
 * call of a short list, the quarters of a long one), unless the function
 * may call itself, where a call's range would hold its nested calls' ranges
 * too and only the runtime's fn= item tells them apart.
 */
static int derive_self(struct pp_session *s, const struct fnview *v, struct pp_quantity *self,
		       struct pp_quantity *total)
{
	struct pp_quantity **terms;
	signed char *signs;
	size_t n = 0;
	int err = 0, len = timed_places(v, 0, v->nu - 1);

	if (self->nterms || may_recurse(s, v->fn))
		return 0;
	terms = calloc((size_t)v->nu + 5, sizeof(*terms));
	signs = calloc((size_t)v->nu + 5, sizeof(*signs));
	if (!terms || !signs) {
		err = -ENOMEM;
		goto out;
	}
	terms[n] = total;
	signs[n++] = 1;
	if (len <= PP_ATTRIB_SHORT) {
		for (int k = 0; k < v->nu; k++) {
			bool oom = false;
			struct pp_quantity *q = unit_q(s, v, k, &oom);

			if (oom) {
				err = -ENOMEM;
				goto out;
			}
			if (q) {
				terms[n] = q;
				signs[n++] = -1;
			}
		}
	} else {
		int mid = split(v, 0, v->nu - 1);

		for (int h = 0; h < 2; h++) {
			int a = h ? mid + 1 : 0, b = h ? v->nu - 1 : mid, m = split(v, a, b);

			terms[n] = range_q(s, v, a, m);
			signs[n++] = -1;
			terms[n] = range_q(s, v, m + 1, b);
			signs[n++] = -1;
		}
	}
	err = pp_quantity_derive(self, terms, signs, n);
out:
	free(terms);
	free(signs);
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

/*
 * Open (undecided, or left open) with an interval that still reaches the
 * threshold on either side: it may be as large as a named part.
 */
static bool open_but_large(const struct pp_quantity *q)
{
	if (!q->decided || (q->verdict != PP_V_UNDECIDED && q->verdict != PP_V_BOUNDED))
		return false;
	if (q->verdict == PP_V_UNDECIDED && !q->final_look.looks)
		return false;
	return q->cmp.diff.high >= q->threshold_ns || q->cmp.diff.low <= -q->threshold_ns;
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
	int dir;	/* +1: F got slower, -1: faster (an improvement dug into) */
	int group;	/* the structural group under it, -1 until needed */
	char *inlined;	/* "g (file:line), ..." */
	bool one_sided; /* a call is timed in one revision and inlined in the other */
	size_t ninlined;
	struct pp_quantity *total; /* F's whole time, measured with its parts */
	struct pp_qlist parts;	   /* every part of F measured so far */
	bool chain;		   /* F leads its caller's parts all the way up: the chain */
	double deadline;	   /* the time plan's for F's parts (plan_time()), 0: none */
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

/* Whether place @k is a call of one of the groups @g[0..@ng) shown as such. */
static bool grouped(struct pp_quantity *const *g, int ng, const struct fnview *v, int k)
{
	for (int i = 0; i < ng; i++)
		if (in_group(g[i], v, k))
			return true;
	return false;
}

/*
 * Nodes for places @u0..@u1, all measured, but for the calls of the groups
 * @g[0..@ng) (their group's node holds them); returns how many slower ones,
 * or -ENOMEM.
 */
static int emit_units(struct pp_session *s, struct fnstate *st, int u0, int u1,
		      struct pp_quantity *const *g, int ng)
{
	const struct fnview *v = st->v;
	int slower = 0;

	for (int k = u0; k <= u1; k++) {
		bool oom = false, both = v->u[k].at[0] >= 0 && v->u[k].at[1] >= 0;
		struct pp_quantity *q = unit_q(s, v, k, &oom);
		int i, r = v->u[k].at[PP_CUR] >= 0 ? PP_CUR : PP_PREV;

		if (oom)
			return -ENOMEM;
		if (grouped(g, ng, v, k))
			continue;
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
			if (!beyond(q) && !open_but_large(q))
				continue;
			i = unit_node(s, v, k, st->node, PP_NODE_CALL, q);
			if (i < 0)
				return -ENOMEM;
			if (q->verdict == PP_V_UNDECIDED)
				s->nodes[i].stop = "undecided: the runs allowed ran out before its "
						   "interval could decide";
			else if (q->verdict == PP_V_BOUNDED)
				s->nodes[i].stop = q->left;
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
	}
	return slower;
}

/*
 * Whether callee group @g is shown as one part of F: found slower or
 * faster, unless one of its calls alone is so in its direction and no other
 * is (that call then names the change, and its callee is dug into the same).
 */
static bool group_shown(const struct pp_quantity *g)
{
	int alone = 0;

	if (!beyond(g))
		return false;
	for (size_t t = 0; t < g->nterms; t++)
		alone += beyond(g->terms[t]) == beyond(g);
	return alone != 1;
}

/* The node of callee group @g under F: its calls together, dug into through its callee. */
static int group_node(struct pp_session *s, struct fnstate *st, const struct pp_quantity *g)
{
	int i = pp_node_add(s, PP_NODE_GROUP, st->node, st->v->fn, g);
	struct pp_node *n;

	if (i < 0)
		return -ENOMEM;
	n = &s->nodes[i];
	n->first[PP_CUR] = g->first;
	n->last[PP_CUR] = g->last;
	n->first[PP_PREV] = g->prev_first;
	n->last[PP_PREV] = g->prev_last;
	n->into[PP_PREV] = g->callee_fn[PP_PREV];
	n->into[PP_CUR] = g->callee_fn[PP_CUR];
	n->sign = beyond(g);
	return n->sign > 0;
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

/* Does open comparison @q time place @k of @v (its call alone, or a range holding it)? */
static bool times_place(const struct pp_quantity *q, const struct fnview *v, int k)
{
	if (q->kind == PP_Q_GROUP)
		return in_group(q, v, k);
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

/* What a settle round of F's parts needs to know: riders and matters(). */
struct round_ctx {
	struct fnstate *st;
	int u0, u1;
	int want; /* the direction the places are explored in: F's, or a masking improvement's */
	struct pp_quantity **qs; /* the comparisons being settled */
	size_t nq;
};

/*
 * While some parts of F are settled, the parts of the call the search will
 * dig into first ride along: the slower call with the largest difference, if
 * it can be dug into and no comparison still open times it (its callee's
 * probes would be armed in that comparison's later rounds only).
 */
static int ride_next_layer(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *n,
			   size_t max)
{
	struct round_ctx *nr = arg;
	const struct fnstate *st = nr->st;
	const struct fnview *v = st->v;
	const struct pp_prog_fn *callee[2];
	struct pp_quantity *lead = NULL, *self, *total;
	struct fnview cv;
	int best = -1, err;

	if (timed_places(v, nr->u0, nr->u1) > PP_ATTRIB_SHORT || st->a->paths >= s->opt->max_paths)
		return 0;
	for (int k = nr->u0; k <= nr->u1; k++) {
		bool oom = false;
		struct pp_quantity *q;

		if (v->u[k].at[0] < 0 || v->u[k].at[1] < 0)
			continue;
		q = unit_q(s, v, k, &oom);
		if (oom)
			return -ENOMEM;
		if (!q || q->absent[0] || q->absent[1] || beyond(q) != st->dir)
			continue;
		if (!lead || st->dir * q->cmp.diff.centre > st->dir * lead->cmp.diff.centre) {
			lead = q;
			best = k;
		}
	}
	/* a callee group of the batch the search will follow instead, when it leads */
	{
		struct pp_quantity *g[PP_ATTRIB_SHORT];
		int ng = groups_in(nr->qs, nr->nq, g, PP_ATTRIB_SHORT);

		for (int i = 0; i < ng; i++)
			if (group_shown(g[i]) && beyond(g[i]) == st->dir &&
			    (!lead ||
			     st->dir * g[i]->cmp.diff.centre > st->dir * lead->cmp.diff.centre)) {
				lead = g[i];
				for (best = nr->u0; !in_group(lead, v, best); best++)
					;
			}
	}
	if (best < 0)
		return 0;
	for (size_t i = 0; i < nr->nq; i++)
		for (int k = nr->u0; k <= nr->u1; k++)
			if ((k == best || (lead->kind == PP_Q_GROUP && in_group(lead, v, k))) &&
			    !nr->qs[i]->decided && times_place(nr->qs[i], v, k))
				return 0;
	{
		const int at[2] = {v->u[best].at[PP_PREV], v->u[best].at[PP_CUR]};
		/* as its node will be: an indirect call's targets so far say where it goes */
		struct pp_node as = {.q = lead, .sign = st->dir, .parent = -1};
		const char *stop = pp_dig_stop(s, v->fn, at, st->layer, &as, callee);

		free(as.stop_own);
		if (stop || pp_fnset_has(&st->a->seen, callee[PP_CUR]))
			return 0;
	}
	err = view(&cv, callee);
	if (err)
		return err;
	/* its whole time too, so that its parts' numbers have runs of their own */
	total = pp_quantity_get(s, PP_Q_TOTAL, callee, 0, 0);
	self = pp_quantity_get(s, PP_Q_SELF, callee, 0, 0);
	err = self && total ? derive_self(s, &cv, self, total) : -ENOMEM;
	if (!err)
		err = push(out, n, max, total);
	if (!err)
		err = push(out, n, max, self);
	if (!err)
		err = parts(s, &cv, 0, cv.nu - 1, out, n, max);
	free(cv.u);
	return err;
}

/* The end of a part's interval that bounds it away from 0 in direction @dir. */
static double lead_bound(const struct pp_quantity *p, int dir)
{
	return dir > 0 ? p->cmp.diff.low : p->cmp.diff.high;
}

/* Whether @q is one part of F: a call (or a call one revision makes) or the own body. */
static bool single_part(const struct pp_quantity *q)
{
	if (q->kind == PP_Q_SELF)
		return true;
	return q->kind == PP_Q_RANGE && (q->absent[PP_PREV] || q->first == q->last) &&
	       (q->absent[PP_CUR] || q->prev_first == q->prev_last);
}

/*
 * The search's question at F is which part leads F's slowdown (or, in an
 * improvement, its speed-up).  An open part whose last interval ends below
 * the lower end of the part that leads (a single part decided in F's
 * direction) cannot lead: no answer it could get changes the chain, and it
 * is left open at what is known, "at most" that end.  (For an improvement,
 * mirrored; inside a range followed because it masks F's change, the
 * question is which part leads that range's, and the rule follows its
 * direction.)  A range of calls is left open the same way: the chain could
 * run through it only through a call of it that outdoes the lead, which
 * its interval bounds as it bounds a call, but for calls inside that
 * cancel each other, which the search does not look for in a range found
 * the same either.  Parts already decided either way keep their verdicts.
 */
static const char *matters(struct pp_session *s, void *arg, const struct pp_quantity *q,
			   struct pp_interval look)
{
	static char why[160];
	const struct round_ctx *rc = arg;
	const struct fnstate *st = rc->st;
	const struct pp_quantity *lead = NULL;
	int dir = rc->want ? rc->want : st->dir;
	double bound, far, d = dir;
	char a[32], b[32];

	(void)s;
	for (size_t i = 0; i < st->parts.n; i++) {
		const struct pp_quantity *p = st->parts.q[i];

		if (p == q || (!single_part(p) && p->kind != PP_Q_GROUP) || beyond(p) != dir)
			continue;
		if (!lead || d * lead_bound(lead, dir) < d * lead_bound(p, dir))
			lead = p;
	}
	if (!lead)
		return NULL;
	bound = lead_bound(lead, dir);
	/* the end of q's interval towards F's direction */
	far = dir > 0 ? look.high : look.low;
	if (!isfinite(far) || d * far >= d * bound)
		return NULL;
	snprintf(why, sizeof(why),
		 "left open: %s %s, short of the %s end %s of the part that leads",
		 dir > 0 ? "at most" : "at least", pp_fmt_ns(far, a, sizeof(a)),
		 dir > 0 ? "lower" : "upper", pp_fmt_ns(bound, b, sizeof(b)));
	return why;
}

static int explore(struct pp_session *s, struct fnstate *st, int u0, int u1,
		   struct pp_quantity *extra, double alpha, int want);

/* Explore the range @q of places @u0..@u1, found slower or faster, with its alpha. */
static int follow(struct pp_session *s, struct fnstate *st, int u0, int u1, struct pp_quantity *q)
{
	int got = explore(s, st, u0, u1, NULL, q->alpha, beyond(q)), err;

	if (got || beyond(q) <= 0)
		return got;
	err = range_node(s, st, u0, u1, q);
	return err ? err : 1;
}

/*
 * Find the parts of places @u0..@u1 that differ, explored in direction @want;
 * returns slower nodes made, or an error.
 */
static int explore(struct pp_session *s, struct fnstate *st, int u0, int u1,
		   struct pp_quantity *extra, double alpha, int want)
{
	const struct fnview *v = st->v;
	struct pp_quantity *batch[PP_BATCH_MAX_SLOTS], *half[2] = {NULL, NULL};
	int len = timed_places(v, u0, u1), mid = split(v, u0, u1), slower = 0, err;
	size_t n = 0;

	if (extra)
		batch[n++] = extra;
	err = parts(s, v, u0, u1, batch, &n, PP_BATCH_MAX_SLOTS - 1);
	for (size_t i = 0; i < n && !err; i++)
		err = pp_qlist_add(&st->parts, batch[i]);
	if (!err) {
		struct pp_quantity *total = st->total;
		struct round_ctx rc = {st, u0, u1, want, batch, n};
		const struct pp_settle_how how = {.ride = &total,
						  .nride = 1,
						  .fill = ride_next_layer,
						  .matters = matters,
						  .arg = &rc,
						  .deadline = st->deadline,
						  .layer = st->layer + 1};

		share_alpha(batch, 0, n, alpha);
		err = pp_settle(s, batch, n, &how);
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
		/* the groups parts() measured in the batch */
		struct pp_quantity *g[PP_ATTRIB_SHORT];
		int ng = groups_in(batch, n, g, PP_ATTRIB_SHORT), shown = 0;

		for (int i = 0; i < ng; i++)
			if (group_shown(g[i]))
				g[shown++] = g[i];
		for (int h = 0; h < 2; h++) {
			int a = half[0] ? (h ? mid + 1 : u0) : (h ? u1 + 1 : u0);
			int b = half[0] ? (h ? u1 : mid) : u1;
			int got = a <= b ? emit_units(s, st, a, b, g, shown) : 0;

			if (got < 0)
				return got;
			slower += got;
			/* a slower group with calls in the half explains it as well */
			for (int i = 0; i < shown && !got; i++)
				for (int k = a; k <= b && !got; k++)
					got = beyond(g[i]) > 0 && in_group(g[i], v, k);
			if (half[h] && !got && beyond(half[h]) > 0) {
				err = range_node(s, st, a, b, half[h]);
				if (err)
					return err;
				slower++;
			}
		}
		for (int i = 0; i < shown; i++) {
			int got = group_node(s, st, g[i]);

			if (got < 0)
				return got;
			slower += got;
		}
		return slower;
	}
	/*
	 * A half is followed only when it was found slower or faster: only then
	 * does its alpha pass on to its parts.  Its quarters were compared in the
	 * same batch, each at its own share of the alpha; one found slower or
	 * faster is followed where its half is not (an improvement in the other
	 * quarter can mask it), with its own alpha.
	 */
	for (int h = 0; h < 2; h++) {
		int a = h ? mid + 1 : u0, b = h ? u1 : mid, m = split(v, a, b);
		struct pp_quantity *q = half[h];
		int got;

		if (beyond(q)) {
			got = follow(s, st, a, b, q);
		} else {
			got = 0;
			for (int k = 0; k < 2 && got >= 0; k++) {
				int qa = k ? m + 1 : a, qb = k ? b : m;
				struct pp_quantity *quarter = range_q(s, v, qa, qb);
				int g;

				if (!quarter)
					return -ENOMEM;
				if (!beyond(quarter))
					continue;
				g = follow(s, st, qa, qb, quarter);
				got = g < 0 ? g : got + g;
			}
		}
		if (got < 0)
			return got;
		slower += got;
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

static int search_fn(struct attrib *a, int node, const struct pp_prog_fn *const fn[2], int layer,
		     bool chain);

static bool has_children(const struct pp_session *s, int node)
{
	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].parent == node)
			return true;
	return false;
}

/*
 * The calls under @node to dig into, largest first: the slower ones, and the
 * faster ones where @node has a slower part they may mask or is itself an
 * improvement (@dir < 0), those in @node's direction first.  How many, or
 * -ENOMEM.
 */
static int dig_list(const struct pp_session *s, int node, int dir, int **out)
{
	bool masked = false;
	int *l = NULL, n = 0;

	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].parent == node && s->nodes[i].sign == -dir &&
		    s->nodes[i].kind != PP_NODE_REST)
			masked = true;
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct pp_node *x = &s->nodes[i];
		int *nl;

		if (x->parent != node ||
		    (x->kind != PP_NODE_CALL && x->kind != PP_NODE_GROUP &&
		     x->kind != PP_NODE_SHARED) ||
		    !x->sign || x->stop || (x->sign != dir && !masked) || has_children(s, (int)i))
			continue;
		nl = realloc(l, (size_t)(n + 1) * sizeof(*nl));
		if (!nl) {
			free(l);
			return -ENOMEM;
		}
		l = nl;
		l[n++] = (int)i;
	}
	/* in @dir first, then largest first (dir * difference) */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			const struct pp_node *x = &s->nodes[l[j]], *y = &s->nodes[l[j - 1]];
			double kx = dir * x->diff.centre, ky = dir * y->diff.centre;
			int t;

			if (!(x->sign == dir && y->sign != dir) && !(x->sign == y->sign && kx > ky))
				break;
			t = l[j];
			l[j] = l[j - 1];
			l[j - 1] = t;
		}
	*out = l;
	return n;
}

/*
 * The time plan.  The bottleneck chain (@chain: F is on it) is one budget,
 * --max-time's: it is searched first, depth first, and a layer of it that
 * is not decided ends the chain there, so time kept back for the layers
 * below it would only be lost; what a layer does not spend goes deeper.
 * What comes after the chain below F (F's further contributors, the parts
 * of a function off the chain) answers no question about the chain: it
 * gets an equal share of what is left with the deeper layers still to
 * come, and never more than the session has measured for so far, so that
 * a session ends soon after its chain is named.
 */
static double plan_time(struct pp_session *s, int layer, bool chain)
{
	double left = pp_session_time_left(s), now = pp_now();
	double spent = now - (s->measuring > 0 ? s->measuring : s->started);
	int layers = s->opt->depth - layer;

	if (chain || !isfinite(left)) /* the chain, or no --max-time: no plan */
		return 0;
	if (layers > 0 && left / layers < spent)
		spent = left / layers;
	return now + spent;
}

/* Measure F's parts (own body @self, and its calls) with F's whole time beside them. */
static int measure_parts(struct pp_session *s, struct fnstate *st, struct pp_quantity *self)
{
	const struct pp_quantity *fq = s->nodes[st->node].q;
	double alpha = fq && fq->alpha > 0 ? fq->alpha : 1 - s->opt->confidence;
	int err;

	st->deadline = plan_time(s, st->layer, st->chain);
	if (st->v->nu) {
		err = explore(s, st, 0, st->v->nu - 1, self, alpha, st->dir);
	} else {
		struct round_ctx rc = {st, 0, -1, st->dir, &self, 1};
		const struct pp_settle_how how = {.ride = &st->total,
						  .nride = 1,
						  .arg = &rc,
						  .deadline = st->deadline,
						  .layer = st->layer + 1};

		if (!self->alpha)
			self->alpha = alpha;
		err = pp_qlist_add(&st->parts, self);
		if (!err)
			err = pp_settle(s, &self, 1, &how);
	}
	st->deadline = 0;
	return err < 0 ? err : 0;
}

/* F's own body, structural group and remainder nodes, after its calls'. */
static int close_fn(struct pp_session *s, struct fnstate *st, struct pp_quantity *self)
{
	const struct pp_prog_fn *const *fn = st->v->fn;
	int i = pp_node_add(s, PP_NODE_SELF, st->node, fn, self);

	if (i < 0)
		return -ENOMEM;
	/* With a call inlined in one revision only, the own body's difference holds
	 * that call's time on one side: no verdict of its own. */
	s->nodes[i].sign = st->one_sided || lost_runs(s) ? 0 : beyond(self);
	if (self->verdict == PP_V_BOUNDED)
		s->nodes[i].stop = self->left;
	if (lost_runs(s) && !st->inlined)
		s->nodes[i].detail =
		    strdup("executions were abandoned (longjmp, exceptions): an own "
			   "body is not told from its calls, no verdict of its own");
	if (st->inlined && asprintf(&s->nodes[i].detail, "inlined here: %s", st->inlined) < 0)
		s->nodes[i].detail = NULL;
	i = pp_node_add(s, PP_NODE_REST, st->node, fn, NULL);
	if (i < 0)
		return -ENOMEM;
	s->nodes[i].stop = "unexplained: spread over calls below the threshold, or noise";
	/* The numbers of F's parts, from the runs that measured them all. */
	s->nodes[st->node].total = st->total;
	pp_tree_account(s, st->node);
	return 0;
}

/* Functions shared by F's calls measured at once, at most. */
#define PP_SHARED_MAX 4

/* A function that several of F's callees call: in each revision, and from which. */
struct shared {
	const struct pp_prog_fn *h[2];
	const struct pp_prog_fn *from[PP_ATTRIB_SHORT]; /* F's callees (current) that call it */
	int nfrom;
};

/*
 * Whether F has a part found slower or faster in @dir that names it: not a
 * range, which is slower only as the calls in it together are.
 */
static bool has_part_in(const struct pp_session *s, int node, int dir)
{
	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].parent == node && s->nodes[i].kind != PP_NODE_REST &&
		    s->nodes[i].kind != PP_NODE_RANGE && s->nodes[i].sign == dir)
			return true;
	return false;
}

/*
 * Whether @q, one call of F in both revisions, points @dir by less than the
 * threshold: its estimate does, it was not found beyond it.  (A weak sign
 * for each call, which picks what is measured; the shared callee's own
 * comparison decides.)
 */
static bool a_little(const struct pp_quantity *q, int dir)
{
	if (q->kind != PP_Q_RANGE || !single_part(q) || q->absent[0] || q->absent[1] ||
	    !q->decided || beyond(q))
		return false;
	return dir * q->cmp.diff.centre > 0;
}

/* The callee of the call @q times, in both revisions (false: none with a table). */
static bool callee_of(const struct pp_session *s, const struct pp_quantity *q,
		      const struct pp_prog_fn *c[2])
{
	for (int r = 0; r < 2; r++) {
		unsigned at = r == PP_CUR ? q->first : q->prev_first;
		const struct pp_prog_call *call = &q->fn[r]->calls[at];

		c[r] = pp_call_indirect(call) ? NULL
					      : pp_program_resolve(&s->rev[r].prog, q->fn[r], call);
		if (!c[r])
			return false;
	}
	return true;
}

/* Add the timed direct callees of @c (both revisions) to @sh, as called from @c. */
static void add_callees(const struct pp_session *s, const struct pp_prog_fn *const c[2],
			const struct pp_prog_fn *const fn[2], struct shared *sh, int *nsh, int max)
{
	for (uint32_t k = 0; k < c[PP_CUR]->ncalls; k++) {
		const struct pp_prog_call *call = &c[PP_CUR]->calls[k];
		const struct pp_prog_fn *h[2] = {NULL, NULL};
		int i;

		if (!pp_call_timed(call) || pp_call_indirect(call))
			continue;
		h[PP_CUR] = pp_program_resolve(&s->rev[PP_CUR].prog, c[PP_CUR], call);
		for (uint32_t j = 0; h[PP_CUR] && !h[PP_PREV] && j < c[PP_PREV]->ncalls; j++) {
			const struct pp_prog_call *o = &c[PP_PREV]->calls[j];

			if (pp_call_timed(o) && !pp_call_indirect(o) &&
			    !strcmp(o->callee, call->callee))
				h[PP_PREV] =
				    pp_program_resolve(&s->rev[PP_PREV].prog, c[PP_PREV], o);
		}
		if (!h[PP_CUR] || !h[PP_PREV] || h[PP_CUR] == fn[PP_CUR] || h[PP_CUR] == c[PP_CUR])
			continue;
		for (i = 0; i < *nsh && sh[i].h[PP_CUR] != h[PP_CUR]; i++)
			;
		if (i == *nsh) {
			if (*nsh == max)
				continue;
			sh[i] = (struct shared){.h = {h[PP_PREV], h[PP_CUR]}};
			(*nsh)++;
		}
		if (sh[i].nfrom < PP_ATTRIB_SHORT &&
		    (!sh[i].nfrom || sh[i].from[sh[i].nfrom - 1] != c[PP_CUR]))
			sh[i].from[sh[i].nfrom++] = c[PP_CUR];
	}
}

/* "step1, step2 and step3": the functions @sh is called from, malloc'ed. */
static char *called_from(const struct shared *sh, const struct pp_prog_fn *fn, int dir)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "called from ");
	for (int i = 0; i < sh->nfrom; i++)
		fprintf(f, "%s%s", i ? (i + 1 == sh->nfrom ? " and " : ", ") : "",
			pp_demangle(sh->from[i]->name));
	fprintf(f, ", calls of %s each %s by less than the threshold", pp_demangle(fn->name),
		dir > 0 ? "slower" : "faster");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * F differs in its direction but no part of it does by the threshold (but
 * for a range, slower as its calls together), while two of its calls or
 * more point that way by a little: a
 * function they all call, one layer down, may be what changed.  Each
 * function that two or more of those calls' callees call (the most shared
 * first, at most PP_SHARED_MAX) is measured whole, with its time in every
 * execution of the entry, and one found slower (faster) in F's direction
 * is a node beside F's parts (not one of them: it is inside some), dug into
 * like a call.
 */
static int shared_callees(struct attrib *a, struct fnstate *st)
{
	struct pp_session *s = a->s;
	const struct pp_prog_fn *sib[PP_ATTRIB_SHORT];
	struct shared sh[64];
	struct pp_quantity *qs[PP_SHARED_MAX];
	const struct pp_quantity *fq = s->nodes[st->node].q;
	double alpha = fq && fq->alpha > 0 ? fq->alpha : 1 - s->opt->confidence;
	int nsib = 0, nsh = 0, nq = 0, err = 0;
	size_t pick[PP_SHARED_MAX];

	if (!s->opt->groups || has_part_in(s, st->node, st->dir) || st->layer + 2 >= s->opt->depth)
		return 0;
	for (size_t i = 0; i < st->parts.n && nsib < PP_ATTRIB_SHORT; i++) {
		const struct pp_prog_fn *c[2];
		bool known = false;

		if (!a_little(st->parts.q[i], st->dir) || !callee_of(s, st->parts.q[i], c))
			continue;
		for (int k = 0; k < nsib && !known; k++)
			known = sib[k] == c[PP_CUR];
		if (known)
			continue;
		sib[nsib++] = c[PP_CUR];
		add_callees(s, c, st->v->fn, sh, &nsh, (int)(sizeof(sh) / sizeof(sh[0])));
	}
	if (nsib < 2)
		return 0;
	/* the most shared first: a plain selection of the PP_SHARED_MAX largest */
	while (nq < PP_SHARED_MAX) {
		int best = -1;

		for (int i = 0; i < nsh; i++) {
			bool taken = false, is_sib = false;

			for (int k = 0; k < nq && !taken; k++)
				taken = pick[k] == (size_t)i;
			for (int k = 0; k < nsib && !is_sib; k++)
				is_sib = sib[k] == sh[i].h[PP_CUR];
			if (taken || is_sib || sh[i].nfrom < 2 ||
			    pp_fnset_has(&a->seen, sh[i].h[PP_CUR]))
				continue;
			if (best < 0 || sh[i].nfrom > sh[best].nfrom)
				best = i;
		}
		if (best < 0)
			break;
		qs[nq] = pp_quantity_get(s, PP_Q_TOTAL, sh[best].h, 0, 0);
		if (!qs[nq])
			return -ENOMEM;
		pick[nq++] = (size_t)best;
	}
	if (!nq)
		return 0;
	share_alpha(qs, 0, (size_t)nq, alpha);
	{
		const struct pp_settle_how how = {.deadline = plan_time(s, st->layer, st->chain),
						  .layer = st->layer + 2};

		err = pp_settle(s, qs, (size_t)nq, &how);
	}
	for (int i = 0; i < nq && !err; i++) {
		const struct shared *x = &sh[pick[i]];
		int k;

		if (beyond(qs[i]) != st->dir)
			continue;
		k = pp_node_add(s, PP_NODE_SHARED, st->node, st->v->fn, qs[i]);
		if (k < 0)
			return -ENOMEM;
		s->nodes[k].into[PP_PREV] = x->h[PP_PREV];
		s->nodes[k].into[PP_CUR] = x->h[PP_CUR];
		s->nodes[k].sign = st->dir;
		s->nodes[k].detail = called_from(x, st->v->fn[PP_CUR], st->dir);
		/* a range of F slower as its calls together is that function's doing */
		for (size_t r = 0; r < s->nnodes; r++) {
			struct pp_node *g = &s->nodes[r];
			char *why = NULL;

			if (g->parent != st->node || g->kind != PP_NODE_RANGE ||
			    g->sign != st->dir ||
			    asprintf(&why, "%s only as a range: its calls call %s, found %s",
				     st->dir > 0 ? "slower" : "faster",
				     pp_demangle(x->h[PP_CUR]->name),
				     st->dir > 0 ? "slower" : "faster") < 0)
				continue;
			g->sign = 0;
			free(g->stop_own);
			g->stop_own = why;
			g->stop = why;
		}
	}
	return err;
}

/* Targets of an indirect call dug into one by one, at most. */
#define PP_DIG_TARGETS 4

/*
 * Indirect call @c of F, whose targets no one holds its difference but
 * several were found slower (faster) on their own: a node for each under
 * the call, dug into like a call to it, within --max-paths.  How many, or
 * -ENOMEM.
 */
static int dig_targets(struct attrib *a, struct fnstate *st, int c, const int at[2], bool chain)
{
	struct pp_session *s = a->s;
	struct pp_dig_target t[PP_DIG_TARGETS];
	int nt = pp_slower_targets(s, &s->nodes[c], st->v->fn, at, t, PP_DIG_TARGETS), err = 0;

	if (nt < 2)
		return nt < 0 ? nt : 0;
	s->nodes[c].stop = NULL;
	for (int i = 0; i < nt && !err; i++) {
		int k = pp_node_add(s, PP_NODE_CALL, c, st->v->fn, NULL);
		struct pp_node *n;

		if (k < 0)
			return -ENOMEM;
		n = &s->nodes[k];
		for (int r = 0; r < 2; r++) {
			n->first[r] = s->nodes[c].first[r];
			n->last[r] = s->nodes[c].last[r];
			n->into[r] = t[i].fn[r];
		}
		n->depth = s->nodes[c].depth; /* the call's layer, by another target */
		n->diff = t[i].diff;
		n->sign = s->nodes[c].sign;
		/* the runner-up whose interval reaches the lead's: not told apart */
		if (i == 0)
			s->nodes[c].lead = k;
		if (i == 1 && (n->sign > 0 ? t[1].diff.high >= t[0].diff.low
					   : t[1].diff.low <= t[0].diff.high))
			s->nodes[c].tie = k;
		if (pp_fnset_has(&a->seen, t[i].fn[PP_CUR])) {
			n->stop = "recursion: already inspected";
			n->recursive = true;
		} else if (a->paths >= s->opt->max_paths) {
			n->stop = "budget: --max-paths reached";
			s->budget_cut = true;
		} else {
			a->paths++;
			err = search_fn(a, k, t[i].fn, st->layer + 1, chain && i == 0);
		}
	}
	return err ? err : nt;
}

/* Dig into the calls dig_list() names, at most --max-paths in all. */
static int dig_calls(struct attrib *a, struct fnstate *st)
{
	struct pp_session *s = a->s;
	int *dig = NULL, ndig = dig_list(s, st->node, st->dir, &dig), err = 0;

	if (ndig < 0)
		return ndig;
	for (int d = 0; d < ndig && !err; d++) {
		const struct pp_prog_fn *callee[2];
		const int c = dig[d];
		const int at[2] = {(int)s->nodes[c].first[PP_PREV], (int)s->nodes[c].first[PP_CUR]};
		bool group = s->nodes[c].kind == PP_NODE_GROUP;
		bool shared = s->nodes[c].kind == PP_NODE_SHARED;
		/* the call itself, for a node of one call */
		const struct pp_prog_call *call =
		    group || shared ? NULL : &st->v->fn[PP_CUR]->calls[at[PP_CUR]];
		const char *stop;

		if (shared) { /* two layers down, by its function */
			callee[PP_PREV] = s->nodes[c].into[PP_PREV];
			callee[PP_CUR] = s->nodes[c].into[PP_CUR];
			stop = pp_dig_limit(s, st->layer + 2, callee[PP_CUR]);
		} else {
			stop = pp_dig_stop(s, st->v->fn, at, st->layer, &s->nodes[c], callee);
		}

		if (!stop && pp_fnset_has(&a->seen, callee[PP_CUR])) {
			stop = "recursion: already inspected";
			s->nodes[c].recursive = true;
		}
		if (!stop && a->paths >= s->opt->max_paths) {
			stop = "budget: --max-paths reached";
			s->budget_cut = true;
		}
		if (stop) {
			s->nodes[c].stop = stop;
			/* several targets slower on their own: into each */
			if (call && s->nodes[c].q && st->layer + 1 < s->opt->depth &&
			    pp_call_indirect(call)) {
				int got =
				    dig_targets(a, st, c, at, st->chain && d == 0 && !a->off_chain);

				if (got < 0)
					err = got;
				if (got > 0)
					a->off_chain = true;
			}
			continue;
		}
		a->paths++;
		/* an indirect call is dug into through its target, a call of a function
		 * without a table through the function it hands it (its callback):
		 * both named in the reports */
		if (call &&
		    (pp_call_indirect(call) || strcmp(callee[PP_CUR]->name, call->callee))) {
			s->nodes[c].into[PP_PREV] = callee[PP_PREV];
			s->nodes[c].into[PP_CUR] = callee[PP_CUR];
		}
		/* the first call dug into under a function of the chain leads it: the chain */
		err = search_fn(a, c, callee, st->layer + (shared ? 2 : 1),
				st->chain && d == 0 && !a->off_chain);
		a->off_chain = true;
	}
	free(dig);
	return err;
}

/* The node of F's part @q, or -1. */
static int part_node(const struct pp_session *s, int node, const struct pp_quantity *q)
{
	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].parent == node && s->nodes[i].q == q)
			return (int)i;
	return -1;
}

/*
 * After the chain below F: the parts of F left open because they could not
 * lead it, whose estimate points F's way and whose interval still reaches
 * the threshold, are taken up again in the time the plan gives them, so
 * that the further contributors are decided too, then dug into like the
 * others.  Those still open keep what is known; the others could at most
 * be shown "the same", which changes nothing in the answer.
 */
static int resume_parts(struct attrib *a, struct fnstate *st)
{
	struct pp_session *s = a->s;
	int *nodes = calloc(st->parts.n ? st->parts.n : 1, sizeof(*nodes));
	struct pp_quantity **again = calloc(st->parts.n ? st->parts.n : 1, sizeof(*again));
	size_t resumed = 0;
	int err = 0;

	if (!nodes || !again) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < st->parts.n; i++) {
		struct pp_quantity *q = st->parts.q[i];
		int k = part_node(s, st->node, q);

		/* one whose estimate points F's way and whose interval reaches the threshold */
		if (q->verdict == PP_V_BOUNDED && k >= 0 && st->dir * q->cmp.diff.centre > 0 &&
		    (st->dir > 0 ? q->cmp.diff.high : -q->cmp.diff.low) >= q->threshold_ns) {
			again[resumed] = q;
			nodes[resumed++] = k;
		}
	}
	if (!resumed)
		goto out;
	{
		const struct pp_settle_how how = {.ride = &st->total,
						  .nride = 1,
						  .resume = again,
						  .nresume = resumed,
						  .deadline = plan_time(s, st->layer, false),
						  .layer = st->layer + 1};

		err = pp_settle(s, st->parts.q, st->parts.n, &how);
	}
	for (size_t i = 0; i < resumed && !err; i++) {
		struct pp_node *n = &s->nodes[nodes[i]];
		const struct pp_quantity *q = n->q;

		n->sign =
		    n->kind == PP_NODE_SELF && (st->one_sided || lost_runs(s)) ? 0 : beyond(q);
		n->stop = q->verdict == PP_V_BOUNDED ? q->left
			  : q->verdict == PP_V_UNDECIDED
			      ? "undecided: the runs allowed ran out before "
				"its interval could decide"
			      : NULL;
	}
	if (!err)
		err = pp_tree_account(s, st->node);
out:
	free(again);
	free(nodes);
	return err;
}

static int search_fn(struct attrib *a, int node, const struct pp_prog_fn *const fn[2], int layer,
		     bool chain)
{
	struct pp_session *s = a->s;
	struct fnstate st = {0};
	struct fnview v = {0};
	struct pp_quantity *self;
	int err;

	err = pp_fnset_add(&a->seen, fn[PP_CUR]);
	if (!err)
		err = view(&v, fn);
	if (err)
		return err;
	st.a = a;
	st.layer = layer;
	st.chain = chain;
	st.v = &v;
	st.node = node;
	st.dir = s->nodes[node].sign < 0 ? -1 : 1;
	st.group = -1;
	self = pp_quantity_get(s, PP_Q_SELF, fn, 0, 0);
	/*
	 * F's whole time in the runs of its parts; the entry's own comparison
	 * keeps only runs that armed nothing inside it.
	 */
	st.total = pp_quantity_get(s, PP_Q_TOTAL, fn, 0, 0);
	err = self && st.total ? derive_self(s, &v, self, st.total) : -ENOMEM;
	if (!err)
		err = measure_parts(s, &st, self);
	if (!err)
		err = close_fn(s, &st, self);
	if (!err)
		err = shared_callees(a, &st);
	if (!err)
		err = dig_calls(a, &st);
	/* the chain below F is done: F's further contributors, then theirs */
	if (!err)
		err = resume_parts(a, &st);
	if (!err)
		err = dig_calls(a, &st);
	free(st.inlined);
	pp_qlist_free(&st.parts);
	free(v.u);
	return err;
}

static int dig(struct pp_session *s, int root)
{
	struct attrib a = {.s = s};
	const struct pp_prog_fn *entry[2] = {s->nodes[root].fn[0], s->nodes[root].fn[1]};
	int err = search_fn(&a, root, entry, 0, true);

	pp_fnset_free(&a.seen);
	return err;
}

const struct pp_search_ops pp_search_attrib = {
    .name = "attrib", .dig = dig, .mark_chain = pp_tree_mark_chain, .tree = true};
