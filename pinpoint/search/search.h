/* SPDX-License-Identifier: MIT */
/*
 * search.h - the searches below a slower entry, as a table of operations,
 * and what they share.  A search is one row of the table in plan.c: the
 * attribution search (search_attrib.c and its attrib_*.c, the default), the
 * method's DiggingFind with BinaryFind or LinearFind (search_seed.c).  A
 * search picks quantities, has them decided (settle.h) and adds nodes to the
 * attribution tree (session.h); plan.c compares the entry before it and
 * finishes the tree after it (tree.h).
 */
#ifndef PINPOINT_SEARCH_H
#define PINPOINT_SEARCH_H

#include "pinpoint/session/session.h"

struct pp_search_ops {
	const char *name; /* as --search spells it */
	/* Search below the entry's node @root, found slower, adding nodes under it. */
	int (*dig)(struct pp_session *s, int root);
	/*
	 * Mark the bottleneck chain in the finished tree; NULL when the search
	 * marks it itself as it goes (its nodes' chain flags).
	 */
	void (*mark_chain)(struct pp_session *s);
	/*
	 * After a what-if found that the chain explains only a share of the
	 * slowdown (confirm.c): dig into the slower calls off the chain that
	 * --max-paths left, in the time left, adding nodes; how many calls it
	 * dug into, or -errno.  NULL: the search has nothing to go on with.
	 */
	int (*more)(struct pp_session *s);
};

extern const struct pp_search_ops pp_search_attrib, pp_search_seed, pp_search_linear;

/* Whether two revisions of a function have the same call list; if not, describe how. */
bool pp_same_call_list(const struct pp_prog_fn *a, const struct pp_prog_fn *b, char **why);

/* Whether a call has probes in its revision (it was not inlined or removed). */
bool pp_call_timed(const struct pp_prog_call *c);

/* Whether a call goes through a pointer (a function pointer, a C++ virtual call). */
bool pp_call_indirect(const struct pp_prog_call *c);

/*
 * Why digging must stop at the call @k of @fn in both revisions (@at[r] its
 * index in revision r), or NULL; @callee gets the callee in each revision.
 * An indirect call is dug into through the target that holds most of its
 * difference in the runs of its node @n (targets.h), or the one target
 * slower on its own; with @n NULL, or without such a target, it stops
 * there (a reason made for @n is kept in its stop_own).  A call of a
 * function without a table that is handed a function of the program
 * (pp_callback_of()) is dug into through that one.  Without a target that
 * holds the difference, @n's targets are compared, sequentially, at @n's
 * alpha shared among them, unless @err is NULL (only a look at where the
 * call goes, nothing measured); an error of that goes to *@err.
 */
const char *pp_dig_stop(struct pp_session *s, const struct pp_prog_fn *const fn[2], const int at[2],
			int layer, struct pp_node *n, const struct pp_prog_fn *callee[2], int *err);

/*
 * The function call @at[r] of @fn[r] passes as an argument in both
 * revisions (the table's callback, by name), which its callee may call
 * back - qsort's comparator - resolved in each into @callee; false when
 * there is none in either, or it has no table in one.
 */
bool pp_callback_of(const struct pp_session *s, const struct pp_prog_fn *const fn[2],
		    const int at[2], const struct pp_prog_fn *callee[2]);

/*
 * Why a search stops before @callee, whose layer is @layer: --depth, or
 * --exclude; NULL when it goes on.
 */
const char *pp_dig_limit(const struct pp_session *s, int layer, const struct pp_prog_fn *callee);

/* A target of an indirect call found slower (faster) on its own, in both revisions. */
struct pp_dig_target {
	const struct pp_prog_fn *fn[2];
	struct pp_interval diff;
	const struct pp_quantity *q; /* its comparison, whose alpha its parts share */
};

/*
 * The targets of indirect call @n (call @at[r] of @fn[r]) that their own
 * comparisons (pp_targets_compare()) found slower, or faster when @n is
 * faster, and that both revisions have, largest difference first, into
 * @out (at most @max); how many, or -ENOMEM.  The targets and their
 * comparisons are kept on @n (n->targets) for the reports.
 */
int pp_slower_targets(struct pp_session *s, struct pp_node *n, const struct pp_prog_fn *const fn[2],
		      const int at[2], struct pp_dig_target *out, size_t max);

/* The functions a search has inspected, to stop at recursion. */
struct pp_fnset {
	const struct pp_prog_fn **fn;
	size_t n, cap;
};

/* Add @fn; 0 or -ENOMEM. */
int pp_fnset_add(struct pp_fnset *set, const struct pp_prog_fn *fn);
bool pp_fnset_has(const struct pp_fnset *set, const struct pp_prog_fn *fn);
void pp_fnset_free(struct pp_fnset *set);

#endif /* PINPOINT_SEARCH_H */
