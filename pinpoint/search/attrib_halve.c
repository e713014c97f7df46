// SPDX-License-Identifier: MIT
/*
 * attrib_halve.c - measuring F's parts in the attribution search: a short
 * call list all at once; a long one halved, a half followed only when found
 * slower or faster (it hands its alpha on), or a quarter of it where the
 * half is not; then the nodes of what was found.
 */
#include <errno.h>

#include "pinpoint/measure/measure.h"
#include "pinpoint/measure/settle.h"
#include "pinpoint/search/attrib_priv.h"

static int explore(struct pp_session *s, struct pp_fnstate *st, int u0, int u1,
		   struct pp_quantity *extra, double alpha, size_t keep, int want);

/*
 * The calls of the list's groups found slower or faster, each compared on
 * its own under its group's alpha, in the runs the group was measured in
 * and more if they need them: the group's node says which of its calls
 * carry its change.
 */
static int settle_sites(struct pp_session *s, struct pp_fnstate *st)
{
	struct pp_quantity *batch[PP_BATCH_MAX_SLOTS], *total = st->total;
	const struct pp_settle_how how = {
	    .ride = &total, .nride = 1, .deadline = st->deadline, .layer = st->layer + 1};
	size_t n = 0;

	for (int i = 0; i < st->lgroup_shown; i++) {
		struct pp_quantity *g = st->lgroup[i];
		size_t from = n;

		for (size_t t = 0; t < g->nterms && n < PP_BATCH_MAX_SLOTS - 1; t++)
			batch[n++] = g->terms[t];
		pp_attrib_share_alpha(batch, from, n, g->nterms, g->alpha);
	}
	return n ? pp_settle(s, batch, n, &how) : 0;
}

/* Whether a callee group over the whole list, found slower, has calls in places @u0..@u1. */
static bool list_group_in(const struct pp_fnstate *st, int u0, int u1)
{
	for (int i = 0; i < st->lgroup_shown; i++)
		for (int k = u0; k <= u1; k++)
			if (pp_attrib_beyond(st->lgroup[i]) > 0 &&
			    pp_attrib_in_group(st->lgroup[i], st->v, k))
				return true;
	return false;
}

/*
 * Explore the range @q of places @u0..@u1, found slower or faster, with its
 * alpha; a range whose calls show nothing slower is a node of its own,
 * unless a slower group over the whole list has calls in it.
 */
static int follow(struct pp_session *s, struct pp_fnstate *st, int u0, int u1,
		  struct pp_quantity *q)
{
	int got = explore(s, st, u0, u1, NULL, q->alpha, 0, pp_attrib_beyond(q)), err;

	if (got || pp_attrib_beyond(q) <= 0 || list_group_in(st, u0, u1))
		return got;
	err = pp_attrib_range_node(s, st, u0, u1, q);
	return err ? err : 1;
}

/*
 * Find the parts of places @u0..@u1 that differ, explored in direction @want;
 * returns slower nodes made, or an error.  The batch's comparisons share
 * @alpha with @keep more made later under the same gate (the shared
 * callees' slice: st->shared_alpha).  A long list's first batch holds its
 * callee groups over the whole of it too (pp_attrib_list_groups()): their
 * nodes are made once it is explored, and no call of theirs has one of its
 * own, however far apart the halving finds them.
 */
static int explore(struct pp_session *s, struct pp_fnstate *st, int u0, int u1,
		   struct pp_quantity *extra, double alpha, size_t keep, int want)
{
	const struct pp_fnview *v = st->v;
	struct pp_quantity *batch[PP_BATCH_MAX_SLOTS], *half[2] = {NULL, NULL};
	int len = pp_attrib_timed_places(v, u0, u1), mid = pp_attrib_split(v, u0, u1), slower = 0,
	    err;
	bool whole = len > PP_ATTRIB_SHORT && u0 == 0 && u1 == v->nu - 1 && !st->nlgroup;
	size_t n = 0;

	if (extra)
		batch[n++] = extra;
	err = pp_attrib_parts(s, v, u0, u1, st->lgroup, st->lgroup_shown, batch, &n,
			      PP_BATCH_MAX_SLOTS - 1);
	if (!err && whole) {
		int ng = pp_attrib_list_groups(s, v, want, st->lgroup, PP_ATTRIB_LIST_GROUPS,
					       PP_ATTRIB_SHORT);

		err = ng < 0 ? ng : 0;
		st->nlgroup = ng < 0 ? 0 : ng;
		for (int i = 0; i < st->nlgroup && !err; i++)
			err = pp_attrib_push(batch, &n, PP_BATCH_MAX_SLOTS - 1, st->lgroup[i]);
	}
	for (size_t i = 0; i < n && !err; i++)
		err = pp_qlist_add(&st->parts, batch[i]);
	if (!err) {
		struct pp_quantity *total = st->total;
		struct pp_round_ctx rc = {st, u0, u1, want, batch, n};
		const struct pp_settle_how how = {.ride = &total,
						  .nride = 1,
						  .fill = pp_attrib_ride_next_layer,
						  .matters = pp_attrib_matters,
						  .arg = &rc,
						  .deadline = st->deadline,
						  .layer = st->layer + 1};

		pp_attrib_share_alpha(batch, 0, n, n + keep, alpha);
		if (keep)
			st->shared_alpha = pp_seq_child_alpha(alpha, n + keep);
		err = pp_settle(s, batch, n, &how);
	}
	if (err)
		return err;
	/* the groups found slower or faster first: they hold their calls from here on */
	for (int i = 0; whole && i < st->nlgroup; i++)
		if (pp_attrib_group_shown(st->lgroup[i])) {
			struct pp_quantity *g = st->lgroup[i];

			st->lgroup[i] = st->lgroup[st->lgroup_shown];
			st->lgroup[st->lgroup_shown++] = g;
		}
	if (whole) {
		err = settle_sites(s, st);
		if (err)
			return err;
	}
	if (len >= 3 || len > PP_ATTRIB_SHORT) {
		half[0] = pp_attrib_range_q(s, v, u0, mid);
		half[1] = pp_attrib_range_q(s, v, mid + 1, u1);
		if (!half[0] || !half[1])
			return -ENOMEM;
	}
	if (len <= PP_ATTRIB_SHORT) {
		/* the groups pp_attrib_parts() measured in the batch, and the list's */
		struct pp_quantity *g[PP_ATTRIB_SHORT + PP_ATTRIB_LIST_GROUPS];
		int ng = pp_attrib_groups_in(batch, n, g, PP_ATTRIB_SHORT), shown = 0, nlocal;

		for (int i = 0; i < ng; i++)
			if (pp_attrib_group_shown(g[i]))
				g[shown++] = g[i];
		nlocal = shown;
		for (int i = 0; i < st->lgroup_shown; i++)
			g[shown++] = st->lgroup[i];
		for (int h = 0; h < 2; h++) {
			int a = half[0] ? (h ? mid + 1 : u0) : (h ? u1 + 1 : u0);
			int b = half[0] ? (h ? u1 : mid) : u1;
			int got = a <= b ? pp_attrib_emit_units(s, st, a, b, g, shown) : 0;

			if (got < 0)
				return got;
			slower += got;
			/* a slower group with calls in the half explains it as well */
			for (int i = 0; i < shown && !got; i++)
				for (int k = a; k <= b && !got; k++)
					got = pp_attrib_beyond(g[i]) > 0 &&
					      pp_attrib_in_group(g[i], v, k);
			if (half[h] && !got && pp_attrib_beyond(half[h]) > 0) {
				err = pp_attrib_range_node(s, st, a, b, half[h]);
				if (err)
					return err;
				slower++;
			}
		}
		for (int i = 0; i < nlocal; i++) {
			int got = pp_attrib_group_node(s, st, g[i]);

			if (got < 0)
				return got;
			slower += got;
		}
		{
			bool oom = false;
			struct pp_quantity *c = pp_attrib_changed_of(s, v, u0, u1, &oom);

			if (oom)
				return -ENOMEM;
			if (c)
				pp_attrib_changed_node(s, st, c);
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
		int a = h ? mid + 1 : u0, b = h ? u1 : mid, m = pp_attrib_split(v, a, b);
		struct pp_quantity *q = half[h];
		int got;

		if (pp_attrib_beyond(q)) {
			got = follow(s, st, a, b, q);
		} else {
			got = 0;
			for (int k = 0; k < 2 && got >= 0; k++) {
				int qa = k ? m + 1 : a, qb = k ? b : m;
				struct pp_quantity *quarter = pp_attrib_range_q(s, v, qa, qb);
				int g;

				if (!quarter)
					return -ENOMEM;
				if (!pp_attrib_beyond(quarter))
					continue;
				g = follow(s, st, qa, qb, quarter);
				got = g < 0 ? g : got + g;
			}
		}
		if (got < 0)
			return got;
		slower += got;
	}
	for (int i = 0; whole && i < st->lgroup_shown; i++) {
		int got = pp_attrib_group_node(s, st, st->lgroup[i]);

		if (got < 0)
			return got;
		slower += got;
	}
	return slower;
}

/* Measure F's parts (own body @self, and its calls) with F's whole time beside them. */
int pp_attrib_measure_parts(struct pp_session *s, struct pp_fnstate *st, struct pp_quantity *self)
{
	/* the gate's alpha (pp_attrib_search_fn()), never the session's below the entry */
	double alpha = st->alpha;
	int err;

	st->deadline = pp_attrib_plan_time(s, st->layer, st->chain);
	if (st->v->nu) {
		err = explore(s, st, 0, st->v->nu - 1, self, alpha,
			      pp_attrib_may_share(s, st) ? 1 : 0, st->dir);
	} else {
		struct pp_round_ctx rc = {st, 0, -1, st->dir, &self, 1};
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
