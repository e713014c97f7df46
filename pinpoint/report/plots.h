/* SPDX-License-Identifier: MIT */
/*
 * plots.h - the figures of the HTML report, as inline SVG that scales to the
 * page's width (viewBox, width 100%):
 *   - per comparison: the interval of the difference against 0 and +- the
 *     threshold, the runs of both revisions in run order and a box plot per
 *     revision on the same scale;
 *   - the overview of the search (overview.c) and the trend of the entry
 *     over the sessions of a --history file.
 * Axes have 1-2-5 ticks.  Colours a reader (or a test) can rely on:
 */
#ifndef PINPOINT_PLOTS_H
#define PINPOINT_PLOTS_H

#include <stddef.h>
#include <stdio.h>

#include "pinpoint/report/history.h"
#include "pinpoint/session/outcome.h"

#define PP_SVG_PREVIOUS "#3b6fb6"
#define PP_SVG_CURRENT "#d9682b"
#define PP_SVG_DIFF "#7a3e9d"	   /* the interval of the difference */
#define PP_SVG_ZERO "#000000"	   /* the line at 0 */
#define PP_SVG_THRESHOLD "#e0a000" /* the lines at +- the threshold */

/*
 * Ticks on [*lo, *hi]: about @target values 1, 2 or 5 times a power of ten,
 * in @ticks (at most @max); *lo and *hi are widened to the outer ticks.
 * Returns the number of ticks.
 */
size_t pp_nice_ticks(double *lo, double *hi, size_t target, double *ticks, size_t max);

/* The figure of comparison @q: difference interval, runs in order, boxes. */
void pp_svg_comparison(FILE *f, const struct pp_outcome_cmp *q);

/* A change point on the trend: before session @at of it, by @pct of the time before. */
struct pp_trend_mark {
	size_t at;
	double pct, low, high; /* the size and its interval, percent */
	double p;	       /* its p-value */
};

/*
 * The entry's time over the sessions @h[0..n-1] of a history, oldest
 * first, with the change points @marks[0..nmarks-1] (--changes') drawn
 * where they fall.
 */
void pp_svg_trend(FILE *f, const struct pp_history_entry *h, size_t n,
		  const struct pp_trend_mark *marks, size_t nmarks);

#endif /* PINPOINT_PLOTS_H */
