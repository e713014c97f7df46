/* SPDX-License-Identifier: MIT */
/*
 * measure.h - arm the probes, run both revisions alternately, turn the
 * runtime's results into per-run values, and decide each comparison.
 */
#ifndef PINPOINT_MEASURE_H
#define PINPOINT_MEASURE_H

#include "pinpoint/protocol.h"
#include "pinpoint/session.h"

/* Entry executions whose durations the runtime keeps for the steady-state rule. */
#define PP_STEADY_SAMPLES 10000
#define PP_STEADY_WINDOW 10
#define PP_STEADY_COV 0.02
/* Slots the runtime measures in one run (its limit is larger). */
#define PP_BATCH_MAX_SLOTS (PP_MAX_SLOTS * 3 / 4)

/* The quantity (@kind, @fn in both revisions, calls @first..@last), made once. */
struct pp_quantity *pp_quantity_get(struct pp_session *s, enum pp_qkind kind,
				    const struct pp_prog_fn *const fn[2], unsigned first,
				    unsigned last);

/*
 * The first run of each revision: arm only the entry, learn which
 * instrumented binaries the benchmark loads and read their tables.
 * Returns 0, -EIO after reporting a failed run, -ENOENT / -EINVAL after
 * reporting an entry problem (usage error), -EINTR when interrupted.
 */
int pp_discover(struct pp_session *s);

/*
 * Measure @qs (those not measured yet, or all of them when @again) in one
 * batch of runs: --warmups discarded then @runs kept per revision.
 * Returns 0, -EIO (s->failure says which run failed and how), -EINTR.
 */
int pp_measure(struct pp_session *s, struct pp_quantity **qs, size_t nq, int runs, bool again);

/*
 * Compare @q's two series and decide: slower when significant at the
 * chosen confidence and larger than the precision threshold.  An interval
 * that straddles the threshold is re-measured, up to --re-measurement times.
 * Returns 0 or the error of pp_measure().
 */
int pp_decide(struct pp_session *s, struct pp_quantity *q);

/* The centre the chosen test sees in a sample: its mean (Welch) or median (rank test). */
double pp_summary_centre(const struct pp_summary *sum, enum pp_test test);

/* The arming spec of @fn in @prog: "NAME", or "FILE:NAME" when NAME is not unique. */
char *pp_func_spec(const struct pp_program *prog, const struct pp_prog_fn *fn);

#endif /* PINPOINT_MEASURE_H */
