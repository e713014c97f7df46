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
 */
#include <errno.h>
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "core/stats.h"
#include "core/stats_internal.h"

/* Below this many runs per revision the critical value is Student's t. */
#define PP_RATIO_LARGE 30

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

int pp_ratio_interval(const double *xa, const double *xb, size_t nx, const double *ya,
		      const double *yb, size_t ny, double confidence, struct pp_interval *out)
{
	struct moments x, y;
	double da, db, vaa, vbb, vab, q, q2, A, B, C, disc, p;

	if (!xa || !xb || !ya || !yb || !out || nx < 2 || ny < 2 || !(confidence > 0.0) ||
	    !(confidence < 1.0) || !pp_all_finite(xa, nx) || !pp_all_finite(xb, nx) ||
	    !pp_all_finite(ya, ny) || !pp_all_finite(yb, ny))
		return -EINVAL;
	pp_stats_init();
	moments(xa, xb, nx, &x);
	moments(ya, yb, ny, &y);
	da = y.ma - x.ma;
	db = y.mb - x.mb;
	vaa = y.vaa / (double)ny + x.vaa / (double)nx;
	vbb = y.vbb / (double)ny + x.vbb / (double)nx;
	vab = y.vab / (double)ny + x.vab / (double)nx;
	p = 1.0 - (1.0 - confidence) / 2.0;
	q = nx >= PP_RATIO_LARGE && ny >= PP_RATIO_LARGE
		? gsl_cdf_ugaussian_Pinv(p)
		: gsl_cdf_tdist_Pinv(p, (double)((nx < ny ? nx : ny) - 1));
	if (!isfinite(q))
		return -EDOM;
	q2 = q * q;
	out->centre = db != 0.0 ? da / db : NAN;
	/* theta^2 (db^2 - q2 vbb) - 2 theta (da db - q2 vab) + (da^2 - q2 vaa) <= 0 */
	A = db * db - q2 * vbb;
	B = da * db - q2 * vab;
	C = da * da - q2 * vaa;
	disc = B * B - A * C;
	if (A <= 0.0 || disc < 0.0) {
		out->low = -INFINITY;
		out->high = INFINITY;
		return 0;
	}
	out->low = (B - sqrt(disc)) / A;
	out->high = (B + sqrt(disc)) / A;
	return 0;
}
