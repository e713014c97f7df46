/* SPDX-License-Identifier: MIT */
/*
 * decide.h - the decide stage: statistics only, no I/O, no measuring.
 */
#ifndef PINPOINT_DECIDE_H
#define PINPOINT_DECIDE_H

#include "pinpoint/session/session.h"

enum {
	PP_DECIDED = 0,	   /* q->verdict is set and q->decided true */
	PP_NEEDS_RUNS = 1, /* no look so far decided: pp_decide_wanted() more runs */
};

/*
 * Decide @q sequentially (core/stats_seq.h): its design is fixed at the
 * first call (alpha q->alpha, threshold s->threshold_ns, budget
 * decide_budget.c's per revision, PP_SEQ_ENTRY_SPENDING for the
 * entry, PP_SEQ_SPENDING for the others); then every
 * look whose size (k * --measurements values per revision) the series reach
 * is taken in turn until one says slower, faster, same or (at the budget)
 * undecided.  Returns PP_DECIDED, PP_NEEDS_RUNS, or -EIO with s->failure
 * set when the values cannot be compared.
 */
int pp_decide(struct pp_session *s, struct pp_quantity *q);

/* Runs per revision @q needs before its next look; 0 when decided or a look is due. */
size_t pp_decide_wanted(const struct pp_session *s, const struct pp_quantity *q);

/* Looks @q has taken so far (0: none yet). */
unsigned pp_decide_looks(const struct pp_quantity *q);

/* The interval of @q's last look, decided or not ({NaN, -inf, +inf}: no look yet). */
struct pp_interval pp_decide_interval(const struct pp_quantity *q);

/*
 * Stop @q before its budget (the session's budget @why is spent): undecided,
 * with the interval, runs and minimum detectable effect of its last look.
 * Stopping early never weakens the error rates of the looks taken.
 * Returns 0 or -ENOMEM.
 */
int pp_decide_give_up(struct pp_session *s, struct pp_quantity *q, enum pp_spent why);

/*
 * Leave @q open at its last look because no answer could change the
 * search's (@why says why): PP_V_BOUNDED, with that look's interval, runs
 * and minimum detectable effect.  @q must have had a look.
 */
void pp_decide_bound(struct pp_session *s, struct pp_quantity *q, const char *why);

/*
 * Take @q, left open (PP_V_BOUNDED), up again: it is open once more and its
 * next look is the one its fixed schedule had next (settle.h: what a search
 * asks to be resumed).
 */
void pp_decide_resume(struct pp_session *s, struct pp_quantity *q);

/* The centre the chosen test sees in a sample: its mean (Welch) or median (rank test). */
double pp_summary_centre(const struct pp_summary *sum, enum pp_test test);

/*
 * What the code layouts did to @q over its first @n runs a revision
 * (decide_layout.c): each revision's variance components, and whether its
 * difference is within what layouts alone move it.  Nothing when its runs
 * were not spread over two layouts or more.
 */
void pp_decide_layout(struct pp_quantity *q, size_t n);

/*
 * The duet's two CPUs taken out of pairs @x[i], @y[i] (@n of them, each
 * run's duet side in @xside and @yside): @y so into *@out, malloc'ed, and
 * what a run on the second CPU took more than on the first into *@c, where
 * the session takes them out (--cpu-term on, runs in duets) and each pair's
 * runs had one CPU each; else *@out NULL and *@c NaN (decide_cpu.c).  The
 * decide stage's looks and the attribution tree's figures alike.  0 or
 * -ENOMEM.
 */
int pp_cpu_term(const struct pp_session *s, const double *x, const signed char *xside,
		const double *y, const signed char *yside, size_t n, double **out, double *c);

#endif /* PINPOINT_DECIDE_H */
