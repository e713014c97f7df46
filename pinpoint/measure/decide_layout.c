// SPDX-License-Identifier: MIT
/*
 * decide_layout.c - what the code layouts did to a comparison.
 *
 * With each revision measured in several layouts (layouts.h), a quantity's
 * runs are nested in them: core/stats_nested.c splits each revision's
 * spread into what the layouts add and what runs of one layout vary by.
 * From the layouts' share, the sd of the difference that two single
 * layouts of one revision make, sqrt(between_previous + between_current):
 * a difference no larger than twice that is within what a relink alone can
 * move the quantity by, and when twice that reaches half the threshold (a
 * relink can move it by an amount that matters) the report marks it
 * layout-sensitive (doc/statistics.md, "Code layouts").
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "pinpoint/measure/decide_priv.h"
#include "pinpoint/session/session.h"

void pp_decide_layout(struct pp_quantity *q, size_t n)
{
	double centre = q->cmp.diff.centre;

	q->has_layout = false;
	q->layout_sensitive = false;
	q->layout_sd = NAN;
	if (n < 4 || !q->series[PP_PREV].layout || !q->series[PP_CUR].layout)
		return;
	for (int r = 0; r < 2; r++)
		if (pp_layout_components(q->series[r].v, q->series[r].layout, n, &q->layout[r]))
			return;
	q->has_layout = true;
	q->layout_sd = sqrt(q->layout[PP_PREV].between + q->layout[PP_CUR].between);
	q->layout_sensitive = isfinite(centre) && 2 * q->layout_sd >= q->threshold_ns / 2 &&
			      fabs(centre) <= 2 * q->layout_sd;
}

/*
 * A lower bound of the between-layout variance of @v: the method of
 * moments with the mean square between layouts divided by the upper 0.1 %
 * point of its F distribution under no layout effect, (MSB / F - MSW) / n0,
 * at least 0.  With a few runs a layout the point estimate alone is mostly
 * noise; this keeps a layout effect that is not there from stopping anything.
 */
static double between_low(const struct pp_layout_var *v)
{
	double f =
	    gsl_cdf_fdist_Pinv(0.999, (double)(v->layouts - 1), (double)(v->runs - v->layouts));
	double b = isfinite(f) && f > 0 && v->n0 > 0 ? (v->msb / f - v->within) / v->n0 : 0;

	return b > 0 ? b : 0;
}

/* Whether a look with interval centre @c and half-width @half can give a verdict at @t. */
static bool within_reach(double c, double half, double t, bool one_sided)
{
	if (c + half < t && (one_sided || c - half > -t))
		return true; /* "not slower", "the same", or either below the threshold */
	if (c >= t && c - half > t / 2)
		return true; /* slower */
	if (c <= -t && c + half < (one_sided ? -t : -t / 2))
		return true; /* faster */
	return false;	     /* none, e.g. for an estimate between 0 and T whose floor reaches T */
}

/*
 * The half-width the layouts' interval cannot get below with @to[r]
 * layouts of revision r, at the level @a, from the floor's terms @term[2]
 * measured with @had[2] layouts (each term: a between-layout variance over
 * its count).  The quantile is the look's own: Student's t on the layout
 * units' locations (k - 1 degrees of freedom) for pairs that share their
 * layouts (@shared, as many of each), else Welch's on each revision's
 * (Welch-Satterthwaite's degrees of freedom of the two terms).  z instead
 * of t made the floor too low by t/z (1.13 at 16 layouts, 95 %): a
 * comparison no look could decide went on to its budget.
 */
static double floor_half(const double *term, const unsigned *had, const unsigned *to, bool shared,
			 double a)
{
	double floor = 0, den = 0, df;

	for (int r = 0; r < 2; r++) {
		double t = term[r] * (double)had[r] / (double)to[r];

		floor += t;
		den += t * t / (double)(to[r] - 1);
	}
	if (shared)
		df = to[0] - 1;
	else
		df = den > 0 ? floor * floor / den : (double)(to[0] < to[1] ? to[0] : to[1]) - 1;
	return gsl_cdf_tdist_Qinv(a / 2, df) * sqrt(floor);
}

/* Whether the pairs of @q's first @n runs share their layout index: units of a layout of each. */
static bool units_shared(const struct pp_quantity *q, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (q->series[PP_PREV].layout[i] != q->series[PP_CUR].layout[i])
			return false;
	return true;
}

/*
 * The floor's term of values @x[0..@n) in layouts @layout: the lower bound
 * of their between-layout variance over the layouts' count *@k, at *@term.
 * 0, or -errno (fewer than two layouts, or fewer than four values a layout).
 */
static int layout_term(const double *x, const unsigned *layout, size_t n, double *term, unsigned *k)
{
	struct pp_layout_var v;
	int err = pp_layout_components(x, layout, n, &v);

	if (!err && (n < 4 * v.layouts || v.layouts < 2))
		err = -ENODATA;
	if (err)
		return err;
	*k = (unsigned)v.layouts;
	*term = between_low(&v) / (double)v.layouts;
	return 0;
}

/* layout_term() of the pairs' differences by unit (pp_layout_paired's units). */
static int unit_term(const struct pp_quantity *q, size_t n, double *term, unsigned *k)
{
	double *dv = malloc((n ? n : 1) * sizeof(*dv));
	int err;

	if (!dv)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		dv[i] = q->series[PP_CUR].v[i] - q->series[PP_PREV].v[i];
	err = layout_term(dv, q->series[PP_PREV].layout, n, term, k);
	free(dv);
	return err;
}

/* The layouts @k grows to with @later new ones, at most @cap (never fewer than @k). */
static unsigned reach(unsigned k, unsigned later, unsigned cap)
{
	unsigned to = k + later < k ? UINT_MAX : k + later; /* (overflow) */

	return to > cap ? (cap > k ? cap : k) : to;
}

/*
 * Whether @q's layouts, not its runs, keep it from a verdict after a look
 * of @n runs a revision that decided nothing.  The layouts' interval never
 * gets narrower than its between-layout part, sd sqrt(b_p / k_p + b_c /
 * k_c), however many runs each layout gets; by the schedule (ahead.c) the
 * rest of its budget brings @later new layouts, so k can reach k + @later,
 * at most the session's @cap.  With a lower bound of each b, at the level
 * of all the alpha @q has left and its estimate where it is now, when no
 * verdict is within reach even with those, nothing its budget can buy
 * decides it.  Paired, with the pairs in layout k of each revision (the
 * units of pp_layout_paired), the floor is the units' own: the between-
 * unit variance of the pairs' differences, which holds what the layouts
 * move both revisions by (one seed for layout k of both: both.c) no more.
 * Asked only from the fourth look on, with four runs a layout or more;
 * stopping early is never a claim, so this cannot make a wrong verdict more
 * likely.  q->layout_floor: the half-width at k + @later.
 */
bool pp_decide_layouts_block(struct pp_quantity *q, const struct pp_decision *dec, size_t n,
			     unsigned later, unsigned cap)
{
	const struct pp_seq_design *d = &dec->design;
	double c = dec->look.diff.centre, t = d->threshold, a = d->alpha - dec->seq.spent;
	double term[2];
	unsigned k[2], to[2];
	bool shared;

	if (dec->seq.looks < 4 || !(a > 0) || !isfinite(c) || !q->series[PP_PREV].layout ||
	    !q->series[PP_CUR].layout)
		return false;
	if (d->paired && units_shared(q, n)) {
		/* the units' differences: what the layouts move both revisions by leaves them */
		if (unit_term(q, n, &term[0], &k[0]))
			return false;
		term[1] = 0;
		k[1] = k[0];
		shared = true;
	} else {
		for (int r = 0; r < 2; r++)
			if (layout_term(q->series[r].v, q->series[r].layout, n, &term[r], &k[r]))
				return false;
		shared = d->paired && k[0] == k[1];
	}
	for (int r = 0; r < 2; r++)
		to[r] = reach(k[r], later, cap);
	q->layout_floor = floor_half(term, k, to, shared, a);
	return !within_reach(c, q->layout_floor, t, d->one_sided);
}
