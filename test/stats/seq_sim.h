/* SPDX-License-Identifier: MIT */
/*
 * seq_sim.h - one simulated comparison run through the real sequential rule
 * (pp_seq_look): rounds of @round values per series, previous then current,
 * until a verdict.  Shared by test_seq.c and bench/seq_runs.c.
 */
#ifndef PP_TEST_STATS_SEQ_SIM_H
#define PP_TEST_STATS_SEQ_SIM_H

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/stats_seq.h"

/* Noise of the simulated run times: sd 1 when @scale is 1, shifted by the true difference. */
enum seq_noise {
	SEQ_NORMAL,    /* N(0, 1) */
	SEQ_LOGNORMAL, /* lognormal(0, 0.5) scaled to sd 1: skewed, as run times are */
	SEQ_OUTLIERS,  /* N(0, 1), and 2% of the runs 20 sd slower (a busy machine) */
};

/* Standard deviation of lognormal(0, s): sqrt((e^{s^2} - 1) e^{s^2}). */
static inline double seq_lognormal_sd(double s)
{
	return sqrt((exp(s * s) - 1.0) * exp(s * s));
}

static inline double seq_draw(const gsl_rng *r, enum seq_noise noise)
{
	switch (noise) {
	case SEQ_LOGNORMAL:
		return gsl_ran_lognormal(r, 0.0, 0.5) / seq_lognormal_sd(0.5);
	case SEQ_OUTLIERS:
		return gsl_ran_gaussian(r, 1.0) + (gsl_rng_uniform(r) < 0.02 ? 20.0 : 0.0);
	case SEQ_NORMAL:
		break;
	}
	return gsl_ran_gaussian(r, 1.0);
}

struct seq_outcome {
	struct pp_seq_result last;
	double min_confidence; /* lowest level of any interval computed (1 if none) */
	int err;
};

/*
 * Run one comparison with true difference @shift (current - previous) and
 * noise scaled by @scale; @x and @y hold d->budget values each.
 */
static inline struct seq_outcome seq_simulate(const gsl_rng *r, const struct pp_seq_design *d,
					      enum seq_noise noise, double scale, double shift,
					      size_t round, double *x, double *y)
{
	struct pp_seq_state st = {0};
	struct seq_outcome o = {.min_confidence = 1.0};
	size_t n = 0;

	for (;;) {
		size_t want = n + round;

		if (2 * want > d->budget)
			want = d->budget / 2; /* the last round fills the budget */
		for (; n < want; n++) {
			x[n] = 100.0 + scale * seq_draw(r, noise);
			y[n] = 100.0 + shift + scale * seq_draw(r, noise);
		}
		o.err = pp_seq_look(d, &st, x, n, y, n, &o.last);
		if (o.err)
			return o;
		if (o.last.alpha_look > 0.0 && o.last.confidence < o.min_confidence)
			o.min_confidence = o.last.confidence;
		if (o.last.verdict != PP_SEQ_CONTINUE)
			return o;
	}
}

#endif /* PP_TEST_STATS_SEQ_SIM_H */
