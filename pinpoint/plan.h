/* SPDX-License-Identifier: MIT */
/*
 * plan.h - the plan stage: the search through the layers of calls
 * (chapter 4 of the method, generalised), on LLVM call lists.  plan.c
 * compares the entry and dispatches to one search: the attribution search
 * (plan_attrib.c, the default), the method's DiggingFind with BinaryFind
 * (plan_seed.c, --search seed) or with LinearFind (--search linear).
 */
#ifndef PINPOINT_PLAN_H
#define PINPOINT_PLAN_H

#include "pinpoint/session.h"

/*
 * Compare the entry; if it got slower, search through the layers and fill
 * the attribution tree s->nodes.  Sets s->outcome.  Returns 0, or the error
 * of a failed measurement (-EIO, -EINTR, -ENOMEM); what was established
 * before the error stays in @s.
 */
int pp_plan(struct pp_session *s);

/* Whether two revisions of a function have the same call list; if not, describe how. */
bool pp_same_call_list(const struct pp_prog_fn *a, const struct pp_prog_fn *b, char **why);

/* The searches, below pp_plan(): @root is the entry's node, already slower. */
int pp_plan_seed(struct pp_session *s, int root);
int pp_plan_attrib(struct pp_session *s, int root);
/* Quantities the attribution search wants in the entry's first batch. */
int pp_plan_attrib_ride_along(struct pp_session *s, struct pp_quantity **batch, size_t *n,
			      size_t max);

/* Whether a call has probes in its revision (it was not inlined or removed). */
bool pp_call_timed(const struct pp_prog_call *c);

/*
 * Why digging must stop at the call @k of @fn in both revisions (@at[r] its
 * index in revision r), or NULL; @callee gets the callee in each revision.
 */
const char *pp_dig_stop(struct pp_session *s, const struct pp_prog_fn *const fn[2], const int at[2],
			int layer, const struct pp_prog_fn *callee[2]);

#endif /* PINPOINT_PLAN_H */
