// SPDX-License-Identifier: MIT
/*
 * plan.c - the plan stage: compare the entry, run one search below it
 * (plan_attrib.c, or plan_seed.c for the method's own algorithms), then
 * finish the attribution tree the search built: each node's share of its
 * parent's difference, children ordered largest first, the bottleneck chain
 * (the largest slower part at each layer) and the ranks of the further
 * contributors.  The searches pick quantities, have them measured
 * (pp_measure) and decided (pp_settle).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/align.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"
#include "pinpoint/plan.h"
#include "pinpoint/settle.h"

bool pp_same_call_list(const struct pp_prog_fn *a, const struct pp_prog_fn *b, char **why)
{
	unsigned k, n = a->ncalls < b->ncalls ? a->ncalls : b->ncalls;
	const struct pp_prog_call *ca, *cb;
	char *la = NULL, *lb = NULL;
	int r;

	*why = NULL;
	/* The same callees, through the same inlined calls. */
	for (k = 0; k < n; k++)
		if (!pp_same_callee(&a->calls[k], &b->calls[k]) ||
		    a->calls[k].via != b->calls[k].via)
			break;
	if (k == n && a->ncalls == b->ncalls)
		return true;
	if (k < n) {
		ca = &a->calls[k];
		cb = &b->calls[k];
		la = pp_prog_call_label(a, k);
		lb = pp_prog_call_label(b, k);
		r = asprintf(why,
			     "its call list changed: %u calls before, %u now; call %u was %s "
			     "(%s:%u), is %s (%s:%u)",
			     a->ncalls, b->ncalls, k, la ? la : "?", ca->file, ca->line,
			     lb ? lb : "?", cb->file, cb->line);
	} else {
		bool gone = a->ncalls > b->ncalls; /* the longer list has the extra calls */
		const struct pp_prog_fn *f = gone ? a : b;
		const struct pp_prog_call *c = &f->calls[k];

		la = pp_prog_call_label(f, k);
		r = asprintf(why,
			     "its call list changed: %u calls before, %u now; call %u to %s "
			     "(%s:%u) and after are %s",
			     a->ncalls, b->ncalls, k, la ? la : "?", c->file, c->line,
			     gone ? "gone" : "new");
	}
	free(la);
	free(lb);
	if (r < 0)
		*why = NULL;
	return false;
}

bool pp_call_timed(const struct pp_prog_call *c)
{
	return c->fate == PP_FATE_TIMED;
}

const char *pp_dig_stop(struct pp_session *s, const struct pp_prog_fn *const fn[2], const int at[2],
			int layer, const struct pp_prog_fn *callee[2])
{
	const struct pp_options *opt = s->opt;
	const struct pp_prog_call *call = &fn[PP_CUR]->calls[at[PP_CUR]];

	callee[PP_PREV] = NULL;
	callee[PP_CUR] = NULL;
	if (call->kind == PP_CALL_INDIRECT || call->kind == PP_CALL_INVOKE_INDIRECT)
		return "indirect call";
	callee[PP_PREV] = pp_program_resolve(&s->rev[PP_PREV].prog, fn[PP_PREV],
					     &fn[PP_PREV]->calls[at[PP_PREV]]);
	callee[PP_CUR] = pp_program_resolve(&s->rev[PP_CUR].prog, fn[PP_CUR], call);
	if (!callee[PP_PREV] || !callee[PP_CUR])
		return "external: no pinpoint table for the callee";
	if (layer + 1 >= opt->depth)
		return "depth reached";
	if (pp_excluded(opt->exclude, opt->nexclude, call->callee))
		return "excluded";
	return NULL;
}

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
	return n->stop && !strncmp(n->stop, "recursion", 9);
}

/*
 * The child the chain follows: the largest slower part, a recursive call
 * last (its time is that of a function the tree inspects already); else the
 * own body (spread).
 */
static int chain_child(const struct pp_session *s, int p)
{
	int best = -1, self = -1;

	for (int c = s->nodes[p].child; c >= 0; c = s->nodes[c].next) {
		const struct pp_node *n = &s->nodes[c], *b = best >= 0 ? &s->nodes[best] : NULL;

		if (n->kind == PP_NODE_SELF)
			self = c;
		if (n->kind == PP_NODE_REST || n->sign <= 0)
			continue;
		if (!b || (recursive(b) && !recursive(n)) ||
		    (recursive(b) == recursive(n) && centre(n) > centre(b)))
			best = c;
	}
	return best >= 0 ? best : self;
}

static bool has_slower_child(const struct pp_session *s, int p)
{
	for (int c = s->nodes[p].child; c >= 0; c = s->nodes[c].next)
		if (s->nodes[c].sign > 0 && s->nodes[c].kind != PP_NODE_REST)
			return true;
	return false;
}

static void tree_finish(struct pp_session *s, bool chain_marked)
{
	unsigned rank = 0;

	for (size_t i = 0; i < s->nnodes; i++) {
		struct pp_node *n = &s->nodes[i];
		double pd;

		order_children(s, (int)i);
		if (n->parent < 0) {
			n->share = 1;
			n->share_ci = (struct pp_interval){1, 1, 1};
			continue;
		}
		pd = s->nodes[n->parent].diff.centre;
		/* A structural group has no quantity: its parts' shares are of its parent's parent.
		 */
		if (s->nodes[n->parent].kind == PP_NODE_STRUCTURAL &&
		    s->nodes[n->parent].parent >= 0)
			pd = s->nodes[s->nodes[n->parent].parent].diff.centre;
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
	if (!s->nnodes)
		return;
	/* The chain starts at the entry, whichever search marked its steps. */
	s->nodes[0].chain = true;
	if (!chain_marked) {
		int c = 0;

		s->nodes[0].chain = true;
		while (s->nodes[c].kind != PP_NODE_STRUCTURAL && (c = chain_child(s, c)) >= 0)
			s->nodes[c].chain = true;
		/* The changed code is named the cause only when it is the largest part. */
		for (size_t i = 0; i < s->nnodes; i++)
			if (s->nodes[i].kind == PP_NODE_STRUCTURAL && s->nodes[i].chain)
				s->nodes[i].stop = "structural change";
	}
	/* Further contributors: slower parts off the chain with no slower part below, largest
	 * first. */
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

struct ride_list {
	struct pp_quantity **q;
	size_t n;
};

static int ride_list(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *n,
		     size_t max)
{
	const struct ride_list *rl = arg;

	(void)s;
	for (size_t i = 0; i < rl->n && *n < max; i++)
		out[(*n)++] = rl->q[i];
	return 0;
}

int pp_plan(struct pp_session *s)
{
	const struct pp_prog_fn *entry[2] = {s->rev[PP_PREV].entry, s->rev[PP_CUR].entry};
	struct pp_quantity *batch[PP_BATCH_MAX_SLOTS], *e;
	char *why = NULL;
	bool same, seed = s->opt->search != PP_SEARCH_ATTRIB;
	size_t n = 0;
	int err, root;

	/* The entry first; what the search will look at first rides along in the same runs. */
	e = pp_quantity_get(s, PP_Q_ENTRY, entry, 0, 0);
	if (!e)
		return -ENOMEM;
	e->alpha = 1 - s->opt->confidence;
	batch[n++] = e;
	same = pp_same_call_list(entry[0], entry[1], &why);
	free(why);
	if (s->opt->depth > 0 && !seed) {
		if (pp_plan_attrib_ride_along(s, batch, &n, PP_BATCH_MAX_SLOTS))
			return -ENOMEM;
	} else if (s->opt->depth > 0 && same && entry[PP_CUR]->ncalls) {
		unsigned last = entry[PP_CUR]->ncalls - 1;

		/* DiggingFind's comparisons under the entry; it gives them their alpha */
		batch[n++] = pp_quantity_get(s, PP_Q_RANGE, entry, 0, last);
		if (last > 0 && s->opt->search == PP_SEARCH_SEED) {
			batch[n++] = pp_quantity_get(s, PP_Q_RANGE, entry, 0, (last + 1) / 2 - 1);
			batch[n++] = pp_quantity_get(s, PP_Q_RANGE, entry, (last + 1) / 2, last);
		}
		batch[n++] = pp_quantity_get(s, PP_Q_SELF, entry, 0, 0);
		for (size_t i = 0; i < n; i++)
			if (!batch[i])
				return -ENOMEM;
	}
	err = pp_measure(s, batch, n, s->opt->measurements, false);
	if (!err) {
		/* The entry's later rounds keep the first batch's arming: its values stay
		 * alike, and what the search looks at first gets its later looks' values. */
		struct ride_list rl = {batch + 1, n - 1};
		const struct pp_ride ride = {ride_list, &rl};

		err = pp_settle_ride(s, &e, 1, &ride);
	}
	if (err)
		return err;
	if (e->verdict != PP_V_SLOWER) {
		s->outcome = PP_EXIT_NO_REGRESSION;
		return 0;
	}
	s->outcome = PP_EXIT_REGRESSION;
	root = pp_node_add(s, PP_NODE_ENTRY, -1, entry, e);
	if (root < 0)
		return -ENOMEM;
	s->nodes[root].sign = 1;
	if (s->opt->depth == 0) {
		s->nodes[root].stop = "depth reached";
		err = 0;
	} else if (seed) {
		err = pp_plan_seed(s, root);
	} else {
		err = pp_plan_attrib(s, root);
	}
	tree_finish(s, seed);
	return err;
}
