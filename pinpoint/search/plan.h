/* SPDX-License-Identifier: MIT */
/*
 * plan.h - the plan stage: compare the entry and, if it got slower, search
 * through the layers of calls (chapter 4 of the method, generalised) with
 * the search --search names (search.h), then finish the attribution tree.
 */
#ifndef PINPOINT_PLAN_H
#define PINPOINT_PLAN_H

#include "pinpoint/session/session.h"

/*
 * Compare the entry; if it got slower, search through the layers and fill
 * the attribution tree s->nodes.  Sets s->outcome.  Returns 0, or the error
 * of a failed measurement (-EIO, -EINTR, -ENOMEM); what was established
 * before the error stays in @s.
 */
int pp_plan(struct pp_session *s);

#endif /* PINPOINT_PLAN_H */
