// SPDX-License-Identifier: MIT
/*
 * attrib_nodes.c - the nodes of F's parts in the attribution tree: each
 * call found slower or faster, or left open while it may still be as large
 * as the threshold; a call timed in one revision only; calls only one
 * revision makes, under a structural node; callee groups and ranges; and,
 * once its parts are measured, F's own body and its remainder.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/search/tree.h"
#include "pinpoint/search/attrib_priv.h"

/* Significantly slower, or faster, and not shown within the threshold. */
int pp_attrib_beyond(const struct pp_quantity *q)
{
	if (!q || !q->decided)
		return 0;
	if (q->verdict == PP_V_SLOWER)
		return 1;
	if (q->verdict == PP_V_FASTER)
		return -1;
	return 0;
}

/* Why the search stopped at a part that @q left open or undecided, or NULL. */
const char *pp_attrib_open_stop(const struct pp_quantity *q)
{
	return q->verdict == PP_V_BOUNDED     ? q->left
	       : q->verdict == PP_V_UNDECIDED ? "undecided: the runs allowed ran out before its "
						"interval could decide"
					      : NULL;
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

/* What place @k's probes were planned to add to a run, a share of the entry as built; NaN: none. */
static double probes_share(const struct pp_fnview *v, int k)
{
	return v->cost && v->entry_ns > 0 ? v->cost[k] / v->entry_ns : NAN;
}

/* The node of place @k under @parent (F's node or its structural group). */
static int unit_node(struct pp_session *s, const struct pp_fnview *v, int k, int parent,
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
	n->sign = pp_attrib_beyond(q);
	n->probes_share = probes_share(v, k);
	return i;
}

/* Call @k of @fn, which has no probes, goes into the own body's note. */
static void note_inlined(struct pp_fnstate *st, const char *what, const struct pp_prog_fn *fn,
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

/* Place @k, left untimed by the arming plan (attrib_budget.c): noted for F's own body. */
static void note_untimed(struct pp_fnstate *st, const struct pp_fnview *v, int k)
{
	int r = v->u[k].at[PP_CUR] >= 0 ? PP_CUR : PP_PREV;
	const struct pp_prog_fn *fn = v->fn[r];
	unsigned at = (unsigned)v->u[k].at[r];
	const struct pp_prog_call *c = &fn->calls[at];
	char *n = NULL, *label = pp_prog_call_label(fn, at);
	char each[32];
	double execs = v->execs[r] ? v->execs[r][k] : NAN;

	pp_fmt_ns(v->each_ns[k], each, sizeof(each));
	if (label &&
	    asprintf(&n,
		     "%s%scall %u %s (%s:%u): %.*f calls an execution of the entry, %s each, "
		     "its probes +%.2g %% of the run: %s",
		     st->untimed ? st->untimed : "", st->untimed ? "; " : "", at, label, c->file,
		     c->line, execs >= 100 ? 0 : 2, execs, each, 100 * v->cost[k] / v->entry_ns,
		     v->why[k]) < 0)
		n = NULL;
	free(label);
	if (!n)
		return;
	free(st->untimed);
	st->untimed = n;
}

/* The place of call @at of revision @r, or -1. */
static int place_of(const struct pp_fnview *v, int r, int at)
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
bool pp_attrib_inlined_in_one(const struct pp_fnview *v, int k, int r)
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
static bool grouped(struct pp_quantity *const *g, int ng, const struct pp_fnview *v, int k)
{
	for (int i = 0; i < ng; i++)
		if (pp_attrib_in_group(g[i], v, k))
			return true;
	return false;
}

/*
 * Nodes for places @u0..@u1, all measured, but for the calls of the groups
 * @g[0..@ng) (their group's node holds them); returns how many slower ones,
 * or -ENOMEM.
 */
int pp_attrib_emit_units(struct pp_session *s, struct pp_fnstate *st, int u0, int u1,
			 struct pp_quantity *const *g, int ng)
{
	const struct pp_fnview *v = st->v;
	int slower = 0;

	for (int k = u0; k <= u1; k++) {
		bool oom = false, both = v->u[k].at[0] >= 0 && v->u[k].at[1] >= 0;
		struct pp_quantity *q = pp_attrib_unit_q(s, v, k, &oom);
		int i, r = v->u[k].at[PP_CUR] >= 0 ? PP_CUR : PP_PREV;

		if (oom)
			return -ENOMEM;
		if (grouped(g, ng, v, k) || (pp_attrib_probed(v, k) && !pp_attrib_ran(v, k)))
			continue;
		if (pp_attrib_untimed(v, k)) {
			note_untimed(st, v, k);
			continue;
		}
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
			if (!pp_attrib_beyond(q) && !open_but_large(q))
				continue;
			i = unit_node(s, v, k, st->node, PP_NODE_CALL, q);
			if (i < 0)
				return -ENOMEM;
			s->nodes[i].stop = pp_attrib_open_stop(q);
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
		if (pp_attrib_inlined_in_one(v, k, r)) {
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

/* The node of callee group @g under F: its calls together, dug into through its callee. */
int pp_attrib_group_node(struct pp_session *s, struct pp_fnstate *st, const struct pp_quantity *g)
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
	n->sign = pp_attrib_beyond(g);
	/* its calls' added up: NaN, as theirs, without a plan */
	n->probes_share = 0;
	for (int k = 0; k < st->v->nu; k++)
		if (pp_attrib_in_group(g, st->v, k))
			n->probes_share += probes_share(st->v, k);
	return n->sign > 0;
}

/*
 * The structural group's verdict: the comparison @c of the calls only one
 * revision makes, added up, decided as any part is (its own alpha, the
 * sequential rule).  Where F's change spreads over several ranges, each
 * compared apart, the group has none of its own: its calls' accounting
 * (account.c) is all it shows.
 */
void pp_attrib_changed_node(struct pp_session *s, struct pp_fnstate *st,
			    const struct pp_quantity *c)
{
	struct pp_node *g;

	if (st->group < 0)
		return;
	g = &s->nodes[st->group];
	if (g->q && g->q != c)
		st->changed_several = true;
	if (st->changed_several) {
		g->q = NULL;
		g->sign = 0;
		g->stop = NULL;
		return;
	}
	g->q = c;
	g->sign = pp_attrib_beyond(c);
	if (c->decided)
		g->diff = c->cmp.diff;
	g->stop = pp_attrib_open_stop(c);
}

int pp_attrib_range_node(struct pp_session *s, struct pp_fnstate *st, int u0, int u1,
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

/*
 * Place @k, left untimed by the arming plan and measured alone since F's own
 * body, which holds it, differs (attrib_budget.c): its node under that own
 * body's, @parent.  0 or -ENOMEM.
 */
int pp_attrib_alone_node(struct pp_session *s, struct pp_fnstate *st, int k, int parent,
			 const struct pp_quantity *q)
{
	const struct pp_fnview *v = st->v;
	int i = unit_node(s, v, k, parent, PP_NODE_CALL, q);
	struct pp_node *n;

	if (i < 0)
		return -ENOMEM;
	n = &s->nodes[i];
	n->alone = true;
	if (asprintf(&n->stop_own,
		     "measured alone, in runs of its own, part of the own body: %s (its probes "
		     "add %.2g %% to a run, --arm-budget %.3g %%); not dug into",
		     v->why[k], 100 * v->cost[k] / v->entry_ns, s->opt->arm_budget) < 0)
		n->stop_own = NULL;
	n->stop = n->stop_own;
	return 0;
}

/*
 * Place @k, measured alone as pp_attrib_alone_node() says, came out more
 * than the own body @self that holds it: timing it changed what it does (a
 * probe around a short call stalls the work around it).  No node: the own
 * body's note says so, and the chain ends at the own body.  0 or -ENOMEM.
 */
int pp_attrib_alone_inflated(struct pp_session *s, struct pp_fnstate *st, int k, int self,
			     const struct pp_quantity *q)
{
	const struct pp_fnview *v = st->v;
	int r = v->u[k].at[PP_CUR] >= 0 ? PP_CUR : PP_PREV;
	struct pp_node *n = &s->nodes[self];
	char *label = pp_prog_call_label(v->fn[r], (unsigned)v->u[k].at[r]), *d = NULL;
	char a[32], b[32], c[32], e[32];

	if (!label)
		return -ENOMEM;
	if (asprintf(
		&d,
		"%s%scall %d %s, measured alone, came out %s [%s, %s], more than this own body "
		"that holds it (%s): timing each of its calls changed what they do",
		n->detail ? n->detail : "", n->detail ? "; " : "", v->u[k].at[r], label,
		pp_fmt_ns(q->cmp.diff.centre, a, sizeof(a)),
		pp_fmt_ns(q->cmp.diff.low, b, sizeof(b)), pp_fmt_ns(q->cmp.diff.high, c, sizeof(c)),
		pp_fmt_ns(n->diff.centre, e, sizeof(e))) < 0)
		d = NULL;
	free(label);
	if (!d)
		return -ENOMEM;
	free(n->detail);
	n->detail = d;
	return 0;
}

/* Whether runs abandoned measured executions: their own bodies lose their calls' exits. */
bool pp_attrib_lost_runs(const struct pp_session *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].lost)
			return true;
	return false;
}

/* F's own body, structural group and remainder nodes, after its calls'. */
int pp_attrib_close_fn(struct pp_session *s, struct pp_fnstate *st, struct pp_quantity *self)
{
	const struct pp_prog_fn *const *fn = st->v->fn;
	int i = pp_node_add(s, PP_NODE_SELF, st->node, fn, self);

	if (i < 0)
		return -ENOMEM;
	/* With a call inlined in one revision only, the own body's difference holds
	 * that call's time on one side: no verdict of its own. */
	s->nodes[i].sign = st->one_sided || pp_attrib_lost_runs(s) ? 0 : pp_attrib_beyond(self);
	if (self->verdict == PP_V_BOUNDED)
		s->nodes[i].stop = self->left;
	if (pp_attrib_lost_runs(s) && !st->inlined)
		s->nodes[i].detail =
		    strdup("executions were abandoned (longjmp, exceptions): an own "
			   "body is not told from its calls, no verdict of its own");
	if (st->inlined && asprintf(&s->nodes[i].detail, "inlined here: %s", st->inlined) < 0)
		s->nodes[i].detail = NULL;
	if (st->untimed) {
		char *d = NULL;

		if (asprintf(&d, "%s%snot timed here (--arm-budget %.3g %%): %s",
			     s->nodes[i].detail ? s->nodes[i].detail : "",
			     s->nodes[i].detail ? "; " : "", s->opt->arm_budget, st->untimed) < 0)
			d = NULL;
		free(s->nodes[i].detail);
		s->nodes[i].detail = d;
	}
	i = pp_node_add(s, PP_NODE_REST, st->node, fn, NULL);
	if (i < 0)
		return -ENOMEM;
	s->nodes[i].stop = "unexplained: spread over calls below the threshold, or noise";
	/* The numbers of F's parts, from the runs that measured them all. */
	s->nodes[st->node].total = st->total;
	pp_tree_account(s, st->node);
	return 0;
}
