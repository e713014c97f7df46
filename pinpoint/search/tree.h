/* SPDX-License-Identifier: MIT */
/*
 * tree.h - finishing the attribution tree a search built: each node's share
 * of its parent's difference, children ordered largest first, the
 * bottleneck chain and the ranks of the further contributors.
 */
#ifndef PINPOINT_TREE_H
#define PINPOINT_TREE_H

#include "pinpoint/search/search.h"

/*
 * The chain of the attribution search: from the entry, the largest slower
 * part at each layer (a recursive call last), else the own body; a
 * structural group on it is named the cause.
 */
void pp_tree_mark_chain(struct pp_session *s);

/*
 * The numbers of the parts of function node @node (its children: their
 * differences, shares and the remainder's), its whole time's difference and
 * the part that leads it, from the runs that measured node->total and all
 * its parts (account.c).  Nothing changes when fewer than 2 runs per
 * revision measured them all.  Returns 0 or -ENOMEM.
 */
int pp_tree_account(struct pp_session *s, int node);

/* Order, shares, the chain (@ops->mark_chain) and the ranks of @s's tree. */
void pp_tree_finish(struct pp_session *s, const struct pp_search_ops *ops);

#endif /* PINPOINT_TREE_H */
