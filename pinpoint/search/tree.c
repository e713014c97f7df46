// SPDX-License-Identifier: MIT
/*
 * tree.c - finishing the attribution tree a search built: each node's share
 * of its parent's difference, children ordered largest first, the
 * bottleneck chain (the largest slower part at each layer, unless the search
 * marked it) and the ranks of the further contributors.
 */
#include <math.h>
#include <stdlib.h>

#include "pinpoint/search/tree.h"

static double centre(const struct pp_node *n)
{
	return n->diff.centre;
}

/* Children of @p, largest difference first, the remainder last. */
static void order_children(struct pp_session *s, int p)
{
	int *kids = NULL;
	size_t nk = 0;

	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].parent == p) {
			int *n = realloc(kids, (nk + 1) * sizeof(*n));

			if (!n)
				break;
			kids = n;
			kids[nk++] = (int)i;
		}
	for (size_t i = 1; i < nk; i++) /* insertion sort: few children */
		for (size_t j = i; j > 0; j--) {
			const struct pp_node *a = &s->nodes[kids[j - 1]], *b = &s->nodes[kids[j]];
			bool swap = a->kind == PP_NODE_REST ||
				    (b->kind != PP_NODE_REST && centre(b) > centre(a));
			int t;

			if (!swap)
				break;
			t = kids[j];
			kids[j] = kids[j - 1];
			kids[j - 1] = t;
		}
	s->nodes[p].child = nk ? kids[0] : -1;
	for (size_t i = 0; i < nk; i++)
		s->nodes[kids[i]].next = i + 1 < nk ? kids[i + 1] : -1;
	free(kids);
}

static bool recursive(const struct pp_node *n)
{
	return n->recursive;
}

/*
 * The child the chain follows: the largest slower part, a recursive call
 * last (its time is that of a function the tree inspects already); else the
 * own body (spread).
 */
static int chain_child(const struct pp_session *s, int p)
{
	int best = -1, self = -1;
	bool open = false;

	for (int c = s->nodes[p].child; c >= 0; c = s->nodes[c].next) {
		const struct pp_node *n = &s->nodes[c], *b = best >= 0 ? &s->nodes[best] : NULL;

		if (n->kind == PP_NODE_SELF)
			self = c;
		open |= n->q && n->q->decided &&
			(n->q->verdict == PP_V_UNDECIDED || n->q->verdict == PP_V_BOUNDED);
		if (n->kind == PP_NODE_REST || n->sign <= 0)
			continue;
		if (!b || (recursive(b) && !recursive(n)) ||
		    (recursive(b) == recursive(n) && centre(n) > centre(b)))
			best = c;
	}
	/* No part shown slower, some still open: the own body is not named for it. */
	if (best < 0 && open && (self < 0 || s->nodes[self].sign <= 0))
		return -1;
	return best >= 0 ? best : self;
}

/* The chain ends at @p with parts still open: say which, the largest first. */
static void open_end(struct pp_session *s, int p)
{
	if (s->nodes[p].stop || s->nodes[p].child < 0)
		return;
	for (int c = s->nodes[p].child; c >= 0; c = s->nodes[c].next)
		if (s->nodes[c].q && s->nodes[c].q->decided &&
		    (s->nodes[c].q->verdict == PP_V_UNDECIDED ||
		     s->nodes[c].q->verdict == PP_V_BOUNDED)) {
			s->nodes[p].stop = "undecided between its parts: none was shown slower "
					   "before the runs or the time ran out (see the tree)";
			return;
		}
}

static bool has_slower_child(const struct pp_session *s, int p)
{
	for (int c = s->nodes[p].child; c >= 0; c = s->nodes[c].next)
		if (s->nodes[c].sign > 0 && s->nodes[c].kind != PP_NODE_REST)
			return true;
	return false;
}

/* Each node's share of its parent's difference (point estimate and interval). */
static void shares(struct pp_session *s)
{
	for (size_t i = 0; i < s->nnodes; i++) {
		struct pp_node *n = &s->nodes[i];
		double pd;

		if (n->parent < 0) {
			n->share = 1;
			n->share_ci = (struct pp_interval){1, 1, 1};
			n->level = n->q && n->q->decided ? n->q->cmp.confidence : NAN;
			continue;
		}
		pd = s->nodes[pp_node_whole(s, n)].diff.centre;
		/* Parts accounted from the runs that measured them with their function keep
		 * the shares of its whole there (account.c). */
		if (pp_node_accounted(s, n) && n->kind != PP_NODE_SHARED)
			continue;
		/* its interval is its comparison's, at that look's level */
		n->level = n->q && n->q->decided ? n->q->cmp.confidence : NAN;
		if (pd != 0) {
			n->share = n->diff.centre / pd;
			n->share_ci =
			    (struct pp_interval){n->share, n->diff.low / pd, n->diff.high / pd};
			if (pd < 0) {
				n->share_ci.low = n->diff.high / pd;
				n->share_ci.high = n->diff.low / pd;
			}
		}
	}
}

/* The interval of the products of a value of @a and one of @b (NaN when either is not finite). */
static struct pp_interval product(struct pp_interval a, struct pp_interval b)
{
	double p[4] = {a.low * b.low, a.low * b.high, a.high * b.low, a.high * b.high};
	struct pp_interval r = {a.centre * b.centre, p[0], p[0]};

	if (!isfinite(a.low) || !isfinite(a.high) || !isfinite(b.low) || !isfinite(b.high))
		return (struct pp_interval){NAN, NAN, NAN};
	for (int i = 1; i < 4; i++) {
		r.low = p[i] < r.low ? p[i] : r.low;
		r.high = p[i] > r.high ? p[i] : r.high;
	}
	return r;
}

/*
 * Each node's share of the entry: its share of its parent's (a structural
 * group's calls: of the function the group is in) times that one's share
 * of the entry, along the path.  A parent's nodes come before its children's.
 * Its interval is the product of the shares' intervals along the path
 * (interval arithmetic): each holds at the session's confidence c, so all
 * of k of them, and their product, at 1 - k (1 - c) at least (Bonferroni).
 */
static void entry_shares(struct pp_session *s)
{
	for (size_t i = 0; i < s->nnodes; i++) {
		struct pp_node *n = &s->nodes[i];
		int w = pp_node_whole(s, n);

		if (w < 0) {
			n->entry_share = 1;
			n->entry_share_ci = (struct pp_interval){1, 1, 1};
			n->entry_steps = 0;
			n->entry_alpha = 0;
			continue;
		}
		n->entry_share = n->share * s->nodes[w].entry_share;
		n->entry_steps = s->nodes[w].entry_steps + 1;
		n->entry_alpha = s->nodes[w].entry_alpha +
				 (1 - (isfinite(n->level) ? n->level : s->opt->confidence));
		/* a remainder without accounting has a point share: no interval */
		n->entry_share_ci = n->kind == PP_NODE_REST && !pp_node_accounted(s, n)
					? (struct pp_interval){NAN, NAN, NAN}
					: product(n->share_ci, s->nodes[w].entry_share_ci);
		n->entry_share_ci.centre = n->entry_share;
	}
}

void pp_tree_mark_chain(struct pp_session *s)
{
	int c = 0;

	s->nodes[0].chain = true;
	for (;;) {
		int next;

		if (s->nodes[c].kind == PP_NODE_STRUCTURAL)
			break;
		next = chain_child(s, c);
		if (next < 0) {
			open_end(s, c);
			break;
		}
		c = next;
		s->nodes[c].chain = true;
	}
	/* The changed code is named the cause only when it is the largest part. */
	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].kind == PP_NODE_STRUCTURAL && s->nodes[i].chain)
			s->nodes[i].stop = "structural change";
}

/* Further contributors: slower parts off the chain with no slower part below, largest first. */
static void rank_contributors(struct pp_session *s)
{
	unsigned rank = 0;

	for (size_t i = 0; i < s->nnodes; i++) /* a tree finished again ranks anew */
		s->nodes[i].rank = 0;
	for (;;) {
		int best = -1;

		for (size_t i = 0; i < s->nnodes; i++) {
			const struct pp_node *n = &s->nodes[i];

			if (n->chain || n->rank || n->sign <= 0 || n->kind == PP_NODE_REST ||
			    has_slower_child(s, (int)i))
				continue;
			if (best < 0 || centre(n) > centre(&s->nodes[best]))
				best = (int)i;
		}
		if (best < 0)
			break;
		s->nodes[best].rank = ++rank;
	}
}

/*
 * A remainder without its function's accounting: the function's difference
 * less its parts' (point estimates).
 */
static void point_remainders(struct pp_session *s)
{
	/* a structural group: its calls' differences added up */
	for (size_t i = 0; i < s->nnodes; i++) {
		struct pp_node *g = &s->nodes[i];
		double thr = s->threshold_ns;

		if (g->kind != PP_NODE_STRUCTURAL || g->parent < 0 || pp_node_accounted(s, g) ||
		    g->q)
			continue;
		g->diff = (struct pp_interval){0, 0, 0};
		for (size_t k = 0; k < s->nnodes; k++)
			if (s->nodes[k].parent == (int)i) {
				g->diff.centre += s->nodes[k].diff.centre;
				g->diff.low += s->nodes[k].diff.low;
				g->diff.high += s->nodes[k].diff.high;
			}
		g->sign = g->diff.low > 0 && g->diff.centre > thr     ? 1
			  : g->diff.high < 0 && -g->diff.centre > thr ? -1
								      : 0;
	}
	for (size_t i = 0; i < s->nnodes; i++) {
		struct pp_node *n = &s->nodes[i];
		double rest;

		if (n->kind != PP_NODE_REST || n->parent < 0 || pp_node_accounted(s, n))
			continue;
		rest = s->nodes[n->parent].diff.centre;
		for (size_t k = 0; k < s->nnodes; k++)
			if (k != i && s->nodes[k].parent == n->parent &&
			    s->nodes[k].kind != PP_NODE_SHARED)
				rest -= s->nodes[k].diff.centre;
		n->diff = (struct pp_interval){rest, rest, rest};
	}
}

void pp_tree_finish(struct pp_session *s, const struct pp_search_ops *ops)
{
	if (!s->nnodes)
		return;
	point_remainders(s);
	for (size_t i = 0; i < s->nnodes; i++)
		order_children(s, (int)i);
	shares(s);
	entry_shares(s);
	/* The chain starts at the entry, whichever search marked its steps. */
	s->nodes[0].chain = true;
	if (ops->mark_chain)
		ops->mark_chain(s);
	rank_contributors(s);
}
