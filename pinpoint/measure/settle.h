/* SPDX-License-Identifier: MIT */
/*
 * settle.h - the one way into measurement: a search asks for comparisons to
 * be decided, and settle has them measured (measure.h) and decided
 * (decide.h), round after round, until they are.
 */
#ifndef PINPOINT_SETTLE_H
#define PINPOINT_SETTLE_H

#include "pinpoint/session/session.h"

/*
 * How a settle call measures besides what it decides.  Riders are
 * quantities measured in the rounds' runs but not decided there (the search
 * decides them later, at their own fixed look sizes, with the values already
 * gathered): @ride[0..@nride) ride in every round; @fill, when not NULL,
 * puts up to @max more in @out and their number in *@nout before each
 * round, so it can choose by what the runs so far showed (decided ones are
 * skipped); riders are left out of a round that has no room.
 * @matters, when not NULL, is asked after every round about each open
 * comparison that has had a look, with that look's interval: one it says
 * cannot change the search's answer is left open (PP_V_BOUNDED, why:
 * @matters' return), and no more runs are spent on it.  @resume[0..@nresume)
 * are comparisons left open earlier that the search takes up again: they are
 * open once more, and their next look is the one their schedule had next.
 * @deadline (monotonic clock, s; 0: none) is the search's time plan: a round
 * that would end after it is not started.  @layer says where the runs' time
 * goes in the session's account (0 without @how).
 */
struct pp_settle_how {
	struct pp_quantity *const *ride;
	size_t nride;
	int (*fill)(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *nout,
		    size_t max);
	const char *(*matters)(struct pp_session *s, void *arg, const struct pp_quantity *q,
			       struct pp_interval look);
	void *arg;
	struct pp_quantity *const *resume;
	size_t nresume;
	double deadline;
	int layer; /* of what is measured, as the session's time counts it: 0 the entry, k the
		      parts of a layer k-1 function */
};

/*
 * Decide @qs[0..@n): each is decided as soon as its values allow (decide.h);
 * while some are open, a round of the runs the furthest behind needs is
 * measured for all of @qs together - the decided ones too, so that the
 * parts of a function are measured in the same runs to the end - with
 * @how's riders (@how may be NULL): whatever has no values yet gets its
 * first ones in the first round, and each looks only at its own fixed sizes,
 * so extra values wait for its later looks.  When the session's --max-runs,
 * --max-time or @how's deadline cannot pay for the next round, those still
 * open are undecided (pp_decide_give_up).  The session numbers each when
 * decided (pp_session_decided).  More quantities than one run can arm
 * (PP_BATCH_MAX_SLOTS) are settled a batch's worth at a time.  Returns 0,
 * -ENOMEM, or the error of pp_measure() / pp_decide().
 */
int pp_settle(struct pp_session *s, struct pp_quantity **qs, size_t n,
	      const struct pp_settle_how *how);

#endif /* PINPOINT_SETTLE_H */
