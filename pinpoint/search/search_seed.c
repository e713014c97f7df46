// SPDX-License-Identifier: MIT
/*
 * searchseed.c - the method's own search (--search seed, --search linear):
 * DiggingFind (Algorithm 4.1) with BinaryFind (4.3) or LinearFind (4.2),
 * exactly as the thesis has them, for comparison and for its case study.
 *
 * DiggingFind inspects a slower function: its call list must be the same in
 * both revisions (otherwise the change is structural and the function itself
 * is named); BinaryFind or LinearFind narrows the list to a call or a range;
 * a single call whose callee has a table is inspected in turn, one layer
 * deeper.  Digging stops at the depth, at an excluded function, at a callee
 * without a table (external code), at a function already inspected
 * (recursion) and at an indirect call (section 4.3).  When nothing inside a
 * slower function is slower, its own body is named.  The result is one path
 * of the attribution tree: the bottleneck chain.
 *
 * Error rates (doc/statistics.md, "A session"): a slower function hands its
 * comparison's alpha on to the comparisons it can make before any of them is
 * found slower, fixed before their values are seen: BinaryFind's whole call
 * list and the own body share it (one half each), LinearFind's calls and the
 * own body share it equally, a range's halves share the range's.  So, as
 * with the attribution search, the probability of naming a function that did
 * not get slower is at most 1 - confidence; the thesis gave every comparison
 * the whole of it.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/stats_seq.h"
#include "pinpoint/search/search.h"
#include "pinpoint/measure/settle.h"

struct found {
	bool yes;
	unsigned first, last;
};

/* The next node of the chain, under @parent; -1 when out of memory. */
static int add_step(struct pp_session *s, enum pp_node_kind kind, int parent,
		    const struct pp_prog_fn *const fn[2], unsigned first, unsigned last,
		    const struct pp_quantity *q, const char *stop)
{
	int i = pp_node_add(s, kind, parent, fn, q);
	struct pp_node *n;

	if (i < 0)
		return -1;
	n = &s->nodes[i];
	n->first[0] = n->first[1] = first;
	n->last[0] = n->last[1] = last;
	n->stop = stop;
	n->chain = true;
	n->sign = q && q->verdict == PP_V_SLOWER ? 1 : q && q->verdict == PP_V_FASTER ? -1 : 0;
	return i;
}

/* Where BinaryFind splits calls first..last: the first half ends here. */
static unsigned split_point(unsigned first, unsigned last)
{
	return first + (last - first + 1) / 2 - 1;
}

/* Decide @q, with the halves of its range riding along when BinaryFind needs them. */
static int compare(struct pp_session *s, struct pp_quantity *q, int layer)
{
	struct pp_quantity *half[2];
	struct pp_settle_how how = {.ride = half, .layer = layer};

	if (q->kind == PP_Q_RANGE && q->last > q->first && s->opt->search == PP_SEARCH_SEED) {
		unsigned mid = split_point(q->first, q->last);

		half[0] = pp_quantity_get(s, PP_Q_RANGE, q->fn, q->first, mid);
		half[1] = pp_quantity_get(s, PP_Q_RANGE, q->fn, mid + 1, q->last);
		if (!half[0] || !half[1])
			return -ENOMEM;
		for (int h = 0; h < 2; h++) /* the two halves share their range's alpha */
			if (!half[h]->alpha && q->alpha > 0)
				half[h]->alpha = pp_seq_child_alpha(q->alpha, 2);
		how.nride = 2;
	}
	return pp_settle(s, &q, 1, &how);
}

/* The share @alpha gives @q, unless it has one; false when out of memory. */
static bool give_alpha(struct pp_quantity *q, double alpha)
{
	if (q && !q->alpha && alpha > 0)
		q->alpha = alpha;
	return q != NULL;
}

/* Algorithm 4.3; the whole list's comparison is made at @alpha (its halves share theirs). */
static int binary_find(struct pp_session *s, const struct pp_prog_fn *const fn[2], unsigned first,
		       unsigned last, double alpha, int layer, struct found *f)
{
	struct pp_quantity *q = pp_quantity_get(s, PP_Q_RANGE, fn, first, last);
	unsigned mid;
	int err;

	f->yes = false;
	if (!give_alpha(q, alpha))
		return -ENOMEM;
	err = compare(s, q, layer);
	if (err)
		return err;
	if (q->verdict != PP_V_SLOWER)
		return 0;
	if (first == last) {
		*f = (struct found){true, first, last};
		return 0;
	}
	mid = split_point(first, last);
	err = binary_find(s, fn, first, mid, 0, layer, f);
	if (err || f->yes)
		return err;
	err = binary_find(s, fn, mid + 1, last, 0, layer, f);
	if (err || f->yes)
		return err;
	/* Slower as a whole, but neither half alone: the whole range is the bottleneck. */
	*f = (struct found){true, first, last};
	return 0;
}

/* Algorithm 4.2: the first call of the list that got slower, each call compared at @alpha. */
static int linear_find(struct pp_session *s, const struct pp_prog_fn *const fn[2], unsigned ncalls,
		       double alpha, int layer, struct found *f)
{
	struct pp_quantity **qs = calloc(ncalls ? ncalls : 1, sizeof(*qs));
	int err = 0;

	f->yes = false;
	if (!qs)
		return -ENOMEM;
	for (unsigned k = 0; k < ncalls; k++) {
		qs[k] = pp_quantity_get(s, PP_Q_RANGE, fn, k, k);
		if (!give_alpha(qs[k], alpha)) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (unsigned k = 0; k < ncalls; k++) {
		/* the calls after it ride along: their first values come with its runs */
		const struct pp_settle_how how = {
		    .ride = qs + k + 1, .nride = ncalls - k - 1, .layer = layer};

		err = pp_settle(s, &qs[k], 1, &how);
		if (err)
			goto out;
		if (qs[k]->verdict == PP_V_SLOWER) {
			*f = (struct found){true, k, k};
			break;
		}
	}
out:
	free(qs);
	return err;
}

/* Algorithm 4.1, for a function known to be slower (node @at), at layer @layer. */
static int digging_find(struct pp_session *s, const struct pp_prog_fn *const fn[2], int layer,
			int at, struct pp_fnset *v)
{
	const struct pp_quantity *at_q = s->nodes[at].q;
	double alpha = at_q && at_q->alpha > 0 ? at_q->alpha : 1 - s->opt->confidence;
	unsigned ncalls = fn[PP_CUR]->ncalls;
	struct pp_quantity *self;
	const struct pp_prog_fn *callee[2];
	struct found f = {0};
	char *why = NULL;
	const char *stop;
	bool recursive;
	int err, i;

	if (pp_fnset_add(v, fn[PP_CUR]))
		return -ENOMEM;
	if (!pp_same_call_list(fn[PP_PREV], fn[PP_CUR], &why)) {
		i = add_step(s, PP_NODE_STRUCTURAL, at, fn, 0, 0, NULL, "structural change");
		if (i < 0) {
			free(why);
			return -ENOMEM;
		}
		s->nodes[i].detail = why;
		s->nodes[i].diff = s->nodes[at].diff;
		s->nodes[i].sign = 1;
		return 0;
	}
	/* The comparisons under this one, and the own body, share its alpha. */
	if (ncalls) {
		bool binary = s->opt->search == PP_SEARCH_SEED;

		alpha = pp_seq_child_alpha(alpha, binary ? 2 : ncalls + 1);
		if (binary)
			err = binary_find(s, fn, 0, ncalls - 1, alpha, layer + 1, &f);
		else
			err = linear_find(s, fn, ncalls, alpha, layer + 1, &f);
		if (err)
			return err;
	}
	if (!f.yes) {
		self = pp_quantity_get(s, PP_Q_SELF, fn, 0, 0);
		if (!give_alpha(self, alpha))
			return -ENOMEM;
		err = compare(s, self, layer + 1);
		if (err)
			return err;
		return add_step(s, PP_NODE_SELF, at, fn, 0, 0, self,
				self->verdict == PP_V_SLOWER
				    ? NULL
				    : "spread: neither its calls nor its own body alone is "
				      "significantly slower") < 0
			   ? -ENOMEM
			   : 0;
	}
	if (f.first != f.last)
		return add_step(s, PP_NODE_RANGE, at, fn, f.first, f.last,
				pp_quantity_get(s, PP_Q_RANGE, fn, f.first, f.last),
				"slower only as a range") < 0
			   ? -ENOMEM
			   : 0;

	{
		const int k[2] = {(int)f.first, (int)f.first};

		stop = pp_dig_stop(s, fn, k, layer, NULL, callee, NULL);
	}
	recursive = !stop && pp_fnset_has(v, callee[PP_CUR]);
	if (recursive)
		stop = "recursion: already inspected";
	i = add_step(s, PP_NODE_CALL, at, fn, f.first, f.first,
		     pp_quantity_get(s, PP_Q_RANGE, fn, f.first, f.first), stop);
	if (i < 0)
		return -ENOMEM;
	s->nodes[i].recursive = recursive;
	if (stop)
		return 0;
	return digging_find(s, callee, layer + 1, i, v);
}

static int dig(struct pp_session *s, int root)
{
	const struct pp_prog_fn *entry[2] = {s->nodes[root].fn[0], s->nodes[root].fn[1]};
	struct pp_fnset v = {0};
	int err = digging_find(s, entry, 0, root, &v);

	pp_fnset_free(&v);
	return err;
}

const struct pp_search_ops pp_search_seed = {.name = "seed", .dig = dig, .mark_chain = NULL};
const struct pp_search_ops pp_search_linear = {.name = "linear", .dig = dig, .mark_chain = NULL};
