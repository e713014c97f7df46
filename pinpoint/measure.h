/* SPDX-License-Identifier: MIT */
/*
 * measure.h - the measure stage: arming spec and runs -> series.
 */
#ifndef PINPOINT_MEASURE_H
#define PINPOINT_MEASURE_H

#include "pinpoint/protocol.h"
#include "pinpoint/session.h"

/* Entry executions whose durations the runtime keeps for the steady-state rule. */
#define PP_STEADY_SAMPLES 10000
/* Executions per batch of the warm-up rule (MSER over batch medians). */
#define PP_WARMUP_BATCH 5
/* Discovery runs per revision (the first included) when the entry runs at
 * least three batches per process and a run takes at most PP_DISCOVER_MAX_S. */
#define PP_DISCOVER_RUNS 4
#define PP_DISCOVER_MAX_S 5.0
/* Fewest executions a stopped run keeps after its warm-up (--executions auto). */
#define PP_MIN_KEPT 5
/* Slots measured in one run (the runtime's limit is larger). */
#define PP_BATCH_MAX_SLOTS (PP_MAX_SLOTS * 3 / 4)

/*
 * Measure @qs (those not measured yet, or all of them when @again) in one
 * batch of runs: --warmups discarded then @runs kept per revision, in the
 * order pp_schedule() draws; each run's values are appended to q->series and recorded in
 * s->runs.  Nothing is measured when the batch would take the session's
 * runs beyond --max-runs.  Returns 0, -EIO (s->failure says which run failed and how),
 * -EINTR, -ENOMEM.
 */
int pp_measure(struct pp_session *s, struct pp_quantity **qs, size_t nq, int runs, bool again);

#endif /* PINPOINT_MEASURE_H */
