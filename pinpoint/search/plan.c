// SPDX-License-Identifier: MIT
/*
 * plan.c - the plan stage: compare the entry, with nothing armed inside it,
 * run the search --search names below it (one row of the table below: a
 * search is search.h's operations), then finish the attribution tree the
 * search built (tree.c) and check the chain's claim (confirm.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "pinpoint/log.h"
#include "pinpoint/search/confirm.h"
#include "pinpoint/search/plan.h"
#include "pinpoint/search/search.h"
#include "pinpoint/measure/settle.h"
#include "pinpoint/search/tree.h"

static const struct pp_search_ops *const searches[] = {
    [PP_SEARCH_ATTRIB] = &pp_search_attrib,
    [PP_SEARCH_SEED] = &pp_search_seed,
    [PP_SEARCH_LINEAR] = &pp_search_linear,
};

/*
 * Where the what-if found that the chain explains only a share of the
 * slowdown, something else changed too: the search goes on into the slower
 * calls --max-paths left off the chain, while --max-time has time left,
 * and the tree is finished again with what they hold.  0 or -errno.
 */
static int go_on(struct pp_session *s, const struct pp_search_ops *ops)
{
	int n;

	if (s->confirm.verdict != PP_CONFIRM_EXPLAINS || !ops->more || !s->budget_cut ||
	    !(pp_session_time_left(s) > 0))
		return 0;
	n = ops->more(s);
	if (n < 0)
		return n;
	s->confirm.continued = (unsigned)n;
	if (n > 0) {
		pr_info("the what-if explains %.0f %% of the slowdown: the search went on into "
			"%d call%s --max-paths had left",
			100 * s->confirm.explained.centre, n, n == 1 ? "" : "s");
		pp_tree_finish(s, ops);
	}
	return 0;
}

int pp_plan(struct pp_session *s)
{
	const struct pp_search_ops *ops = searches[s->opt->search];
	const struct pp_prog_fn *entry[2] = {s->rev[PP_PREV].entry, s->rev[PP_CUR].entry};
	struct pp_quantity *e;
	int err, root;

	/*
	 * The entry first, with nothing armed inside it: its verdict decides
	 * whether the session claims a regression, and a probe's cost is never
	 * taken out exactly (account.c), so none is in its values.
	 */
	e = pp_quantity_get(s, PP_Q_ENTRY, entry, 0, 0);
	if (!e)
		return -ENOMEM;
	e->alpha = 1 - s->opt->confidence;
	err = pp_settle(s, &e, 1, NULL);
	if (err)
		return err;
	if (e->verdict != PP_V_SLOWER)
		return 0;
	root = pp_node_add(s, PP_NODE_ENTRY, -1, entry, e);
	if (root < 0)
		return -ENOMEM;
	s->nodes[root].sign = 1;
	if (s->opt->depth == 0)
		s->nodes[root].stop = "depth reached";
	else
		err = ops->dig(s, root);
	pp_tree_finish(s, ops);
	/* the chain's claim, checked by a what-if (--confirm) */
	if (!err)
		err = pp_confirm(s);
	if (!err)
		err = go_on(s, ops);
	return err;
}
