/* SPDX-License-Identifier: MIT */
/*
 * targets.h - where an indirect call went, from the runs that timed it: each
 * target's share of the call's time and of its difference, for the reports
 * and for the search, which digs into a target that holds most of it.
 */
#ifndef PINPOINT_TARGETS_H
#define PINPOINT_TARGETS_H

#include <stddef.h>

#include "pinpoint/session/session.h"

/* A target holding this share of an indirect call's difference or more is dug into. */
#define PP_TARGET_DOMINANT 0.8

struct pp_target_share {
	const char *key; /* as the run records keep it (session.h): a name, "ext:..." or "other" */
	double
	    mean[2]; /* its time, ns per entry execution, mean over the runs that timed the call */
	double median[2]; /* ... and median (a run it did not reach counts 0) */
	double share;	  /* of the call's time in the current revision's runs (0 without runs) */
	/*
	 * Of the call's difference: its median's difference over the sum of
	 * those of all targets (so that the shares add up to 1); medians, so
	 * that a run the machine interrupted in one target does not make
	 * that target's difference.  NaN when the sum is 0.
	 */
	double diff_share;
	/*
	 * Its own comparison (pp_targets_compare()): the difference of its
	 * time between the revisions, the session's test on the runs that
	 * timed the call (their pairs), at the report's confidence shared
	 * among the call's targets; and the verdict of that interval against
	 * the session's threshold.  compared false: not made (too few runs).
	 */
	bool compared;
	struct pp_interval diff;
	enum pp_seq_verdict verdict;
	/*
	 * The search's own comparison of it (a PP_Q_TARGET, decided at the
	 * call's alpha shared among its targets), NULL: none made.  Where it
	 * is set, compared, diff and verdict are its (pp_targets_from()).
	 */
	const struct pp_quantity *q;
};

struct pp_targets {
	size_t n;
	struct pp_target_share *t; /* largest share of the current revision's time first */
	size_t runs[2];		   /* runs per revision that timed the call */
	double call[2];		   /* the call's mean over those runs */
};

/*
 * The targets the runs of @q (a range of one indirect call) recorded, into
 * @out (none: @out->n 0).  Warm-ups are left out.  0 or -ENOMEM; call
 * pp_targets_free() in both cases.
 */
int pp_targets_of(const struct pp_session *s, const struct pp_quantity *q, struct pp_targets *out);

/*
 * The target that holds at least PP_TARGET_DOMINANT of the call's
 * difference, or the only one observed; NULL when none does.
 */
const struct pp_target_share *pp_targets_dominant(const struct pp_targets *t);

/*
 * Compare each target of @t (pp_targets_of(@s, @q, @t)) between the
 * revisions, from the same runs: its value in each run that timed the call
 * (0 where it was not reached), paired by pair unless the runs were
 * shuffled, by the session's test, at confidence 1 - (1 - c) / n for n
 * targets; verdict by pp_seq_verdict_of() against the session's threshold.
 * 0 or -ENOMEM.
 */
int pp_targets_compare(const struct pp_session *s, const struct pp_quantity *q,
		       struct pp_targets *t);

/*
 * Take each target's comparison from its PP_Q_TARGET (@t->t[i].q, set):
 * compared once decided with a look, its interval and verdict.
 */
void pp_targets_from(struct pp_targets *t);

void pp_targets_free(struct pp_targets *t);

/*
 * Keep @t on indirect call node @n as what the search found (n->targets),
 * in place of what it kept before; @t is left empty.  0 or -ENOMEM (then
 * @t is freed).
 */
int pp_targets_keep(struct pp_node *n, struct pp_targets *t);
/* Free what node @n keeps of its targets. */
void pp_targets_drop(struct pp_node *n);

#endif /* PINPOINT_TARGETS_H */
