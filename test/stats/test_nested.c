// SPDX-License-Identifier: MIT
/*
 * test_nested.c - runs nested in code layouts (core/stats_nested.c):
 * pp_layout_diff against scipy's Welch test (nested_fixtures.txt, written by
 * make_nested_fixtures.py, which finds the interval's ends by root-finding
 * on scipy's p-value), bad input, and by simulation with a known layout
 * variance: pp_layout_components recovers the between- and within-layout
 * variances on average (the method of moments is unbiased), and in A/A
 * sessions whose layouts move the program as much as its runs do, the
 * layout interval at 95 % claims a difference within the binomial 99.9 %
 * limits of 5 % (printed) while an interval that takes the runs as
 * independent (Welch on the runs) claims one far more often; with runs a
 * burst made slow the same holds, the interval is narrower than Welch's on
 * the plain layout means, and it moves with a shift exactly.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/stats.h"

#include "check.h"

#define MAXN 256

static int read_side(char **save, size_t n, unsigned *lay, double *x)
{
	for (size_t i = 0; i < n; i++) {
		char *t = strtok_r(NULL, " \t\n", save);

		if (!t)
			return -1;
		lay[i] = (unsigned)strtoul(t, NULL, 10);
	}
	for (size_t i = 0; i < n; i++) {
		char *t = strtok_r(NULL, " \t\n", save);

		if (!t)
			return -1;
		x[i] = strtod(t, NULL);
	}
	return 0;
}

/* "paired N CONF UNIT... D... CENTRE LOW HIGH": pp_layout_paired against scipy. */
static void check_paired_line(char **save, int n)
{
	static double d[MAXN];
	static unsigned unit[MAXN];
	size_t np = strtoul(strtok_r(NULL, " \t\n", save), NULL, 10);
	double conf = strtod(strtok_r(NULL, " \t\n", save), NULL), want[3];
	struct pp_interval got;
	char name[32];
	int err;

	if (np > MAXN || read_side(save, np, unit, d)) {
		CHECK(0, "bad fixture line %d", n);
		return;
	}
	for (int k = 0; k < 3; k++) {
		char *t = strtok_r(NULL, " \t\n", save);

		want[k] = t ? strtod(t, NULL) : NAN;
	}
	snprintf(name, sizeof(name), "paired case %d", n);
	err = pp_layout_paired(d, unit, np, conf, &got);
	CHECK(err == 0, "%s: error %d", name, err);
	CHECK_CLOSE(name, "centre", got.centre, want[0], 1e-9, 1e-9);
	CHECK_CLOSE(name, "low", got.low, want[1], 1e-7, 1e-7);
	CHECK_CLOSE(name, "high", got.high, want[2], 1e-7, 1e-7);
}

static void check_fixtures(const char *path)
{
	static double x[MAXN], y[MAXN];
	static unsigned lx[MAXN], ly[MAXN];
	char line[65536];
	FILE *f = fopen(path, "r");
	int n = 0;

	CHECK(f != NULL, "cannot open %s", path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *t = strtok_r(line, " \t\n", &save), name[32];
		size_t nx, ny;
		double conf, want[3];
		struct pp_interval got;
		int err;

		if (t && !strcmp(t, "paired")) {
			check_paired_line(&save, ++n);
			continue;
		}
		if (!t || *t == '#' || strcmp(t, "nested"))
			continue;
		nx = strtoul(strtok_r(NULL, " \t\n", &save), NULL, 10);
		ny = strtoul(strtok_r(NULL, " \t\n", &save), NULL, 10);
		conf = strtod(strtok_r(NULL, " \t\n", &save), NULL);
		if (nx > MAXN || ny > MAXN || read_side(&save, nx, lx, x) ||
		    read_side(&save, ny, ly, y)) {
			CHECK(0, "bad fixture line %d", n + 1);
			continue;
		}
		for (int k = 0; k < 3; k++) {
			t = strtok_r(NULL, " \t\n", &save);
			want[k] = t ? strtod(t, NULL) : NAN;
		}
		snprintf(name, sizeof(name), "nested case %d", ++n);
		err = pp_layout_diff(x, lx, nx, y, ly, ny, conf, &got);
		CHECK(err == 0, "%s: error %d", name, err);
		CHECK_CLOSE(name, "centre", got.centre, want[0], 1e-9, 1e-9);
		CHECK_CLOSE(name, "low", got.low, want[1], 1e-7, 1e-7);
		CHECK_CLOSE(name, "high", got.high, want[2], 1e-7, 1e-7);
	}
	fclose(f);
	CHECK(n >= 5, "%d nested fixtures read from %s", n, path);
}

static void check_bad_input(void)
{
	double x[4] = {1, 2, 3, 4}, y[4] = {2, 3, 4, 5}, bad[4] = {1, NAN, 3, 4};
	unsigned one[4] = {0, 0, 0, 0}, two[4] = {0, 1, 0, 1};
	struct pp_interval out;
	struct pp_layout_var v;

	CHECK(pp_layout_diff(x, one, 4, y, two, 4, 0.95, &out) == -ENODATA,
	      "one layout on a side: no interval");
	CHECK(pp_layout_diff(x, two, 4, y, two, 4, 1.0, &out) == -EINVAL, "confidence 1");
	CHECK(pp_layout_diff(bad, two, 4, y, two, 4, 0.95, &out) == -EINVAL, "a NaN value");
	CHECK(pp_layout_components(x, one, 4, &v) == -ENODATA, "one layout: no components");
	CHECK(pp_layout_components(x, two, 4, &v) == 0 && v.layouts == 2 && v.runs == 4,
	      "two layouts of two runs: components");
}

/* @n runs of a revision in @k layouts (every layout at least one run, in random order). */
static void draw(gsl_rng *r, size_t k, size_t n, double sb, double sw, double mu, double *x,
		 unsigned *lay)
{
	double eff[64];

	for (size_t j = 0; j < k; j++)
		eff[j] = gsl_ran_gaussian(r, sb);
	for (size_t i = 0; i < n; i++)
		lay[i] = (unsigned)(i % k);
	gsl_ran_shuffle(r, lay, n, sizeof(*lay));
	for (size_t i = 0; i < n; i++)
		x[i] = 100 + mu + eff[lay[i]] + gsl_ran_gaussian(r, sw);
}

static void check_components(gsl_rng *r)
{
	const int reps = 2000;
	double x[MAXN], between = 0, within = 0;
	unsigned lay[MAXN];

	for (int i = 0; i < reps; i++) {
		struct pp_layout_var v;

		draw(r, 8, 43, 1.0, 1.0, 0, x, lay); /* 43 runs: unequal numbers per layout */
		CHECK(pp_layout_components(x, lay, 43, &v) == 0, "components");
		between += v.between / reps;
		within += v.within / reps;
	}
	printf("components over %d samples (true 1, 1): between %.3f within %.3f\n", reps, between,
	       within);
	/* the estimate is clipped at 0, which lifts its mean a little */
	CHECK(between > 0.92 && between < 1.12, "mean between-layout variance %.3f, true 1",
	      between);
	CHECK(fabs(within - 1) < 0.03, "mean within-layout variance %.3f, true 1", within);
}

static void check_aa(gsl_rng *r)
{
	const int reps = 4000;
	double x[MAXN], y[MAXN];
	unsigned lx[MAXN], ly[MAXN];
	int miss_layout = 0, miss_runs = 0;
	/* binomial 99.9 % limits of a 5 % rate over reps: 5 % +- 3.29 sd */
	double sd = sqrt(0.05 * 0.95 / reps), lo = 0.05 - 3.29 * sd, hi = 0.05 + 3.29 * sd;

	for (int i = 0; i < reps; i++) {
		struct pp_interval d;
		struct pp_comparison c;

		draw(r, 8, 40, 1.0, 1.0, 0, x, lx);
		draw(r, 8, 40, 1.0, 1.0, 0, y, ly);
		CHECK(pp_layout_diff(x, lx, 40, y, ly, 40, 0.95, &d) == 0, "layout interval");
		miss_layout += d.low > 0 || d.high < 0;
		CHECK(pp_compare(PP_TEST_WELCH, x, 40, y, 40, 0.95, &c) == 0, "run interval");
		miss_runs += c.diff.low > 0 || c.diff.high < 0;
	}
	printf("A/A, layout sd = run sd, 8 layouts and 40 runs a revision, %d sessions: "
	       "the layout interval claims a difference in %.2f %% (limits %.2f-%.2f %%), "
	       "the runs taken as independent in %.2f %%\n",
	       reps, 100.0 * miss_layout / reps, 100 * lo, 100 * hi, 100.0 * miss_runs / reps);
	CHECK(miss_layout >= lo * reps && miss_layout <= hi * reps,
	      "layout interval: %d of %d A/A sessions claim a difference", miss_layout, reps);
	CHECK(miss_runs > 0.2 * reps, "runs taken as independent claim only %d of %d", miss_runs,
	      reps);
}

/* @x's runs, a share @slow of them made slow by 3 to 10 run sds (a machine's burst). */
static void burst(gsl_rng *r, double *x, size_t n, double slow, double sw)
{
	for (size_t i = 0; i < n; i++)
		if (gsl_rng_uniform(r) < slow)
			x[i] += gsl_ran_flat(r, 3, 10) * sw;
}

/* Welch on the layouts' plain means: what far runs would cost. */
static double width_of_means(const double *x, const unsigned *lx, size_t nx, const double *y,
			     const unsigned *ly, size_t ny, double conf)
{
	double mx[MAXN], my[MAXN];
	size_t kx, ky;
	struct pp_comparison c;

	if (pp_layout_means(x, lx, nx, mx, &kx) || pp_layout_means(y, ly, ny, my, &ky) ||
	    pp_compare(PP_TEST_WELCH, mx, kx, my, ky, conf, &c))
		return NAN;
	return c.diff.high - c.diff.low;
}

/*
 * Runs with bursts (10 % of them 3-10 sds slow): the layouts' locations
 * keep the A/A rate of the layout interval at 5 % with a layout effect, make
 * the interval narrower than Welch on plain layout means without one, and
 * move with a shift of a revision exactly.
 */
static void check_bursts(gsl_rng *r)
{
	const int reps = 4000;
	double x[MAXN], y[MAXN], robust = 0, plain = 0;
	unsigned lx[MAXN], ly[MAXN];
	int miss = 0;
	double sd = sqrt(0.05 * 0.95 / reps), hi = 0.05 + 3.29 * sd;

	for (int i = 0; i < reps; i++) {
		struct pp_interval d;

		draw(r, 8, 80, 1.0, 1.0, 0, x, lx);
		draw(r, 8, 80, 1.0, 1.0, 0, y, ly);
		burst(r, x, 80, 0.1, 1.0);
		burst(r, y, 80, 0.1, 1.0);
		CHECK(pp_layout_diff(x, lx, 80, y, ly, 80, 0.95, &d) == 0, "layout interval");
		miss += d.low > 0 || d.high < 0;
	}
	for (int i = 0; i < reps / 4; i++) {
		struct pp_interval d, e;

		draw(r, 8, 80, 0.0, 1.0, 0, x, lx);
		draw(r, 8, 80, 0.0, 1.0, 0, y, ly);
		burst(r, x, 80, 0.1, 1.0);
		burst(r, y, 80, 0.1, 1.0);
		CHECK(pp_layout_diff(x, lx, 80, y, ly, 80, 0.99, &d) == 0, "layout interval");
		robust += d.high - d.low;
		plain += width_of_means(x, lx, 80, y, ly, 80, 0.99);
		for (int j = 0; j < 80; j++)
			y[j] += 7.5;
		CHECK(pp_layout_diff(x, lx, 80, y, ly, 80, 0.99, &e) == 0, "shifted");
		CHECK(fabs(e.centre - d.centre - 7.5) < 1e-9 && fabs(e.low - d.low - 7.5) < 1e-9 &&
			  fabs(e.high - d.high - 7.5) < 1e-9,
		      "a shift of 7.5 moves [%g, %g] to [%g, %g]", d.low, d.high, e.low, e.high);
	}
	printf(
	    "bursts (10 %% of runs 3-10 sd slow), A/A, layout sd = run sd, 8 layouts and 80 runs "
	    "a revision, %d sessions: the layout interval claims a difference in %.2f %% (upper "
	    "limit %.2f %%); without a layout effect its width is %.2f of Welch's on the plain "
	    "layout means\n",
	    reps, 100.0 * miss / reps, 100 * hi, robust / plain);
	CHECK(miss <= hi * reps, "bursts: %d of %d A/A sessions claim a difference", miss, reps);
	CHECK(robust < 0.85 * plain, "bursts: width %.3f of the plain means'", robust / plain);
}

/*
 * Pairs in paired layouts on a drifting machine (a level shared by both runs
 * of a pair, wandering by 3 run sds over the session): A/A with a layout sd
 * of 0.3 run sds, 16 units and 96 pairs, 4000 sessions: the units'
 * interval at 95 % claims a difference in about 5 %, while Welch on each
 * revision's layout locations of the same runs is wider (the drift is in
 * both revisions' spread, not in the pairs' differences).
 */
static void check_paired_units(gsl_rng *r)
{
	const int reps = 4000;
	double x[MAXN], y[MAXN], d[MAXN], lp[16], lc[16], wp = 0, wi = 0;
	unsigned unit[MAXN];
	int claims = 0;

	for (int k = 0; k < reps; k++) {
		struct pp_interval p, ind;
		double level = 0;

		for (int u = 0; u < 16; u++) {
			lp[u] = gsl_ran_gaussian(r, 0.3);
			lc[u] = gsl_ran_gaussian(r, 0.3);
		}
		for (size_t i = 0; i < 96; i++) {
			level = 0.95 * level + gsl_ran_gaussian(r, 3.0 * sqrt(1 - 0.95 * 0.95));
			unit[i] = (unsigned)(i % 16);
			x[i] = 100 + level + lp[unit[i]] + gsl_ran_gaussian(r, 1.0);
			y[i] = 100 + level + lc[unit[i]] + gsl_ran_gaussian(r, 1.0);
			d[i] = y[i] - x[i];
		}
		CHECK(pp_layout_paired(d, unit, 96, 0.95, &p) == 0, "paired units");
		CHECK(pp_layout_diff(x, unit, 96, y, unit, 96, 0.95, &ind) == 0, "layouts");
		claims += p.low > 0 || p.high < 0;
		wp += (p.high - p.low) / reps;
		wi += (ind.high - ind.low) / reps;
	}
	printf("paired units, A/A, layout sd 0.3 run sd, drift sd 3: %.2f%% claims at 95%%, width "
	       "%.3f against %.3f from each revision's layouts (%.2fx)\n",
	       100.0 * claims / reps, wp, wi, wp / wi);
	CHECK(claims > reps * 3 / 100 && claims < reps * 7 / 100, "paired units: %d claims of %d",
	      claims, reps);
	CHECK(wp < 0.9 * wi, "paired units not narrower: %.3f against %.3f", wp, wi);
}

int main(int argc, char **argv)
{
	gsl_rng *r;

	if (argc != 2) {
		fprintf(stderr, "usage: %s nested_fixtures.txt\n", argv[0]);
		return 2;
	}
	check_fixtures(argv[1]);
	check_bad_input();
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r)
		return 2;
	gsl_rng_set(r, 20261127);
	check_components(r);
	check_aa(r);
	check_bursts(r);
	check_paired_units(r);
	gsl_rng_free(r);
	return report(argv[0]);
}
