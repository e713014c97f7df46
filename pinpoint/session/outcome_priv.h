/* SPDX-License-Identifier: MIT */
/*
 * outcome_priv.h - what outcome.c and outcome_runs.c share: copying the
 * session's strings and arrays into the outcome's arena, the first failure
 * kept.
 */
#ifndef PINPOINT_OUTCOME_PRIV_H
#define PINPOINT_OUTCOME_PRIV_H

#include "core/arena.h"
#include "pinpoint/session/outcome.h"
#include "pinpoint/session/session.h"

struct pp_copy {
	struct pp_arena *a;
	int err; /* -ENOMEM once something could not be copied */
};

/* @s (NULL: NULL) in the arena. */
const char *pp_copy_str(struct pp_copy *m, const char *s);
/* Malloc'ed @s in the arena, freed; NULL @s is out of memory. */
const char *pp_copy_take(struct pp_copy *m, char *s);
/* @size bytes of @p (NULL: zeroed) in the arena; NULL when @size is 0. */
void *pp_copy_mem(struct pp_copy *m, const void *p, size_t size);
/* Function @fn (NULL: none) as the reports name it. */
struct pp_outcome_fn pp_copy_fn(struct pp_copy *m, const struct pp_prog_fn *fn);

/* The runs, batches, revisions with their layouts, and the measurement of @s into @o. */
void pp_outcome_runs(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s);

/* The what-if on the chain's claim, and its sentence (outcome_confirm.c). */
void pp_outcome_confirm(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s);

/* The figures more than they can cost, not carried into shares (outcome_inflated.c). */
void pp_outcome_inflated(struct pp_copy *m, struct pp_outcome *o);

/* The check of a duet's two CPUs, from the outcome's runs (outcome_cpus.c). */
void pp_outcome_cpus(struct pp_copy *m, struct pp_outcome *o);

/* Each comparison's counts beside its time, and their cause (counts.c). */
void pp_outcome_counts(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s);

#endif /* PINPOINT_OUTCOME_PRIV_H */
