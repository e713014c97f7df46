// SPDX-License-Identifier: MIT
/*
 * stats_seq.c - the sequential decision of one comparison (stats_seq.h):
 * the geometric schedule of looks and alpha spent by look index over it, one
 * interval per look at the level the spending gives it, the decision of that
 * interval against +-threshold, and the quantities a report needs (minimum
 * detectable effect, fixed-sample yardstick, alpha of a comparison in the
 * search).
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>

#include "core/stats_internal.h"
#include "core/stats_seq.h"

/*
 * Below this a look's alpha is too small for 1 - alpha to be told from 1 in
 * a double with room to spare: such a look computes no interval (and so
 * spends nothing).
 */
#define PP_SEQ_MIN_ALPHA 1e-12

static bool valid_alpha(double a)
{
	return isfinite(a) && a > 0.0 && a < 1.0;
}

static bool valid_design(const struct pp_seq_design *d)
{
	return (d->test == PP_TEST_MANN_WHITNEY || d->test == PP_TEST_WELCH) &&
	       valid_alpha(d->alpha) && isfinite(d->threshold) && d->threshold >= 0.0 &&
	       d->budget >= 4 && d->first >= 2 && isfinite(d->growth) && d->growth > 1.0 &&
	       d->growth <= 100.0 && isfinite(d->rho) && fabs(d->rho) <= 10.0;
}

/*
 * Look @k's size, and in *@looks the schedule's number of looks when @k is
 * past the last.  Sizes are integers below 2^53 and the factors exact or
 * nearly so: the small tolerance keeps ceil() from adding one for a
 * product like 10 * 1.1 that rounds just above an integer.
 */
static size_t look_size(const struct pp_seq_design *d, unsigned k, unsigned *looks)
{
	double last = (double)(d->budget / 2), n = (double)d->first;
	unsigned j = 1;

	for (;; j++) {
		/* within a factor sqrt(growth) of the budget: this look is the budget's */
		if (n >= last || n * n * d->growth > last * last) {
			n = last;
			break;
		}
		if (j == k)
			break;
		n = fmax(n + 1.0, ceil(d->growth * n - 1e-9));
	}
	if (looks)
		*looks = j;
	return (size_t)n;
}

size_t pp_seq_look_size(const struct pp_seq_design *d, unsigned k)
{
	if (!d || !valid_design(d) || k == 0)
		return 0;
	return look_size(d, k, NULL);
}

unsigned pp_seq_looks(const struct pp_seq_design *d)
{
	unsigned looks;

	if (!d || !valid_design(d))
		return 0;
	look_size(d, UINT_MAX, &looks);
	return looks;
}

double pp_seq_spent_after(const struct pp_seq_design *d, unsigned k)
{
	double part = 0.0, all = 0.0;
	unsigned looks;

	if (!d || !valid_design(d) || k == 0)
		return NAN;
	look_size(d, UINT_MAX, &looks);
	if (k >= looks)
		return d->alpha;
	for (unsigned j = 1; j <= looks; j++) {
		double w = pow((double)j, d->rho);

		all += w;
		if (j <= k)
			part += w;
	}
	return d->alpha * part / all;
}

bool pp_seq_attainable(enum pp_test test, size_t nx, size_t ny, double alpha)
{
	if (nx < 2 || ny < 2 || !valid_alpha(alpha))
		return false;
	if (test == PP_TEST_WELCH)
		return true;
	if (test != PP_TEST_MANN_WHITNEY)
		return false;
	pp_stats_init();
	/*
	 * The interval's ends are the q-th smallest and largest differences,
	 * q the alpha/2 quantile of U: none exists when even U = 0 (probability
	 * 1 / C(nx + ny, nx) without ties, more with them) is not rarer than
	 * alpha / 2.  The 10 DBL_EPSILON fuzz is the quantile's own (stats_rank.c).
	 */
	return -gsl_sf_lnchoose((unsigned)(nx + ny), (unsigned)nx) <
	       log(alpha / 2.0 - 10.0 * DBL_EPSILON);
}

double pp_seq_mde(double alpha, double power, double se, double threshold)
{
	if (!valid_alpha(alpha) || !valid_alpha(power) || !isfinite(se) || se < 0.0 ||
	    !isfinite(threshold) || threshold < 0.0)
		return NAN;
	pp_stats_init();
	/* SLOWER needs the centre above both threshold and threshold/2 + z se */
	return fmax(threshold / 2.0 + gsl_cdf_ugaussian_Qinv(alpha / 2.0) * se, threshold) +
	       gsl_cdf_ugaussian_Pinv(power) * se;
}

size_t pp_seq_fixed_n(double alpha, double power, double sigma, double effect, double threshold)
{
	double z, n;

	if (!valid_alpha(alpha) || !valid_alpha(power) || !isfinite(sigma) || sigma <= 0.0 ||
	    !isfinite(effect) || !isfinite(threshold) || threshold < 0.0 || effect <= threshold)
		return 0;
	pp_stats_init();
	z = gsl_cdf_ugaussian_Qinv(alpha / 2.0) + gsl_cdf_ugaussian_Pinv(power);
	n = ceil(2.0 * sigma * sigma * z * z / ((effect - threshold) * (effect - threshold)));
	return n < 2.0 ? 2 : n > 1e15 ? 0 : (size_t)n;
}

double pp_seq_runs_to_decide(double centre, double half, double threshold, bool one_sided, size_t n)
{
	double c, dist, runs;

	if (!isfinite(centre) || !isfinite(half) || half < 0.0 || !isfinite(threshold) ||
	    threshold < 0.0 || n < 2)
		return NAN;
	/*
	 * A centre at or beyond the threshold settles once the interval clears
	 * half of it (SLOWER, FASTER), one within once the interval is inside
	 * it (one-sided: below +T; FASTER's -T is further).
	 */
	c = one_sided ? centre : fabs(centre);
	dist = c >= threshold ? c - threshold / 2.0 : threshold - c;
	if (dist <= 0.0)
		return INFINITY;
	runs = ceil((double)n * (half / dist) * (half / dist));
	return runs < (double)n ? (double)n : runs;
}

double pp_seq_child_alpha(double parent_alpha, size_t nsiblings)
{
	if (!valid_alpha(parent_alpha) || nsiblings == 0)
		return NAN;
	return parent_alpha / (double)nsiblings;
}

const char *pp_seq_verdict_name(enum pp_seq_verdict v)
{
	switch (v) {
	case PP_SEQ_CONTINUE:
		return "continue";
	case PP_SEQ_SLOWER:
		return "slower";
	case PP_SEQ_FASTER:
		return "faster";
	case PP_SEQ_SAME:
		return "same";
	case PP_SEQ_NOT_SLOWER:
		return "not slower";
	case PP_SEQ_SLOWER_BELOW:
		return "slower below threshold";
	case PP_SEQ_FASTER_BELOW:
		return "faster below threshold";
	case PP_SEQ_UNDECIDED:
		return "undecided";
	}
	return "?";
}

static double min_of(const double *v, size_t n)
{
	double m = v[0];

	for (size_t i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static double max_of(const double *v, size_t n)
{
	double m = v[0];

	for (size_t i = 1; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/*
 * The interval of y - x at level 1 - @a, from independent samples or, with
 * @d (the pairs' differences y[i] - x[i]), from the pairs.  The rank tests' normal
 * approximation (ties, or 50 values and more) puts an end it cannot reach
 * at the most extreme difference, which holds no level: that side is left
 * open.
 */
static int look_interval(enum pp_test test, const double *d, const double *x, size_t nx,
			 const double *y, size_t ny, double a, struct pp_interval *iv)
{
	struct pp_comparison c;
	double lo, hi;
	int err = d ? pp_compare_diffs(test, d, nx, 1.0 - a, &c)
		    : pp_compare(test, x, nx, y, ny, 1.0 - a, &c);

	if (err)
		return err;
	*iv = c.diff;
	if (test != PP_TEST_MANN_WHITNEY || c.exact)
		return 0;
	lo = d ? min_of(d, nx) : min_of(y, ny) - max_of(x, nx);
	hi = d ? max_of(d, nx) : max_of(y, ny) - min_of(x, nx);
	if (lo < hi && iv->low <= lo)
		iv->low = -INFINITY;
	if (lo < hi && iv->high >= hi)
		iv->high = INFINITY;
	return 0;
}

/*
 * Shown within the threshold first (for a one-sided design FASTER beyond -T
 * first, and below +T is enough), then shown a difference of at least T: a
 * centre at T or beyond with the interval clear of T/2.  A true difference
 * of T/2 or less is SLOWER only through an interval that misses it, and one
 * of T or more within the threshold only through one that misses it too.
 */
enum pp_seq_verdict pp_seq_verdict_of(const struct pp_interval *iv, double thr, bool one_sided)
{
	double lo = iv->low, hi = iv->high, c = iv->centre;

	if (one_sided && hi < -thr)
		return PP_SEQ_FASTER;
	if (one_sided && hi < thr)
		return lo > 0.0 ? PP_SEQ_SLOWER_BELOW : PP_SEQ_NOT_SLOWER;
	if (!one_sided && hi < thr && lo > -thr)
		return lo > 0.0	  ? PP_SEQ_SLOWER_BELOW
		       : hi < 0.0 ? PP_SEQ_FASTER_BELOW
				  : PP_SEQ_SAME;
	if (c >= thr && lo > thr / 2.0)
		return PP_SEQ_SLOWER;
	if (!one_sided && c <= -thr && hi < -thr / 2.0)
		return PP_SEQ_FASTER;
	return PP_SEQ_CONTINUE;
}

/* Whether pair i's two runs were in the same layout unit, for every pair. */
static bool units_paired(const unsigned *lx, const unsigned *ly, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lx[i] != ly[i])
			return false;
	return true;
}

/*
 * Widen @iv to the union with the layouts' interval at level 1 - @a when
 * both sides' runs are in two layouts or more: the units' (pp_layout_paired)
 * when the runs are paired (@d their differences) and so are their
 * layouts, else the layouts' of
 * each revision (pp_layout_diff).  Its centre stays the runs' estimate.
 * 0, or an error of theirs other than -ENODATA.
 */
static int widen_by_layouts(const double *d, const double *x, const unsigned *lx, size_t nx,
			    const double *y, const unsigned *ly, size_t ny, double a,
			    struct pp_interval *iv)
{
	struct pp_interval l;
	int err;

	if (!lx || !ly)
		return 0;
	if (d && units_paired(lx, ly, nx))
		err = pp_layout_paired(d, lx, nx, 1.0 - a, &l);
	else
		err = pp_layout_diff(x, lx, nx, y, ly, ny, 1.0 - a, &l);
	if (err)
		return err == -ENODATA ? 0 : err;
	iv->low = fmin(iv->low, l.low);
	iv->high = fmax(iv->high, l.high);
	return 0;
}

/* Whether the look can have an interval at level 1 - @a (pp_seq_attainable, paired too). */
static bool attainable(const struct pp_seq_design *d, size_t nx, size_t ny, double a)
{
	if (!d->paired || d->test != PP_TEST_MANN_WHITNEY)
		return pp_seq_attainable(d->test, nx, ny, a);
	/* the signed-rank interval's ends: none when even V = 0 (2^-n) is not rarer than a / 2 */
	return nx >= 2 && valid_alpha(a) &&
	       -(double)nx * log(2.0) < log(a / 2.0 - 10.0 * DBL_EPSILON);
}

size_t pp_seq_first_attainable(const struct pp_seq_design *d)
{
	struct pp_seq_design t;

	if (!d || !valid_design(d))
		return 0;
	pp_stats_init();
	t = *d;
	/* the first look's alpha depends on the number of looks, which depends on its size */
	for (size_t n = d->first; 2 * n < d->budget; n++) {
		t.first = n;
		if (attainable(&t, n, n, pp_seq_spent_after(&t, 1)))
			return n;
	}
	return d->first;
}

/* The look's interval at level 1 - @a, the runs' and the layouts' (pp_seq_interval). */
static int interval_at(enum pp_test test, bool paired, const double *x, const unsigned *lx,
		       size_t nx, const double *y, const unsigned *ly, size_t ny, double a,
		       struct pp_interval *out)
{
	double *diffs = NULL;
	int err;

	if (paired) {
		diffs = malloc(nx * sizeof(*diffs));
		if (!diffs)
			return -ENOMEM;
		for (size_t i = 0; i < nx; i++)
			diffs[i] = y[i] - x[i];
	}
	err = look_interval(test, diffs, x, nx, y, ny, a, out);
	if (!err)
		err = widen_by_layouts(diffs, x, lx, nx, y, ly, ny, a, out);
	free(diffs);
	return err;
}

int pp_seq_interval(enum pp_test test, bool paired, const double *x, const unsigned *lx, size_t nx,
		    const double *y, const unsigned *ly, size_t ny, double confidence,
		    struct pp_interval *out)
{
	struct pp_seq_design d = {.test = test, .paired = paired};
	double a = 1.0 - confidence;

	if (!x || !y || !out || nx < 2 || ny < 2 || !valid_alpha(a) || (paired && nx != ny) ||
	    (test != PP_TEST_WELCH && test != PP_TEST_MANN_WHITNEY) || !pp_all_finite(x, nx) ||
	    !pp_all_finite(y, ny))
		return -EINVAL;
	pp_stats_init();
	if (!attainable(&d, nx, ny, a))
		return -ERANGE;
	return interval_at(test, paired, x, lx, nx, y, ly, ny, a, out);
}

int pp_seq_look(const struct pp_seq_design *d, struct pp_seq_state *st, const double *x, size_t nx,
		const double *y, size_t ny, struct pp_seq_result *out)
{
	return pp_seq_look_in(d, st, x, NULL, nx, y, NULL, ny, out);
}

int pp_seq_look_in(const struct pp_seq_design *d, struct pp_seq_state *st, const double *x,
		   const unsigned *lx, size_t nx, const double *y, const unsigned *ly, size_t ny,
		   struct pp_seq_result *out)
{
	size_t runs = nx + ny;
	double a;
	bool last;
	int err;

	if (!d || !st || !x || !y || !out || !valid_design(d) || nx < 2 || ny < 2 || st->finished ||
	    (st->looks && runs <= st->runs) || !pp_all_finite(x, nx) || !pp_all_finite(y, ny) ||
	    (d->paired && nx != ny))
		return -EINVAL;
	pp_stats_init();
	last = runs >= d->budget;
	/* Whatever earlier looks could not use is still there (unused alpha is never lost). */
	a = (last ? d->alpha : pp_seq_spent_after(d, st->looks + 1)) - st->spent;
	if (!isfinite(a))
		return -EDOM;

	st->looks++;
	st->runs = runs;
	out->look = st->looks;
	out->runs = runs;
	out->alpha_look = 0.0;
	out->confidence = 0.0;
	out->diff.centre = NAN;
	out->diff.low = -INFINITY;
	out->diff.high = INFINITY;
	out->mde = INFINITY;
	out->verdict = PP_SEQ_CONTINUE;
	if (a >= PP_SEQ_MIN_ALPHA && attainable(d, nx, ny, a)) {
		err = interval_at(d->test, d->paired, x, lx, nx, y, ly, ny, a, &out->diff);
		if (err)
			return err;
		st->spent += a;
		out->alpha_look = a;
		out->confidence = 1.0 - a;
		out->verdict = pp_seq_verdict_of(&out->diff, d->threshold, d->one_sided);
		if (isfinite(out->diff.low) && isfinite(out->diff.high))
			out->mde = pp_seq_mde(a, PP_SEQ_MDE_POWER,
					      (out->diff.high - out->diff.low) /
						  (2.0 * gsl_cdf_ugaussian_Qinv(a / 2.0)),
					      d->threshold);
	}
	if (out->verdict == PP_SEQ_CONTINUE && last)
		out->verdict = PP_SEQ_UNDECIDED;
	out->spent = st->spent;
	st->finished = out->verdict != PP_SEQ_CONTINUE;
	return 0;
}
