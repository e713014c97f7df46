/* SPDX-License-Identifier: MIT */
/*
 * plan.h - the plan stage: DiggingFind with BinaryFind or LinearFind
 * (chapter 4 of the method), on LLVM call lists.
 */
#ifndef PINPOINT_PLAN_H
#define PINPOINT_PLAN_H

#include "pinpoint/session.h"

/*
 * Compare the entry; if it got slower, dig through the layers and fill the
 * bottleneck chain s->steps.  Sets s->outcome.  Returns 0, or the error of
 * a failed measurement (-EIO, -EINTR, -ENOMEM); what was established before
 * the error stays in @s.
 */
int pp_plan(struct pp_session *s);

/* Whether two revisions of a function have the same call list; if not, describe how. */
bool pp_same_call_list(const struct pp_prog_fn *a, const struct pp_prog_fn *b, char **why);

#endif /* PINPOINT_PLAN_H */
