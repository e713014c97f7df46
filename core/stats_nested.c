// SPDX-License-Identifier: MIT
/*
 * stats_nested.c - runs nested in code layouts.
 *
 * A revision measured under several code layouts gives runs whose values
 * share their layout's effect: runs of one layout are not independent
 * draws, and an interval that treats them so is too narrow whenever the
 * layout moves the program (Kalibera and Jones, "Rigorous benchmarking in
 * reasonable time", ISMM 2013, where a build is a random level of the
 * experiment).  The unit of comparison is then the layout: the location
 * of each layout's runs (its mean, far runs held within Tukey's fences
 * about its median: pp_layout_diff), compared between the revisions by
 * Welch's test (the layouts of a revision are drawn at random and
 * independently of the other revision's, so its layout locations are
 * independent draws).  pp_layout_components tells how much of a
 * revision's spread comes from layout: the one-way random-effects model
 * x = mu + L_j + e_ij, its variance components by the method of moments
 * with unequal numbers of runs per layout (Searle, Casella and McCulloch,
 * Variance Components, Wiley 1992, section 3.6:
 * n0 = (N - sum n_j^2 / N) / (k - 1)).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/stats.h"
#include "core/stats_internal.h"

/*
 * Each layout's sum and number of runs, indexed by layout (room for the
 * largest + 1, in *@top), into fresh arrays.  0 or -ENOMEM.
 */
static int tally(const double *x, const unsigned *layout, size_t n, double **sum, size_t **cnt,
		 unsigned *top)
{
	*top = 0;
	for (size_t i = 0; i < n; i++)
		*top = layout[i] > *top ? layout[i] : *top;
	*sum = calloc((size_t)*top + 1, sizeof(**sum));
	*cnt = calloc((size_t)*top + 1, sizeof(**cnt));
	if (!*sum || !*cnt) {
		free(*sum);
		free(*cnt);
		*sum = NULL;
		*cnt = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		(*sum)[layout[i]] += x[i];
		(*cnt)[layout[i]]++;
	}
	return 0;
}

int pp_layout_means(const double *x, const unsigned *layout, size_t n, double *means,
		    size_t *nmeans)
{
	unsigned top;
	double *sum;
	size_t *cnt, k = 0;

	if (!x || !layout || !means || !nmeans || !pp_all_finite(x, n))
		return -EINVAL;
	if (tally(x, layout, n, &sum, &cnt, &top))
		return -ENOMEM;
	/* in the order the layouts first appear */
	for (size_t i = 0; i < n; i++) {
		unsigned j = layout[i];

		if (!cnt[j])
			continue;
		means[k++] = sum[j] / (double)cnt[j];
		cnt[j] = 0;
	}
	*nmeans = k;
	free(sum);
	free(cnt);
	return 0;
}

int pp_layout_components(const double *x, const unsigned *layout, size_t n,
			 struct pp_layout_var *out)
{
	unsigned top;
	double *sum = NULL, grand = 0, ssb = 0, ssw = 0, sumsq_n = 0;
	size_t *cnt = NULL, k = 0;
	int ret = 0;

	if (!x || !layout || !out || n < 2 || !pp_all_finite(x, n))
		return -EINVAL;
	if (tally(x, layout, n, &sum, &cnt, &top))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		grand += x[i];
	grand /= (double)n;
	for (unsigned j = 0; j <= top; j++) {
		double m;

		if (!cnt[j])
			continue;
		k++;
		m = sum[j] / (double)cnt[j];
		ssb += (double)cnt[j] * (m - grand) * (m - grand);
		sumsq_n += (double)cnt[j] * (double)cnt[j];
	}
	for (size_t i = 0; i < n; i++) {
		double m = sum[layout[i]] / (double)cnt[layout[i]];

		ssw += (x[i] - m) * (x[i] - m);
	}
	out->layouts = k;
	out->runs = n;
	if (k < 2 || n <= k) {
		ret = -ENODATA; /* one layout, or one run a layout: the parts cannot be told */
		goto out;
	}
	{
		double msb = ssb / (double)(k - 1), msw = ssw / (double)(n - k);
		double n0 = ((double)n - sumsq_n / (double)n) / (double)(k - 1);

		out->within = msw;
		out->msb = msb;
		out->n0 = n0;
		out->between = (msb - msw) / n0;
		if (out->between < 0)
			out->between = 0; /* the estimate can come out negative: none seen */
		out->share = out->between + out->within > 0
				 ? out->between / (out->between + out->within)
				 : 0;
	}
out:
	free(sum);
	free(cnt);
	return ret;
}

/*
 * Each layout's median of one revision, into a fresh array indexed by layout
 * (*@med, room for the largest + 1), and the runs' residuals from their
 * layout's median into @res.  0 or -ENOMEM.
 */
static int medians_of(const double *x, const unsigned *layout, size_t n, double **med, double *res)
{
	unsigned top = 0;
	size_t *cnt = NULL, *at = NULL;
	double *buf = NULL;
	int ret = -ENOMEM;

	for (size_t i = 0; i < n; i++)
		top = layout[i] > top ? layout[i] : top;
	*med = calloc((size_t)top + 1, sizeof(**med));
	cnt = calloc((size_t)top + 2, sizeof(*cnt));
	at = calloc((size_t)top + 2, sizeof(*at));
	buf = malloc((n ? n : 1) * sizeof(*buf));
	if (!*med || !cnt || !at || !buf)
		goto out;
	for (size_t i = 0; i < n; i++)
		cnt[layout[i] + 1]++;
	for (unsigned j = 1; j <= top + 1; j++)
		cnt[j] += cnt[j - 1]; /* cnt[j]: where layout j's runs start in buf */
	memcpy(at, cnt, ((size_t)top + 2) * sizeof(*at));
	for (size_t i = 0; i < n; i++)
		buf[at[layout[i]]++] = x[i];
	for (unsigned j = 0; j <= top; j++) {
		size_t m = cnt[j + 1] - cnt[j];

		if (!m)
			continue;
		gsl_sort(buf + cnt[j], 1, m);
		(*med)[j] = gsl_stats_median_from_sorted_data(buf + cnt[j], 1, m);
	}
	for (size_t i = 0; i < n; i++)
		res[i] = x[i] - (*med)[layout[i]];
	ret = 0;
out:
	if (ret) {
		free(*med);
		*med = NULL;
	}
	free(cnt);
	free(at);
	free(buf);
	return ret;
}

int pp_fences(const double *r, size_t n, double k, double *lo, double *hi)
{
	double *s = pp_sorted_copy(r, n), q1, q3;

	if (!s)
		return -ENOMEM;
	q1 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.25);
	q3 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.75);
	free(s);
	*lo = q1 - k * (q3 - q1);
	*hi = q3 + k * (q3 - q1);
	return 0;
}

/* Each residual @r[i] held within [@lo, @hi] and its layout's median added back, in place. */
static void hold(double *r, const unsigned *layout, size_t n, const double *med, double lo,
		 double hi)
{
	for (size_t i = 0; i < n; i++)
		r[i] = med[layout[i]] + fmin(fmax(r[i], lo), hi);
}

int pp_layout_diff(const double *x, const unsigned *lx, size_t nx, const double *y,
		   const unsigned *ly, size_t ny, double confidence, struct pp_interval *out)
{
	double *mx = NULL, *my = NULL, ax, ay, vx, vy, se2, df, q;
	double *medx = NULL, *medy = NULL, *r = NULL, lo, hi;
	size_t kx = 0, ky = 0;
	int ret = -ENOMEM;

	if (!out || !(confidence > 0 && confidence < 1) || !x || !lx || !y || !ly ||
	    !pp_all_finite(x, nx) || !pp_all_finite(y, ny))
		return -EINVAL;
	if (!nx || !ny)
		return -ENODATA;
	/* the residuals of both revisions in one array: x's, then y's */
	r = malloc((nx + ny) * sizeof(*r));
	mx = malloc(nx * sizeof(*mx));
	my = malloc(ny * sizeof(*my));
	if (!r || !mx || !my || medians_of(x, lx, nx, &medx, r) ||
	    medians_of(y, ly, ny, &medy, r + nx))
		goto out;
	ret = pp_fences(r, nx + ny, PP_LAYOUT_FENCE, &lo, &hi);
	if (ret)
		goto out;
	hold(r, lx, nx, medx, lo, hi);
	hold(r + nx, ly, ny, medy, lo, hi);
	ret = pp_layout_means(r, lx, nx, mx, &kx);
	if (!ret)
		ret = pp_layout_means(r + nx, ly, ny, my, &ky);
	if (ret)
		goto out;
	if (kx < 2 || ky < 2) {
		ret = -ENODATA;
		goto out;
	}
	ax = gsl_stats_mean(mx, 1, kx);
	ay = gsl_stats_mean(my, 1, ky);
	vx = gsl_stats_variance_m(mx, 1, kx, ax) / (double)kx;
	vy = gsl_stats_variance_m(my, 1, ky, ay) / (double)ky;
	se2 = vx + vy;
	out->centre = ay - ax;
	if (!(se2 > 0)) {
		out->low = out->high = out->centre;
		goto out;
	}
	/* Welch-Satterthwaite */
	df = se2 * se2 / (vx * vx / (double)(kx - 1) + vy * vy / (double)(ky - 1));
	q = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, df);
	if (!isfinite(q)) {
		ret = -EDOM;
		goto out;
	}
	out->low = out->centre - q * sqrt(se2);
	out->high = out->centre + q * sqrt(se2);
out:
	free(mx);
	free(my);
	free(medx);
	free(medy);
	free(r);
	return ret;
}

int pp_layout_paired(const double *d, const unsigned *unit, size_t n, double confidence,
		     struct pp_interval *out)
{
	double *med = NULL, *r = NULL, *loc = NULL, mean, var, lo, hi, q;
	size_t k = 0;
	int ret = -ENOMEM;

	if (!out || !(confidence > 0 && confidence < 1) || !d || !unit || !pp_all_finite(d, n))
		return -EINVAL;
	if (!n)
		return -ENODATA;
	r = malloc(n * sizeof(*r));
	loc = malloc(n * sizeof(*loc));
	if (!r || !loc || medians_of(d, unit, n, &med, r))
		goto out;
	ret = pp_fences(r, n, PP_LAYOUT_FENCE, &lo, &hi);
	if (ret)
		goto out;
	hold(r, unit, n, med, lo, hi);
	ret = pp_layout_means(r, unit, n, loc, &k);
	if (ret)
		goto out;
	if (k < 2) {
		ret = -ENODATA;
		goto out;
	}
	mean = gsl_stats_mean(loc, 1, k);
	var = gsl_stats_variance_m(loc, 1, k, mean);
	out->centre = mean;
	out->low = out->high = mean;
	if (!(var > 0))
		goto out;
	q = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, (double)(k - 1));
	if (!isfinite(q)) {
		ret = -EDOM;
		goto out;
	}
	out->low = mean - q * sqrt(var / (double)k);
	out->high = mean + q * sqrt(var / (double)k);
out:
	free(med);
	free(r);
	free(loc);
	return ret;
}
