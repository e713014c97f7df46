/* SPDX-License-Identifier: MIT */
/*
 * seq_sim.h - one simulated comparison run through the real sequential rule
 * (pp_seq_look): looks at the design's schedule (pp_seq_look_size), previous
 * then current, until a verdict.  Shared by test_seq.c and bench/seq_runs.c.
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
	SEQ_EMPIRICAL, /* drawn from seq_empirical[], real run times standardised to sd 1 */
};

/* The values SEQ_EMPIRICAL draws from (with replacement), set by the program. */
static const double *seq_empirical;
static size_t seq_nempirical;

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
	case SEQ_EMPIRICAL:
		return seq_empirical[gsl_rng_uniform_int(r, seq_nempirical)];
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

/* Values [from, to) of both series: true difference @shift, noise scaled by @scale. */
static inline void seq_fill(const gsl_rng *r, enum seq_noise noise, double scale, double shift,
			    double *x, double *y, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		x[i] = 100.0 + scale * seq_draw(r, noise);
		y[i] = 100.0 + shift + scale * seq_draw(r, noise);
	}
}

/*
 * Run one comparison with true difference @shift (current - previous) and
 * noise scaled by @scale; @x and @y hold d->budget / 2 values each.  @stop,
 * when given, may end it earlier at a look the rule continues from (it sets
 * the verdict and returns true): a variant of the rule that stops wherever
 * the rule stops, and more.
 */
static inline struct seq_outcome
seq_simulate_until(const gsl_rng *r, const struct pp_seq_design *d, enum seq_noise noise,
		   double scale, double shift, double *x, double *y,
		   bool (*stop)(const struct pp_seq_design *d, struct pp_seq_result *res))
{
	struct pp_seq_state st = {0};
	struct seq_outcome o = {.min_confidence = 1.0};
	size_t n = 0;

	for (unsigned k = 1;; k++) {
		size_t want = pp_seq_look_size(d, k);

		seq_fill(r, noise, scale, shift, x, y, n, want);
		n = want;
		o.err = pp_seq_look(d, &st, x, n, y, n, &o.last);
		if (o.err)
			return o;
		if (o.last.alpha_look > 0.0 && o.last.confidence < o.min_confidence)
			o.min_confidence = o.last.confidence;
		if (o.last.verdict == PP_SEQ_SLOWER || o.last.verdict == PP_SEQ_FASTER ||
		    (stop &&
		     (o.last.verdict == PP_SEQ_CONTINUE || o.last.verdict == PP_SEQ_UNDECIDED) &&
		     stop(d, &o.last)))
			return o;
		if (o.last.verdict != PP_SEQ_CONTINUE)
			return o;
	}
}

static inline struct seq_outcome seq_simulate(const gsl_rng *r, const struct pp_seq_design *d,
					      enum seq_noise noise, double scale, double shift,
					      double *x, double *y)
{
	return seq_simulate_until(r, d, noise, scale, shift, x, y, NULL);
}

#endif /* PP_TEST_STATS_SEQ_SIM_H */
