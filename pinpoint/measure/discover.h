/* SPDX-License-Identifier: MIT */
/*
 * discover.h - the discover stage: tables, entry, time limit.
 */
#ifndef PINPOINT_DISCOVER_H
#define PINPOINT_DISCOVER_H

#include "core/results.h"
#include "pinpoint/session/session.h"

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

/*
 * The first run of each revision: arm only the entry, learn which
 * instrumented binaries the benchmark loads and read their tables into
 * rev->prog, find rev->entry and rev->entry_spec, set s->timeout_s; more
 * runs when the entry runs often, to fix the session's rule (s->entry_skip,
 * s->entry_stop, s->entry_count).
 * Returns 0, -EIO after recording a failed run, -ENOENT / -EINVAL after
 * reporting an entry problem (usage error), -EINTR when interrupted.
 */
int pp_discover(struct pp_session *s);

/*
 * Revision @r's tables (its backend's, @res its first run's results), its
 * entry and how the entry is armed.  0, -EINVAL after one line (no table,
 * no such entry, several), -EIO, -ENOMEM.
 */
int pp_discover_tables(struct pp_session *s, enum pp_rev_id r, const struct pp_results *res);

#endif /* PINPOINT_DISCOVER_H */
