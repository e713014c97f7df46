// SPDX-License-Identifier: MIT
/*
 * attrib_riders.c - what a settle round of F's parts asks the attribution
 * search (settle.h): the parts of the call it will dig into first, which
 * ride along (pp_attrib_ride_next_layer()), and whether a part still
 * matters, or is left open because it can no longer lead F's change
 * (pp_attrib_matters()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"
#include "pinpoint/search/attrib_priv.h"
#include "pinpoint/session/targets.h"

/* Does open comparison @q time place @k of @v (its call alone, or a range holding it)? */
static bool times_place(const struct pp_quantity *q, const struct pp_fnview *v, int k)
{
	if (q->kind == PP_Q_GROUP)
		return pp_attrib_in_group(q, v, k);
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

/*
 * While some parts of F are settled, the parts of the call the search will
 * dig into first ride along: the slower call with the largest difference, if
 * it can be dug into and no comparison still open times it (its callee's
 * probes would be armed in that comparison's later rounds only).
 */
int pp_attrib_ride_next_layer(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *n,
			      size_t max)
{
	struct pp_round_ctx *nr = arg;
	const struct pp_fnstate *st = nr->st;
	const struct pp_fnview *v = st->v;
	const struct pp_prog_fn *callee[2];
	struct pp_quantity *lead = NULL, *self, *total;
	struct pp_fnview cv;
	int best = -1, err;

	if (pp_attrib_timed_places(v, nr->u0, nr->u1) > PP_ATTRIB_SHORT ||
	    st->a->paths >= s->opt->max_paths)
		return 0;
	for (int k = nr->u0; k <= nr->u1; k++) {
		bool oom = false;
		struct pp_quantity *q;

		if (v->u[k].at[0] < 0 || v->u[k].at[1] < 0)
			continue;
		q = pp_attrib_unit_q(s, v, k, &oom);
		if (oom)
			return -ENOMEM;
		if (!q || q->absent[0] || q->absent[1] || pp_attrib_beyond(q) != st->dir)
			continue;
		if (!lead || st->dir * q->cmp.diff.centre > st->dir * lead->cmp.diff.centre) {
			lead = q;
			best = k;
		}
	}
	/* a callee group of the batch the search will follow instead, when it leads */
	{
		struct pp_quantity *g[PP_ATTRIB_SHORT];
		int ng = pp_attrib_groups_in(nr->qs, nr->nq, g, PP_ATTRIB_SHORT);

		for (int i = 0; i < ng; i++)
			if (pp_attrib_group_shown(g[i]) && pp_attrib_beyond(g[i]) == st->dir &&
			    (!lead ||
			     st->dir * g[i]->cmp.diff.centre > st->dir * lead->cmp.diff.centre)) {
				lead = g[i];
				for (best = nr->u0; !pp_attrib_in_group(lead, v, best); best++)
					;
			}
	}
	if (best < 0)
		return 0;
	for (size_t i = 0; i < nr->nq; i++)
		for (int k = nr->u0; k <= nr->u1; k++)
			if ((k == best ||
			     (lead->kind == PP_Q_GROUP && pp_attrib_in_group(lead, v, k))) &&
			    !nr->qs[i]->decided && times_place(nr->qs[i], v, k))
				return 0;
	{
		const int at[2] = {v->u[best].at[PP_PREV], v->u[best].at[PP_CUR]};
		/* as its node will be: an indirect call's targets so far say where it goes */
		struct pp_node as = {.q = lead, .sign = st->dir, .parent = -1};
		const char *stop = pp_dig_stop(s, v->fn, at, st->layer, &as, callee, NULL);

		free(as.stop_own);
		pp_targets_drop(&as);
		if (stop || pp_fnset_has(&st->a->seen, callee[PP_CUR]))
			return 0;
	}
	err = pp_attrib_view(&cv, callee);
	if (err)
		return err;
	/* a list too long to measure call by call is counted first (attrib_count.c):
	 * its parts are not known yet */
	if (pp_attrib_timed_places(&cv, 0, cv.nu - 1) > PP_ATTRIB_SHORT) {
		pp_attrib_view_free(&cv);
		return 0;
	}
	/* its whole time too, so that its parts' numbers have runs of their own */
	total = pp_quantity_get(s, PP_Q_TOTAL, callee, 0, 0);
	self = pp_quantity_get(s, PP_Q_SELF, callee, 0, 0);
	err = self && total ? pp_attrib_derive_self(s, &cv, self, total) : -ENOMEM;
	if (!err)
		err = pp_attrib_push(out, n, max, total);
	if (!err)
		err = pp_attrib_push(out, n, max, self);
	if (!err)
		err = pp_attrib_parts(s, &cv, 0, cv.nu - 1, NULL, 0, out, n, max);
	pp_attrib_view_free(&cv);
	return err;
}

/* Whether @q is one part of F: a call (or a call one revision makes) or the own body. */
bool pp_attrib_single_part(const struct pp_quantity *q)
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
const char *pp_attrib_matters(struct pp_session *s, void *arg, const struct pp_quantity *q,
			      struct pp_interval look)
{
	static char why[160];
	const struct pp_round_ctx *rc = arg;
	const struct pp_fnstate *st = rc->st;
	const struct pp_quantity *lead = NULL;
	int dir = rc->want ? rc->want : st->dir;
	double bound, far, d = dir;
	char a[32], b[32];

	(void)s;
	for (size_t i = 0; i < st->parts.n; i++) {
		const struct pp_quantity *p = st->parts.q[i];

		if (p == q || (!pp_attrib_single_part(p) && p->kind != PP_Q_GROUP) ||
		    pp_attrib_beyond(p) != dir)
			continue;
		if (!lead || d * pp_attrib_near_end(lead->cmp.diff, dir) <
				 d * pp_attrib_near_end(p->cmp.diff, dir))
			lead = p;
	}
	if (!lead)
		return NULL;
	bound = pp_attrib_near_end(lead->cmp.diff, dir);
	/* the end of q's interval towards F's direction */
	far = pp_attrib_far_end(look, dir);
	if (!isfinite(far) || d * far >= d * bound)
		return NULL;
	snprintf(why, sizeof(why),
		 "left open: %s %s, short of the %s end %s of the part that leads",
		 dir > 0 ? "at most" : "at least", pp_fmt_ns(far, a, sizeof(a)),
		 dir > 0 ? "lower" : "upper", pp_fmt_ns(bound, b, sizeof(b)));
	return why;
}
