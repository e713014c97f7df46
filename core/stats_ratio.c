// SPDX-License-Identifier: MIT
/*
 * stats_ratio.c - the interval of a ratio of two differences measured in the
 * same runs: what share of a function's slowdown one of its parts is.
 *
 * Two quantities a (a part) and b (the whole) are measured in every run of
 * both revisions; the ratio is theta = (mean ya - mean xa) / (mean yb -
 * mean xb).  Its interval is Fieller's (E. C. Fieller, "Some problems in
 * interval estimation", J. R. Statist. Soc. B 16(2):175-185, 1954; see also
 * V. H. Franz, "Ratios: a short guide to confidence limits and proper use",
 * arXiv:0710.2024, 2007): the thetas for which da - theta db is not
 * significantly different from 0,
 *
 *   (da - theta db)^2 <= q^2 (Vaa - 2 theta Vab + theta^2 Vbb),
 *
 * with da, db the differences of the means, Vaa = s2(ya)/ny + s2(xa)/nx,
 * Vbb likewise, Vab = cov(ya, yb)/ny + cov(xa, xb)/nx (the runs of one
 * revision are independent of the other's; a and b of one run are not), and
 * q the two-sided critical value: z from 30 runs per revision, else
 * Student's t with min(nx, ny) - 1 degrees of freedom (conservative).  When
 * db is itself significantly away from 0 (g = q^2 Vbb / db^2 < 1) the set is
 * the interval between the roots; otherwise it is unbounded (the ends are
 * infinite: the whole's difference does not tell its own sign).
 *
 * Runs taken in pairs (pp_ratio_paired): the same set from the pairs'
 * differences a_i = ya_i - xa_i and b_i = yb_i - xb_i, one sample of n, its
 * variances and covariance over n, t on n - 1 degrees of freedom, over the
 * pairs whose b_i lies within b's outer Tukey fences: a burst of the
 * machine that slows one run of a pair by ten times the rest's spread
 * would otherwise make the share one of means, not of the shift the
 * verdicts' signed-rank estimate sees.  The pairs left out depend on the
 * whole alone, so the shares of a function's parts, over the same pairs,
 * still add up.  With the pairs in code-layout units, the set is also
 * taken from the units' mean differences (k units, t on k - 1), and the
 * union of the two is the interval, as a comparison's verdict takes the
 * union of its runs' and its layouts' intervals (stats_seq.c): a share is
 * the same kind of number as the difference it divides.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "core/stats.h"
#include "core/stats_internal.h"

/* Below this many runs per revision the critical value is Student's t. */
#define PP_RATIO_LARGE 30

/*
 * Paired shares leave out the pairs whose whole is beyond Tukey's outer
 * fences ("far out"): three interquartile ranges, so that a machine's
 * burst does not make the share, while normal noise almost never loses a
 * pair (values held at the inner fences, 1.5, left 6.2 % of 95 % intervals
 * missing the true share of 16 normal pairs in test_ratio's simulation).
 */
#define PP_RATIO_FENCE 3.0

struct moments {
	double ma, mb, vaa, vbb, vab; /* means, variances and covariance (n - 1) */
};

static void moments(const double *a, const double *b, size_t n, struct moments *m)
{
	double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;

	for (size_t i = 0; i < n; i++) {
		sa += a[i];
		sb += b[i];
	}
	m->ma = sa / (double)n;
	m->mb = sb / (double)n;
	for (size_t i = 0; i < n; i++) {
		double da = a[i] - m->ma, db = b[i] - m->mb;

		saa += da * da;
		sbb += db * db;
		sab += da * db;
	}
	m->vaa = saa / (double)(n - 1);
	m->vbb = sbb / (double)(n - 1);
	m->vab = sab / (double)(n - 1);
}

/*
 * Fieller's set for da / db with variances @vaa, @vbb and covariance @vab
 * of the two differences and the two-sided critical value @q.
 */
static void fieller(double da, double db, double vaa, double vbb, double vab, double q,
		    struct pp_interval *out)
{
	double q2 = q * q, A, B, C, disc;

	out->centre = db != 0.0 ? da / db : NAN;
	/* theta^2 (db^2 - q2 vbb) - 2 theta (da db - q2 vab) + (da^2 - q2 vaa) <= 0 */
	A = db * db - q2 * vbb;
	B = da * db - q2 * vab;
	C = da * da - q2 * vaa;
	disc = B * B - A * C;
	if (A <= 0.0 || disc < 0.0) {
		out->low = -INFINITY;
		out->high = INFINITY;
		return;
	}
	out->low = (B - sqrt(disc)) / A;
	out->high = (B + sqrt(disc)) / A;
}

/* The two-sided critical value at @confidence: z from @n >= 30, else t on @n - 1 df. */
static double critical(double confidence, size_t n)
{
	double p = 1.0 - (1.0 - confidence) / 2.0;

	return n >= PP_RATIO_LARGE ? gsl_cdf_ugaussian_Pinv(p)
				   : gsl_cdf_tdist_Pinv(p, (double)(n - 1));
}

int pp_ratio_interval(const double *xa, const double *xb, size_t nx, const double *ya,
		      const double *yb, size_t ny, double confidence, struct pp_interval *out)
{
	struct moments x, y;
	double q;

	if (!xa || !xb || !ya || !yb || !out || nx < 2 || ny < 2 || !(confidence > 0.0) ||
	    !(confidence < 1.0) || !pp_all_finite(xa, nx) || !pp_all_finite(xb, nx) ||
	    !pp_all_finite(ya, ny) || !pp_all_finite(yb, ny))
		return -EINVAL;
	pp_stats_init();
	moments(xa, xb, nx, &x);
	moments(ya, yb, ny, &y);
	/* conservative: the smaller revision's degrees of freedom */
	q = critical(confidence, nx < ny ? nx : ny);
	if (!isfinite(q))
		return -EDOM;
	fieller(y.ma - x.ma, y.mb - x.mb, y.vaa / (double)ny + x.vaa / (double)nx,
		y.vbb / (double)ny + x.vbb / (double)nx, y.vab / (double)ny + x.vab / (double)nx, q,
		out);
	return 0;
}

/* Fieller's set from the @n pairs' (or units') differences @a and @b. */
static int fieller_of(const double *a, const double *b, size_t n, double confidence,
		      struct pp_interval *out)
{
	struct moments m;
	double q = critical(confidence, n);

	if (!isfinite(q))
		return -EDOM;
	moments(a, b, n, &m);
	fieller(m.ma, m.mb, m.vaa / (double)n, m.vbb / (double)n, m.vab / (double)n, q, out);
	return 0;
}

int pp_ratio_paired(const double *a, const double *b, const unsigned *unit, size_t n,
		    double confidence, struct pp_interval *out)
{
	double *ka = NULL, *kb = NULL, *ua = NULL, *ub = NULL, lo, hi;
	unsigned *ku = NULL;
	size_t m = 0, na = 0, nb = 0;
	struct pp_interval u;
	int err;

	if (!a || !b || !out || n < 2 || !(confidence > 0.0) || !(confidence < 1.0) ||
	    !pp_all_finite(a, n) || !pp_all_finite(b, n))
		return -EINVAL;
	pp_stats_init();
	ka = malloc(n * sizeof(*ka));
	kb = malloc(n * sizeof(*kb));
	ua = malloc(n * sizeof(*ua));
	ub = malloc(n * sizeof(*ub));
	ku = malloc(n * sizeof(*ku));
	if (!ka || !kb || !ua || !ub || !ku) {
		err = -ENOMEM;
		goto out;
	}
	/* the pairs whose whole lies within its outer fences: the same for every part of it */
	err = pp_fences(b, n, PP_RATIO_FENCE, &lo, &hi);
	for (size_t i = 0; !err && i < n; i++) {
		if (b[i] < lo || b[i] > hi)
			continue;
		ka[m] = a[i];
		kb[m] = b[i];
		ku[m++] = unit ? unit[i] : 0;
	}
	if (!err && m < 2)
		err = -EINVAL;
	if (!err)
		err = fieller_of(ka, kb, m, confidence, out);
	if (err || !unit)
		goto out;
	err = pp_layout_means(ka, ku, m, ua, &na);
	if (!err)
		err = pp_layout_means(kb, ku, m, ub, &nb);
	/* one pair a unit: the units' set is the pairs' */
	if (err || na != nb || na < 2 || na == m)
		goto out;
	err = fieller_of(ua, ub, na, confidence, &u);
	if (!err) {
		out->low = fmin(out->low, u.low);
		out->high = fmax(out->high, u.high);
	}
out:
	free(ka);
	free(kb);
	free(ua);
	free(ub);
	free(ku);
	return err;
}
