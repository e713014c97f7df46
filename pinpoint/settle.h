/* SPDX-License-Identifier: MIT */
/*
 * settle.h - the one way into measurement: a search asks for comparisons to
 * be decided, and settle has them measured (measure.h) and decided
 * (decide.h), round after round, until they are.
 */
#ifndef PINPOINT_SETTLE_H
#define PINPOINT_SETTLE_H

#include "pinpoint/session.h"

/*
 * What rides along in a settle round: quantities measured in the round's
 * runs but not decided there (the search decides them later, at their own
 * fixed look sizes, with the values already gathered).  @q[0..@n) ride in
 * every round; @fill, when not NULL, puts up to @max more in @out and their
 * number in *@nout before each round, so it can choose by what the runs so
 * far showed.  Decided quantities are skipped, and riders are left out of a
 * round that has no room for them.
 */
struct pp_ride {
	struct pp_quantity *const *q;
	size_t n;
	int (*fill)(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *nout,
		    size_t max);
	void *arg;
};

/*
 * Decide @qs[0..@n): each is decided as soon as its values allow (decide.h);
 * while some are open, a round of the runs the furthest behind needs is
 * measured for all of them together, with @ride's quantities (@ride may be
 * NULL): whatever has no values yet gets its first ones in the first round,
 * and each looks only at its own fixed sizes, so extra values wait for its
 * later looks.  When the session's --max-runs or --max-time cannot pay for
 * the next round, those still open are undecided (pp_decide_give_up).  The
 * session numbers each when decided (pp_session_decided).  More quantities
 * than one run can arm (PP_BATCH_MAX_SLOTS) are settled a batch's worth at a
 * time.  Returns 0, -ENOMEM, or the error of pp_measure() / pp_decide().
 */
int pp_settle(struct pp_session *s, struct pp_quantity **qs, size_t n, const struct pp_ride *ride);

#endif /* PINPOINT_SETTLE_H */
