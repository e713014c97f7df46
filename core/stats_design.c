// SPDX-License-Identifier: MIT
/*
 * stats_design.c - how many executions of the entry a run should make: the
 * variance components of executions within runs and of runs, and the
 * two-stage sampling optimum that trades one against the other.
 *
 * A session's values are means over runs (processes) of means over the
 * executions each run keeps.  With within-run variance s_w^2, between-run
 * variance s_b^2, a cost c_run per run (start, set-up, warm-up) and c_exec
 * per kept execution, the variance of the grand mean for a fixed total cost
 * is smallest at k = sqrt((c_run / c_exec) * (s_w^2 / s_b^2)) executions per
 * run: the optimum of two-stage (sub)sampling (Cochran, Sampling Techniques,
 * 3rd ed., 1977, chapter 10), which Kalibera and Jones ("Rigorous
 * benchmarking in reasonable time", ISMM 2013) apply to the repetition
 * counts of benchmark experiments, estimated from a small dimensioning
 * experiment as here.
 *
 * The optimum assumes executions independent within a run.  On a shared
 * machine they are not: a slow episode of the machine spans many
 * consecutive executions, and the mean of k of them varies more than the
 * within variance / k.  So the within-run term used is the variance of a
 * long mean, estimated by batch means (Schmeiser, "Batch size effects in
 * the analysis of simulation output", Operations Research 30(3), 1982)
 * with two batches per run, each run's two halves: n/2 times the variance
 * of the halves' means.  For independent executions it estimates the
 * within variance; with correlated ones it is larger, and the optimum
 * keeps more executions.
 *
 * Which spread between runs counts depends on the design.  With runs in
 * pairs (duet or paired, schedule.h) a comparison is made on the pairs'
 * differences, so what a pair's two runs share (the machine's level while
 * they ran, a slow moment that spans both) is in neither difference and
 * calls for no more runs; the components that count are those of the
 * differences, pp_variance_components_paired().  Less spread between pairs
 * means more executions per run, not fewer: once the runs' own levels
 * cancel, longer runs are the cheaper way to average what is left.  What
 * the two runs share within them (executions that do different work, the
 * same in both revisions) cancels too, and there the optimum keeps fewer.
 * Shuffled runs are compared as independent samples: the components of
 * single runs about their revision's mean.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "core/stats.h"
#include "core/stats_internal.h"

int pp_variance_components(const double *x, size_t rows, size_t n, const unsigned *block,
			   struct pp_varcomp *out)
{
	unsigned nblocks = 0;
	double *bsum = NULL, *rmean = NULL, ssw = 0, ssb = 0, halves = 0;
	size_t h = n / 2;
	size_t *brows = NULL;
	int ret = 0;

	if (!x || !out || n < 2 || !pp_all_finite(x, rows * n))
		return -EINVAL;
	for (size_t i = 0; block && i < rows; i++)
		if (block[i] + 1 > nblocks)
			nblocks = block[i] + 1;
	if (!block)
		nblocks = 1;
	if (nblocks > rows)
		return -EINVAL;
	bsum = calloc(nblocks, sizeof(*bsum));
	brows = calloc(nblocks, sizeof(*brows));
	rmean = calloc(rows ? rows : 1, sizeof(*rmean));
	if (!bsum || !brows || !rmean) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < rows; i++) {
		unsigned b = block ? block[i] : 0;
		double m = 0;

		for (size_t j = 0; j < n; j++)
			m += x[i * n + j];
		m /= (double)n;
		rmean[i] = m;
		for (size_t j = 0; j < n; j++)
			ssw += (x[i * n + j] - m) * (x[i * n + j] - m);
		double a = 0, c = 0;

		for (size_t j = 0; j < h; j++) {
			a += x[i * n + j];
			c += x[i * n + h + j];
		}
		a /= (double)h;
		c /= (double)h;
		halves += (a - c) * (a - c) / 2;
		bsum[b] += m;
		brows[b]++;
	}
	for (unsigned b = 0; b < nblocks; b++)
		if (!brows[b]) {
			ret = -EINVAL; /* a block without rows */
			goto out;
		}
	if (rows <= nblocks) {
		ret = -ENODATA; /* one run per block: no between-run spread to see */
		goto out;
	}
	for (size_t i = 0; i < rows; i++) {
		unsigned b = block ? block[i] : 0;
		double d = rmean[i] - bsum[b] / (double)brows[b];

		ssb += (double)n * d * d;
	}
	out->df_within = rows * (n - 1);
	out->df_between = rows - nblocks;
	out->ms_within = ssw / (double)out->df_within;
	out->ms_between = ssb / (double)out->df_between;
	out->within = out->ms_within;
	out->between = (out->ms_between - out->ms_within) / (double)n;
	out->within_long = (double)h * halves / (double)rows;
	out->between_long = (out->ms_between - out->within_long) / (double)n;
	out->between_long_high =
	    (out->ms_between * (double)out->df_between /
		 gsl_cdf_chisq_Pinv(1.0 - PP_VARCOMP_HIGH, (double)out->df_between) -
	     out->within_long) /
	    (double)n;
out:
	free(bsum);
	free(brows);
	free(rmean);
	return ret;
}

int pp_variance_components_paired(const double *x, size_t rows, size_t n, const unsigned *block,
				  struct pp_varcomp *out)
{
	size_t pairs = rows / 2;
	double *d;
	int ret;

	if (!x || !block || !out || n < 2 || rows % 2 || !pp_all_finite(x, rows * n))
		return -EINVAL;
	for (size_t p = 0; p < pairs; p++)
		if (block[2 * p] > 1 || block[2 * p + 1] > 1 || block[2 * p] == block[2 * p + 1])
			return -EINVAL; /* not one run of each revision */
	if (pairs < 2)
		return -ENODATA;
	d = malloc(pairs * n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t p = 0; p < pairs; p++) {
		size_t cur = block[2 * p] ? 2 * p : 2 * p + 1, prev = 4 * p + 1 - cur;

		for (size_t j = 0; j < n; j++)
			d[p * n + j] = x[cur * n + j] - x[prev * n + j];
	}
	ret = pp_variance_components(d, pairs, n, NULL, out);
	free(d);
	return ret;
}

double pp_executions_auto(const double *x, size_t rows, size_t n, const unsigned *block,
			  bool paired, double run_cost, double exec_cost, struct pp_varcomp *vc)
{
	int err = paired ? pp_variance_components_paired(x, rows, n, block, vc)
			 : pp_variance_components(x, rows, n, block, vc);

	if (err)
		return NAN;
	/*
	 * The spread between runs at its upper bound: from a few discovery runs
	 * its estimate is often 0, which sends every run to its end, while too
	 * few executions a run cost little (a run's cost is flat near the
	 * optimum, and the runs' own spread is what most sessions are made of).
	 */
	vc->between_long = fmax(vc->between_long, vc->between_long_high);
	return pp_executions_per_run(vc, run_cost, exec_cost);
}

double pp_executions_per_run(const struct pp_varcomp *vc, double run_cost, double exec_cost)
{
	if (!vc || !(exec_cost > 0) || !(run_cost >= 0) || !(vc->within_long >= 0))
		return NAN;
	if (!(vc->between_long > 0))
		return INFINITY;
	return sqrt(run_cost / exec_cost * vc->within_long / vc->between_long);
}
