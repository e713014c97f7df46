// SPDX-License-Identifier: MIT
/*
 * stats.c - summaries, confidence intervals of means, the Welch comparison,
 * warm-up truncation (MSER), the median's distribution-free interval (section
 * 2.3 of the method).  The rank test lives in stats_rank.c, the helpers both
 * use in stats_sample.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/stats.h"
#include "core/stats_internal.h"

static bool valid_confidence(double c)
{
	return isfinite(c) && c > 0.0 && c < 1.0;
}

/* The two-sided critical value: z, or t with @df degrees of freedom. */
static int critical_value(double confidence, double df, bool large, double *q)
{
	double p = 1.0 - (1.0 - confidence) / 2.0;

	*q = large ? gsl_cdf_ugaussian_Pinv(p) : gsl_cdf_tdist_Pinv(p, df);
	return isfinite(*q) ? 0 : -EDOM;
}

int pp_summarize(const double *x, size_t n, double confidence, struct pp_summary *out)
{
	double *s, q, half;
	int err;

	if (!x || !out || n < 2 || !valid_confidence(confidence) || !pp_all_finite(x, n))
		return -EINVAL;
	pp_stats_init();
	s = pp_sorted_copy(x, n);
	if (!s)
		return -ENOMEM;
	out->n = n;
	out->mean = gsl_stats_mean(x, 1, n);
	out->sd = gsl_stats_sd_m(x, 1, n, out->mean);
	out->median = gsl_stats_median_from_sorted_data(s, 1, n);
	out->min = s[0];
	out->max = s[n - 1];
	err = critical_value(confidence, (double)(n - 1), n >= PP_LARGE_SAMPLE, &q);
	if (err)
		goto out;
	half = q * out->sd / sqrt((double)n);
	out->ci.centre = out->mean;
	out->ci.low = out->mean - half;
	out->ci.high = out->mean + half;
out:
	free(s);
	return err;
}

/* Section 2.3.4: interval of the difference of means, z or Welch's t. */
static int compare_welch(const double *x, size_t nx, const double *y, size_t ny, double confidence,
			 struct pp_comparison *out)
{
	double mx = gsl_stats_mean(x, 1, nx), my = gsl_stats_mean(y, 1, ny);
	double vx = gsl_stats_variance_m(x, 1, nx, mx) / (double)nx;
	double vy = gsl_stats_variance_m(y, 1, ny, my) / (double)ny;
	double diff = my - mx, sd = sqrt(vx + vy), q;
	bool large = nx >= PP_LARGE_SAMPLE && ny >= PP_LARGE_SAMPLE;
	int err;

	out->df = 0.0;
	if (!large && sd > 0.0)
		out->df = (vx + vy) * (vx + vy) /
			  (vx * vx / (double)(nx - 1) + vy * vy / (double)(ny - 1));
	out->diff.centre = diff;
	if (sd == 0.0) {
		/* Both samples constant: the difference is known exactly. */
		out->diff.low = out->diff.high = diff;
		out->statistic = diff == 0.0 ? 0.0 : copysign(INFINITY, diff);
		out->p_value = diff == 0.0 ? 1.0 : 0.0;
		return 0;
	}
	err = critical_value(confidence, out->df, large, &q);
	if (err)
		return err;
	out->diff.low = diff - q * sd;
	out->diff.high = diff + q * sd;
	out->statistic = diff / sd;
	if (large)
		out->p_value = 2.0 * gsl_cdf_ugaussian_Q(fabs(out->statistic));
	else
		out->p_value = 2.0 * gsl_cdf_tdist_Q(fabs(out->statistic), out->df);
	if (!isfinite(out->p_value))
		return -EDOM;
	return 0;
}

int pp_compare(enum pp_test test, const double *x, size_t nx, const double *y, size_t ny,
	       double confidence, struct pp_comparison *out)
{
	int err;

	if (!x || !y || !out || nx < 2 || ny < 2 || !valid_confidence(confidence) ||
	    !pp_all_finite(x, nx) || !pp_all_finite(y, ny))
		return -EINVAL;
	if (test != PP_TEST_WELCH && test != PP_TEST_MANN_WHITNEY)
		return -EINVAL;
	pp_stats_init();
	out->test = test;
	out->confidence = confidence;
	out->exact = false;
	out->paired = false;
	out->df = 0.0;
	if (test == PP_TEST_WELCH)
		err = compare_welch(x, nx, y, ny, confidence, out);
	else
		err = pp_compare_rank(x, nx, y, ny, confidence, out);
	if (err)
		return err;
	out->significant = out->diff.low > 0.0 || out->diff.high < 0.0;
	return 0;
}

/* The medians of the @m batches of @batch values of @x, in @z. */
static int batch_medians(const double *x, size_t m, size_t batch, double *z)
{
	double *b = malloc(batch * sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t j = 0; j < m; j++) {
		memcpy(b, x + j * batch, batch * sizeof(*b));
		gsl_sort(b, 1, batch);
		z[j] = gsl_stats_median_from_sorted_data(b, 1, batch);
	}
	free(b);
	return 0;
}

int pp_warmup_mser(const double *x, size_t n, size_t batch, size_t *skip)
{
	size_t m, best_d = 0;
	double *z, best = INFINITY;

	if (!x || !skip || batch < 1 || !pp_all_finite(x, n))
		return -EINVAL;
	m = n / batch;
	if (m < 3)
		return -ENODATA;
	z = malloc(m * sizeof(*z));
	if (!z)
		return -ENOMEM;
	pp_stats_init();
	if (batch_medians(x, m, batch, z)) {
		free(z);
		return -ENOMEM;
	}
	/* d batches dropped: more than half of the m, and at least two, are kept. */
	for (size_t d = 0; d <= (m - 1) / 2; d++) {
		size_t k = m - d;
		double mean = gsl_stats_mean(z + d, 1, k);
		double ss = gsl_stats_tss_m(z + d, 1, k, mean);
		double v = ss / ((double)k * (double)k);

		if (v < best) {
			best = v;
			best_d = d;
		}
	}
	*skip = best_d * batch;
	free(z);
	return 0;
}

int pp_warmup_trim(const double *x, size_t n, size_t batch, double band, size_t *skip)
{
	size_t m, d, keep = 0;
	double *z, mean, sd, reach;
	int err;

	if (!x || !skip || batch < 1 || !isfinite(band) || band < 0.0 || !pp_all_finite(x, n) ||
	    *skip % batch)
		return -EINVAL;
	m = n / batch;
	d = *skip / batch;
	if (m < d + 2)
		return -EINVAL;
	if (!d)
		return 0;
	z = malloc(m * sizeof(*z));
	if (!z)
		return -ENOMEM;
	pp_stats_init();
	err = batch_medians(x, m, batch, z);
	if (err)
		goto out;
	mean = gsl_stats_mean(z + d, 1, m - d);
	sd = gsl_stats_sd_m(z + d, 1, m - d, mean);
	/* a prediction interval for one more batch median, 99 % over the d */
	reach = fmax(band * fabs(mean),
		     gsl_cdf_tdist_Pinv(1.0 - 0.005 / (double)d, (double)(m - d - 1)) * sd *
			 sqrt(1.0 + 1.0 / (double)(m - d)));
	for (size_t j = 0; j < d; j++)
		if (fabs(z[j] - mean) > reach)
			keep = j + 1;
	*skip = keep * batch;
out:
	free(z);
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct pp_interval pp_median_interval(const double *x, size_t n, double confidence)
{
	struct pp_interval iv = {0, 0, 0};
	double *v;
	size_t l;

	if (!n)
		return iv;
	v = malloc(n * sizeof(*v));
	if (!v)
		return iv;
	memcpy(v, x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	iv.centre = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	/* Largest l with P(B < l) <= alpha/2, B ~ Binomial(n, 1/2): [x(l), x(n-l+1)]. */
	l = 0;
	while (l + 1 <= n / 2 &&
	       gsl_cdf_binomial_P((unsigned)l, 0.5, (unsigned)n) <= (1 - confidence) / 2)
		l++;
	if (l == 0) {
		iv.low = v[0];
		iv.high = v[n - 1];
	} else {
		iv.low = v[l - 1];
		iv.high = v[n - l];
	}
	free(v);
	return iv;
}
