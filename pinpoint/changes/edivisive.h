/* SPDX-License-Identifier: MIT */
/*
 * edivisive.h - change points of a short noisy series: E-Divisive means,
 * each candidate kept when Student's t-test between the segments either
 * side of it rejects equal means (edivisive.c says why and where from).
 */
#ifndef PINPOINT_EDIVISIVE_H
#define PINPOINT_EDIVISIVE_H

#include <stddef.h>

struct pp_cpd_params {
	double p_max;	   /* a change point's two-sided p-value is at most this */
	double confidence; /* of the size's interval, 0..1 */
	size_t min_seg;	   /* points on either side of a change point, at least (>= 2) */
};

/* Hunter's defaults (edivisive.c): p <= 0.001, 95 % intervals, 3 points a side. */
#define PP_CPD_DEFAULTS                                                                            \
	{                                                                                          \
		.p_max = 0.001, .confidence = 0.95, .min_seg = 3                                   \
	}

/* A change point at x[index]: the means of x[lo, index) and x[index, hi) differ. */
struct pp_cp {
	size_t index;		/* the first point after the change */
	size_t lo, hi;		/* the segments either side: its neighbours, or the ends */
	double mean[2], sd[2];	/* of the segment before (0) and after (1) */
	double diff, low, high; /* mean after - mean before, and its interval */
	double t, df, p;	/* Student's t, its degrees of freedom, the two-sided p */
	double q;		/* the E-Divisive statistic that chose it */
};

/*
 * The E-Divisive statistic (alpha = 1) of splitting x[s, e) at @t:
 * Q = mn/(m+n) * (2/(mn) sum|X-Y| - sum|X-X'|/C(m,2) - sum|Y-Y'|/C(n,2)),
 * X = x[s, t), Y = x[t, e), m and n their sizes (2 or more each).
 */
double pp_edivisive_q(const double *x, size_t s, size_t t, size_t e);

/*
 * The change points of x[0, n) (finite values), in *@out by index
 * (malloc'ed, NULL when none): their number, or -ENOMEM / -EINVAL.
 */
long pp_edivisive(const double *x, size_t n, const struct pp_cpd_params *par, struct pp_cp **out);

/*
 * Student's t-test (pooled variance) between x[lo, at) and x[at, hi) into
 * @cp, with the interval of the difference of means at @confidence.
 */
void pp_cpd_ttest(const double *x, size_t lo, size_t at, size_t hi, double confidence,
		  struct pp_cp *cp);

#endif /* PINPOINT_EDIVISIVE_H */
