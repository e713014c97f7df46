/* SPDX-License-Identifier: MIT */
/*
 * stats.h - the statistics that decide whether a revision got slower.
 *
 * Section 2.3 of the method: confidence intervals for means (z for n >= 30,
 * Student t below), the difference of two means with Welch-Satterthwaite
 * degrees of freedom, warm-up truncation (MSER); and
 * the rank test used by default: Mann-Whitney U with a Hodges-Lehmann
 * estimate of the shift and its distribution-free confidence interval.
 * Distributions come from GSL.
 */
#ifndef PINPOINT_STATS_H
#define PINPOINT_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct pp_interval {
	double centre; /* mean, or Hodges-Lehmann/median for rank methods */
	double low, high;
};

/* Summary of one sample: mean with its confidence interval (z or t), median, sd. */
struct pp_summary {
	size_t n;
	double mean, sd, median, min, max;
	struct pp_interval ci; /* confidence interval of the mean */
};

/*
 * The interval uses z for n >= 30, else Student t with n - 1 df; sd has the
 * n - 1 denominator.  Returns 0, -EINVAL (n < 2, a non-finite value,
 * confidence outside (0, 1)), -ENOMEM.
 */
int pp_summarize(const double *x, size_t n, double confidence, struct pp_summary *out);

/* Median of @x with its distribution-free (order statistic) confidence interval. */
struct pp_interval pp_median_interval(const double *x, size_t n, double confidence);

enum pp_test { PP_TEST_MANN_WHITNEY, PP_TEST_WELCH };

/* Comparison of current (y) against previous (x): positive = current slower. */
struct pp_comparison {
	enum pp_test test;
	double confidence;	 /* e.g. 0.95 */
	struct pp_interval diff; /* y - x: shift (HL) or difference of means */
	double p_value;		 /* two-sided */
	double statistic;	 /* U of y, or the t/z statistic */
	double df;		 /* Welch degrees of freedom; 0 for z and rank tests */
	bool exact;		 /* rank test: exact distribution used */
	bool paired;		 /* pp_compare_paired: x[i] and y[i] a pair */
	bool significant;	 /* the interval excludes 0 */
};

/*
 * Compare @y (current) with @x (previous) at @confidence (0 < c < 1).
 *
 * Welch: the thesis's interval of the difference of means y - x, z when both
 * n >= 30 (df 0), else t with Welch-Satterthwaite df; statistic is
 * (mean y - mean x) / sd of the difference.  If both samples are constant the
 * interval is the difference itself (statistic +-inf or 0, p 0 or 1).
 *
 * Mann-Whitney: what R's wilcox.test(y, x, conf.int = TRUE) computes.
 * statistic is U of y: the pairs with y_j > x_i plus half of those with
 * y_j == x_i (R's W).  The p-value is exact when both n < 50 and no value is
 * tied, else from the normal approximation with tie and continuity
 * correction.  diff.centre is the Hodges-Lehmann shift, the median of all
 * y_j - x_i; the interval ends are order statistics of those differences (at
 * the U quantiles when exact, where the corrected normal statistic crosses
 * the z quantiles otherwise; R approximates that crossing with uniroot).
 * When every value is equal, p is 1 and the interval [0, 0].
 *
 * significant is "the interval excludes 0".  Returns 0 or -EINVAL (n < 2, a
 * non-finite value, bad confidence or test), -ENOMEM.
 */
int pp_compare(enum pp_test test, const double *x, size_t nx, const double *y, size_t ny,
	       double confidence, struct pp_comparison *out);

/*
 * Compare runs taken in pairs, @x[i] (previous) beside @y[i] (current), at
 * @confidence through their differences d_i = y_i - x_i (stats_paired.c).
 *
 * Welch: the paired interval of the mean difference, z from 30 pairs on,
 * else Student's t with n - 1 df (df then n - 1; statistic mean / se).
 *
 * Mann-Whitney: Wilcoxon's signed-rank test, what R's wilcox.test(y, x,
 * paired = TRUE, conf.int = TRUE) computes: zero differences dropped;
 * statistic V, the rank sum of the positive ones (midranks for ties); exact
 * below 50 differences without ties or zeros, else the normal approximation
 * with tie and continuity correction; diff.centre the Hodges-Lehmann
 * estimate, the median of the Walsh averages (d_i + d_j) / 2, i <= j; the
 * interval ends Walsh averages (at the V quantiles when exact, where the
 * corrected statistic crosses the z quantiles otherwise).  Every difference
 * zero: p 1 and the interval [0, 0].
 *
 * paired is set.  Returns 0 or -EINVAL (n < 2, a non-finite value, bad
 * confidence or test), -ENOMEM, -EDOM.
 */
int pp_compare_paired(enum pp_test test, const double *x, const double *y, size_t n,
		      double confidence, struct pp_comparison *out);

/* The fewest pairs of each order pp_paired_order_term() estimates an order's effect from. */
#define PP_ORDER_TERM_MIN 4

/*
 * Pairs @x[i], @y[i] taken in two orders, @order[i] 0 or 1 (a duet: which
 * CPU the y run had), where order 1 adds c to a pair's difference and order
 * 0 takes c from it: c is half the shift between the two orders'
 * differences y_i - x_i by @test (Hodges-Lehmann, or the difference of
 * means), into *@c, and @y with c taken out of each pair (c subtracted in
 * order 1, added in order 0) into *@out, malloc'ed (stats_paired.c); c's
 * 95 % interval into *@ci when @ci is not NULL.  *@out NULL and *@c NaN
 * when an order has fewer than PP_ORDER_TERM_MIN pairs, @order holds
 * another value, or a difference is not finite.  0 or -ENOMEM.
 */
int pp_paired_order_term(enum pp_test test, const double *x, const double *y,
			 const signed char *order, size_t n, double **out, double *c,
			 struct pp_interval *ci);

/*
 * The share a part a is of a whole b, both measured in each run of both
 * revisions (@xa[i] and @xb[i] in previous run i, @ya[j] and @yb[j] in
 * current run j): centre (mean ya - mean xa) / (mean yb - mean xb) (NaN
 * when the denominator is 0) and Fieller's interval at @confidence, with z
 * from 30 runs per revision and Student's t with min(nx, ny) - 1 degrees
 * of freedom below (stats_ratio.c); infinite ends when the whole's
 * difference is not significantly away from 0.  Returns 0, -EINVAL (fewer
 * than 2 runs, a non-finite value, bad confidence), -EDOM.
 */
int pp_ratio_interval(const double *xa, const double *xb, size_t nx, const double *ya,
		      const double *yb, size_t ny, double confidence, struct pp_interval *out);

/*
 * The share of paired runs: pair i's differences (current less previous) of
 * a part, @a[i], and of its whole, @b[i], measured in the same two runs;
 * over the pairs whose @b lies within its outer Tukey fences (three
 * interquartile ranges beyond its quartiles: the same pairs for every part
 * of one whole, so the shares still add up), centre mean(a) / mean(b) and
 * Fieller's interval at @confidence (z from 30 pairs, else Student's t on
 * n - 1 df).  With @unit (the code-layout unit of each pair, NULL: none)
 * and two units or more holding more than one pair somewhere, the union
 * with the same interval from the units' mean differences (k - 1 df), as
 * a verdict's interval is the union of its runs' and its layouts'
 * (stats_ratio.c).  Returns 0, -EINVAL (fewer than 2 pairs kept, a
 * non-finite value, bad confidence), -ENOMEM, -EDOM.
 */
int pp_ratio_paired(const double *a, const double *b, const unsigned *unit, size_t n,
		    double confidence, struct pp_interval *out);

/*
 * Runs nested in code layouts (stats_nested.c): the mean of each layout's
 * runs, @x[i] the value of run i and @layout[i] its layout, in the order the
 * layouts first appear, into @means (room for @n) and their number into
 * *@nmeans.  Returns 0, -EINVAL (a non-finite value), -ENOMEM.
 */
int pp_layout_means(const double *x, const unsigned *layout, size_t n, double *means,
		    size_t *nmeans);

/* How much of a revision's spread comes from its layouts. */
struct pp_layout_var {
	size_t layouts, runs;
	double between; /* variance of the layouts' true means (method of moments, >= 0) */
	double within;	/* variance of runs about their layout's mean */
	double share;	/* between / (between + within) */
	double msb, n0; /* mean square between layouts; runs a layout, in effect */
};

/*
 * The variance components of runs @x[0..@n) in layouts @layout (one-way
 * random effects, unequal runs per layout).  Returns 0, -EINVAL, -ENOMEM,
 * -ENODATA (fewer than two layouts, or no layout with two runs).
 */
int pp_layout_components(const double *x, const unsigned *layout, size_t n,
			 struct pp_layout_var *out);

/*
 * The difference of two revisions measured in layouts, the layout the unit:
 * Welch's interval at @confidence for the mean of @y's layout locations less
 * the mean of @x's (@lx[i] the layout of @x[i]), Welch-Satterthwaite degrees
 * of freedom.  A layout's location is the mean of its runs with the far ones
 * pulled in: its median plus the mean of its runs' residuals from that
 * median, each held within Tukey's fences (PP_LAYOUT_FENCE interquartile
 * ranges beyond the quartiles of all residuals, both revisions pooled); where
 * no run lies beyond them, the layout's mean.  It moves with each layout as a
 * whole and with a shift of either revision, so it covers the difference of
 * the revisions' typical times over the layouts they can be linked in,
 * whatever the share of layout in the spread, and a slow run a machine's
 * burst makes weighs no more than a run at the fence.  Returns 0, -EINVAL,
 * -ENODATA (fewer than two layouts on a side), -ENOMEM, -EDOM.
 */
#define PP_LAYOUT_FENCE 1.5
int pp_layout_diff(const double *x, const unsigned *lx, size_t nx, const double *y,
		   const unsigned *ly, size_t ny, double confidence, struct pp_interval *out);

/*
 * Runs in pairs whose layouts are paired too: pair i's previous run in
 * layout @unit[i] of its revision and its current run in layout @unit[i] of
 * its own, @d[i] = y_i - x_i.  The unit is the pair of layouts: each unit's
 * location of its differences (as pp_layout_diff's, fences from all
 * residuals), and Student's t interval at @confidence for their mean with
 * k - 1 degrees of freedom over the k units.  The layouts of a unit are
 * drawn independently of the other units', so the units' locations are
 * independent draws whose spread holds both revisions' layout effects,
 * while what moved both runs of a pair cancels.  Returns 0, -EINVAL,
 * -ENODATA (fewer than two units), -ENOMEM, -EDOM.
 */
int pp_layout_paired(const double *d, const unsigned *unit, size_t n, double confidence,
		     struct pp_interval *out);

/*
 * Warm-up truncation by MSER (White, "An effective truncation heuristic for
 * bias reduction in simulation output", Simulation 69(6), 1997) over batch
 * medians of @batch values: with z[0..m-1] the medians of the m = n / @batch
 * whole batches (trailing values left out), the number of batches d to drop
 * minimises
 *
 *     MSER(d) = sum_{j >= d} (z[j] - mean(z[d..m-1]))^2 / (m - d)^2,
 *
 * the squared standard error of the mean of what is kept, searched over the
 * first half (d <= (m - 1) / 2); the smallest d wins a tie.  Values that only
 * jitter keep d at 0 or near it: dropping them raises the error of the mean
 * more than it removes spread, while cold values far above the rest are
 * dropped.  The rule's batch means become medians here so that one value
 * far off (an interrupt that triples one short execution) does not move its
 * batch, while a warm-up that lasts a batch or more still does.  Stores
 * d * @batch in *skip.  Returns 0, -ENODATA below three batches, -EINVAL for
 * @batch 0 or a non-finite value, -ENOMEM.
 */
int pp_warmup_mser(const double *x, size_t n, size_t batch, size_t *skip);

/*
 * MSER drops the batches that make the mean of the rest least certain, and
 * in values that only jitter that can still be several batches: noise at the
 * start that a drift-free steady state would never show apart.  Dropping
 * executions costs every later run their time, so a drop is kept only for
 * batches that stand out: *@skip (a multiple of @batch, pp_warmup_mser's)
 * is cut back to just after the last of its batches whose median lies
 * outside the kept batches' mean by more than the larger of @band (a
 * fraction of that mean) and the reach of a 99 % prediction interval (t,
 * Bonferroni over the dropped batches) for one more of the kept batches'
 * medians.  0 when none does.  Returns 0, -EINVAL for @batch 0, a non-finite
 * value or @band, or a *@skip that leaves fewer than two batches, -ENOMEM.
 */
int pp_warmup_trim(const double *x, size_t n, size_t batch, double band, size_t *skip);

/*
 * Variance components of a balanced nested layout (stats_design.c): @rows
 * rows of @n values each, x[i * n + j], each row in block @block[i]
 * (numbered from 0, every block used; NULL: one block), blocks whose means
 * may differ.  Rows are runs, values the executions each run keeps, blocks
 * the revisions.  The within mean square is the spread of values about their
 * row's mean; the between mean square, of the row means about their block's
 * mean, times n; between = (ms_between - ms_within) / n estimates the
 * variance of a row's true mean (method of moments; it can come out
 * negative).  Returns 0, -EINVAL (n < 2, a non-finite value, a block with
 * no row), -ENODATA (no block with two rows), -ENOMEM.
 */
struct pp_varcomp {
	double ms_within, ms_between;
	size_t df_within, df_between;
	double within, between;
	/* Correlated values: h times the variance of the means of each row's two
	 * halves (h = n / 2 values each, the last value left out for odd n)
	 * about their mean, and (ms_between - within_long) / n. */
	double within_long, between_long;
	/* between_long with ms_between at its one-sided PP_VARCOMP_HIGH upper
	 * confidence bound, ms_between * df_between / chi2(1 - level, df_between):
	 * from a few rows the estimate is often 0 where runs do differ. */
	double between_long_high;
};
#define PP_VARCOMP_HIGH 0.90
int pp_variance_components(const double *x, size_t rows, size_t n, const unsigned *block,
			   struct pp_varcomp *out);

/*
 * Kept executions per run that make the mean of a session's values most
 * precise for its time: sqrt(@run_cost / @exec_cost * within_long /
 * between_long),
 * the two-stage sampling optimum (Cochran 1977, chapter 10; Kalibera and
 * Jones, ISMM 2013).  @run_cost is a run's cost besides its kept
 * executions, @exec_cost a kept execution's.  INFINITY when between_long <= 0
 * (no spread between runs to average out: every execution helps as much as
 * a run), NAN for bad arguments.  See stats_design.c for why the long
 * variances.
 */
double pp_executions_per_run(const struct pp_varcomp *vc, double run_cost, double exec_cost);

/*
 * The same components for runs in pairs, of the pairs' differences: rows
 * 2i and 2i + 1 are pair i, one run of block 0 (the previous revision) and
 * one of block 1 (the current one), in either order; row i of the
 * differences is x[cur][j] - x[prev][j], value by value, and *@out holds
 * pp_variance_components() of the rows / 2 differences in one block.  What
 * the two runs of a pair share is in no difference.  Returns 0, -EINVAL
 * (odd @rows, a pair not of one run of each block, n < 2, a non-finite
 * value), -ENODATA (fewer than two pairs), -ENOMEM.
 */
int pp_variance_components_paired(const double *x, size_t rows, size_t n, const unsigned *block,
				  struct pp_varcomp *out);

/*
 * --executions auto: kept executions per run from a dimensioning
 * experiment laid out as for pp_variance_components() (@block: the
 * revisions), for runs compared in pairs (@paired: the components of the
 * pairs' differences, pp_variance_components_paired()) or as independent
 * samples, between_long taken at its upper bound between_long_high, then
 * pp_executions_per_run().  *@vc holds the components used.  NAN when they
 * cannot be had.
 */
double pp_executions_auto(const double *x, size_t rows, size_t n, const unsigned *block,
			  bool paired, double run_cost, double exec_cost, struct pp_varcomp *vc);

#endif /* PINPOINT_STATS_H */
