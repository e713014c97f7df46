/* SPDX-License-Identifier: MIT */
/*
 * settle.h - between the measure and decide stages: have comparisons
 * measured until they are decided.
 */
#ifndef PINPOINT_SETTLE_H
#define PINPOINT_SETTLE_H

#include "pinpoint/session.h"

/*
 * Decide @q, measuring it alone, a round of the runs its next look needs at
 * a time, while the decide stage asks for more; when the session's
 * --max-runs cannot pay for the next round, @q is undecided
 * (pp_decide_give_up).  The session numbers it when decided
 * (pp_session_decided).  @q must have been measured once (pp_measure),
 * alone or riding along in a batch.  Returns 0, or the error of
 * pp_measure() / pp_decide().
 */
int pp_settle(struct pp_session *s, struct pp_quantity *q);

/*
 * pp_settle for @n comparisons at once: each round measures all those still
 * open in the same runs (the most any of them needs for its next look; each
 * looks only at its own fixed sizes, so the extra values wait for its later
 * looks).  The comparisons must fit one batch, as when they were first
 * measured together.  Returns 0, -ENOMEM, or the error of pp_measure() /
 * pp_decide().
 */
int pp_settle_all(struct pp_session *s, struct pp_quantity **qs, size_t n);

#endif /* PINPOINT_SETTLE_H */
