// SPDX-License-Identifier: MIT
/*
 * stats.c - summaries, confidence intervals of means, the Welch comparison,
 * steady-state detection and one-way ANOVA (section 2.3 of the method).
 * The rank test lives in stats_rank.c.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/stats.h"
#include "core/stats_internal.h"

/* Below this many values the interval uses Student's t instead of z (2.3.1). */
#define PP_LARGE_SAMPLE 30

static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

static void gsl_quiet(void)
{
	/* GSL's default handler aborts; we check every result instead. */
	gsl_set_error_handler_off();
}

void pp_stats_init(void)
{
	pthread_once(&gsl_once, gsl_quiet);
}

bool pp_all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

double *pp_sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		s[i] = x[i];
	gsl_sort(s, 1, n);
	return s;
}

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

static bool window_steady(const double *w, size_t k, double cov_threshold)
{
	double m = gsl_stats_mean(w, 1, k);

	if (m == 0.0)
		return false;
	return gsl_stats_sd_m(w, 1, k, m) / fabs(m) < cov_threshold;
}

int pp_steady_state(const double *x, size_t n, size_t k, double cov_threshold, double *mean,
		    size_t *start)
{
	if (!x || !mean || !start || k < 2 || !isfinite(cov_threshold) || cov_threshold <= 0.0 ||
	    !pp_all_finite(x, n))
		return -EINVAL;
	pp_stats_init();
	/* s is the last index of the deciding window; at least one value must follow it. */
	for (size_t s = k - 1; s + 1 < n; s++) {
		if (!window_steady(x + s + 1 - k, k, cov_threshold))
			continue;
		size_t m = n - (s + 1) < k ? n - (s + 1) : k;

		*mean = gsl_stats_mean(x + s + 1, 1, m);
		*start = s + 1;
		return 0;
	}
	return -ENODATA;
}

int pp_anova(const double *const *groups, size_t k, size_t n, double *f, double *p_value)
{
	double grand = 0.0, ssa = 0.0, sse = 0.0, dfa, dfe;

	if (!groups || !f || !p_value || k < 2 || n < 2)
		return -EINVAL;
	for (size_t i = 0; i < k; i++)
		if (!groups[i] || !pp_all_finite(groups[i], n))
			return -EINVAL;
	pp_stats_init();
	for (size_t i = 0; i < k; i++)
		grand += gsl_stats_mean(groups[i], 1, n);
	grand /= (double)k;
	for (size_t i = 0; i < k; i++) {
		double m = gsl_stats_mean(groups[i], 1, n);

		ssa += (double)n * (m - grand) * (m - grand);
		sse += gsl_stats_tss_m(groups[i], 1, n, m);
	}
	dfa = (double)(k - 1);
	dfe = (double)(k * (n - 1));
	if (sse == 0.0) {
		/* No variation within the alternatives: any difference between them is certain. */
		*f = ssa == 0.0 ? 0.0 : INFINITY;
		*p_value = ssa == 0.0 ? 1.0 : 0.0;
		return 0;
	}
	*f = (ssa / dfa) / (sse / dfe);
	*p_value = gsl_cdf_fdist_Q(*f, dfa, dfe);
	return isfinite(*p_value) ? 0 : -EDOM;
}
