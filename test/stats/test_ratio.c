// SPDX-License-Identifier: MIT
/*
 * test_ratio.c - the share intervals (pp_ratio_interval, pp_ratio_paired,
 * core/stats_ratio.c):
 * reference values from scipy (ratio_fixtures.txt, written by
 * make_ratio_fixtures.py, which finds the ends by root-finding, not by the
 * closed form), bad input, and the coverage of the interval by simulation:
 * a part and its whole measured in the same runs, the part's true share
 * known, 4000 sessions at 95 %; the count of intervals that miss it must
 * stay within the binomial 99.9 % limit at 5 % (printed) and above the
 * lower one (the interval is not far too wide either).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/stats.h"

#include "check.h"

#define MAXN 128

static double parse(const char *tok)
{
	if (!strcmp(tok, "inf"))
		return INFINITY;
	if (!strcmp(tok, "-inf"))
		return -INFINITY;
	return strtod(tok, NULL);
}

/* @n values of @save's line into @v. */
static void values(double *v, size_t n, char **save)
{
	for (size_t i = 0; i < n; i++)
		v[i] = parse(strtok_r(NULL, " \n", save));
}

/* One "ratio NX NY CONF XA... XB... YA... YB..." line (pp_ratio_interval), into @got. */
static int ratio_line(char **save, double *want, struct pp_interval *got)
{
	double xa[MAXN], xb[MAXN], ya[MAXN], yb[MAXN], conf;
	size_t nx = strtoul(strtok_r(NULL, " \n", save), NULL, 10);
	size_t ny = strtoul(strtok_r(NULL, " \n", save), NULL, 10);

	conf = strtod(strtok_r(NULL, " \n", save), NULL);
	if (nx > MAXN || ny > MAXN)
		return -E2BIG;
	values(xa, nx, save);
	values(xb, nx, save);
	values(ya, ny, save);
	values(yb, ny, save);
	values(want, 3, save);
	return pp_ratio_interval(xa, xb, nx, ya, yb, ny, conf, got);
}

/* One "paired N K CONF A... B... UNIT..." line (pp_ratio_paired), into @got. */
static int paired_line(char **save, double *want, struct pp_interval *got)
{
	double a[MAXN], b[MAXN], conf;
	unsigned unit[MAXN];
	size_t np = strtoul(strtok_r(NULL, " \n", save), NULL, 10);
	size_t k = strtoul(strtok_r(NULL, " \n", save), NULL, 10);

	conf = strtod(strtok_r(NULL, " \n", save), NULL);
	if (np > MAXN)
		return -E2BIG;
	values(a, np, save);
	values(b, np, save);
	for (size_t i = 0; i < np; i++)
		unit[i] = (unsigned)strtoul(strtok_r(NULL, " \n", save), NULL, 10);
	values(want, 3, save);
	return pp_ratio_paired(a, b, k ? unit : NULL, np, conf, got);
}

/* Every fixture line, each ending CENTRE LOW HIGH (inf for an open end). */
static void check_fixtures(const char *path)
{
	char line[65536];
	FILE *f = fopen(path, "r");
	int n[2] = {0, 0};

	CHECK(f != NULL, "cannot open %s", path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *save, *kind = strtok_r(line, " \n", &save), name[32];
		struct pp_interval got;
		double want[3];
		int paired, err;

		if (!kind || (strcmp(kind, "ratio") && strcmp(kind, "paired")))
			continue;
		paired = !strcmp(kind, "paired");
		err = paired ? paired_line(&save, want, &got) : ratio_line(&save, want, &got);
		snprintf(name, sizeof(name), "%s %d", kind, ++n[paired]);
		CHECK(!err, "%s failed: %d", name, err);
		if (err)
			continue;
		CHECK_CLOSE(name, "centre", got.centre, want[0], 1e-9, 0);
		CHECK_CLOSE(name, "low", got.low, want[1], 1e-7, 1e-12);
		CHECK_CLOSE(name, "high", got.high, want[2], 1e-7, 1e-12);
	}
	fclose(f);
	CHECK(n[0] >= 5 && n[1] >= 5, "%d ratio and %d paired fixtures read from %s", n[0], n[1],
	      path);
}

static void check_errors(void)
{
	double a[3] = {1, 2, 3}, b[3] = {2, 3, 5}, bad[3] = {1, NAN, 3};
	struct pp_interval iv;

	CHECK(pp_ratio_interval(a, b, 1, a, b, 3, 0.95, &iv) == -EINVAL, "one run accepted");
	CHECK(pp_ratio_interval(a, b, 3, a, b, 3, 1.0, &iv) == -EINVAL, "confidence 1 accepted");
	CHECK(pp_ratio_interval(a, bad, 3, a, b, 3, 0.95, &iv) == -EINVAL, "NaN accepted");
	CHECK(pp_ratio_interval(NULL, b, 3, a, b, 3, 0.95, &iv) == -EINVAL, "NULL accepted");
	CHECK(pp_ratio_paired(a, b, NULL, 1, 0.95, &iv) == -EINVAL, "one pair accepted");
	CHECK(pp_ratio_paired(a, bad, NULL, 3, 0.95, &iv) == -EINVAL, "paired NaN accepted");
	CHECK(pp_ratio_paired(a, b, NULL, 3, 0.0, &iv) == -EINVAL, "confidence 0 accepted");
}

/* Smallest k with P(X > k) <= 0.001, X ~ Binomial(n, p). */
static unsigned upper_limit(double p, unsigned n)
{
	unsigned k = 0;

	while (k < n && gsl_cdf_binomial_Q(k, p, n) > 0.001)
		k++;
	return k;
}

/* Largest k with P(X < k) <= 0.001. */
static unsigned lower_limit(double p, unsigned n)
{
	unsigned k = 0;

	while (k < n && gsl_cdf_binomial_P(k, p, n) <= 0.001)
		k++;
	return k;
}

/*
 * A whole b = a + r; the part a shifts by 2 and the rest r by 3 between the
 * revisions (true share 0.4), a run's noise shared by the part and the
 * whole as in real runs (a run-level factor), 20 and 20 runs.
 */
static void check_coverage(void)
{
	const unsigned sessions = 4000, n = 20;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned miss = 0, open = 0;
	unsigned hi = upper_limit(0.05, sessions), lo = lower_limit(0.05, sessions);

	gsl_rng_set(rng, 42);
	for (unsigned k = 0; k < sessions; k++) {
		double xa[20], xb[20], ya[20], yb[20];
		struct pp_interval iv;

		for (unsigned i = 0; i < n; i++) {
			double run = gsl_ran_gaussian(rng, 0.8); /* a slow run slows both */

			xa[i] = 10 + run + gsl_ran_gaussian(rng, 1.0);
			xb[i] = xa[i] + 20 + run + gsl_ran_gaussian(rng, 1.0);
			run = gsl_ran_gaussian(rng, 0.8);
			ya[i] = 12 + run + gsl_ran_gaussian(rng, 1.0);
			yb[i] = ya[i] + 23 + run + gsl_ran_gaussian(rng, 1.0);
		}
		if (pp_ratio_interval(xa, xb, n, ya, yb, n, 0.95, &iv)) {
			CHECK(0, "session %u: pp_ratio_interval failed", k);
			break;
		}
		if (isinf(iv.low) || isinf(iv.high))
			open++;
		if (!(iv.low <= 0.4 && 0.4 <= iv.high))
			miss++;
	}
	printf("coverage: %u of %u intervals miss the true share (limits %u..%u at 5%%), %u open\n",
	       miss, sessions, lo, hi, open);
	CHECK(miss <= hi && miss >= lo, "%u of %u intervals miss the true share", miss, sessions);
	gsl_rng_free(rng);
}

/*
 * Pairs: each pair's two runs share a run effect far larger than the noise
 * (what the paired design cancels), the part shifts by 2 and the rest by 3
 * (true share 0.4), 16 pairs in 8 layout units each with its own effect on
 * either revision; the union with the units' set must still cover at 95 %
 * at least (it may cover more: printed), and the pairs' set alone must
 * cover within the binomial limits when there are no unit effects.
 */
static void check_paired_coverage(void)
{
	const unsigned sessions = 4000, n = 16;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned miss[2] = {0, 0};
	unsigned hi = upper_limit(0.05, sessions), lo = lower_limit(0.05, sessions);

	gsl_rng_set(rng, 43);
	for (unsigned k = 0; k < sessions; k++) {
		for (int with_units = 0; with_units < 2; with_units++) {
			double a[16], b[16], ua[8], ub[8];
			unsigned unit[16];
			struct pp_interval iv;

			for (unsigned u = 0; u < 8; u++) {
				ua[u] = with_units ? gsl_ran_gaussian(rng, 0.5) : 0;
				ub[u] = with_units ? gsl_ran_gaussian(rng, 0.5) : 0;
			}
			for (unsigned i = 0; i < n; i++) {
				double run = gsl_ran_gaussian(rng, 5.0); /* cancels in the pair */
				double xa = 10 + run + gsl_ran_gaussian(rng, 1.0);
				double xb = xa + 20 + gsl_ran_gaussian(rng, 1.0);
				double ya = 12 + run + gsl_ran_gaussian(rng, 1.0) + ua[i % 8];
				double yb = ya + 23 + gsl_ran_gaussian(rng, 1.0) + ub[i % 8];

				unit[i] = i % 8;
				a[i] = ya - xa;
				b[i] = yb - xb;
			}
			if (pp_ratio_paired(a, b, with_units ? unit : NULL, n, 0.95, &iv)) {
				CHECK(0, "session %u: pp_ratio_paired failed", k);
				goto out;
			}
			if (!(iv.low <= 0.4 && 0.4 <= iv.high))
				miss[with_units]++;
		}
	}
	printf("paired coverage: %u of %u pairs' intervals miss the true share (limits %u..%u), "
	       "%u with layout units\n",
	       miss[0], sessions, lo, hi, miss[1]);
	CHECK(miss[0] <= hi && miss[0] >= lo, "%u of %u paired intervals miss", miss[0], sessions);
	CHECK(miss[1] <= hi, "%u of %u intervals with layout units miss", miss[1], sessions);
out:
	gsl_rng_free(rng);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s RATIO_FIXTURES\n", argv[0]);
		return 2;
	}
	check_fixtures(argv[1]);
	check_errors();
	check_coverage();
	check_paired_coverage();
	return report("test_ratio");
}
