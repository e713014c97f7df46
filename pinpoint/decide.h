/* SPDX-License-Identifier: MIT */
/*
 * decide.h - the decide stage: statistics only, no I/O, no measuring.
 */
#ifndef PINPOINT_DECIDE_H
#define PINPOINT_DECIDE_H

#include "pinpoint/session.h"

enum {
	PP_DECIDED = 0,	   /* q->verdict is set and q->decided true */
	PP_NEEDS_RUNS = 1, /* the interval straddles the threshold, rounds are left */
};

/*
 * Compare @q's two series and decide: slower when significant at the chosen
 * confidence and larger than the precision threshold.  Returns PP_DECIDED,
 * PP_NEEDS_RUNS (the caller measures @q again, counts q->rounds and calls
 * this again; at --re-measurement rounds it decides), or -EIO with
 * s->failure set when there are too few values to compare.
 */
int pp_decide(struct pp_session *s, struct pp_quantity *q);

/* The centre the chosen test sees in a sample: its mean (Welch) or median (rank test). */
double pp_summary_centre(const struct pp_summary *sum, enum pp_test test);

/* The centre and interval of one revision's values as the chosen test sees them. */
struct pp_interval pp_revision_interval(const struct pp_session *s, const struct pp_quantity *q,
					int rev);

#endif /* PINPOINT_DECIDE_H */
