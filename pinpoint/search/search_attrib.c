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
 * (pp_attrib_matters()), and a time plan gives F's parts their share of what
 * is left of --max-time.  Every call found slower or faster becomes a node,
 * and so does one left open or undecided that may still be as large as the
 * threshold; a half found slower with no slower call in it becomes a range
 * node.  Calls only one revision makes are grouped under a structural node,
 * each with its cost in its revision.  What the parts leave of F's
 * difference is the remainder.  Then the slower calls are dug into, largest
 * first, down to --depth, for at most --max-paths calls; the faster ones
 * too where F has a slower part they may mask, or where F is itself an
 * improvement.  While some of F's parts are measured again, the parts of
 * the call to be dug into first ride along in those runs
 * (pp_attrib_ride_next_layer()).
 *
 * A call that has no probes (its callee was inlined, or it was removed by
 * the optimiser) cannot be measured: its time is part of F's own body, whose
 * node lists it ("inlined here").  A call timed in one revision only is
 * measured there alone and named so; its other revision's time is in F's
 * own body.  A call that came into F with inlined code is a call of F like
 * any other; one that one revision has only because the other calls what
 * it inlined is measured in that revision alone, as well.
 *
 * This file holds the search's entry (dig()) and its step at F
 * (pp_attrib_search_fn()); the rest is in attrib_*.c, which share
 * attrib_priv.h: the quantities of F's parts (attrib_parts.c), callee groups
 * (attrib_groups.c), the nodes (attrib_nodes.c), riders and
 * pp_attrib_matters() (attrib_riders.c), halving (attrib_halve.c), digging
 * and the time plan (attrib_dig.c), shared callees (attrib_shared.c) and an
 * indirect call's targets (attrib_targets.c).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "pinpoint/search/tree.h"
#include "pinpoint/search/attrib_priv.h"

/*
 * The alpha the comparisons under node @node share (doc/statistics.md, "A
 * session"): that of the comparison that gates it, its own; where it has
 * none (a node dug into by a target's), the nearest one up its parent
 * chain that has one.  The session's alpha only at the entry: below it, a
 * path with no alpha is a bug (the smallest along it, in a release build).
 */
double pp_attrib_gate_alpha(const struct pp_session *s, int node)
{
	double least = 1 - s->opt->confidence;

	for (int i = node; i >= 0; i = s->nodes[i].parent) {
		const struct pp_quantity *q = s->nodes[i].q;

		if (q && q->alpha > 0)
			return q->alpha;
		if (s->nodes[i].parent < 0 && s->nodes[i].kind == PP_NODE_ENTRY)
			return q && q->alpha > 0 ? q->alpha : 1 - s->opt->confidence;
	}
	assert(!"a node below the entry with no comparison to gate it");
	for (int i = node; i >= 0; i = s->nodes[i].parent)
		if (s->nodes[i].q && s->nodes[i].q->dec && s->nodes[i].q->final_look.alpha > 0 &&
		    s->nodes[i].q->final_look.alpha < least)
			least = s->nodes[i].q->final_look.alpha;
	return least;
}

int pp_attrib_search_fn(struct pp_attrib *a, int node, const struct pp_prog_fn *const fn[2],
			int layer, bool chain, double alpha)
{
	struct pp_session *s = a->s;
	struct pp_fnstate st = {0};
	struct pp_fnview v = {0};
	struct pp_quantity *self;
	int err;

	err = pp_fnset_add(&a->seen, fn[PP_CUR]);
	if (!err)
		err = pp_attrib_view(&v, fn);
	if (err)
		return err;
	st.a = a;
	st.layer = layer;
	st.chain = chain;
	st.v = &v;
	st.node = node;
	st.dir = s->nodes[node].sign < 0 ? -1 : 1;
	st.group = -1;
	st.alpha = alpha;
	/* a list too long to measure call by call: the calls that ran */
	err = pp_attrib_count_calls(s, &v, layer + 1);
	if (!err)
		err = pp_attrib_plan_arming(s, &v);
	if (err)
		goto out;
	s->nodes[node].calls_listed = v.ran && v.listed > PP_ATTRIB_SHORT ? v.listed : 0;
	s->nodes[node].armed_share = v.entry_ns > 0 ? v.planned_ns / v.entry_ns : NAN;
	s->nodes[node].untimed = v.nuntimed;
	s->nodes[node].calls_ran = v.nran;
	s->nodes[node].count_rounds = v.count_rounds;
	self = pp_quantity_get(s, PP_Q_SELF, fn, 0, 0);
	/*
	 * F's whole time in the runs of its parts; the entry's own comparison
	 * keeps only runs that armed nothing inside it.
	 */
	st.total = pp_quantity_get(s, PP_Q_TOTAL, fn, 0, 0);
	err = self && st.total ? pp_attrib_derive_self(s, &v, self, st.total) : -ENOMEM;
	if (!err)
		err = pp_attrib_measure_parts(s, &st, self);
	if (!err)
		err = pp_attrib_close_fn(s, &st, self);
	if (!err)
		err = pp_attrib_measure_alone(s, &st);
	if (!err)
		err = pp_attrib_shared_callees(a, &st);
	if (!err)
		err = pp_attrib_dig_calls(a, &st);
	/* the chain below F is done: F's further contributors, then theirs */
	if (!err)
		err = pp_attrib_resume_parts(a, &st);
	if (!err)
		err = pp_attrib_dig_calls(a, &st);
out:
	free(st.inlined);
	free(st.untimed);
	pp_qlist_free(&st.parts);
	pp_attrib_view_free(&v);
	return err;
}

static int dig(struct pp_session *s, int root)
{
	struct pp_attrib a = {.s = s};
	const struct pp_prog_fn *entry[2] = {s->nodes[root].fn[0], s->nodes[root].fn[1]};
	int err = pp_attrib_search_fn(&a, root, entry, 0, true, pp_attrib_gate_alpha(s, root));

	pp_fnset_free(&a.seen);
	return err;
}

const struct pp_search_ops pp_search_attrib = {
    .name = "attrib", .dig = dig, .mark_chain = pp_tree_mark_chain, .more = pp_attrib_more};
