/* SPDX-License-Identifier: MIT */
/*
 * settle.h - between the measure and decide stages: have comparisons
 * measured until they are decided.
 */
#ifndef PINPOINT_SETTLE_H
#define PINPOINT_SETTLE_H

#include "pinpoint/session.h"

/*
 * Decide @qs[0..@n), measuring those still open, a round of the runs their
 * next looks need at a time, all in the same runs (the most any of them
 * needs; each looks only at its own fixed sizes, so the extra values wait
 * for its later looks), while the decide stage asks for more; when the
 * session's --max-runs or --max-time cannot pay for the next round, those
 * still open are undecided (pp_decide_give_up).  The session numbers each
 * when decided (pp_session_decided).  Each must have been measured once
 * (pp_measure), alone or riding along in a batch, and together they must
 * fit one batch, as when they were first measured together.  Returns 0,
 * -ENOMEM, or the error of pp_measure() / pp_decide().
 */
int pp_settle_all(struct pp_session *s, struct pp_quantity **qs, size_t n);

/*
 * What rides along in a settle round: quantities that are measured in the
 * round's runs but not decided there (the plan stage decides them later, at
 * their own fixed look sizes, with the values already gathered).  @fill puts
 * up to @max of them in @out and their number in *@n before each round, so
 * it can choose by what the runs so far showed; decided ones are skipped.
 */
struct pp_ride {
	int (*fill)(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *n,
		    size_t max);
	void *arg;
};

/* pp_settle_all, with @ride's quantities measured in every round it makes (@ride may be NULL). */
int pp_settle_ride(struct pp_session *s, struct pp_quantity **qs, size_t n,
		   const struct pp_ride *ride);

/* pp_settle_all for one comparison. */
int pp_settle(struct pp_session *s, struct pp_quantity *q);

#endif /* PINPOINT_SETTLE_H */
