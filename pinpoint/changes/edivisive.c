// SPDX-License-Identifier: MIT
/*
 * edivisive.c - the change points of a series of nights, each with its size,
 * interval and p-value.
 *
 * The method is Hunter's (Fleming et al., "Hunter: Using Change Point
 * Detection to Hunt for Performance Regressions", ICPE 2023; now Apache
 * Otava): E-Divisive means (Matteson and James, "A Nonparametric Approach
 * for Multiple Change Point Analysis of Multivariate Data", JASA 109(505),
 * 2014) proposes where the series splits, and Student's two-sided t-test
 * between the segments either side of the candidate decides whether it is
 * kept, in place of E-Divisive's permutation test.
 *
 *   1. Every segment between the change points kept so far (at first the
 *      whole series) is split where the E-Divisive statistic Q (alpha = 1,
 *      edivisive.h) is largest, each side keeping min_seg points or more.
 *   2. The candidate of largest Q is tested against its segment's two
 *      sides; p <= p_max keeps it and goes back to 1, else the search ends.
 *   3. Each change point kept is tested again between its final neighbours,
 *      and the one of largest p is dropped while that p is above p_max (as
 *      Otava's merge step does), so that every change point reported is
 *      significant against the segments it separates.
 *
 * Why this method for 10 to 200 nights of a benchmark: Q compares whole
 * distributions by their distances, so one wild night does not pull a
 * split the way it pulls a CUSUM or a least-squares segmentation, and it
 * needs no model of the noise or of how many changes there are; the t-test
 * replaces the permutation test, whose p-value is random (a given history
 * would show a change one day and not the next) and which cannot go below
 * 1 / (permutations + 1), 0.01 with the hundred Hunter first ran; the
 * t-test works from 3 points a side.  Its p-value is that of the best of many
 * splits, so it is not a false-alarm rate: p_max is 0.001, Hunter's
 * default, and bench/changes_rates.py measures the false alarms it leaves
 * (bench/README.md).  Pooled variances as in Student's test; Hunter feeds
 * the t-test population (ddof 0) deviations, here they are the samples'.
 * The size's interval is the same test's interval of the difference of
 * means, at the confidence asked (95 %); chosen as the largest split, a
 * change's size tends to be overstated a little when it is barely
 * significant.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>

#include "pinpoint/changes/edivisive.h"

/*
 * Q of a split into @m and @n values from the sums of distances across it
 * (@cross) and within each side (@wx, @wy), each pair once.
 */
static double q_of(double cross, double wx, double wy, double m, double n)
{
	return m * n / (m + n) *
	       (2 * cross / (m * n) - 2 * wx / (m * (m - 1)) - 2 * wy / (n * (n - 1)));
}

double pp_edivisive_q(const double *x, size_t s, size_t t, size_t e)
{
	double cross = 0, wx = 0, wy = 0, m = (double)(t - s), n = (double)(e - t);

	if (t < s + 2 || e < t + 2)
		return NAN;
	for (size_t i = s; i < t; i++) {
		for (size_t k = i + 1; k < t; k++)
			wx += fabs(x[i] - x[k]);
		for (size_t j = t; j < e; j++)
			cross += fabs(x[i] - x[j]);
	}
	for (size_t j = t; j < e; j++)
		for (size_t l = j + 1; l < e; l++)
			wy += fabs(x[j] - x[l]);
	return q_of(cross, wx, wy, m, n);
}

/*
 * Where x[s, e) splits best: the t of largest Q with min points a side or
 * more (the first of equals), its Q in *@q; 0 when the segment is too short.
 * Q of every t in O((e - s)^2): the sums of distances within X, within Y
 * and across are updated as each point moves from Y to X.
 */
static size_t best_split(const double *x, size_t s, size_t e, size_t min, double *q)
{
	double wx = 0, wy = 0, cross = 0;
	size_t best = 0;

	if (e - s < 2 * min)
		return 0;
	for (size_t j = s; j < e; j++)
		for (size_t l = j + 1; l < e; l++)
			wy += fabs(x[j] - x[l]);
	for (size_t t = s; t + min <= e; t++) {
		double to_x = 0, to_y = 0;

		if (t >= s + min) {
			double v = q_of(cross, wx, wy, (double)(t - s), (double)(e - t));

			if (!best || v > *q) {
				best = t;
				*q = v;
			}
		}
		for (size_t i = s; i < t; i++)
			to_x += fabs(x[i] - x[t]);
		for (size_t j = t + 1; j < e; j++)
			to_y += fabs(x[t] - x[j]);
		wx += to_x;
		wy -= to_y;
		cross += to_y - to_x;
	}
	return best;
}

static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	*mean = gsl_stats_mean(x, 1, n);
	*sd = n > 1 ? gsl_stats_sd_m(x, 1, n, *mean) : 0;
}

void pp_cpd_ttest(const double *x, size_t lo, size_t at, size_t hi, double confidence,
		  struct pp_cp *cp)
{
	double m = (double)(at - lo), n = (double)(hi - at), sp, se, half;

	cp->index = at;
	cp->lo = lo;
	cp->hi = hi;
	mean_sd(x + lo, at - lo, &cp->mean[0], &cp->sd[0]);
	mean_sd(x + at, hi - at, &cp->mean[1], &cp->sd[1]);
	cp->diff = cp->mean[1] - cp->mean[0];
	cp->df = m + n - 2;
	sp = sqrt(((m - 1) * cp->sd[0] * cp->sd[0] + (n - 1) * cp->sd[1] * cp->sd[1]) / cp->df);
	se = sp * sqrt(1 / m + 1 / n);
	if (!(cp->df >= 1) || !isfinite(se)) {
		cp->t = NAN;
		cp->p = 1;
		cp->low = -INFINITY;
		cp->high = INFINITY;
		return;
	}
	if (se == 0) { /* both sides constant: nothing to weigh the difference against */
		cp->t = cp->diff ? copysign(INFINITY, cp->diff) : 0;
		cp->p = cp->diff ? 0 : 1;
		cp->low = cp->high = cp->diff;
		return;
	}
	cp->t = cp->diff / se;
	cp->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(cp->t), cp->df));
	half = gsl_cdf_tdist_Qinv((1 - confidence) / 2, cp->df) * se;
	cp->low = cp->diff - half;
	cp->high = cp->diff + half;
}

/* @v into the sorted @b[0, *@n) (room for one more). */
static void insert(size_t *b, size_t *n, size_t v)
{
	size_t i = *n;

	while (i && b[i - 1] > v) {
		b[i] = b[i - 1];
		i--;
	}
	b[i] = v;
	(*n)++;
}

long pp_edivisive(const double *x, size_t n, const struct pp_cpd_params *par, struct pp_cp **out)
{
	size_t *b, nb = 2, min = par->min_seg;
	struct pp_cp *cp;
	long k;

	*out = NULL;
	if (min < 2 || !(par->confidence > 0 && par->confidence < 1))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	gsl_set_error_handler_off();
	b = malloc((n + 2) * sizeof(*b)); /* the change points, between 0 and n */
	if (!b)
		return -ENOMEM;
	b[0] = 0;
	b[1] = n;
	/* 1 and 2: the best split of any segment, while significant */
	for (;;) {
		size_t at = 0, seg = 0;
		double qmax = 0;
		struct pp_cp c;

		for (size_t i = 0; i + 1 < nb; i++) {
			double q;
			size_t t = best_split(x, b[i], b[i + 1], min, &q);

			if (t && (!at || q > qmax)) {
				at = t;
				seg = i;
				qmax = q;
			}
		}
		if (!at)
			break;
		pp_cpd_ttest(x, b[seg], at, b[seg + 1], par->confidence, &c);
		if (!(c.p <= par->p_max))
			break;
		insert(b, &nb, at);
	}
	/* 3: each tested between its final neighbours; the weakest dropped while not significant */
	while (nb > 2) {
		size_t worst = 0;
		double pmax = -1;

		for (size_t i = 1; i + 1 < nb; i++) {
			struct pp_cp c;

			pp_cpd_ttest(x, b[i - 1], b[i], b[i + 1], par->confidence, &c);
			if (c.p > pmax) {
				pmax = c.p;
				worst = i;
			}
		}
		if (pmax <= par->p_max)
			break;
		memmove(&b[worst], &b[worst + 1], (nb - worst - 1) * sizeof(*b));
		nb--;
	}
	k = (long)nb - 2;
	cp = k ? calloc((size_t)k, sizeof(*cp)) : NULL;
	if (k && !cp) {
		free(b);
		return -ENOMEM;
	}
	for (long i = 0; i < k; i++) {
		pp_cpd_ttest(x, b[i], b[i + 1], b[i + 2], par->confidence, &cp[i]);
		cp[i].q = pp_edivisive_q(x, b[i], b[i + 1], b[i + 2]);
	}
	free(b);
	*out = cp;
	return k;
}
