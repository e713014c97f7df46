// SPDX-License-Identifier: MIT
/*
 * stats_paired.c - runs taken in pairs: previous and current side by side,
 * compared through their differences d_i = y_i - x_i.
 *
 * Whatever moves both runs of a pair alike (the machine's load drifting
 * over minutes, a neighbour's burst that spans the pair) leaves d_i alone,
 * so the differences vary less than the runs do, and a test on them needs
 * fewer runs for the same interval.
 *
 * Mann-Whitney's paired counterpart is Wilcoxon's signed-rank test with the
 * Hodges-Lehmann estimate, the median of the Walsh averages (d_i + d_j) / 2,
 * i <= j, and its distribution-free interval, as R's
 * wilcox.test(y, x, paired = TRUE, conf.int = TRUE) computes them: zero
 * differences dropped (for the interval too); V the sum of the ranks of
 * |d_i| over the positive d_i, midranks for ties; exact below 50
 * differences without ties or zeros (interval ends the Walsh averages at
 * the V quantiles), else the normal approximation with tie and continuity
 * correction, whose interval ends are where the corrected statistic of the
 * shifted differences crosses the z quantiles (R finds that with uniroot;
 * between Walsh averages the statistic only depends on how many lie above
 * the shift, so the crossing is one of them, found exactly here).
 * Welch's counterpart is the paired t interval on the mean difference, with
 * z from 30 pairs on (the thesis's rule for Welch, stats.c).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>

#include "core/stats_internal.h"

/* R's wilcox.test: the exact distribution below this many differences. */
#define PP_SR_EXACT_LIMIT 50

/*
 * V of @d[0..@n) less @shift (values equal to it left out, as R drops
 * zeros): the sum of the midranks of |d - shift| over the positive ones.
 * The number kept in *@m, the ties of the absolute values in *@ties.
 */
static int signed_rank(const double *d, size_t n, double shift, double *v, size_t *m, double *ties)
{
	double *a = malloc((n ? n : 1) * sizeof(*a));
	size_t k = 0;

	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (d[i] != shift)
			a[k++] = fabs(d[i] - shift);
	gsl_sort(a, 1, k);
	*m = k;
	*ties = pp_tie_sum(a, k);
	*v = 0.0;
	for (size_t i = 0; i < n; i++) {
		double x = d[i] - shift, ax, lo_rank, hi_rank;
		size_t lo = 0, hi = k;

		if (d[i] == shift || x < 0.0)
			continue;
		ax = fabs(x);
		/* the group of |values| equal to ax: ranks lo + 1 .. hi */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (a[mid] < ax)
				lo = mid + 1;
			else
				hi = mid;
		}
		lo_rank = (double)lo + 1.0;
		for (hi = lo; hi < k && a[hi] == ax; hi++)
			;
		hi_rank = (double)hi;
		*v += (lo_rank + hi_rank) / 2.0;
	}
	free(a);
	return 0;
}

/* Number of the 2^n sign patterns with each V = 0..n(n+1)/2, over 2^n. */
static double *signrank_probs(size_t n)
{
	size_t top = n * (n + 1) / 2;
	double *c = calloc(top + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1.0;
	for (size_t k = 1; k <= n; k++) {
		size_t hi = k * (k + 1) / 2;

		for (size_t v = hi; v >= k; v--)
			c[v] += c[v - k];
	}
	for (size_t v = 0; v <= top; v++)
		c[v] = ldexp(c[v], -(int)n);
	return c;
}

/* R's qsignrank(p, n) for p <= 0.5, with its 10 * DBL_EPSILON fuzz. */
static size_t signrank_quantile(const double *prob, size_t top, double p)
{
	double cum = 0.0, target = p - 10.0 * DBL_EPSILON;
	size_t q;

	for (q = 0; q < top; q++) {
		cum += prob[q];
		if (cum >= target)
			break;
	}
	return q;
}

static int walsh_median(const double *ds, size_t n, double *hl)
{
	size_t m = n * (n + 1) / 2;
	double a = 0.0, b;
	int err = pp_walsh_select(ds, n, (m - 1) / 2, &a);

	if (!err && m % 2 == 0) {
		err = pp_walsh_select(ds, n, m / 2, &b);
		a = (a + b) / 2.0;
	}
	*hl = a;
	return err;
}

static int exact_signed_rank(const double *ds, size_t n, double alpha, struct pp_comparison *out)
{
	size_t top = n * (n + 1) / 2, qu;
	double *prob = signrank_probs(n), tail = 0.0;
	int err;

	if (!prob)
		return -ENOMEM;
	/* R: psignrank(V - 1, upper) above the centre, psignrank(V) below */
	if (out->statistic > (double)top / 2.0)
		for (size_t v = (size_t)out->statistic; v <= top; v++)
			tail += prob[v];
	else
		for (size_t v = 0; v <= (size_t)out->statistic; v++)
			tail += prob[v];
	out->p_value = fmin(1.0, 2.0 * tail);
	qu = signrank_quantile(prob, top, alpha / 2.0);
	if (qu == 0)
		qu = 1;
	/* 1-based Walsh averages qu and top - qu + 1, as R indexes them */
	err = pp_walsh_select(ds, n, qu - 1, &out->diff.low);
	if (!err)
		err = pp_walsh_select(ds, n, top - qu, &out->diff.high);
	free(prob);
	return err;
}

static double sr_sigma(size_t m, double ties)
{
	double n = (double)m;

	return sqrt(n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - ties / 48.0);
}

/* The corrected statistic of V over @m differences with @ties (t^3 - t summed). */
static double z_of(double v, size_t m, double ties)
{
	return pp_z_corrected(v - (double)m * ((double)m + 1.0) / 4.0, sr_sigma(m, ties));
}

/* The shift at which the corrected statistic falls to @zq, as R's root() finds it. */
static int asymptotic_end(const double *ds, size_t n, double sigma0, double zq, double *end)
{
	size_t top = n * (n + 1) / 2, m;
	double v, ties;
	int err;

	/* At the bounds one difference is left out, as R evaluates them. */
	if ((err = signed_rank(ds, n, ds[0], &v, &m, &ties)))
		return err;
	if (m == 0 || z_of(v, m, ties) <= zq) {
		*end = ds[0];
		return 0;
	}
	if ((err = signed_rank(ds, n, ds[n - 1], &v, &m, &ties)))
		return err;
	if (m == 0 || z_of(v, m, ties) >= zq) {
		*end = ds[n - 1];
		return 0;
	}
	/* Between Walsh averages V is how many lie above the shift. */
	return pp_walsh_select(ds, n, pp_rank_crossing(top, sigma0, zq), end);
}

static int signed_rank_test(const double *d, size_t n, double confidence, struct pp_comparison *out)
{
	double alpha = 1.0 - confidence, v, ties, *ds = NULL;
	size_t m, k = 0;
	int err;

	err = signed_rank(d, n, 0.0, &v, &m, &ties);
	if (err)
		return err;
	out->statistic = v;
	ds = malloc((m ? m : 1) * sizeof(*ds));
	if (!ds)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0.0)
			ds[k++] = d[i];
	gsl_sort(ds, 1, m);
	if (m == 0) {
		/* every difference zero: nothing to tell apart, and the shift is 0 */
		out->p_value = 1.0;
		out->diff = (struct pp_interval){0.0, 0.0, 0.0};
		goto out;
	}
	out->exact = ties == 0.0 && m == n && m < PP_SR_EXACT_LIMIT;
	if (out->exact) {
		err = exact_signed_rank(ds, m, alpha, out);
	} else {
		double sigma0;

		out->p_value = sr_sigma(m, ties) > 0.0
				   ? 2.0 * gsl_cdf_ugaussian_Q(fabs(z_of(v, m, ties)))
				   : 1.0;
		if (ds[0] == ds[m - 1]) {
			out->diff.low = out->diff.high = ds[0];
		} else {
			/* between Walsh averages only the ties of equal differences stay */
			sigma0 = sr_sigma(m, pp_tie_sum(ds, m));
			err = asymptotic_end(ds, m, sigma0, gsl_cdf_ugaussian_Qinv(alpha / 2.0),
					     &out->diff.low);
			if (!err)
				err = asymptotic_end(ds, m, sigma0,
						     gsl_cdf_ugaussian_Pinv(alpha / 2.0),
						     &out->diff.high);
		}
	}
	if (!err)
		err = walsh_median(ds, m, &out->diff.centre);
out:
	free(ds);
	return err;
}

/* The paired t on the mean of @d: pp_summarize's interval (z from 30 pairs, t below). */
static int paired_t(const double *d, size_t n, double confidence, struct pp_comparison *out)
{
	struct pp_summary sum;
	double se;
	int err = pp_summarize(d, n, confidence, &sum);

	if (err)
		return err;
	se = sum.sd / sqrt((double)n);
	out->df = n >= PP_LARGE_SAMPLE ? 0.0 : (double)(n - 1);
	out->diff = sum.ci;
	if (!(se > 0.0)) {
		/* every difference the same: the difference is known exactly */
		out->statistic = sum.mean == 0.0 ? 0.0 : copysign(INFINITY, sum.mean);
		out->p_value = sum.mean == 0.0 ? 1.0 : 0.0;
		return 0;
	}
	out->statistic = sum.mean / se;
	out->p_value = out->df > 0.0 ? 2.0 * gsl_cdf_tdist_Q(fabs(out->statistic), out->df)
				     : 2.0 * gsl_cdf_ugaussian_Q(fabs(out->statistic));
	return isfinite(out->p_value) ? 0 : -EDOM;
}

int pp_compare_diffs(enum pp_test test, const double *d, size_t n, double confidence,
		     struct pp_comparison *out)
{
	int err;

	pp_stats_init();
	out->test = test;
	out->confidence = confidence;
	out->exact = false;
	out->paired = true;
	out->df = 0.0;
	err = test == PP_TEST_WELCH ? paired_t(d, n, confidence, out)
				    : signed_rank_test(d, n, confidence, out);
	if (!err)
		out->significant = out->diff.low > 0.0 || out->diff.high < 0.0;
	return err;
}

int pp_compare_paired(enum pp_test test, const double *x, const double *y, size_t n,
		      double confidence, struct pp_comparison *out)
{
	double *d;
	int err;

	if (!x || !y || !out || n < 2 || !(confidence > 0.0 && confidence < 1.0) ||
	    !pp_all_finite(x, n) || !pp_all_finite(y, n))
		return -EINVAL;
	if (test != PP_TEST_WELCH && test != PP_TEST_MANN_WHITNEY)
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		d[i] = y[i] - x[i];
	err = pp_compare_diffs(test, d, n, confidence, out);
	free(d);
	return err;
}

int pp_paired_order_term(enum pp_test test, const double *x, const double *y,
			 const signed char *order, size_t n, double **out, double *c,
			 struct pp_interval *ci)
{
	double *g[2] = {NULL, NULL}, *v = NULL;
	size_t ng[2] = {0, 0};
	struct pp_comparison cmp;
	int err = 0;

	*out = NULL;
	*c = NAN;
	if (n < 2 * PP_ORDER_TERM_MIN)
		return 0;
	g[0] = malloc(n * sizeof(double));
	g[1] = malloc(n * sizeof(double));
	if (!g[0] || !g[1]) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		double d = y[i] - x[i];

		if ((order[i] != 0 && order[i] != 1) || !isfinite(d))
			goto out;
		g[order[i]][ng[order[i]]++] = d;
	}
	if (ng[0] < PP_ORDER_TERM_MIN || ng[1] < PP_ORDER_TERM_MIN)
		goto out;
	/* order 1: D + c; order 0: D - c; their shift is 2c */
	if (pp_compare(test, g[0], ng[0], g[1], ng[1], 0.95, &cmp) || !isfinite(cmp.diff.centre))
		goto out;
	v = malloc(n * sizeof(double));
	if (!v) {
		err = -ENOMEM;
		goto out;
	}
	*c = cmp.diff.centre / 2;
	if (ci)
		*ci = (struct pp_interval){*c, cmp.diff.low / 2, cmp.diff.high / 2};
	for (size_t i = 0; i < n; i++)
		v[i] = y[i] - (order[i] ? *c : -*c);
	*out = v;
out:
	free(g[0]);
	free(g[1]);
	return err;
}
