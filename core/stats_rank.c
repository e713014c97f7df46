// SPDX-License-Identifier: MIT
/*
 * stats_rank.c - the Mann-Whitney U test of current (y) against previous (x)
 * with the Hodges-Lehmann shift and its distribution-free interval.
 *
 * The conventions are those of R's wilcox.test(y, x, conf.int = TRUE), so
 * results can be checked against it: U counts the pairs with y_j > x_i plus
 * half the tied pairs (R's W); the p-value is exact when both samples have
 * fewer than 50 values and no value is tied, else it comes from the normal
 * approximation with tie and continuity correction.  The interval ends are
 * order statistics of the differences y_j - x_i: at the U quantiles in the
 * exact case, and where the corrected normal statistic crosses the z
 * quantiles otherwise (R finds that crossing with uniroot to within
 * tol.root; it is computed exactly here).  The shift is the median of the
 * differences in both cases.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "core/stats_internal.h"

/* R's wilcox.test default: exact distribution below this many values per sample. */
#define PP_EXACT_LIMIT 50

struct rank_sums {
	double u;    /* pairs with y_j - d > x_i, plus half of those equal */
	double ties; /* sum of t^3 - t over groups of t equal values */
};

/* Merge xs with ys - d (both ascending) as ranking the pooled values would. */
static void rank_merge(const double *xs, size_t nx, const double *ys, size_t ny, double d,
		       struct rank_sums *r)
{
	size_t i = 0, j = 0;

	r->u = 0.0;
	r->ties = 0.0;
	while (i < nx || j < ny) {
		double v = j == ny || (i < nx && xs[i] <= ys[j] - d) ? xs[i] : ys[j] - d;
		size_t cx = 0, cy = 0;

		for (; i < nx && xs[i] == v; i++)
			cx++;
		for (; j < ny && ys[j] - d == v; j++)
			cy++;
		r->u += (double)cy * (double)(i - cx) + 0.5 * (double)cy * (double)cx;
		if (cx + cy > 1) {
			double t = (double)(cx + cy);

			r->ties += t * t * t - t;
		}
	}
}

/* Standard deviation of U under the null, corrected for ties. */
static double u_sigma(size_t nx, size_t ny, double ties)
{
	double n = (double)nx + (double)ny;

	return sqrt(((double)nx * (double)ny / 12.0) * ((n + 1.0) - ties / (n * (n - 1.0))));
}

/* The normal statistic with two-sided continuity correction. */
double pp_z_corrected(double dz, double sigma)
{
	double corr = dz > 0.0 ? 0.5 : dz < 0.0 ? -0.5 : 0.0;

	return (dz - corr) / sigma;
}

size_t pp_rank_crossing(size_t cells, double sigma0, double zq)
{
	size_t lo = 0, hi = cells;

	/* the statistic with `above` cells above the shift grows with that count */
	if (pp_z_corrected(0.0 - (double)cells / 2.0, sigma0) > zq)
		return cells - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (pp_z_corrected((double)mid - (double)cells / 2.0, sigma0) <= zq)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo == cells ? 0 : cells - lo - 1;
}

double *pp_wilcox_counts(size_t m, size_t n)
{
	/*
	 * c(i, j, u) = c(i - 1, j, u - j) + c(i, j - 1, u): the largest value is
	 * a y (beating all j x values) or an x.  Sums only, so small tails keep
	 * their relative accuracy.  The distribution is symmetric: only
	 * u <= m * n / 2 is computed, the rest mirrored.
	 */
	size_t half = m * n / 2, w = half + 1;
	double *prev = calloc((n + 1) * w, sizeof(*prev));
	double *cur = calloc((n + 1) * w, sizeof(*cur));
	double *res = NULL;

	if (!prev || !cur)
		goto out;
	for (size_t j = 0; j <= n; j++)
		prev[j * w] = 1.0;
	cur[0] = 1.0;
	for (size_t i = 1; i <= m; i++) {
		double *t;

		for (size_t j = 1; j <= n; j++) {
			double *c = cur + j * w, *left = cur + (j - 1) * w, *up = prev + j * w;
			size_t top = i * j < half ? i * j : half;

			for (size_t u = 0; u <= top; u++)
				c[u] =
				    (u <= i * (j - 1) ? left[u] : 0.0) + (u >= j ? up[u - j] : 0.0);
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	res = malloc((m * n + 1) * sizeof(*res));
	if (res)
		for (size_t u = 0; u <= half; u++)
			res[u] = res[m * n - u] = prev[n * w + u];
out:
	free(prev);
	free(cur);
	return res;
}

/* R's qwilcox(p, m, n) for p <= 0.5, with its 10 * DBL_EPSILON fuzz. */
static size_t wilcox_quantile(const double *counts, size_t nu, double total, double p)
{
	double cum = 0.0, target = p - 10.0 * DBL_EPSILON;
	size_t q;

	for (q = 0; q + 1 < nu; q++) {
		cum += counts[q] / total;
		if (cum >= target)
			break;
	}
	return q;
}

static int hodges_lehmann(const double *xs, size_t nx, const double *ys, size_t ny, double *hl)
{
	size_t nd = nx * ny;
	double a = 0.0, b;
	int err;

	err = pp_diff_select(xs, nx, ys, ny, (nd - 1) / 2, &a);
	if (err || nd % 2)
		goto out;
	err = pp_diff_select(xs, nx, ys, ny, nd / 2, &b);
	a = (a + b) / 2.0;
out:
	*hl = a;
	return err;
}

static int exact_test(const double *xs, size_t nx, const double *ys, size_t ny, double alpha,
		      struct pp_comparison *out)
{
	size_t nd = nx * ny, u = (size_t)out->statistic, qu;
	double *counts = pp_wilcox_counts(ny, nx), total = 0.0, tail = 0.0;
	int err;

	if (!counts)
		return -ENOMEM;
	for (size_t k = 0; k <= nd; k++)
		total += counts[k];
	if (2 * u > nd)
		for (size_t k = u; k <= nd; k++)
			tail += counts[k];
	else
		for (size_t k = 0; k <= u; k++)
			tail += counts[k];
	out->p_value = fmin(1.0, 2.0 * tail / total);
	qu = wilcox_quantile(counts, nd + 1, total, alpha / 2.0);
	if (qu == 0)
		qu = 1;
	/* 1-based order statistics qu and nd - qu + 1, as R indexes them. */
	err = pp_diff_select(xs, nx, ys, ny, qu - 1, &out->diff.low);
	if (!err)
		err = pp_diff_select(xs, nx, ys, ny, nd - qu, &out->diff.high);
	free(counts);
	return err;
}

/* The shift at which the corrected statistic falls to @zq, as R's root() finds it. */
static int asymptotic_end(const double *xs, size_t nx, const double *ys, size_t ny, double sigma0,
			  double zq, double *end)
{
	size_t nd = nx * ny;
	double mumin = ys[0] - xs[nx - 1], mumax = ys[ny - 1] - xs[0];
	struct rank_sums r;

	/* At the bounds themselves a difference ties, as R evaluates them. */
	rank_merge(xs, nx, ys, ny, mumin, &r);
	if (pp_z_corrected(r.u - (double)nd / 2.0, u_sigma(nx, ny, r.ties)) - zq <= 0.0) {
		*end = mumin;
		return 0;
	}
	rank_merge(xs, nx, ys, ny, mumax, &r);
	if (pp_z_corrected(r.u - (double)nd / 2.0, u_sigma(nx, ny, r.ties)) - zq >= 0.0) {
		*end = mumax;
		return 0;
	}
	/* Between differences the statistic only depends on how many lie above the shift. */
	return pp_diff_select(xs, nx, ys, ny, pp_rank_crossing(nd, sigma0, zq), end);
}

static int asymptotic_test(const double *xs, size_t nx, const double *ys, size_t ny, double alpha,
			   double ties, struct pp_comparison *out)
{
	size_t nd = nx * ny;
	double sigma = u_sigma(nx, ny, ties), sigma0, mumin, mumax;
	int err;

	if (sigma > 0.0)
		out->p_value = 2.0 * gsl_cdf_ugaussian_Q(fabs(
					 pp_z_corrected(out->statistic - (double)nd / 2.0, sigma)));
	else
		out->p_value = 1.0; /* every value equal: nothing to tell apart */
	if (!isfinite(out->p_value))
		return -EDOM;

	mumin = ys[0] - xs[nx - 1];
	mumax = ys[ny - 1] - xs[0];
	if (mumin == mumax) {
		/* Each sample constant: every difference is the same, and so is the shift. */
		out->diff.low = out->diff.high = mumin;
		return 0;
	}
	sigma0 = u_sigma(nx, ny, pp_tie_sum(xs, nx) + pp_tie_sum(ys, ny));
	err = asymptotic_end(xs, nx, ys, ny, sigma0, gsl_cdf_ugaussian_Qinv(alpha / 2.0),
			     &out->diff.low);
	if (!err)
		err = asymptotic_end(xs, nx, ys, ny, sigma0, gsl_cdf_ugaussian_Pinv(alpha / 2.0),
				     &out->diff.high);
	return err;
}

int pp_compare_rank(const double *x, size_t nx, const double *y, size_t ny, double confidence,
		    struct pp_comparison *out)
{
	double *xs = pp_sorted_copy(x, nx), *ys = pp_sorted_copy(y, ny);
	double alpha = 1.0 - confidence;
	struct rank_sums r;
	int err = -ENOMEM;

	if (!xs || !ys)
		goto out;
	rank_merge(xs, nx, ys, ny, 0.0, &r);
	out->statistic = r.u;
	out->exact = r.ties == 0.0 && nx < PP_EXACT_LIMIT && ny < PP_EXACT_LIMIT;
	if (out->exact)
		err = exact_test(xs, nx, ys, ny, alpha, out);
	else
		err = asymptotic_test(xs, nx, ys, ny, alpha, r.ties, out);
	if (!err)
		err = hodges_lehmann(xs, nx, ys, ny, &out->diff.centre);
out:
	free(xs);
	free(ys);
	return err;
}
