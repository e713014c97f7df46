/* SPDX-License-Identifier: MIT */
/*
 * stats_internal.h - pieces shared by the statistics files (stats.c,
 * stats_rank.c, stats_select.c) and exposed to their tests; not part of the
 * stats.h interface.
 */
#ifndef PINPOINT_STATS_INTERNAL_H
#define PINPOINT_STATS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/stats.h"

/* Turn GSL's aborting error handler off, once per process. */
void pp_stats_init(void);

bool pp_all_finite(const double *x, size_t n);

/* Sum of t^3 - t over the groups of t equal values of sorted @s (the rank tests' ties). */
double pp_tie_sum(const double *s, size_t n);

/* A sorted (ascending) malloc'ed copy of @x, or NULL when out of memory. */
double *pp_sorted_copy(const double *x, size_t n);

/*
 * Tukey's fences of @r[0..@n): @k interquartile ranges beyond the quartiles
 * (GSL's, R's type 7), into *@lo and *@hi (stats_nested.c).  0 or -ENOMEM.
 */
int pp_fences(const double *r, size_t n, double k, double *lo, double *hi);

/*
 * The k-th smallest (0-based) of the nx * ny differences ys[j] - xs[i], without
 * forming them: xs and ys sorted ascending, k < nx * ny.  Returns 0 or -ENOMEM.
 */
int pp_diff_select(const double *xs, size_t nx, const double *ys, size_t ny, size_t k, double *out);

/*
 * The k-th smallest (0-based) of the n (n + 1) / 2 Walsh averages
 * (ds[i] + ds[j]) / 2, i <= j, without forming them: ds sorted ascending,
 * k < n (n + 1) / 2.  Returns 0 or -ENOMEM.
 */
int pp_walsh_select(const double *ds, size_t n, size_t k, double *out);

/*
 * Null distribution of the Mann-Whitney U for samples of m and n values
 * without ties: counts[u] (u = 0..m*n) is the number of the C(m+n, m)
 * orderings whose U equals u.  Returns a malloc'ed array or NULL.
 */
double *pp_wilcox_counts(size_t m, size_t n);

/* Below this many values (pairs) an interval of means uses Student's t instead of z (2.3.1). */
#define PP_LARGE_SAMPLE 30

/* The normal statistic @dz / @sigma with two-sided continuity correction. */
double pp_z_corrected(double dz, double sigma);

/*
 * The rank tests' interval end between order statistics: over @cells
 * differences (or Walsh averages), the statistic with c of them above the
 * shift is pp_z_corrected(c - cells / 2, @sigma0); the 0-based index of the
 * one at which it falls to @zq (R's root() lands on it).
 */
size_t pp_rank_crossing(size_t cells, double sigma0, double zq);

/*
 * pp_compare_paired() on the differences @d[i] = y_i - x_i themselves;
 * arguments checked.
 */
int pp_compare_diffs(enum pp_test test, const double *d, size_t n, double confidence,
		     struct pp_comparison *out);

/* The Mann-Whitney half of pp_compare(); arguments already checked. */
int pp_compare_rank(const double *x, size_t nx, const double *y, size_t ny, double confidence,
		    struct pp_comparison *out);

#endif /* PINPOINT_STATS_INTERNAL_H */
