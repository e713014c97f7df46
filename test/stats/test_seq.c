// SPDX-License-Identifier: MIT
/*
 * test_seq.c - the sequential decision (core/stats_seq.c).
 *
 *   test-stats-seq FIXTURES [all|rule|threshold|aa]
 *
 * The fixtures are always checked; "rule" runs 2, 5, 6, 7, 9, 10 and 11
 * below, "threshold" 3, "aa" 4, 8 and 12, "all" (the default) every one (ctest:
 * stats-seq, stats-seq-threshold, stats-seq-aa).
 *
 * 1. Reference values (seq_fixtures.txt, made by make_seq_fixtures.py with
 *    scipy): the schedule of looks, the spending weights, minimum detectable
 *    effect, fixed-sample minimum, Mann-Whitney attainability, and the alpha
 *    of each look of a few designs.
 * 2. The rows of the rule, one interval each, built by hand (welch).
 * 3. The threshold means what it says (fixed seed, both tests, three
 *    noises, the driver's two-sided and entry designs): a true difference of
 *    T/2 is called SLOWER in at most the 99.9% binomial limit of alpha/2 (the
 *    guarantee; the target is 10%), one of 1.5 T in at least 90% (limit of
 *    Binomial at 90%), each with the probability a rule at 10% (or 80%)
 *    would pass printed.
 * 4. A/A simulations through pp_seq_look (fixed seed): normal, lognormal and
 *    outlier noise, both tests, several first looks, growths, weights and
 *    budgets, threshold 0 (the worst case: nothing is ever shown within the
 *    threshold, so every comparison looks until its budget).  A false SLOWER
 *    or FASTER must occur in at most AA_LIMIT of AA_TRIALS comparisons: the
 *    99.9% quantile of Binomial(AA_TRIALS, 0.05), so a rule at its stated 5%
 *    passes with probability 0.999 and one at 10% fails with probability
 *    above 0.998 (both printed).  The naive rule - every look at the full
 *    95% - must fail the same bound, proving the check can fail.
 * 5. A shift well above the threshold: detection rate and mean runs used
 *    against the fixed-sample minimum for the same alpha and 80% power (ratio
 *    printed, asserted <= 2.5).
 * 6. Undecided comparisons: a true shift equal to the threshold with a
 *    budget too small to decide ends UNDECIDED, never within the threshold;
 *    with room, SLOWER, and within the threshold beyond the error bound never.
 * 7. n = 3: Mann-Whitney cannot reach 95% with 3 and 3 values; no interval
 *    is computed at a lower level.
 * 8. Simulated sessions: the entry gates its callees, which share its
 *    alpha (pp_seq_child_alpha): no claim in A/A sessions, no wrong callee
 *    named when one callee is slower, each beyond the same binomial bound.
 * 9. The entry's one-sided design: a true shift of +T is called NOT_SLOWER
 *    or SLOWER_BELOW in at most the binomial bound of alpha/2; identical
 *    series whose two-sided comparison mostly ends UNDECIDED at a budget
 *    too small for SAME end NOT_SLOWER in most comparisons.
 * 10. The runs an undecided comparison would need (pp_seq_runs_to_decide):
 *    values worked by hand from its definition, n (h / distance)^2.
 * 11. Bad input.
 * 12. A/A with noise that grows within a comparison (aa): the paired
 *    signed-rank design at the split still within the A/A bound.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort_double.h>

#include "check.h"
#include "seq_sim.h"

#define AA_TRIALS 1000
#define ALPHA 0.05

static enum pp_test test_of(const char *s)
{
	return strcmp(s, "welch") ? PP_TEST_MANN_WHITNEY : PP_TEST_WELCH;
}

/* A two-sided design with the driver's growth and weights. */
static struct pp_seq_design design(enum pp_test test, double alpha, double threshold, size_t budget,
				   size_t first)
{
	return (struct pp_seq_design){.test = test,
				      .alpha = alpha,
				      .threshold = threshold,
				      .budget = budget,
				      .first = first,
				      .growth = PP_SEQ_GROWTH,
				      .rho = PP_SEQ_RHO};
}

/* The entry's: one-sided, its own weights. */
static struct pp_seq_design entry_design(enum pp_test test, double alpha, double threshold,
					 size_t budget, size_t first)
{
	struct pp_seq_design d = design(test, alpha, threshold, budget, first);

	d.rho = PP_SEQ_ENTRY_RHO;
	d.one_sided = true;
	return d;
}

/* The schedule's sizes: "FIRST GROWTH BUDGET K N_1..N_K". */
static void check_sizes(char *rest, int line)
{
	struct pp_seq_design d = design(PP_TEST_WELCH, 0.05, 0.0, 0, 0);
	unsigned long first, budget, k;
	int off;

	if (sscanf(rest, "%lu %lf %lu %lu%n", &first, &d.growth, &budget, &k, &off) != 4) {
		CHECK(0, "line %d: bad size line", line);
		return;
	}
	rest += off;
	d.first = first;
	d.budget = budget;
	CHECK(pp_seq_looks(&d) == k, "line %d: %u looks, want %lu", line, pp_seq_looks(&d), k);
	for (unsigned long i = 1; i <= k; i++) {
		unsigned long want = strtoul(rest, &rest, 10);

		CHECK(pp_seq_look_size(&d, (unsigned)i) == want,
		      "line %d: look %lu of %zu, want %lu", line, i,
		      pp_seq_look_size(&d, (unsigned)i), want);
	}
	CHECK(pp_seq_look_size(&d, (unsigned)k + 3) == budget / 2,
	      "line %d: a look after the last is not the budget's", line);
}

/* Alpha of each look of a schedule: the data do not matter, only the sizes. */
static void check_looks(char *rest, int line)
{
	char test[16];
	unsigned long first, budget, k;
	double alpha, growth, rho, want;
	int off;
	struct pp_seq_state st = {0};
	double x[3000], y[3000];

	if (sscanf(rest, "%15s %lu %lf %lu %lf %lf %lu%n", test, &first, &growth, &budget, &rho,
		   &alpha, &k, &off) != 7 ||
	    budget > 6000) {
		CHECK(0, "line %d: bad looks line", line);
		return;
	}
	rest += off;
	/* Identical series: every interval holds 0, with threshold 0 nothing is decided. */
	for (size_t i = 0; i < 3000; i++)
		x[i] = y[i] = 100.0 + (double)((i * 37) % 11);
	struct pp_seq_design d = design(test_of(test), alpha, 0.0, budget, first);
	d.growth = growth;
	d.rho = rho;
	CHECK(pp_seq_looks(&d) == k, "line %d: %u looks, want %lu", line, pp_seq_looks(&d), k);
	for (unsigned long i = 0; i < k; i++) {
		size_t n = pp_seq_look_size(&d, (unsigned)i + 1);
		struct pp_seq_result r;
		int err;

		want = strtod(rest, &rest);
		err = pp_seq_look(&d, &st, x, n, y, n, &r);
		CHECK(err == 0, "line %d look %lu: error %d", line, i + 1, err);
		CHECK_CLOSE("looks", "alpha_look", r.alpha_look, want, 1e-12, 1e-18);
		CHECK(want > 0.0 ||
			  (r.alpha_look == 0.0 && isinf(r.diff.low) && isinf(r.diff.high)),
		      "line %d look %lu: interval without alpha", line, i + 1);
		CHECK(r.spent <= alpha * (1.0 + 1e-12), "line %d: spent %g > alpha", line, r.spent);
		CHECK((r.verdict == PP_SEQ_UNDECIDED) == (i + 1 == k),
		      "line %d look %lu: verdict %s", line, i + 1, pp_seq_verdict_name(r.verdict));
	}
}

static int check_fixtures(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	int line = 0, cases = 0;

	if (!f) {
		fprintf(stderr, "test-stats-seq: cannot open %s\n", path);
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char kind[16];
		double a, b, c, e, v;
		unsigned long nx, ny, n, want;
		int off;

		line++;
		if (buf[0] == '#' || sscanf(buf, "%15s%n", kind, &off) != 1)
			continue;
		cases++;
		if (!strcmp(kind, "spendk") && sscanf(buf + off, "%lu %lf %lu %lf %lf %lu %lf", &nx,
						      &b, &ny, &c, &a, &n, &v) == 7) {
			struct pp_seq_design d = design(PP_TEST_WELCH, a, 0.0, ny, nx);

			d.growth = b;
			d.rho = c;
			CHECK_CLOSE("spendk", "spent", pp_seq_spent_after(&d, (unsigned)n), v,
				    1e-12, 1e-300);
		} else if (!strcmp(kind, "size")) {
			check_sizes(buf + off, line);
		} else if (!strcmp(kind, "mde") &&
			   sscanf(buf + off, "%lf %lf %lf %lf %lf", &a, &b, &c, &e, &v) == 5) {
			CHECK_CLOSE("mde", "mde", pp_seq_mde(a, b, c, e), v, 1e-12, 0);
		} else if (!strcmp(kind, "fixedn") && sscanf(buf + off, "%lf %lf %lf %lf %lf %lu",
							     &a, &b, &c, &e, &v, &n) == 6) {
			CHECK(pp_seq_fixed_n(a, b, c, e, v) == n, "line %d: fixed n %zu, want %lu",
			      line, pp_seq_fixed_n(a, b, c, e, v), n);
		} else if (!strcmp(kind, "attain") &&
			   sscanf(buf + off, "%lu %lu %lf %lu", &nx, &ny, &a, &want) == 4) {
			CHECK(pp_seq_attainable(PP_TEST_MANN_WHITNEY, nx, ny, a) == (want == 1),
			      "line %d: attainable(%lu, %lu, %g) should be %lu", line, nx, ny, a,
			      want);
		} else if (!strcmp(kind, "looks")) {
			check_looks(buf + off, line);
		} else {
			CHECK(0, "line %d: cannot parse", line);
		}
	}
	fclose(f);
	CHECK(cases > 80, "only %d fixture lines", cases);
	return 0;
}

/* Smallest k with P(X > k) <= 0.001 for X ~ Binomial(n, p). */
static unsigned binomial_limit(double p, unsigned n)
{
	unsigned k = 0;

	while (k < n && gsl_cdf_binomial_Q(k, p, n) > 0.001)
		k++;
	return k;
}

static const char *noise_names[] = {"normal", "lognormal", "outliers"};

static const char *test_name(enum pp_test t)
{
	return t == PP_TEST_WELCH ? "welch" : "mann-whitney";
}

/*
 * The rows of the rule, each from one interval built by hand: welch at its
 * only look (budget = 2 first, alpha whole), n = 40 values a series
 * alternating about their mean, so that the interval is the shift +- h
 * exactly as chosen.  Threshold 1.
 */
static void check_rows(void)
{
	static const struct {
		bool one_sided;
		double centre, half;
		enum pp_seq_verdict want;
	} rows[] = {
	    {false, 0.0, 0.5, PP_SEQ_SAME},
	    {false, 0.3, 0.2, PP_SEQ_SLOWER_BELOW},
	    {false, -0.3, 0.2, PP_SEQ_FASTER_BELOW},
	    {false, 0.9, 0.05, PP_SEQ_SLOWER_BELOW},
	    {false, 1.2, 0.5, PP_SEQ_SLOWER},
	    {false, 1.01, 0.45, PP_SEQ_SLOWER},
	    {false, 3.0, 0.1, PP_SEQ_SLOWER},
	    {false, 1.2, 0.8, PP_SEQ_UNDECIDED},   /* L = 0.4: not clear of T/2 */
	    {false, 0.9, 0.3, PP_SEQ_UNDECIDED},   /* centre below T, not within */
	    {false, 0.6, 0.9, PP_SEQ_UNDECIDED},   /* above 0, not within */
	    {false, 0.0, 1.2, PP_SEQ_UNDECIDED},   /* across both */
	    {false, -1.5, 0.9, PP_SEQ_FASTER},	   /* H = -0.6 */
	    {false, -1.5, 1.1, PP_SEQ_UNDECIDED},  /* H = -0.4 */
	    {false, -0.95, 0.1, PP_SEQ_UNDECIDED}, /* centre above -T, not within */
	    {true, -1.5, 0.3, PP_SEQ_FASTER},
	    {true, -1.5, 1.0, PP_SEQ_NOT_SLOWER},
	    {true, -0.5, 0.8, PP_SEQ_NOT_SLOWER},
	    {true, 0.2, 0.6, PP_SEQ_NOT_SLOWER},
	    {true, 0.5, 0.3, PP_SEQ_SLOWER_BELOW},
	    {true, 1.2, 0.5, PP_SEQ_SLOWER},
	    {true, 0.9, 0.3, PP_SEQ_UNDECIDED},
	    {true, 1.2, 0.8, PP_SEQ_UNDECIDED},
	};
	const size_t n = 40;
	double x[40], y[40], z;

	z = gsl_cdf_ugaussian_Qinv(ALPHA / 2.0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_seq_design d = design(PP_TEST_WELCH, ALPHA, 1.0, 2 * n, n);
		/* the sd of the difference of means is s sqrt(2 / (n - 1)) */
		double s = rows[i].half / (z * sqrt(2.0 / (double)(n - 1)));
		struct pp_seq_state st = {0};
		struct pp_seq_result r;
		int err;

		d.one_sided = rows[i].one_sided;
		for (size_t j = 0; j < n; j++) {
			x[j] = 100.0 + (j % 2 ? s : -s);
			y[j] = x[j] + rows[i].centre;
		}
		err = pp_seq_look(&d, &st, x, n, y, n, &r);
		CHECK(err == 0, "row %zu: error %d", i, err);
		CHECK_CLOSE("row", "low", r.diff.low, rows[i].centre - rows[i].half, 1e-9, 1e-9);
		CHECK_CLOSE("row", "high", r.diff.high, rows[i].centre + rows[i].half, 1e-9, 1e-9);
		CHECK(r.verdict == rows[i].want, "row %zu (%s, %g +- %g): %s, want %s", i,
		      rows[i].one_sided ? "one-sided" : "two-sided", rows[i].centre, rows[i].half,
		      pp_seq_verdict_name(r.verdict), pp_seq_verdict_name(rows[i].want));
	}
}

/*
 * The threshold means what it says: SLOWER at a true difference of T/2 at
 * most as often as a missed interval allows (alpha/2; the target is 10%),
 * at 1.5 T in at least 90% of the comparisons, with a budget that lets
 * every comparison decide.  T = 1, noise sd 1.
 */
#define THR_TRIALS 1000

static void check_threshold(gsl_rng *r, double *x, double *y)
{
	static const enum pp_test tests[] = {PP_TEST_MANN_WHITNEY, PP_TEST_WELCH};
	unsigned half_limit = binomial_limit(ALPHA / 2.0, THR_TRIALS);
	unsigned miss_limit = binomial_limit(0.10, THR_TRIALS);

	printf("threshold: SLOWER at T/2 in at most %u of %d (99.9%% limit at alpha/2; a rule "
	       "at 10%% passes with probability %.2g); at 1.5 T missed in at most %u (99.9%% "
	       "limit at 10%%; a rule at 80%% passes with probability %.2g)\n",
	       half_limit, THR_TRIALS, gsl_cdf_binomial_P(half_limit, 0.10, THR_TRIALS), miss_limit,
	       gsl_cdf_binomial_P(miss_limit, 0.20, THR_TRIALS));
	for (int one = 0; one < 2; one++)
		for (size_t t = 0; t < 2; t++)
			for (int nz = SEQ_NORMAL; nz <= SEQ_OUTLIERS; nz++) {
				struct pp_seq_design d =
				    one ? entry_design(tests[t], ALPHA, 1.0, 2000, 10)
					: design(tests[t], ALPHA, 1.0, 2000, 10);
				unsigned half[PP_SEQ_UNDECIDED + 1] = {0};
				unsigned big[PP_SEQ_UNDECIDED + 1] = {0};
				double sd =
				    nz == SEQ_OUTLIERS ? sqrt(1.0 + 0.02 * 0.98 * 400.0) : 1.0;

				for (int k = 0; k < THR_TRIALS; k++) {
					struct seq_outcome o = seq_simulate(
					    r, &d, (enum seq_noise)nz, 1.0 / sd, 0.5, x, y);
					struct seq_outcome o2 = seq_simulate(
					    r, &d, (enum seq_noise)nz, 1.0 / sd, 1.5, x, y);

					CHECK(o.err == 0 && o2.err == 0, "look failed: %d %d",
					      o.err, o2.err);
					half[o.last.verdict]++;
					big[o2.last.verdict]++;
				}
				printf("threshold %s %-12s %-9s: T/2: %u slower, %u slower below, "
				       "%u same or not slower, %u undecided; 1.5 T: %u slower, %u "
				       "undecided, %u other\n",
				       one ? "entry" : "two-sided", test_name(tests[t]),
				       noise_names[nz], half[PP_SEQ_SLOWER],
				       half[PP_SEQ_SLOWER_BELOW],
				       half[PP_SEQ_SAME] + half[PP_SEQ_NOT_SLOWER],
				       half[PP_SEQ_UNDECIDED], big[PP_SEQ_SLOWER],
				       big[PP_SEQ_UNDECIDED],
				       THR_TRIALS - big[PP_SEQ_SLOWER] - big[PP_SEQ_UNDECIDED]);
				CHECK(half[PP_SEQ_SLOWER] <= half_limit,
				      "%s %s: T/2 called slower %u times (limit %u)",
				      test_name(tests[t]), noise_names[nz], half[PP_SEQ_SLOWER],
				      half_limit);
				CHECK(THR_TRIALS - big[PP_SEQ_SLOWER] <= miss_limit,
				      "%s %s: 1.5 T called slower only %u times",
				      test_name(tests[t]), noise_names[nz], big[PP_SEQ_SLOWER]);
				CHECK(half[PP_SEQ_FASTER] + half[PP_SEQ_FASTER_BELOW] <= half_limit,
				      "%s %s: T/2 called faster", test_name(tests[t]),
				      noise_names[nz]);
			}
}

struct aa_case {
	enum pp_test test;
	enum seq_noise noise;
	size_t first, budget;
	double growth, rho;
};

static unsigned aa_false_claims(gsl_rng *r, const struct aa_case *c, double *x, double *y)
{
	struct pp_seq_design d = design(c->test, ALPHA, 0.0, c->budget, c->first);
	unsigned claims = 0, errors = 0;
	double runs = 0.0;

	d.growth = c->growth;
	d.rho = c->rho;
	for (int k = 0; k < AA_TRIALS; k++) {
		struct seq_outcome o = seq_simulate(r, &d, c->noise, 1.0, 0.0, x, y);

		errors += o.err != 0;
		claims += o.last.verdict == PP_SEQ_SLOWER || o.last.verdict == PP_SEQ_FASTER;
		runs += (double)o.last.runs;
		CHECK(o.last.verdict == PP_SEQ_SLOWER || o.last.verdict == PP_SEQ_FASTER ||
			  o.last.verdict == PP_SEQ_UNDECIDED,
		      "threshold 0 gave %s", pp_seq_verdict_name(o.last.verdict));
		CHECK(o.min_confidence >= 1.0 - ALPHA, "an interval at %.4f", o.min_confidence);
		CHECK(o.last.spent <= ALPHA * (1.0 + 1e-12), "spent %g", o.last.spent);
	}
	CHECK(errors == 0, "%u looks failed", errors);
	printf("A/A %-12s %-9s first %2zu growth %4.2f rho %4.1f budget %4zu (%u looks): %5.2f%% "
	       "false claims, %.0f runs\n",
	       test_name(c->test), noise_names[c->noise], c->first, c->growth, c->rho, c->budget,
	       pp_seq_looks(&d), 100.0 * claims / AA_TRIALS, runs / AA_TRIALS);
	return claims;
}

/*
 * Each look's test on its own is valid under A/A: over 2000 sessions of
 * cumulative values, the p-values at every look size of the schedule
 * (n = 13, 19, 27, 38, 54, 76 pairs) are uniform, or stochastically larger
 * where the exact distribution is discrete.  Two checks, each at a
 * family-wise 0.1 % over the 36 looks and designs: in the tail that alpha
 * is spent in, the p-values at most u = 0.01 and 0.05 are no more than
 * Binomial(N, u)'s quantile at 1 - 0.001 / 72 allows; overall, the
 * empirical CDF never exceeds u by more than the one-sided Kolmogorov bound
 * at 0.001 / 36 (sqrt(ln(36000) / 2) / sqrt(N), P(sqrt(N) D+ > l) ~
 * exp(-2 l^2)).  The paired signed-rank and paired t, and the unpaired
 * Mann-Whitney and Welch, on normal, skewed and outlier noise.  The
 * sequential guarantee rests on this: alpha spent at a look is that look's
 * type I error.
 */
static void check_look_pvalues(gsl_rng *r, double *x, double *y)
{
	static const size_t looks[] = {13, 19, 27, 38, 54, 76};
	static const double tail[] = {0.01, 0.05};
	static const struct {
		enum pp_test test;
		bool paired;
		enum seq_noise noise;
	} cases[] = {
	    {PP_TEST_MANN_WHITNEY, true, SEQ_NORMAL},
	    {PP_TEST_MANN_WHITNEY, true, SEQ_LOGNORMAL},
	    {PP_TEST_MANN_WHITNEY, true, SEQ_OUTLIERS},
	    {PP_TEST_WELCH, true, SEQ_NORMAL},
	    {PP_TEST_MANN_WHITNEY, false, SEQ_LOGNORMAL},
	    {PP_TEST_WELCH, false, SEQ_NORMAL},
	};
	enum {
		N = 2000,
		NL = sizeof(looks) / sizeof(looks[0]),
		NC = sizeof(cases) / sizeof(cases[0])
	};
	static double p[NL][N];
	const double bound = sqrt(log(1000.0 * NL * NC) / 2.0) / sqrt((double)N);
	unsigned limit[2];

	for (int u = 0; u < 2; u++) {
		unsigned k = 0;

		while (k < N && gsl_cdf_binomial_Q(k, tail[u], N) > 0.001 / (2.0 * NL * NC))
			k++;
		limit[u] = k;
	}
	for (size_t c = 0; c < NC; c++) {
		double worst = 0;
		size_t worst_look = 0;

		for (size_t t = 0; t < N; t++) {
			seq_fill(r, cases[c].noise, 1.0, 0.0, x, y, 0, looks[NL - 1]);
			for (size_t k = 0; k < NL; k++) {
				struct pp_comparison cmp;
				int err = cases[c].paired ? pp_compare_paired(cases[c].test, x, y,
									      looks[k], 0.95, &cmp)
							  : pp_compare(cases[c].test, x, looks[k],
								       y, looks[k], 0.95, &cmp);

				p[k][t] = err ? NAN : cmp.p_value;
			}
		}
		for (size_t k = 0; k < NL; k++) {
			unsigned below[2] = {0, 0};

			gsl_sort(p[k], 1, N);
			CHECK(isfinite(p[k][0]) && isfinite(p[k][N - 1]),
			      "case %zu look %zu: a comparison failed", c, looks[k]);
			for (size_t i = 0; i < N; i++) {
				/* F_N jumps to (i + 1) / N at the i-th smallest p-value */
				double d = (double)(i + 1) / N - p[k][i];

				if (d > worst) {
					worst = d;
					worst_look = looks[k];
				}
				for (int u = 0; u < 2; u++)
					below[u] += p[k][i] <= tail[u];
			}
			for (int u = 0; u < 2; u++)
				CHECK(
				    below[u] <= limit[u],
				    "case %zu look %zu: %u of %d p-values at most %.2f, at most %u "
				    "expected",
				    c, looks[k], below[u], N, tail[u], limit[u]);
		}
		printf("per-look p-values, case %zu (%s, %s, %s): largest excess of the empirical "
		       "CDF over u %.4f at %zu pairs (bound %.4f)\n",
		       c, test_name(cases[c].test), cases[c].paired ? "paired" : "unpaired",
		       noise_names[cases[c].noise], worst, worst_look, bound);
		CHECK(worst <= bound,
		      "case %zu: p-values at look %zu exceed uniform by %.4f > %.4f", c, worst_look,
		      worst, bound);
	}
}

/* The rule alpha spending replaces: every look re-tests the pooled values at the full 95%. */
static unsigned naive_false_claims(gsl_rng *r, size_t round, size_t budget, double *x, double *y)
{
	unsigned claims = 0;

	for (int k = 0; k < AA_TRIALS; k++) {
		for (size_t n = 0; 2 * n < budget;) {
			struct pp_comparison c;

			for (size_t want = n + round; n < want; n++) {
				x[n] = seq_draw(r, SEQ_NORMAL);
				y[n] = seq_draw(r, SEQ_NORMAL);
			}
			if (pp_compare(PP_TEST_WELCH, x, n, y, n, 1.0 - ALPHA, &c) == 0 &&
			    c.significant) {
				claims++;
				break;
			}
		}
	}
	return claims;
}

static void check_aa(gsl_rng *r, double *x, double *y)
{
	static const struct aa_case cases[] = {
	    {PP_TEST_MANN_WHITNEY, SEQ_NORMAL, 10, 2000, PP_SEQ_GROWTH, PP_SEQ_RHO},
	    {PP_TEST_MANN_WHITNEY, SEQ_LOGNORMAL, 10, 2000, PP_SEQ_GROWTH, PP_SEQ_RHO},
	    {PP_TEST_MANN_WHITNEY, SEQ_OUTLIERS, 10, 2000, PP_SEQ_GROWTH, PP_SEQ_RHO},
	    {PP_TEST_MANN_WHITNEY, SEQ_NORMAL, 10, 2000, PP_SEQ_GROWTH, PP_SEQ_ENTRY_RHO},
	    {PP_TEST_MANN_WHITNEY, SEQ_LOGNORMAL, 5, 200, 1.5, -1.0},
	    {PP_TEST_MANN_WHITNEY, SEQ_NORMAL, 5, 100, 1.25, 0.0},
	    {PP_TEST_MANN_WHITNEY, SEQ_OUTLIERS, 3, 400, 3.0, 3.0},
	    {PP_TEST_WELCH, SEQ_NORMAL, 10, 2000, PP_SEQ_GROWTH, PP_SEQ_RHO},
	    {PP_TEST_WELCH, SEQ_LOGNORMAL, 10, 2000, PP_SEQ_GROWTH, PP_SEQ_RHO},
	    {PP_TEST_WELCH, SEQ_OUTLIERS, 10, 400, PP_SEQ_GROWTH, PP_SEQ_ENTRY_RHO},
	    {PP_TEST_WELCH, SEQ_NORMAL, 5, 60, 1.25, -1.0},
	    {PP_TEST_WELCH, SEQ_LOGNORMAL, 3, 200, 1.5, 1.0},
	};
	size_t nc = sizeof(cases) / sizeof(cases[0]);
	unsigned limit = binomial_limit(ALPHA, AA_TRIALS), total = 0, naive;
	unsigned total_limit = binomial_limit(ALPHA, AA_TRIALS * (unsigned)nc);

	printf("bound: at most %u false claims in %d A/A comparisons (99.9%% quantile of "
	       "Binomial(%d, %.2f)); a 10%% rule stays within it with probability %.4f\n",
	       limit, AA_TRIALS, AA_TRIALS, ALPHA, gsl_cdf_binomial_P(limit, 0.10, AA_TRIALS));
	for (size_t i = 0; i < nc; i++) {
		unsigned c = aa_false_claims(r, &cases[i], x, y);

		total += c;
		CHECK(c <= limit, "A/A %s %s first %zu budget %zu: %u false claims > %u",
		      test_name(cases[i].test), noise_names[cases[i].noise], cases[i].first,
		      cases[i].budget, c, limit);
	}
	printf("A/A all: %u false claims in %zu comparisons (%.2f%%, bound %u)\n", total,
	       nc * AA_TRIALS, 100.0 * total / (nc * AA_TRIALS), total_limit);
	CHECK(total <= total_limit, "A/A overall: %u false claims > %u", total, total_limit);

	naive = naive_false_claims(r, 10, 400, x, y);
	printf("naive rule (each of 20 looks at 95%%): %.2f%% false claims\n",
	       100.0 * naive / AA_TRIALS);
	CHECK(naive > limit, "the naive rule passed the bound (%u <= %u): the check cannot fail",
	      naive, limit);
}

/*
 * A machine that gets noisier while a comparison is measured: pair i's
 * difference has sd (1 + i)^2, so that each look's new pairs outrank all
 * the earlier ones and a look's statistic is nearly independent of the
 * last one's.  The split holds the rate whatever the looks' correlation
 * (each look's signed-rank interval holds its level given the differences'
 * sizes, the signs being fair draws): A/A paired, threshold 0, the
 * driver's growth and the parts' weights, a budget of 300 pairs (11
 * looks), at most the same binomial bound.  An exact group-sequential
 * boundary for the same spending, which assumes the correlation of
 * independent increments, claimed 7.0 % here (bench/power.c).
 */
static void check_noisier(gsl_rng *r, double *x, double *y)
{
	struct pp_seq_design d = design(PP_TEST_MANN_WHITNEY, ALPHA, 0.0, 600, 10);
	unsigned claims = 0, errors = 0, limit = binomial_limit(ALPHA, AA_TRIALS);

	d.paired = true;
	for (int t = 0; t < AA_TRIALS; t++) {
		struct pp_seq_state st = {0};
		struct pp_seq_result res = {.verdict = PP_SEQ_CONTINUE};
		size_t n = 0;

		for (unsigned k = 1; res.verdict == PP_SEQ_CONTINUE; k++) {
			size_t want = pp_seq_look_size(&d, k);

			for (; n < want; n++) {
				x[n] = 100.0;
				y[n] = 100.0 +
				       gsl_ran_gaussian(r, (1.0 + (double)n) * (1.0 + (double)n));
			}
			if (pp_seq_look(&d, &st, x, n, y, n, &res)) {
				errors++;
				break;
			}
		}
		claims += res.verdict == PP_SEQ_SLOWER || res.verdict == PP_SEQ_FASTER;
	}
	printf("A/A paired signed-rank, noise growing as (1 + pairs)^2, %u looks: %.2f%% false "
	       "claims (bound %u of %d)\n",
	       pp_seq_looks(&d), 100.0 * claims / AA_TRIALS, limit, AA_TRIALS);
	CHECK(errors == 0, "%u looks failed", errors);
	CHECK(claims <= limit, "noise growing within a comparison: %u false claims > %u", claims,
	      limit);
}

/*
 * Simulated sessions through the real decision: the entry first, and only
 * after an entry SLOWER its SESSION_CHILDREN callees, each at
 * pp_seq_child_alpha(alpha, SESSION_CHILDREN) (doc/statistics.md).  With
 * nothing slower a session may claim nothing; with callee 0 slower it may
 * name no other callee.  Either at most alpha of the sessions (same bound).
 * Threshold 0: every difference counts.
 */
#define SESSION_CHILDREN 3

static bool comparison_slower(gsl_rng *r, double alpha, double shift, double *x, double *y,
			      bool entry)
{
	struct pp_seq_design d = entry ? entry_design(PP_TEST_MANN_WHITNEY, alpha, 0.0, 200, 10)
				       : design(PP_TEST_MANN_WHITNEY, alpha, 0.0, 200, 10);
	struct seq_outcome o = seq_simulate(r, &d, SEQ_LOGNORMAL, 1.0, shift, x, y);

	CHECK(o.err == 0, "look failed: %d", o.err);
	return o.last.verdict == PP_SEQ_SLOWER;
}

static void check_sessions(gsl_rng *r, double *x, double *y)
{
	double child = pp_seq_child_alpha(ALPHA, SESSION_CHILDREN);
	unsigned aa = 0, wrong = 0, found = 0, limit = binomial_limit(ALPHA, AA_TRIALS);

	for (int k = 0; k < AA_TRIALS; k++) {
		/* The entry's SLOWER is itself the claim; its callees only add detail. */
		bool claim = comparison_slower(r, ALPHA, 0.0, x, y, true);

		if (claim)
			for (int c = 0; c < SESSION_CHILDREN; c++)
				comparison_slower(r, child, 0.0, x, y, false);
		aa += claim;
	}
	for (int k = 0; k < AA_TRIALS; k++) {
		bool bad = false;

		if (!comparison_slower(r, ALPHA, 1.0, x, y, true))
			continue;
		found += comparison_slower(r, child, 1.0, x, y, false);
		for (int c = 1; c < SESSION_CHILDREN; c++)
			bad |= comparison_slower(r, child, 0.0, x, y, false);
		wrong += bad;
	}
	printf("sessions: A/A %u of %d claim a regression; callee 0 slower by 1 sd: named in %u, "
	       "another callee named in %u (bound %u)\n",
	       aa, AA_TRIALS, found, wrong, limit);
	CHECK(aa <= limit, "A/A sessions: %u claims > %u", aa, limit);
	CHECK(wrong <= limit, "sessions: a callee without regression named %u times > %u", wrong,
	      limit);
	CHECK(found >= AA_TRIALS * 9 / 10, "sessions: the slower callee named only %u times",
	      found);
}

/*
 * A true shift of 1 sd with threshold 0.2 sd: found, in runs close to the
 * fixed-sample minimum of an interval clear of T/2 (SLOWER's low end).
 */
static void check_power(gsl_rng *r, double *x, double *y)
{
	static const enum pp_test tests[] = {PP_TEST_WELCH, PP_TEST_MANN_WHITNEY};
	const int trials = 400;
	size_t fixed = pp_seq_fixed_n(ALPHA, PP_SEQ_MDE_POWER, 1.0, 1.0, 0.1);

	for (size_t t = 0; t < 2; t++) {
		struct pp_seq_design d = design(tests[t], ALPHA, 0.2, 1000, 5);
		unsigned slower = 0, wrong = 0;
		double runs = 0.0, ratio;

		for (int k = 0; k < trials; k++) {
			struct seq_outcome o = seq_simulate(r, &d, SEQ_NORMAL, 1.0, 1.0, x, y);

			CHECK(o.err == 0, "look failed: %d", o.err);
			slower += o.last.verdict == PP_SEQ_SLOWER;
			wrong +=
			    o.last.verdict != PP_SEQ_SLOWER && o.last.verdict != PP_SEQ_UNDECIDED;
			runs += (double)o.last.runs;
		}
		runs /= trials;
		ratio = runs / (2.0 * (double)fixed);
		printf("shift 1 sd, threshold 0.2 sd, %s: %.1f%% slower, %u wrong, mean runs %.1f, "
		       "fixed-sample minimum %zu (80%% power): ratio %.2f\n",
		       test_name(tests[t]), 100.0 * slower / trials, wrong, runs, 2 * fixed, ratio);
		CHECK(slower >= 0.95 * trials, "%s: only %u of %d shifts found",
		      test_name(tests[t]), slower, trials);
		CHECK(wrong <= binomial_limit(ALPHA / 2.0, (unsigned)trials),
		      "%s: %u wrong verdicts", test_name(tests[t]), wrong);
		CHECK(ratio <= 2.5, "%s: runs used %.2f x the fixed-sample minimum",
		      test_name(tests[t]), ratio);
	}
}

/* Shown within the threshold, whatever the sign. */
static unsigned within(const unsigned *count)
{
	return count[PP_SEQ_SAME] + count[PP_SEQ_SLOWER_BELOW] + count[PP_SEQ_FASTER_BELOW] +
	       count[PP_SEQ_NOT_SLOWER];
}

/*
 * A shift right at the threshold: shown within it (or faster) only through
 * an interval that misses it (alpha/2); with a budget that lets the
 * interval become narrower than T/2, mostly SLOWER, the rest UNDECIDED (a
 * centre that stays just below T is neither shown T or more nor within
 * T).  With a budget too small for that, UNDECIDED, with its interval not
 * within the threshold.
 */
static void check_undecided(gsl_rng *r, double *x, double *y)
{
	static const enum pp_test tests[] = {PP_TEST_WELCH, PP_TEST_MANN_WHITNEY};
	const unsigned trials = 400;

	for (size_t t = 0; t < 2; t++) {
		struct pp_seq_design d = design(tests[t], ALPHA, 0.5, 4000, 10);
		unsigned count[PP_SEQ_UNDECIDED + 1] = {0}, small[PP_SEQ_UNDECIDED + 1] = {0};
		unsigned limit = binomial_limit(ALPHA / 2.0, trials);
		double runs = 0.0;

		for (unsigned k = 0; k < trials; k++) {
			struct seq_outcome o = seq_simulate(r, &d, SEQ_NORMAL, 1.0, 0.5, x, y);

			CHECK(o.err == 0, "look failed: %d", o.err);
			count[o.last.verdict]++;
			runs += (double)o.last.runs;
		}
		printf("shift = threshold, %s, budget %zu: %u slower, %u within, %u undecided of "
		       "%u, mean runs %.0f\n",
		       test_name(tests[t]), d.budget, count[PP_SEQ_SLOWER], within(count),
		       count[PP_SEQ_UNDECIDED], trials, runs / trials);
		CHECK(within(count) + count[PP_SEQ_FASTER] <= limit,
		      "%s: %u within, %u faster at +T (bound %u)", test_name(tests[t]),
		      within(count), count[PP_SEQ_FASTER], limit);
		CHECK(count[PP_SEQ_SLOWER] >= trials / 2, "%s: only %u slower", test_name(tests[t]),
		      count[PP_SEQ_SLOWER]);

		d.budget = 40;
		for (unsigned k = 0; k < trials; k++) {
			struct seq_outcome o = seq_simulate(r, &d, SEQ_NORMAL, 1.0, 0.5, x, y);

			CHECK(o.err == 0, "look failed: %d", o.err);
			small[o.last.verdict]++;
			if (o.last.verdict == PP_SEQ_UNDECIDED) {
				CHECK(o.last.runs == d.budget, "undecided after %zu runs",
				      o.last.runs);
				CHECK(o.last.mde >= d.threshold && isfinite(o.last.mde),
				      "undecided with MDE %g", o.last.mde);
				CHECK(o.last.diff.high >= d.threshold ||
					  o.last.diff.low <= -d.threshold,
				      "undecided with [%g, %g]", o.last.diff.low, o.last.diff.high);
			}
		}
		printf("shift = threshold, %s, budget 40: %u slower, %u within, %u undecided of "
		       "%u\n",
		       test_name(tests[t]), small[PP_SEQ_SLOWER], within(small),
		       small[PP_SEQ_UNDECIDED], trials);
		CHECK(within(small) <= limit, "%s: %u within at +T with a small budget",
		      test_name(tests[t]), within(small));
		CHECK(small[PP_SEQ_UNDECIDED] >= trials / 4, "%s: only %u undecided at budget 40",
		      test_name(tests[t]), small[PP_SEQ_UNDECIDED]);
	}
}

/*
 * The entry's one-sided design.  Wrong: NOT_SLOWER, SLOWER_BELOW or FASTER
 * at a true shift of +T (each needs an interval missing the truth: alpha/2
 * at most).  Useful: identical series with a budget too small to put the
 * interval inside +-T end NOT_SLOWER instead of UNDECIDED.
 */
static void check_one_sided(gsl_rng *r, double *x, double *y)
{
	static const enum pp_test tests[] = {PP_TEST_WELCH, PP_TEST_MANN_WHITNEY};
	const unsigned trials = 400;

	for (size_t t = 0; t < 2; t++) {
		struct pp_seq_design d = entry_design(tests[t], ALPHA, 0.4, 240, 10);
		struct pp_seq_design two = design(tests[t], ALPHA, 0.4, 240, 10);
		unsigned wrong = 0, not_slower = 0, undecided_two = 0, limit;

		for (unsigned k = 0; k < trials; k++) {
			struct seq_outcome o = seq_simulate(r, &d, SEQ_NORMAL, 1.0, 0.4, x, y);

			CHECK(o.err == 0, "look failed: %d", o.err);
			CHECK(o.last.verdict != PP_SEQ_SAME &&
				  o.last.verdict != PP_SEQ_FASTER_BELOW,
			      "a one-sided design said %s", pp_seq_verdict_name(o.last.verdict));
			wrong += o.last.verdict == PP_SEQ_NOT_SLOWER ||
				 o.last.verdict == PP_SEQ_SLOWER_BELOW ||
				 o.last.verdict == PP_SEQ_FASTER;
			if (o.last.verdict == PP_SEQ_NOT_SLOWER)
				CHECK(o.last.diff.high < d.threshold && o.last.diff.low <= 0.0,
				      "NOT_SLOWER with [%g, %g]", o.last.diff.low,
				      o.last.diff.high);
		}
		for (unsigned k = 0; k < trials; k++) {
			struct seq_outcome o = seq_simulate(r, &d, SEQ_NORMAL, 1.0, 0.0, x, y);
			struct seq_outcome o2 = seq_simulate(r, &two, SEQ_NORMAL, 1.0, 0.0, x, y);

			CHECK(o.err == 0 && o2.err == 0, "look failed: %d %d", o.err, o2.err);
			CHECK(o2.last.verdict != PP_SEQ_NOT_SLOWER,
			      "a two-sided design said NOT_SLOWER");
			not_slower += o.last.verdict == PP_SEQ_NOT_SLOWER;
			undecided_two += o2.last.verdict == PP_SEQ_UNDECIDED;
		}
		limit = binomial_limit(ALPHA / 2.0, trials);
		printf("one-sided, %s: shift = +threshold: %u of %u below it (bound %u); "
		       "no shift: %u not slower, two-sided %u undecided\n",
		       test_name(tests[t]), wrong, trials, limit, not_slower, undecided_two);
		CHECK(wrong <= limit, "%s: %u wrong one-sided verdicts (bound %u)",
		      test_name(tests[t]), wrong, limit);
		CHECK(not_slower >= trials * 3 / 5 && not_slower > trials - undecided_two,
		      "%s: only %u of %u identical series not slower (two-sided: %u decided)",
		      test_name(tests[t]), not_slower, trials, trials - undecided_two);
		CHECK(undecided_two >= trials / 4,
		      "%s: two-sided decides %u of %u: no case for one-sided", test_name(tests[t]),
		      trials - undecided_two, trials);
	}
}

/*
 * The first attainable look (pp_seq_first_attainable): with data that put
 * every ordering at its most extreme (all pairs' differences positive,
 * every y above every x), a first look of the size it returns has an
 * interval at look 1's level, and a first look one smaller, in the design
 * that schedule would have, has none; welch's is the size asked for.
 */
static void check_first_attainable(void)
{
	static const struct {
		enum pp_test test;
		bool paired, entry;
		double alpha;
	} cases[] = {
	    {PP_TEST_MANN_WHITNEY, true, true, 0.05},  {PP_TEST_MANN_WHITNEY, true, false, 0.05},
	    {PP_TEST_MANN_WHITNEY, true, true, 0.001}, {PP_TEST_MANN_WHITNEY, true, false, 0.01},
	    {PP_TEST_MANN_WHITNEY, false, true, 0.05}, {PP_TEST_MANN_WHITNEY, false, false, 0.01},
	    {PP_TEST_WELCH, true, true, 0.05},	       {PP_TEST_WELCH, false, false, 0.01},
	};
	double x[64], y[64];

	for (size_t i = 0; i < 64; i++) {
		x[i] = (double)i;
		y[i] = 1000.0 + (double)i;
	}
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pp_seq_design d =
		    cases[c].entry ? entry_design(cases[c].test, cases[c].alpha, 1.0, 400, 3)
				   : design(cases[c].test, cases[c].alpha, 1.0, 400, 3);
		size_t n;

		d.paired = cases[c].paired;
		n = pp_seq_first_attainable(&d);
		CHECK(n >= 3 && n < 64, "case %zu: first attainable look %zu", c, n);
		if (n < 3 || n >= 64)
			continue;
		if (cases[c].test == PP_TEST_WELCH)
			CHECK(n == 3, "case %zu: welch's first look moved to %zu", c, n);
		for (size_t k = n > 3 ? n - 1 : n; k <= n; k++) {
			struct pp_seq_design t = d;
			struct pp_seq_state st = {0};
			struct pp_seq_result res;
			int err;

			t.first = k;
			err = pp_seq_look(&t, &st, x, k, y, k, &res);
			CHECK(!err && (res.confidence > 0) == (k == n),
			      "case %zu: a first look of %zu (first attainable %zu): err %d, "
			      "confidence %g",
			      c, k, n, err, res.confidence);
		}
	}
	CHECK(pp_seq_first_attainable(NULL) == 0, "no design: 0");
}

/* Mann-Whitney with 3 and 3 values: its best interval is at 90%, so none at 95%. */
static void check_n3(void)
{
	static const double x[] = {1.0, 2.0, 3.0, 4.0}, y[] = {1.5, 2.5, 3.5, 4.5};
	struct pp_seq_design d = design(PP_TEST_MANN_WHITNEY, ALPHA, 10.0, 6, 3);
	struct pp_seq_state st = {0};
	struct pp_seq_result res;
	int err;

	CHECK(!pp_seq_attainable(PP_TEST_MANN_WHITNEY, 3, 3, 0.05), "3 and 3 reach 95%%?");
	CHECK(pp_seq_attainable(PP_TEST_MANN_WHITNEY, 3, 3, 0.10 + 1e-9), "3 and 3 reach 90%%");
	/* Budget 6: one look, at the full alpha, and still no interval: UNDECIDED, not SAME. */
	err = pp_seq_look(&d, &st, x, 3, y, 3, &res);
	CHECK(err == 0 && res.verdict == PP_SEQ_UNDECIDED, "n=3 at the budget: %d %s", err,
	      pp_seq_verdict_name(res.verdict));
	CHECK(res.alpha_look == 0.0 && res.confidence == 0.0 && res.spent == 0.0,
	      "n=3: an interval at %g", res.confidence);
	CHECK(isinf(res.diff.low) && isinf(res.diff.high) && isinf(res.mde),
	      "n=3: interval [%g, %g], MDE %g", res.diff.low, res.diff.high, res.mde);

	/* Budget 8, looks at 3 and 4: the first continues, the second has 95%. */
	d.budget = 8;
	d.growth = 1.25;
	CHECK(pp_seq_looks(&d) == 2 && pp_seq_look_size(&d, 1) == 3 && pp_seq_look_size(&d, 2) == 4,
	      "budget 8: looks at %zu and %zu", pp_seq_look_size(&d, 1), pp_seq_look_size(&d, 2));
	memset(&st, 0, sizeof(st));
	err = pp_seq_look(&d, &st, x, 3, y, 3, &res);
	CHECK(err == 0 && res.verdict == PP_SEQ_CONTINUE && res.alpha_look == 0.0,
	      "n=3 first look: %d %s alpha %g", err, pp_seq_verdict_name(res.verdict),
	      res.alpha_look);
	err = pp_seq_look(&d, &st, x, 4, y, 4, &res);
	CHECK(err == 0 && res.verdict == PP_SEQ_SAME, "n=4 last look: %d %s", err,
	      pp_seq_verdict_name(res.verdict));
	CHECK_CLOSE("n4", "alpha_look", res.alpha_look, ALPHA, 1e-12, 0);
	CHECK(res.confidence >= 1.0 - ALPHA - 1e-12, "n=4: interval at %g", res.confidence);
}

static void check_bad_input(void)
{
	static const double x[] = {1.0, 2.0, 3.0}, y[] = {1.5, 2.5, NAN};
	struct pp_seq_design d = design(PP_TEST_WELCH, ALPHA, 0.0, 100, 2);
	struct pp_seq_state st = {0};
	struct pp_seq_result res;

	CHECK(pp_seq_look(&d, &st, x, 1, y, 2, &res) == -EINVAL, "n=1 accepted");
	CHECK(pp_seq_look(&d, &st, x, 3, y, 3, &res) == -EINVAL, "NaN accepted");
	d.budget = 3;
	CHECK(pp_seq_look(&d, &st, x, 2, y, 2, &res) == -EINVAL, "budget 3 accepted");
	d.budget = 100;
	d.alpha = 1.0;
	CHECK(pp_seq_look(&d, &st, x, 2, y, 2, &res) == -EINVAL, "alpha 1 accepted");
	d.alpha = ALPHA;
	d.threshold = -1.0;
	CHECK(pp_seq_look(&d, &st, x, 2, y, 2, &res) == -EINVAL, "negative threshold accepted");
	d.threshold = 0.0;
	d.first = 1;
	CHECK(pp_seq_look(&d, &st, x, 2, y, 2, &res) == -EINVAL, "a first look of 1 accepted");
	CHECK(pp_seq_look_size(&d, 1) == 0 && pp_seq_looks(&d) == 0 &&
		  isnan(pp_seq_spent_after(&d, 1)),
	      "a schedule for a first look of 1");
	d.first = 2;
	d.growth = 1.0;
	CHECK(pp_seq_look(&d, &st, x, 2, y, 2, &res) == -EINVAL, "growth 1 accepted");
	d.growth = PP_SEQ_GROWTH;
	d.rho = NAN;
	CHECK(pp_seq_look(&d, &st, x, 2, y, 2, &res) == -EINVAL, "rho NaN accepted");
	d.rho = PP_SEQ_RHO;
	CHECK(pp_seq_look_size(&d, 0) == 0 && isnan(pp_seq_spent_after(&d, 0)), "look 0");
	CHECK(pp_seq_look(&d, &st, x, 3, y, 2, &res) == 0, "a first look failed");
	CHECK(pp_seq_look(&d, &st, x, 3, y, 2, &res) == -EINVAL, "a look without new runs");
	d.budget = 4;
	memset(&st, 0, sizeof(st));
	CHECK(pp_seq_look(&d, &st, x, 2, y, 2, &res) == 0 && res.verdict != PP_SEQ_CONTINUE,
	      "a look at the budget continued");
	CHECK(pp_seq_look(&d, &st, x, 3, y, 2, &res) == -EINVAL, "a look after the verdict");
	CHECK(isnan(pp_seq_mde(0.05, 0.8, -1.0, 0.0)), "MDE of a negative se");
	CHECK(pp_seq_fixed_n(0.05, 0.8, 1.0, 0.5, 0.5) == 0, "fixed n at effect = threshold");
	CHECK(isnan(pp_seq_child_alpha(0.05, 0)), "alpha shared among no comparison");
	CHECK_CLOSE("child", "alpha", pp_seq_child_alpha(0.05, 4), 0.0125, 1e-15, 0);
}

static void check_runs_to_decide(void)
{
	/* Beyond the threshold: SLOWER needs h < 3 - 0.5: 10 (4 / 2.5)^2 = 25.6. */
	CHECK_CLOSE("runs", "slower", pp_seq_runs_to_decide(3.0, 4.0, 1.0, false, 10), 26.0, 0, 0);
	/* Below -T: FASTER needs h < 2.5 - 0.5: 10 (3 / 2)^2 = 22.5. */
	CHECK_CLOSE("runs", "faster", pp_seq_runs_to_decide(-2.5, 3.0, 1.0, false, 10), 23.0, 0, 0);
	/* Within: needs h < T - |c| = 0.5: 10 (1 / 0.5)^2 = 40. */
	CHECK_CLOSE("runs", "same", pp_seq_runs_to_decide(-0.5, 1.0, 1.0, false, 10), 40.0, 0, 0);
	/* Near T, below it: within needs h < 0.25: 10 (1.5 / 0.25)^2 = 360. */
	CHECK_CLOSE("runs", "near T", pp_seq_runs_to_decide(0.75, 1.5, 1.0, false, 10), 360.0, 0,
		    0);
	/* One-sided: below +T needs h < T - c = 1.5: 10 (3 / 1.5)^2 = 40. */
	CHECK_CLOSE("runs", "not slower", pp_seq_runs_to_decide(-0.5, 3.0, 1.0, true, 10), 40.0, 0,
		    0);
	/* Right at the threshold: SLOWER at h < T/2, 10 (2 / 0.5)^2 = 160, not never. */
	CHECK_CLOSE("runs", "at T", pp_seq_runs_to_decide(1.0, 2.0, 1.0, false, 10), 160.0, 0, 0);
	CHECK_CLOSE("runs", "at T, one-sided", pp_seq_runs_to_decide(1.0, 2.0, 1.0, true, 10),
		    160.0, 0, 0);
	/* Rounded up, and never fewer than already used. */
	CHECK_CLOSE("runs", "ceil", pp_seq_runs_to_decide(0.25, 1.1, 1.0, false, 10), 22.0, 0, 0);
	CHECK_CLOSE("runs", "at least n", pp_seq_runs_to_decide(5.0, 1.0, 1.0, false, 10), 10.0, 0,
		    0);
	CHECK(isinf(pp_seq_runs_to_decide(0.0, 1.0, 0.0, false, 10)), "threshold 0 at centre 0");
	CHECK(isnan(pp_seq_runs_to_decide(0.0, -1.0, 1.0, false, 10)), "negative half-width");
	CHECK(isnan(pp_seq_runs_to_decide(0.0, 1.0, 1.0, false, 1)), "one value per series");
}

/*
 * Runs in pairs on a drifting machine, through the real rule with layouts
 * (pp_seq_look_in): every run's time has a level that wanders (AR(1),
 * coefficient PAIR_AR, stationary sd PAIR_DRIFT run sds, shared by both runs
 * of a pair), each revision's layout effects (sd @layout_sd, PAIR_UNITS
 * layouts, pair i in layout unit[i] of each) and a run's own noise (sd 1).
 * The same values go to the paired design and to the independent one.
 */
#define PAIR_UNITS 16
#define PAIR_AR 0.98
#define PAIR_DRIFT 2.0

struct pair_run {
	struct pp_seq_result last;
	int err;
};

static struct pair_run pair_simulate(gsl_rng *r, const struct pp_seq_design *d, double shift,
				     double layout_sd, double *x, double *y, unsigned *lay,
				     bool redraw, double *level)
{
	static double lp[PAIR_UNITS], lc[PAIR_UNITS];
	struct pp_seq_state st = {0};
	struct pair_run o = {0};
	size_t n = 0, budget = d->budget / 2;
	double step = PAIR_DRIFT * sqrt(1.0 - PAIR_AR * PAIR_AR);

	if (redraw) {
		for (int u = 0; u < PAIR_UNITS; u++) {
			lp[u] = gsl_ran_gaussian(r, layout_sd);
			lc[u] = gsl_ran_gaussian(r, layout_sd);
		}
		for (size_t i = 0; i < budget; i++) {
			*level = PAIR_AR * *level + gsl_ran_gaussian(r, step);
			lay[i] = (unsigned)gsl_rng_uniform_int(r, PAIR_UNITS);
			x[i] = 100.0 + *level + lp[lay[i]] + gsl_ran_gaussian(r, 1.0);
			y[i] = 100.0 + shift + *level + lc[lay[i]] + gsl_ran_gaussian(r, 1.0);
		}
	}
	for (unsigned k = 1;; k++) {
		n = pp_seq_look_size(d, k);
		o.err = pp_seq_look_in(d, &st, x, lay, n, y, lay, n, &o.last);
		if (o.err || o.last.verdict != PP_SEQ_CONTINUE)
			return o;
	}
}

static int by_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * A/A: the paired rule claims a difference (threshold 0) in at most alpha of
 * the sessions, with and without layout effects, for both tests.  A shift of
 * 1 sd: both designs find it, the paired one in fewer runs (median), since
 * the machine's drift cancels in a pair's difference.
 */
static void check_paired(gsl_rng *r, double *x, double *y)
{
	static const enum pp_test tests[] = {PP_TEST_MANN_WHITNEY, PP_TEST_WELCH};
	static const double layout_sds[] = {0.0, 0.3};
	unsigned limit = binomial_limit(ALPHA, AA_TRIALS);
	unsigned *lay = malloc(3000 * sizeof(*lay));
	size_t *runs[2] = {malloc(AA_TRIALS * sizeof(size_t)), malloc(AA_TRIALS * sizeof(size_t))};
	double level = 0.0;

	if (!lay || !runs[0] || !runs[1]) {
		CHECK(0, "out of memory");
		goto out;
	}
	for (size_t t = 0; t < 2; t++)
		for (size_t l = 0; l < 2; l++) {
			struct pp_seq_design d = design(tests[t], ALPHA, 0.0, 2000, 10);
			unsigned claims = 0, errors = 0;

			d.paired = true;
			for (int k = 0; k < AA_TRIALS; k++) {
				struct pair_run o = pair_simulate(r, &d, 0.0, layout_sds[l], x, y,
								  lay, true, &level);

				errors += o.err != 0;
				claims += o.last.verdict == PP_SEQ_SLOWER ||
					  o.last.verdict == PP_SEQ_FASTER;
			}
			printf(
			    "paired A/A %-12s layout sd %.1f, drift sd %.0f: %5.2f%% false claims "
			    "(bound %u of %d)\n",
			    test_name(tests[t]), layout_sds[l], PAIR_DRIFT,
			    100.0 * claims / AA_TRIALS, limit, AA_TRIALS);
			CHECK(errors == 0, "paired: %u looks failed", errors);
			CHECK(claims <= limit, "paired A/A %s layout sd %g: %u false claims > %u",
			      test_name(tests[t]), layout_sds[l], claims, limit);
		}
	/* The same sessions' values through both designs. */
	for (size_t l = 0; l < 2; l++) {
		const int trials = 200;
		unsigned found[2] = {0, 0};
		size_t med[2];

		for (int k = 0; k < trials; k++)
			for (int p = 0; p < 2; p++) {
				struct pp_seq_design d =
				    design(PP_TEST_MANN_WHITNEY, ALPHA, 0.0, 2000, 10);
				struct pair_run o;

				d.paired = p;
				o = pair_simulate(r, &d, 1.0, layout_sds[l], x, y, lay, p == 0,
						  &level);
				CHECK(o.err == 0, "shifted: look failed %d", o.err);
				found[p] += o.last.verdict == PP_SEQ_SLOWER;
				runs[p][k] = o.last.runs;
			}
		for (int p = 0; p < 2; p++) {
			qsort(runs[p], (size_t)trials, sizeof(size_t), by_size);
			med[p] = runs[p][trials / 2];
		}
		printf("shift 1 sd, layout sd %.1f, drift sd %.0f: independent found %u/%d, median "
		       "%zu runs; paired found %u/%d, median %zu runs (%.2fx)\n",
		       layout_sds[l], PAIR_DRIFT, found[0], trials, med[0], found[1], trials,
		       med[1], (double)med[1] / (double)med[0]);
		CHECK(found[1] >= (unsigned)trials * 9 / 10, "paired found the shift %u times",
		      found[1]);
		CHECK(med[1] * 10 < med[0] * 8, "paired took %zu runs, independent %zu", med[1],
		      med[0]);
	}
out:
	free(lay);
	free(runs[0]);
	free(runs[1]);
}

/*
 * pp_seq_interval: without layouts the paired test's own interval (R's
 * wilcox.test / t.test paired values are checked for pp_compare_paired in
 * test_fixtures.c), the two samples' when unpaired; with layouts the union
 * with the units' interval (pp_layout_paired), whose ends it must reach;
 * no interval where none exists at that level.
 */
static void check_interval(gsl_rng *r)
{
	enum { N = 24 };
	double x[N], y[N], d[N];
	unsigned lay[N];
	struct pp_comparison c;
	struct pp_interval iv, l;

	for (size_t i = 0; i < N; i++) {
		double run = gsl_ran_gaussian(r, 3.0);

		lay[i] = (unsigned)(i % 6);
		x[i] = 100 + run + gsl_ran_gaussian(r, 1.0);
		y[i] = 102 + run + gsl_ran_gaussian(r, 1.0) + 0.8 * (double)lay[i];
		d[i] = y[i] - x[i];
	}
	for (int t = 0; t < 2; t++) {
		enum pp_test test = t ? PP_TEST_WELCH : PP_TEST_MANN_WHITNEY;

		CHECK(!pp_seq_interval(test, true, x, NULL, N, y, NULL, N, 0.95, &iv) &&
			  !pp_compare_paired(test, x, y, N, 0.95, &c),
		      "interval %d failed", t);
		CHECK_CLOSE("interval paired", "centre", iv.centre, c.diff.centre, 1e-12, 0);
		CHECK_CLOSE("interval paired", "low", iv.low, c.diff.low, 1e-12, 0);
		CHECK_CLOSE("interval paired", "high", iv.high, c.diff.high, 1e-12, 0);
		CHECK(!pp_seq_interval(test, false, x, NULL, N, y, NULL, N, 0.95, &iv) &&
			  !pp_compare(test, x, N, y, N, 0.95, &c),
		      "unpaired interval %d failed", t);
		CHECK_CLOSE("interval unpaired", "low", iv.low, c.diff.low, 1e-12, 0);
		CHECK_CLOSE("interval unpaired", "high", iv.high, c.diff.high, 1e-12, 0);
		CHECK(!pp_seq_interval(test, true, x, lay, N, y, lay, N, 0.95, &iv) &&
			  !pp_layout_paired(d, lay, N, 0.95, &l) &&
			  !pp_compare_paired(test, x, y, N, 0.95, &c),
		      "interval in layouts %d failed", t);
		CHECK(iv.centre == c.diff.centre && iv.low == fmin(c.diff.low, l.low) &&
			  iv.high == fmax(c.diff.high, l.high),
		      "test %d: [%g, %g] is not the union of the runs' [%g, %g] and the units' "
		      "[%g, %g]",
		      t, iv.low, iv.high, c.diff.low, c.diff.high, l.low, l.high);
	}
	/* 3 pairs: no signed-rank interval at 95 % (2^-3 > 0.025) */
	CHECK(pp_seq_interval(PP_TEST_MANN_WHITNEY, true, x, NULL, 3, y, NULL, 3, 0.95, &iv) ==
		  -ERANGE,
	      "a signed-rank interval of 3 pairs at 95 %%");
	CHECK(pp_seq_interval(PP_TEST_WELCH, true, x, NULL, 3, y, NULL, 4, 0.95, &iv) == -EINVAL,
	      "unequal pairs accepted");
}

int main(int argc, char **argv)
{
	double *x = malloc(3000 * sizeof(*x)), *y = malloc(3000 * sizeof(*y));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	const char *part = argc == 3 ? argv[2] : "all";
	bool all = !strcmp(part, "all"), rule = all || !strcmp(part, "rule");
	bool threshold = all || !strcmp(part, "threshold"), aa = all || !strcmp(part, "aa");
	bool paired = all || !strcmp(part, "paired");

	if (argc < 2 || argc > 3 || !x || !y || !r || !(rule || threshold || aa || paired)) {
		fprintf(stderr, "usage: test-stats-seq FIXTURES [all|rule|threshold|aa|paired]\n");
		return 2;
	}
	gsl_rng_set(r, 20261123);
	if (check_fixtures(argv[1]))
		return 2;
	if (rule) {
		check_rows();
		check_n3();
		check_first_attainable();
		check_interval(r);
		check_bad_input();
		check_runs_to_decide();
	}
	if (threshold)
		check_threshold(r, x, y);
	if (rule) {
		check_undecided(r, x, y);
		check_one_sided(r, x, y);
		check_power(r, x, y);
	}
	if (aa) {
		check_look_pvalues(r, x, y);
		check_aa(r, x, y);
		check_sessions(r, x, y);
		check_noisier(r, x, y);
	}
	if (paired)
		check_paired(r, x, y);
	gsl_rng_free(r);
	free(x);
	free(y);
	return report(argv[0]);
}
