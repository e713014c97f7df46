// SPDX-License-Identifier: MIT
/*
 * test_edge.c - bad input, degenerate samples and the building blocks of
 * the rank test, checked against brute force: the selection of the k-th
 * pairwise difference against sorting all of them, the exact U distribution
 * against enumerating every ordering, the symmetries a two-sample
 * comparison must have, and the term of pairs taken in two orders.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>

#include "core/stats.h"
#include "core/stats_internal.h"
#include "core/util.h"
#include "check.h"

static const double five[] = {1.0, 2.0, 3.0, 4.0, 5.0};

static void bad_input(void)
{
	const double nan_in[] = {1.0, NAN, 3.0}, inf_in[] = {1.0, 2.0, INFINITY};
	const double confs[] = {0.0, 1.0, -0.5, 1.5, NAN, INFINITY};
	struct pp_summary s;
	struct pp_comparison c;
	size_t start;

	CHECK(pp_summarize(five, 0, 0.95, &s) == -EINVAL, "summarize n=0");
	CHECK(pp_summarize(five, 1, 0.95, &s) == -EINVAL, "summarize n=1");
	CHECK(pp_summarize(NULL, 5, 0.95, &s) == -EINVAL, "summarize NULL");
	CHECK(pp_summarize(nan_in, 3, 0.95, &s) == -EINVAL, "summarize NaN value");
	CHECK(pp_summarize(inf_in, 3, 0.95, &s) == -EINVAL, "summarize inf value");
	for (size_t i = 0; i < sizeof(confs) / sizeof(confs[0]); i++) {
		CHECK(pp_summarize(five, 5, confs[i], &s) == -EINVAL, "summarize confidence %g",
		      confs[i]);
		for (int t = PP_TEST_MANN_WHITNEY; t <= PP_TEST_WELCH; t++)
			CHECK(pp_compare(t, five, 5, five, 5, confs[i], &c) == -EINVAL,
			      "compare test %d confidence %g", t, confs[i]);
	}
	for (int t = PP_TEST_MANN_WHITNEY; t <= PP_TEST_WELCH; t++) {
		CHECK(pp_compare(t, five, 1, five, 5, 0.95, &c) == -EINVAL, "compare nx=1 test %d",
		      t);
		CHECK(pp_compare(t, five, 5, five, 1, 0.95, &c) == -EINVAL, "compare ny=1 test %d",
		      t);
		CHECK(pp_compare(t, five, 5, five, 0, 0.95, &c) == -EINVAL, "compare ny=0 test %d",
		      t);
		CHECK(pp_compare(t, nan_in, 3, five, 5, 0.95, &c) == -EINVAL, "compare NaN test %d",
		      t);
		CHECK(pp_compare(t, five, 5, inf_in, 3, 0.95, &c) == -EINVAL, "compare inf test %d",
		      t);
		CHECK(pp_compare(t, NULL, 5, five, 5, 0.95, &c) == -EINVAL, "compare NULL test %d",
		      t);
	}
	CHECK(pp_compare((enum pp_test)7, five, 5, five, 5, 0.95, &c) == -EINVAL,
	      "compare unknown test");

	CHECK(pp_warmup_mser(five, 5, 0, &start) == -EINVAL, "mser batch 0");
	CHECK(pp_warmup_mser(nan_in, 3, 1, &start) == -EINVAL, "mser NaN value");
	CHECK(pp_warmup_mser(inf_in, 3, 1, &start) == -EINVAL, "mser inf value");
	CHECK(pp_warmup_mser(NULL, 5, 1, &start) == -EINVAL, "mser NULL");
	CHECK(pp_warmup_mser(five, 5, 2, &start) == -ENODATA, "mser: two batches");
	CHECK(pp_warmup_mser(five, 0, 1, &start) == -ENODATA, "mser n=0");

	/* variance components: rows of two or more values, every block used */
	static const double six[6] = {1, 2, 3, 5, 4, 4};
	static const unsigned b01[3] = {0, 1, 0}, b02[3] = {0, 2, 0}, b012[3] = {0, 1, 2};
	struct pp_varcomp vc;

	CHECK(pp_variance_components(NULL, 3, 2, NULL, &vc) == -EINVAL, "varcomp NULL");
	CHECK(pp_variance_components(six, 6, 1, NULL, &vc) == -EINVAL, "varcomp n=1");
	CHECK(pp_variance_components(nan_in, 1, 3, NULL, &vc) == -EINVAL, "varcomp NaN");
	CHECK(pp_variance_components(six, 3, 2, b02, &vc) == -EINVAL, "varcomp: block 1 empty");
	CHECK(pp_variance_components(six, 3, 2, b012, &vc) == -ENODATA, "varcomp: one row a block");
	CHECK(pp_variance_components(six, 1, 6, NULL, &vc) == -ENODATA, "varcomp: one row");
	/* rows {1,2} {3,5} {4,4}, blocks 0 1 0: MSW = (0.5 + 2 + 0) / 3, row 1 alone in its block
	 */
	CHECK(pp_variance_components(six, 3, 2, b01, &vc) == 0 && vc.df_within == 3 &&
		  vc.df_between == 1 && fabs(vc.ms_within - 2.5 / 3) < 1e-15 &&
		  fabs(vc.ms_between - 2 * (1.25 * 1.25 * 2) / 1) < 1e-12,
	      "varcomp by hand: msw %g msb %g", vc.ms_within, vc.ms_between);
	/* chi2(0.10, 1 df) = 0.015790774093431218: scipy 1.10.1, chi2.ppf(0.1, 1) */
	CHECK(fabs(vc.between_long_high - (6.25 / 0.015790774093431218 - vc.within_long) / 2) <
		  1e-9 * vc.between_long_high,
	      "varcomp: between_long_high %.17g", vc.between_long_high);
	vc = (struct pp_varcomp){.within_long = 4, .between_long = 1};
	CHECK(fabs(pp_executions_per_run(&vc, 9, 1) - 6) < 1e-12, "k = sqrt(9 * 4)");
	vc.between_long = 0;
	CHECK(isinf(pp_executions_per_run(&vc, 9, 1)), "k: no spread between runs");
	CHECK(isnan(pp_executions_per_run(&vc, 9, 0)), "k: execution cost 0");
	CHECK(isnan(pp_executions_per_run(&vc, -1, 1)), "k: negative run cost");
	CHECK(isnan(pp_executions_per_run(NULL, 1, 1)), "k: NULL");
}

/*
 * --executions auto for runs in pairs (pp_executions_auto): what the two
 * runs of a pair share cancels in their difference.  Eight runs of eight
 * executions, revisions 0 1 1 0 0 1 1 0 (runs 2i, 2i + 1 a pair, as the
 * discovery runs), value j of run r = 1000 + 10 * revision + shared[r / 2]
 * + own[r] + trend * j + ((3j + 5r) % 7 - 3).  Reference values:
 * executions_auto_ref.py (numpy and scipy, the components by hand).
 */
static void fill_runs(double x[64], const double shared[4], double trend, const double own[8])
{
	static const unsigned rev[8] = {0, 1, 1, 0, 0, 1, 1, 0};

	for (int r = 0; r < 8; r++)
		for (int j = 0; j < 8; j++)
			x[r * 8 + j] = 1000 + 10.0 * rev[r] + shared[r / 2] + own[r] + trend * j +
				       (double)((3 * j + 5 * r) % 7 - 3);
}

static void executions_auto(void)
{
	static const unsigned rev[8] = {0, 1, 1, 0, 0, 1, 1, 0},
			      unpaired[8] = {0, 1, 1, 1, 0, 1, 1, 0};
	static const double run_effect[4] = {0, 40, -30, 60}, no_effect[4] = {0, 0, 0, 0};
	static const double small[8] = {0.5, -0.5, 0, 1, -1, 0.5, 0, -0.5},
			    own[8] = {4, -3, 2, -5, 1, 5, -2, 3};
	struct pp_varcomp vc;
	double x[64], paired, single;

	/* A large run effect both runs of a pair share: it is most of the spread
	 * between single runs, which asks for more runs and as few executions as
	 * can be; in the pairs' differences it cancels, and what is left between
	 * pairs is small beside the executions' noise, which longer runs average. */
	fill_runs(x, run_effect, 0, small);
	paired = pp_executions_auto(x, 8, 8, rev, true, 200, 1, &vc);
	single = pp_executions_auto(x, 8, 8, rev, false, 200, 1, &vc);
	CHECK_CLOSE("shared run effect", "paired k", paired, 20.754052075558143, 1e-9, 0);
	CHECK_CLOSE("shared run effect", "unpaired k", single, 0.31634737809543656, 1e-9, 0);
	CHECK(paired > 10 * single, "shared run effect: paired k %g, unpaired %g", paired, single);
	/* Executions that slow down through the run alike in both revisions: a
	 * spread within runs that cancels in the differences, while the runs'
	 * own levels add up in them: fewer executions for pairs. */
	fill_runs(x, no_effect, 3, own);
	paired = pp_executions_auto(x, 8, 8, rev, true, 200, 1, &vc);
	single = pp_executions_auto(x, 8, 8, rev, false, 200, 1, &vc);
	CHECK_CLOSE("shared trend", "paired k", paired, 2.6310447453706352, 1e-9, 0);
	CHECK_CLOSE("shared trend", "unpaired k", single, 115.07992593493543, 1e-9, 0);
	CHECK(paired < single / 10, "shared trend: paired k %g, unpaired %g", paired, single);

	/* Pairs of one run of each revision, two or more of them. */
	CHECK(pp_variance_components_paired(x, 8, 8, unpaired, &vc) == -EINVAL,
	      "paired varcomp: a pair of two current runs");
	CHECK(pp_variance_components_paired(x, 7, 8, rev, &vc) == -EINVAL,
	      "paired varcomp: odd rows");
	CHECK(pp_variance_components_paired(x, 2, 8, rev, &vc) == -ENODATA,
	      "paired varcomp: one pair");
	CHECK(pp_variance_components_paired(x, 8, 1, rev, &vc) == -EINVAL, "paired varcomp: n=1");
	CHECK(isnan(pp_executions_auto(x, 8, 8, unpaired, true, 200, 1, &vc)),
	      "auto: no pairs, no k");
}

static int all_finite(const struct pp_comparison *c)
{
	return isfinite(c->diff.centre) && isfinite(c->diff.low) && isfinite(c->diff.high) &&
	       isfinite(c->p_value) && !isnan(c->statistic) && isfinite(c->df);
}

static void degenerate(void)
{
	double same[8], other[6], zeros[12] = {0};
	struct pp_summary s;
	struct pp_comparison c;
	size_t start;

	for (int i = 0; i < 8; i++)
		same[i] = 3.25;
	for (int i = 0; i < 6; i++)
		other[i] = 4.5;

	CHECK(pp_summarize(same, 8, 0.95, &s) == 0, "summarize constant");
	CHECK(s.sd == 0.0 && s.ci.low == 3.25 && s.ci.high == 3.25 && s.median == 3.25,
	      "constant summary: sd %g ci [%g, %g]", s.sd, s.ci.low, s.ci.high);

	/* Identical constant samples: no difference, and no NaN anywhere. */
	for (int t = PP_TEST_MANN_WHITNEY; t <= PP_TEST_WELCH; t++) {
		CHECK(pp_compare(t, same, 8, same, 5, 0.95, &c) == 0, "compare identical test %d",
		      t);
		CHECK(all_finite(&c), "identical constant test %d: non-finite field", t);
		CHECK(c.diff.centre == 0.0 && c.diff.low == 0.0 && c.diff.high == 0.0,
		      "identical constant test %d: diff %g [%g, %g]", t, c.diff.centre, c.diff.low,
		      c.diff.high);
		CHECK(c.p_value == 1.0 && !c.significant, "identical constant test %d: p %g", t,
		      c.p_value);
	}
	CHECK(pp_compare(PP_TEST_MANN_WHITNEY, same, 8, same, 5, 0.95, &c) == 0 &&
		  c.statistic == 20.0 && !c.exact,
	      "identical constant: U %g, want 20 (all pairs tied)", c.statistic);

	/* Two different constants: the shift is certain. */
	CHECK(pp_compare(PP_TEST_WELCH, same, 8, other, 6, 0.95, &c) == 0, "welch constants");
	CHECK(c.diff.centre == 1.25 && c.diff.low == 1.25 && c.diff.high == 1.25 &&
		  c.p_value == 0.0 && c.significant && c.statistic == INFINITY && c.df == 0.0,
	      "welch constants: %g [%g, %g] p %g t %g df %g", c.diff.centre, c.diff.low,
	      c.diff.high, c.p_value, c.statistic, c.df);
	CHECK(pp_compare(PP_TEST_WELCH, other, 6, same, 8, 0.95, &c) == 0 &&
		  c.statistic == -INFINITY && c.diff.centre == -1.25,
	      "welch constants reversed: t %g", c.statistic);

	start = 99;
	CHECK(pp_warmup_mser(zeros, 12, 3, &start) == 0 && start == 0, "mser zeros: skip %zu",
	      start);
	start = 99;
	CHECK(pp_warmup_mser(same, 8, 1, &start) == 0 && start == 0,
	      "mser constant: every MSER(d) is 0 and the smallest d wins: skip %zu", start);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* pp_diff_select against sorting every difference (the last, coarse, with more
 * rows than the selection reads out at the end: core/stats_select.c). */
static void selection(gsl_rng *r)
{
	const size_t sizes[][2] = {{1, 1},   {1, 7},  {6, 1},	  {5, 5},
				   {13, 29}, {40, 3}, {150, 120}, {600, 1100}};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t nx = sizes[s][0], ny = sizes[s][1], nd = nx * ny;
		double *x = malloc(nx * sizeof(*x)), *y = malloc(ny * sizeof(*y));
		double *d = malloc(nd * sizeof(*d));
		/* Coarse values in half the cases: many equal differences. */
		int coarse = s % 2;
		size_t bad = 0;

		for (size_t i = 0; i < nx; i++)
			x[i] = coarse ? (double)gsl_rng_uniform_int(r, 6)
				      : gsl_ran_cauchy(r, 2.0) - 1.0;
		for (size_t j = 0; j < ny; j++)
			y[j] = coarse ? (double)gsl_rng_uniform_int(r, 6)
				      : gsl_ran_cauchy(r, 2.0) + 0.5;
		gsl_sort(x, 1, nx);
		gsl_sort(y, 1, ny);
		for (size_t j = 0; j < ny; j++)
			for (size_t i = 0; i < nx; i++)
				d[j * nx + i] = y[j] - x[i];
		qsort(d, nd, sizeof(*d), cmp_double);
		for (size_t k = 0; k<nd; k += nd> 2000 ? 97 : 1) {
			double v = NAN;

			if (pp_diff_select(x, nx, y, ny, k, &v) || v != d[k])
				bad++;
		}
		double last = NAN;

		CHECK(pp_diff_select(x, nx, y, ny, nd - 1, &last) == 0 && last == d[nd - 1],
		      "select %zux%zu: largest", nx, ny);
		CHECK(bad == 0, "select %zux%zu coarse=%d: %zu order statistics wrong", nx, ny,
		      coarse, bad);
		free(x);
		free(y);
		free(d);
	}
}

/* The exact null distribution of U against enumerating all orderings. */
static void exact_distribution(void)
{
	for (size_t m = 1; m <= 7; m++) {
		for (size_t n = 1; n <= 7; n++) {
			double *c = pp_wilcox_counts(m, n);
			double brute[50] = {0};
			size_t bad = 0;

			CHECK(c != NULL, "counts %zu,%zu: no memory", m, n);
			if (!c)
				continue;
			/* Bit i set: position i of the pooled order holds a y value. */
			for (unsigned long mask = 0; mask < 1UL << (m + n); mask++) {
				size_t u = 0, xs = 0;

				if ((size_t)__builtin_popcountl(mask) != m)
					continue;
				for (size_t i = 0; i < m + n; i++) {
					if (mask >> i & 1)
						u += xs; /* this y beats every x below it */
					else
						xs++;
				}
				brute[u] += 1.0;
			}
			for (size_t u = 0; u <= m * n; u++)
				if (c[u] != brute[u])
					bad++;
			CHECK(bad == 0, "counts %zu,%zu: %zu entries differ from enumeration", m, n,
			      bad);
			free(c);
		}
	}
	/* At the exact limit: all orderings are counted. */
	double *c = pp_wilcox_counts(49, 49), total = 0.0;

	CHECK(c != NULL, "counts 49,49: no memory");
	if (!c)
		return;
	for (size_t u = 0; u <= 49 * 49; u++)
		total += c[u];
	CHECK_CLOSE("counts 49,49", "total", total, gsl_sf_choose(98, 49), 1e-13, 0);
	free(c);
}

/* Swapping the samples mirrors everything; shifting both changes nothing. */
static void symmetries(gsl_rng *r)
{
	const size_t sizes[][2] = {{9, 12}, {60, 45}, {25, 25}};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t nx = sizes[s][0], ny = sizes[s][1];
		double x[60], y[60], xs[60], ys[60];
		struct pp_comparison a, b, c;

		for (size_t i = 0; i < nx; i++)
			x[i] = floor(gsl_ran_lognormal(r, 3.0, 0.4) * (s == 2 ? 1 : 1000)) / 8;
		for (size_t j = 0; j < ny; j++)
			y[j] = floor(gsl_ran_lognormal(r, 3.1, 0.4) * (s == 2 ? 1 : 1000)) / 8;
		/* A power of two keeps the shifted values exact. */
		for (size_t i = 0; i < nx; i++)
			xs[i] = x[i] + 1024.0;
		for (size_t j = 0; j < ny; j++)
			ys[j] = y[j] + 1024.0;
		for (int t = PP_TEST_MANN_WHITNEY; t <= PP_TEST_WELCH; t++) {
			int e = pp_compare(t, x, nx, y, ny, 0.9, &a);

			e |= pp_compare(t, y, ny, x, nx, 0.9, &b);
			e |= pp_compare(t, xs, nx, ys, ny, 0.9, &c);
			CHECK(e == 0, "symmetry %zu test %d: error", s, t);
			CHECK_CLOSE("swap", "centre", b.diff.centre, -a.diff.centre, 1e-12, 1e-12);
			CHECK_CLOSE("swap", "low", b.diff.low, -a.diff.high, 1e-12, 1e-12);
			CHECK_CLOSE("swap", "high", b.diff.high, -a.diff.low, 1e-12, 1e-12);
			CHECK_CLOSE("swap", "p", b.p_value, a.p_value, 1e-12, 0);
			CHECK(a.significant == b.significant, "swap %zu test %d: significance", s,
			      t);
			if (t == PP_TEST_MANN_WHITNEY)
				CHECK(a.statistic + b.statistic == (double)(nx * ny),
				      "swap %zu: U %g + %g != %zu", s, a.statistic, b.statistic,
				      nx * ny);
			CHECK_CLOSE("shift", "centre", c.diff.centre, a.diff.centre, 1e-9, 1e-9);
			CHECK_CLOSE("shift", "low", c.diff.low, a.diff.low, 1e-9, 1e-9);
			CHECK_CLOSE("shift", "high", c.diff.high, a.diff.high, 1e-9, 1e-9);
			CHECK_CLOSE("shift", "p", c.p_value, a.p_value, 1e-9, 0);
		}
	}
}

/* Samples larger than the fixtures hold: all fields sane, interval around the shift. */
static void large(gsl_rng *r)
{
	size_t n = 3000;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	struct pp_comparison c;

	for (size_t i = 0; i < n; i++) {
		x[i] = 100.0 + gsl_ran_gaussian(r, 5.0);
		y[i] = 104.0 + gsl_ran_gaussian(r, 5.0);
	}
	CHECK(pp_compare(PP_TEST_MANN_WHITNEY, x, n, y, n, 0.95, &c) == 0, "large: error");
	CHECK(!c.exact && all_finite(&c), "large: exact %d", c.exact);
	CHECK(c.diff.low < c.diff.centre && c.diff.centre < c.diff.high,
	      "large: centre %g outside [%g, %g]", c.diff.centre, c.diff.low, c.diff.high);
	CHECK(c.diff.low > 3.0 && c.diff.high < 5.0 && c.significant,
	      "large: interval [%g, %g] misses the shift of 4", c.diff.low, c.diff.high);
	free(x);
	free(y);
}

/* How the reports print figures, open interval ends and undefined ones included. */
static void formats(void)
{
	static const struct {
		double v;
		const char *ns, *pct;
	} cases[] = {
	    {0.123, "0.123 ns", "12.3%"},	 {-1.5e6, "-1.5 ms", "-150000000.0%"},
	    {2.5e9, "2.5 s", "250000000000.0%"}, {INFINITY, "+inf", "+inf"},
	    {-INFINITY, "-inf", "-inf"},	 {NAN, "n/a", "n/a"},
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *ns = pp_fmt_ns(cases[i].v, buf, sizeof(buf));

		CHECK(!strcmp(ns, cases[i].ns), "pp_fmt_ns(%g) = '%s', want '%s'", cases[i].v, ns,
		      cases[i].ns);
		ns = pp_fmt_pct(cases[i].v, buf, sizeof(buf));
		CHECK(!strcmp(ns, cases[i].pct), "pp_fmt_pct(%g) = '%s', want '%s'", cases[i].v, ns,
		      cases[i].pct);
	}
}

/*
 * pp_warmup_trim: MSER's drop cut back to the batches that stand out.  On
 * noise alone (50 executions, 10 batches of 5), MSER drops batches in many
 * series; after the cut nearly none are dropped.  A real warm-up (first
 * batch twice the steady state, second 30 % above) stays dropped; one
 * below the band does not.
 */
static void warmup_trim(gsl_rng *r)
{
	enum { N = 50, B = 5, SERIES = 1000 };
	double x[N];
	size_t mser_total = 0, trim_total = 0, skip;
	int err;

	for (int t = 0; t < SERIES; t++) {
		for (int i = 0; i < N; i++)
			x[i] = 1000.0 + gsl_ran_gaussian(r, 30.0);
		CHECK(pp_warmup_mser(x, N, B, &skip) == 0, "noise: mser");
		mser_total += skip;
		err = pp_warmup_trim(x, N, B, 0.005, &skip);
		CHECK(err == 0 && skip % B == 0, "noise: trim returned %d, skip %zu", err, skip);
		trim_total += skip;
	}
	CHECK(mser_total > 3 * (size_t)SERIES, "noise: MSER alone drops %.2f executions a series",
	      (double)mser_total / SERIES);
	CHECK(trim_total * 10 < mser_total && trim_total < (size_t)SERIES,
	      "noise: %.2f executions a series dropped after the cut, MSER %.2f",
	      (double)trim_total / SERIES, (double)mser_total / SERIES);

	for (int i = 0; i < N; i++)
		x[i] = 1000.0 + gsl_ran_gaussian(r, 10.0) +
		       (i < B	    ? 1000.0
			: i < 2 * B ? 300.0
				    : 0.0);
	CHECK(pp_warmup_mser(x, N, B, &skip) == 0 && skip == 2 * B, "warm-up: mser skip %zu", skip);
	CHECK(pp_warmup_trim(x, N, B, 0.005, &skip) == 0 && skip == 2 * B,
	      "warm-up: trim skip %zu, want %d", skip, 2 * B);

	/* No noise: the band alone decides (0.2 % stays in, 2 % is dropped). */
	for (int i = 0; i < N; i++)
		x[i] = i < B ? 1002.0 : 1000.0;
	skip = B;
	CHECK(pp_warmup_trim(x, N, B, 0.005, &skip) == 0 && skip == 0,
	      "0.2 %% warm-up, band 0.5 %%: skip %zu", skip);
	for (int i = 0; i < B; i++)
		x[i] = 1020.0;
	skip = 2 * B;
	CHECK(pp_warmup_trim(x, N, B, 0.005, &skip) == 0 && skip == B,
	      "2 %% warm-up, band 0.5 %%: skip %zu, want %d", skip, B);

	skip = 3;
	CHECK(pp_warmup_trim(x, N, B, 0.005, &skip) == -EINVAL, "trim: skip not whole batches");
	skip = 45;
	CHECK(pp_warmup_trim(x, N, B, 0.005, &skip) == -EINVAL, "trim: one batch left");
	skip = B;
	CHECK(pp_warmup_trim(x, N, B, NAN, &skip) == -EINVAL, "trim: NaN band");
	CHECK(pp_warmup_trim(x, N, 0, 0.005, &skip) == -EINVAL, "trim: batch 0");
	CHECK(pp_warmup_trim(NULL, N, B, 0.005, &skip) == -EINVAL, "trim: NULL");
}

/* Walsh averages by brute force against pp_walsh_select; pp_compare_paired's edges. */
static void paired(gsl_rng *r)
{
	const size_t sizes[] = {1, 2, 7, 30, 151};
	double x[4] = {1, 2, 3, 4}, y[4] = {2, 3, 4, 5}, bad[4] = {1, NAN, 3, 4};
	double zero[4] = {1, 2, 3, 4}, mixed[6] = {1, 2, 3, 4, 5, 6}, my[6] = {1, 2, 3, 4.5, 5, 7};
	struct pp_comparison c;

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s], m = n * (n + 1) / 2, bad_k = 0;
		double *d = malloc(n * sizeof(*d)), *w = malloc(m * sizeof(*w));
		int coarse = s % 2;

		for (size_t i = 0; i < n; i++)
			d[i] = coarse ? (double)gsl_rng_uniform_int(r, 5) - 2.0
				      : gsl_ran_cauchy(r, 1.0);
		gsl_sort(d, 1, n);
		for (size_t i = 0, k = 0; i < n; i++)
			for (size_t j = i; j < n; j++)
				w[k++] = 0.5 * (d[i] + d[j]);
		qsort(w, m, sizeof(*w), cmp_double);
		for (size_t k = 0; k < m; k++) {
			double v = NAN;

			if (pp_walsh_select(d, n, k, &v) || v != w[k])
				bad_k++;
		}
		CHECK(bad_k == 0, "walsh %zu coarse=%d: %zu order statistics wrong", n, coarse,
		      bad_k);
		free(d);
		free(w);
	}
	CHECK(pp_compare_paired(PP_TEST_MANN_WHITNEY, x, y, 1, 0.95, &c) == -EINVAL, "one pair");
	CHECK(pp_compare_paired(PP_TEST_MANN_WHITNEY, bad, y, 4, 0.95, &c) == -EINVAL, "NaN");
	CHECK(pp_compare_paired(PP_TEST_WELCH, x, y, 4, 1.0, &c) == -EINVAL, "confidence 1");
	CHECK(pp_compare_paired((enum pp_test)7, x, y, 4, 0.95, &c) == -EINVAL, "no such test");
	/* every difference 1: the shift is 1, the interval [1, 1] */
	CHECK(pp_compare_paired(PP_TEST_MANN_WHITNEY, x, y, 4, 0.95, &c) == 0 &&
		  c.diff.centre == 1 && c.diff.low == 1 && c.diff.high == 1 && !c.exact && c.paired,
	      "constant differences: %g [%g, %g]", c.diff.centre, c.diff.low, c.diff.high);
	CHECK(pp_compare_paired(PP_TEST_WELCH, x, y, 4, 0.95, &c) == 0 && c.diff.centre == 1 &&
		  c.diff.low == 1 && c.diff.high == 1 && c.p_value == 0,
	      "constant differences, t: %g [%g, %g] p %g", c.diff.centre, c.diff.low, c.diff.high,
	      c.p_value);
	/* every difference 0: nothing to tell apart */
	CHECK(pp_compare_paired(PP_TEST_MANN_WHITNEY, x, zero, 4, 0.95, &c) == 0 &&
		  c.p_value == 1 && c.diff.low == 0 && c.diff.high == 0 && !c.significant,
	      "zero differences");
	/* zeros are dropped: the rest decide (differences 0 0 0 .5 0 1) */
	CHECK(pp_compare_paired(PP_TEST_MANN_WHITNEY, mixed, my, 6, 0.95, &c) == 0 && !c.exact &&
		  c.statistic == 3 && c.diff.centre == 0.75,
	      "zeros dropped: V %g, shift %g", c.statistic, c.diff.centre);
}

/*
 * pp_paired_order_term(): pairs in two orders, order 1 adding c to a pair's
 * difference and order 0 taking it: c back by half the shift between the
 * orders, and taken out of each pair; nothing where an order has too few
 * pairs, another value, or a difference is not finite.
 */
static void order_term(gsl_rng *r)
{
	enum { N = 40 };
	double x[N], y[N], *out = NULL, c, d[N];
	signed char order[N];
	struct pp_comparison with, without;

	for (int t = 0; t < 2; t++) {
		enum pp_test test = t ? PP_TEST_WELCH : PP_TEST_MANN_WHITNEY;

		for (size_t i = 0; i < N; i++) {
			order[i] = (signed char)(i % 2);
			x[i] = 100 + gsl_ran_gaussian(r, 1);
			/* D = 2, c = 5, noise sd 0.5 in the differences */
			y[i] = x[i] + 2 + (order[i] ? 5 : -5) + gsl_ran_gaussian(r, 0.5);
		}
		CHECK(!pp_paired_order_term(test, x, y, order, N, &out, &c, NULL) && out &&
			  fabs(c - 5) < 0.5,
		      "test %d: c %g, want about 5", t, c);
		for (size_t i = 0; out && i < N; i++)
			CHECK(out[i] == y[i] - (order[i] ? c : -c),
			      "test %d: pair %zu not adjusted", t, i);
		/* the same difference, a narrower interval: c's 2 x 5 no longer in the spread */
		if (out && !pp_compare_paired(test, x, out, N, 0.95, &with) &&
		    !pp_compare_paired(test, x, y, N, 0.95, &without))
			CHECK(fabs(with.diff.centre - 2) < 0.5 &&
				  with.diff.high - with.diff.low <
				      0.5 * (without.diff.high - without.diff.low),
			      "test %d: with the term %g [%g, %g], without %g [%g, %g]", t,
			      with.diff.centre, with.diff.low, with.diff.high, without.diff.centre,
			      without.diff.low, without.diff.high);
		free(out);
		out = NULL;
	}
	/* 3 pairs of order 1 among 8: too few to estimate c */
	memset(order, 0, sizeof(order));
	order[0] = order[3] = order[5] = 1;
	CHECK(!pp_paired_order_term(PP_TEST_MANN_WHITNEY, x, y, order, 8, &out, &c, NULL) && !out &&
		  isnan(c),
	      "three of an order: %p %g", (void *)out, c);
	for (size_t i = 0; i < N; i++)
		order[i] = (signed char)(i % 2);
	order[7] = -1;
	CHECK(!pp_paired_order_term(PP_TEST_MANN_WHITNEY, x, y, order, N, &out, &c, NULL) && !out,
	      "a pair of no order");
	order[7] = 1;
	memcpy(d, y, sizeof(d));
	d[9] = NAN;
	CHECK(!pp_paired_order_term(PP_TEST_MANN_WHITNEY, x, d, order, N, &out, &c, NULL) && !out,
	      "a value not finite");
}

int main(int argc, char **argv)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	(void)argc;
	if (!r)
		return 2;
	gsl_rng_set(r, 4242);
	bad_input();
	degenerate();
	selection(r);
	exact_distribution();
	symmetries(r);
	large(r);
	formats();
	warmup_trim(r);
	paired(r);
	order_term(r);
	executions_auto();
	gsl_rng_free(r);
	return report(argv[0]);
}
