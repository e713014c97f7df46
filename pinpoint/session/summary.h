/* SPDX-License-Identifier: MIT */
/*
 * summary.h - what the outcome says of a session's runs as a whole: where
 * its time went, the entry's spread, how the runs were made and what the
 * code layouts were, each computed here once (outcome.c keeps them).
 */
#ifndef PINPOINT_SUMMARY_H
#define PINPOINT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "pinpoint/session/outcome.h"
#include "pinpoint/session/session.h"

/* Where a session's time went: builds, discovery runs, and the runs of each layer. */
void pp_time_use(const struct pp_session *s, struct pp_time_use *u);

/* Coefficient of variation of a series (sd / mean), NaN under 2 values or mean <= 0. */
double pp_series_cov(const struct pp_series *v);

/* @v as a box plot (NaN: no values), its values sorted into @sorted (room for v->n). */
void pp_series_box(const struct pp_series *v, double *sorted, struct pp_outcome_box *b);

/* Whether both revisions ran in several code layouts (layouts.h). */
bool pp_layouts_varied(const struct pp_session *s);
/*
 * What the layouts were, in one sentence for every format: how many, what
 * was linked again and what that cost; or that they were not varied and
 * the verdict can then include layout effects.
 */
void pp_layouts_sentence(const struct pp_session *s, char *buf, size_t len);
/* How the runs were made (--runs as it could be: duet, paired, shuffled), in one sentence. */
const char *pp_runs_sentence(const struct pp_session *s, char *buf, size_t len);
/*
 * How much of the entry's spread came from layout, in one sentence; false
 * when its runs were not spread over layouts.
 */
bool pp_layouts_spread(const struct pp_session *s, char *buf, size_t len);

#endif /* PINPOINT_SUMMARY_H */
