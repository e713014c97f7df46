// SPDX-License-Identifier: MIT
/*
 * test_rates.c - how often each test calls a difference significant.
 *
 * 2000 pairs of samples of 15 values from one distribution must be flagged
 * at 95% confidence in 2%..8% of the cases (the nominal 5% with room for
 * sampling error and the discreteness of the rank test), and a shift of one
 * and a half standard deviations must be found most of the time.  The
 * generator's seed is fixed, so the counts are reproducible.
 */
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/stats.h"
#include "check.h"

#define PAIRS 2000
#define N 15

typedef double (*draw_fn)(const gsl_rng *r);

static double draw_normal(const gsl_rng *r)
{
	return 100.0 + gsl_ran_gaussian(r, 5.0);
}

/* Skewed and heavy-tailed, as run times are. */
static double draw_lognormal(const gsl_rng *r)
{
	return gsl_ran_lognormal(r, 4.0, 0.6);
}

static double rate(gsl_rng *r, enum pp_test test, draw_fn draw, double shift)
{
	double x[N], y[N];
	int hits = 0, errors = 0;

	for (int k = 0; k < PAIRS; k++) {
		struct pp_comparison c;

		for (int i = 0; i < N; i++) {
			x[i] = draw(r);
			y[i] = draw(r) + shift;
		}
		if (pp_compare(test, x, N, y, N, 0.95, &c))
			errors++;
		else
			hits += c.significant;
	}
	CHECK(errors == 0, "%d comparisons failed", errors);
	return (double)hits / PAIRS;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		draw_fn draw;
	} dists[] = {{"normal", draw_normal}, {"lognormal", draw_lognormal}};
	static const struct {
		const char *name;
		enum pp_test test;
	} tests[] = {{"mann-whitney", PP_TEST_MANN_WHITNEY}, {"welch", PP_TEST_WELCH}};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	(void)argc;
	if (!r)
		return 2;
	gsl_rng_set(r, 20240531);
	for (size_t d = 0; d < 2; d++) {
		for (size_t t = 0; t < 2; t++) {
			double fp = rate(r, tests[t].test, dists[d].draw, 0.0);

			printf("%s, %s: %.2f%% false positives\n", tests[t].name, dists[d].name,
			       100 * fp);
			CHECK(fp >= 0.02 && fp <= 0.08, "%s on %s: false-positive rate %.3f",
			      tests[t].name, dists[d].name, fp);
		}
	}
	/* Power on normal data shifted by 1.5 sd: about 0.9 for both at n = 15. */
	for (size_t t = 0; t < 2; t++) {
		double pw = rate(r, tests[t].test, draw_normal, 7.5);

		printf("%s, normal shifted by 1.5 sd: %.2f%% found\n", tests[t].name, 100 * pw);
		CHECK(pw >= 0.75, "%s: power %.3f", tests[t].name, pw);
	}
	gsl_rng_free(r);
	return report(argv[0]);
}
