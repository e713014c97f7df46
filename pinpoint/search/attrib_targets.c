// SPDX-License-Identifier: MIT
/*
 * attrib_targets.c - an indirect call in the attribution search whose
 * targets were found slower (faster) on their own, none holding its
 * difference: a node for each under the call, dug into like a call.
 */
#include <errno.h>

#include "pinpoint/search/attrib_priv.h"

/* Targets of an indirect call dug into one by one, at most. */
#define PP_DIG_TARGETS 4

/*
 * Indirect call @c of F, whose targets no one holds its difference but
 * several were found slower (faster) on their own: a node for each under
 * the call, dug into like a call to it, within --max-paths.  How many, or
 * -ENOMEM.
 */
int pp_attrib_dig_targets(struct pp_attrib *a, struct pp_fnstate *st, int c, const int at[2],
			  bool chain)
{
	struct pp_session *s = a->s;
	struct pp_dig_target t[PP_DIG_TARGETS];
	int nt = pp_slower_targets(s, &s->nodes[c], st->v->fn, at, t, PP_DIG_TARGETS), err = 0;

	if (nt < 2)
		return nt < 0 ? nt : 0;
	s->nodes[c].stop = NULL;
	for (int i = 0; i < nt && !err; i++) {
		/* its comparison gates it: its parts share its alpha */
		int k = pp_node_add(s, PP_NODE_CALL, c, st->v->fn, t[i].q);
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
			n->stop = PP_ATTRIB_PATHS_STOP;
			s->budget_cut = true;
		} else {
			a->paths++;
			err = pp_attrib_search_fn(a, k, t[i].fn, st->layer + 1, chain && i == 0,
						  pp_attrib_gate_alpha(s, k));
		}
	}
	return err ? err : nt;
}
