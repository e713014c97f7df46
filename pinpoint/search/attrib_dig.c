// SPDX-License-Identifier: MIT
/*
 * attrib_dig.c - digging in the attribution search: which of F's calls are
 * dug into, in what order and within --depth and --max-paths; the time plan
 * of what is measured after the bottleneck chain; and F's parts left open
 * taken up again once the chain below F is done.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/measure/settle.h"
#include "pinpoint/search/tree.h"
#include "pinpoint/session/counts.h"
#include "pinpoint/session/targets.h"
#include "pinpoint/search/attrib_priv.h"

const char pp_attrib_paths_stop[] = "budget: --max-paths reached";

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
double pp_attrib_plan_time(struct pp_session *s, int layer, bool chain)
{
	double left = pp_session_time_left(s), now = pp_session_now(s);
	double spent = now - (s->measuring > 0 ? s->measuring : s->started);
	int layers = s->opt->depth - layer;

	if (chain || !isfinite(left)) /* the chain, or no --max-time: no plan */
		return 0;
	if (layers > 0 && left / layers < spent)
		spent = left / layers;
	return now + spent;
}

/*
 * Why node @c is not dug into when its difference is its count's: its
 * calls ran more often (or less), each one the same or changed the other
 * way (counts.h: "more calls", "fewer calls"), so what changed is how often
 * its caller calls it, and its callee holds nothing to find in its
 * direction.  NULL: it is not; -ENOMEM in *@err.
 */
static const char *count_stop(struct pp_session *s, struct pp_node *c, int *err)
{
	struct pp_counts k;
	char *why;

	if (!c->q || !c->sign)
		return NULL;
	*err = pp_counts_of(c->q, s->opt, &k);
	if (*err || !pp_counts_only(&k, c->sign))
		return NULL;
	if (asprintf(&why, "%s: what changed is how often it is called, not what it does",
		     k.cause) < 0) {
		*err = -ENOMEM;
		return NULL;
	}
	free(c->stop_own);
	c->stop_own = why;
	return why;
}

/*
 * The alpha @callee's parts share, dug into from node @c: the call's
 * (pp_attrib_gate_alpha()), or, where @c is an indirect call dug into
 * through a target found slower (faster) on its own, that target's
 * comparison's, which the call's alpha gated.
 */
static double target_alpha(const struct pp_session *s, int c, const struct pp_prog_fn *callee)
{
	const struct pp_targets *t = s->nodes[c].targets;

	for (size_t i = 0; t && i < t->n; i++)
		if (t->t[i].q && t->t[i].q->alpha > 0 && !strcmp(t->t[i].key, callee->name))
			return t->t[i].q->alpha;
	return pp_attrib_gate_alpha(s, c);
}

/* Dig into the calls dig_list() names, at most --max-paths in all. */
int pp_attrib_dig_calls(struct pp_attrib *a, struct pp_fnstate *st)
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
		const char *stop = count_stop(s, &s->nodes[c], &err);

		if (err)
			break;
		if (stop) {
			s->nodes[c].stop = stop;
			continue;
		}
		if (shared) { /* two layers down, by its function */
			callee[PP_PREV] = s->nodes[c].into[PP_PREV];
			callee[PP_CUR] = s->nodes[c].into[PP_CUR];
			stop = pp_dig_limit(s, st->layer + 2, callee[PP_CUR]);
		} else {
			stop = pp_dig_stop(s, st->v->fn, at, st->layer, &s->nodes[c], callee, &err);
			if (err)
				break;
		}

		if (!stop && pp_fnset_has(&a->seen, callee[PP_CUR])) {
			stop = "recursion: already inspected";
			s->nodes[c].recursive = true;
		}
		if (!stop && a->paths >= s->opt->max_paths) {
			stop = PP_ATTRIB_PATHS_STOP;
			s->budget_cut = true;
		}
		if (stop) {
			s->nodes[c].stop = stop;
			/* several targets slower on their own: into each */
			if (call && s->nodes[c].q && st->layer + 1 < s->opt->depth &&
			    pp_call_indirect(call)) {
				int got = pp_attrib_dig_targets(
				    a, st, c, at, st->chain && d == 0 && !a->off_chain);

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
		err = pp_attrib_search_fn(a, c, callee, st->layer + (shared ? 2 : 1),
					  st->chain && d == 0 && !a->off_chain,
					  target_alpha(s, c, callee[PP_CUR]));
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
int pp_attrib_resume_parts(struct pp_attrib *a, struct pp_fnstate *st)
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
						  .deadline =
						      pp_attrib_plan_time(s, st->layer, false),
						  .layer = st->layer + 1};

		err = pp_settle(s, st->parts.q, st->parts.n, &how);
	}
	for (size_t i = 0; i < resumed && !err; i++) {
		struct pp_node *n = &s->nodes[nodes[i]];
		const struct pp_quantity *q = n->q;

		n->sign = n->kind == PP_NODE_SELF && (st->one_sided || pp_attrib_lost_runs(s))
			      ? 0
			      : pp_attrib_beyond(q);
		n->stop = pp_attrib_open_stop(q);
	}
	if (!err)
		err = pp_tree_account(s, st->node);
out:
	free(again);
	free(nodes);
	return err;
}

/* A call --max-paths left, off the chain: taken up by pp_attrib_more(). */
static bool cut_off_chain(const struct pp_session *s, const struct pp_node *n)
{
	return n->stop == PP_ATTRIB_PATHS_STOP && !n->chain && n->parent >= 0 &&
	       (n->kind == PP_NODE_CALL || n->kind == PP_NODE_GROUP || n->kind == PP_NODE_SHARED) &&
	       s->nodes[n->parent].kind != PP_NODE_CALL; /* not an indirect call's target */
}

/*
 * The search goes on after a what-if found the chain explains only a share
 * of the slowdown (plan.c): the slower calls off the chain that --max-paths
 * left are dug into like the others, another --max-paths of them, largest
 * first under each function, each in the time the plan gives what comes
 * after the chain.  The chain's own calls stay as they are: the what-if
 * asked about its claim, and what it did not explain is elsewhere.  How
 * many calls it dug into, or -errno.
 */
int pp_attrib_more(struct pp_session *s)
{
	struct pp_attrib a = {.s = s, .off_chain = true};
	size_t n0 = s->nnodes;
	/* cut[i]: node i is taken up; done[p]: F's node p was */
	bool *cut = calloc(n0 ? 2 * n0 : 1, sizeof(*cut)), *done = cut + n0;
	int err = 0, dug = 0;

	if (!cut)
		return -ENOMEM;
	/* the functions inspected so far: each node's */
	for (size_t i = 0; i < n0 && !err; i++)
		if (s->nodes[i].fn[PP_CUR])
			err = pp_fnset_add(&a.seen, s->nodes[i].fn[PP_CUR]);
	for (size_t i = 0; i < n0 && !err; i++) {
		struct pp_fnstate st = {0};
		struct pp_fnview v = {0};
		int p = s->nodes[i].parent;

		if (!cut_off_chain(s, &s->nodes[i]) || done[p])
			continue;
		done[p] = true;
		/* every such call under F's node p, at once, largest first */
		for (size_t k = i; k < n0; k++)
			if (s->nodes[k].parent == p && cut_off_chain(s, &s->nodes[k])) {
				s->nodes[k].stop = NULL;
				cut[k] = true;
			}
		err = pp_attrib_view(&v, s->nodes[i].fn);
		if (err)
			break;
		st.a = &a;
		st.layer = (int)s->nodes[i].depth;
		st.v = &v;
		st.node = p;
		st.dir = s->nodes[p].sign < 0 ? -1 : 1;
		st.group = -1;
		st.alpha = pp_attrib_gate_alpha(s, p);
		err = pp_attrib_dig_calls(&a, &st);
		pp_attrib_view_free(&v);
	}
	/* what it dug into has parts now; what --max-paths left again is cut */
	s->budget_cut = false;
	for (size_t i = 0; i < s->nnodes; i++) {
		int p = s->nodes[i].parent;

		if (i >= n0 && p >= 0 && (size_t)p < n0 && cut[p]) {
			cut[p] = false; /* dug into: it has parts */
			dug++;
		}
		s->budget_cut |= s->nodes[i].stop == PP_ATTRIB_PATHS_STOP;
	}
	pp_fnset_free(&a.seen);
	free(cut);
	return err ? err : dug;
}
