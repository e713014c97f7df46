// SPDX-License-Identifier: MIT
/*
 * seq_runs.c - runs used by the sequential decision (core/stats_seq.c)
 * against the fixed-sample minimum, for a grid of true shifts and noise
 * levels.  Figures, not a test:
 *
 *   cmake --build <build> --target bench-seq      (or run bench-seq-runs [TRIALS])
 *
 * Each cell simulates TRIALS comparisons (fixed seed) in rounds of ROUND
 * values per series with a budget of BUDGET runs, 95% confidence, threshold
 * THRESHOLD ns, and prints the mean runs used (both series), the fixed-sample
 * minimum for the same alpha and 80% power (pp_seq_fixed_n: a z interval
 * with the noise's sd known clear of 0, SLOWER's boundary; both series), their ratio (the target is
 * <= 2), and how the comparisons ended.  The fixed-sample minimum is for a known sd and a test of
 * means: with outliers the rank test can beat it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "seq_sim.h"

#define ROUND 10
#define BUDGET 1000
#define THRESHOLD 0.2
#define ALPHA 0.05

static const char *noise_name[] = {"normal", "lognormal", "outliers"};

/* The sd of the unscaled noise (the outliers' mixture: 1 + 0.02 * 0.98 * 20^2). */
static double noise_sd(enum seq_noise noise)
{
	return noise == SEQ_OUTLIERS ? sqrt(1.0 + 0.02 * 0.98 * 400.0) : 1.0;
}

static void cell(gsl_rng *r, enum pp_test test, enum pp_spending sp, enum seq_noise noise,
		 double scale, double shift, int trials, double *x, double *y)
{
	struct pp_seq_design d = {
	    .test = test, .alpha = ALPHA, .threshold = THRESHOLD, .budget = BUDGET, .spending = sp};
	int count[PP_SEQ_UNDECIDED + 1] = {0};
	double runs = 0.0;
	size_t fixed = pp_seq_fixed_n(ALPHA, PP_SEQ_MDE_POWER, scale * noise_sd(noise), shift, 0.0);

	for (int k = 0; k < trials; k++) {
		struct seq_outcome o = seq_simulate(r, &d, noise, scale, shift, ROUND, x, y);

		if (o.err) {
			fprintf(stderr, "seq_runs: pp_seq_look failed (%d)\n", o.err);
			exit(1);
		}
		runs += (double)o.last.runs;
		count[o.last.verdict]++;
	}
	runs /= trials;
	printf("%-12s %-6s %-9s %4.1f %5.2f %6zu %7.1f ",
	       test == PP_TEST_WELCH ? "welch" : "mann-whitney", pp_seq_spending_name(sp),
	       noise_name[noise], scale, shift, 2 * fixed, runs);
	if (fixed && 2 * fixed <= BUDGET)
		printf("%6.2f %6.2f", runs / (2.0 * (double)fixed),
		       runs / (double)(2 * fixed > 2 * ROUND ? 2 * fixed : 2 * ROUND));
	else
		printf("%6s %6s", "-", "-");
	printf(" %6.1f %5.1f %5.1f %5.1f\n", 100.0 * count[PP_SEQ_SLOWER] / trials,
	       100.0 * count[PP_SEQ_SAME] / trials, 100.0 * count[PP_SEQ_UNDECIDED] / trials,
	       100.0 * count[PP_SEQ_FASTER] / trials);
}

int main(int argc, char **argv)
{
	static const double shifts[] = {0.5, 1.0, 2.0};
	static const double scales[] = {0.5, 1.0, 2.0};
	int trials = argc > 1 ? atoi(argv[1]) : 200;
	double *x = malloc(BUDGET * sizeof(*x)), *y = malloc(BUDGET * sizeof(*y));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (!x || !y || !r || trials < 1) {
		fprintf(stderr, "usage: bench-seq-runs [TRIALS >= 1]\n");
		return 2;
	}
	gsl_rng_set(r, 20261123);
	printf("sequential rule: alpha %.2f, threshold %.2f ns, rounds of %d per series, "
	       "budget %d runs, %d trials a cell\n",
	       ALPHA, THRESHOLD, ROUND, BUDGET, trials);
	printf("fixed: fixed-sample minimum (runs, both series, 80%% power, known sd); runs: mean "
	       "runs used;\nratio: runs / fixed (target <= 2); ratio1: runs / max(fixed, first "
	       "round); '-': fixed > budget\n\n");
	printf("%-12s %-6s %-9s %4s %5s %6s %7s %6s %6s %6s %5s %5s %5s\n", "test", "spend",
	       "noise", "sd", "shift", "fixed", "runs", "ratio", "ratio1", "slow%", "same%", "und%",
	       "fast%");
	for (int t = 0; t < 2; t++)
		for (int sp = 0; sp < 3; sp++)
			for (int nz = 0; nz < 3; nz++)
				for (size_t s = 0; s < 3; s++)
					for (size_t h = 0; h < 3; h++)
						cell(r, t ? PP_TEST_WELCH : PP_TEST_MANN_WHITNEY,
						     (enum pp_spending)sp, (enum seq_noise)nz,
						     scales[s], shifts[h], trials, x, y);
	gsl_rng_free(r);
	free(x);
	free(y);
	return 0;
}
