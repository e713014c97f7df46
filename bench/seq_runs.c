// SPDX-License-Identifier: MIT
/*
 * seq_runs.c - runs used and error rates of the sequential decision
 * (core/stats_seq.c) for a grid of true differences and noise, per design
 * (schedule growth and spending weights).  Figures, not a test:
 *
 *   cmake --build <build> --target bench-seq
 *   bench-seq-runs [--trials N] [--search | --before] [--alpha A] [--welch] [NOISE_FILE]
 *
 * Each cell simulates TRIALS comparisons through pp_seq_look, with the
 * driver's defaults: a first look of FIRST values per series, a budget of
 * BUDGET values per series, threshold T = 1, true differences 0, T/2, T, 2T
 * and 10T, noise of sd 0.5 T, 2 T and 5 T (normal; lognormal(0, 0.5); normal
 * with 2% of the runs 20 sd slower; and NOISE_FILE's values, run times of
 * the demo on this project's VM standardised to sd 1: bench/seq_noise.txt,
 * made by bench/seq_noise.py).  Every design sees the same random values in a
 * cell (the generator is seeded per cell), so their differences are not
 * sampling noise between designs.
 *
 * Without --search it prints the driver's designs (PP_SEQ_GROWTH with
 * PP_SEQ_RHO two-sided, PP_SEQ_ENTRY_RHO one-sided), the rule that stops at
 * H >= T, L > T/2 whatever the centre, the schedule the driver had before
 * (looks every FIRST values, split or Pocock-type spending over runs /
 * budget) with the driver's rule, and that schedule with the rule it had
 * (SLOWER at L > 0), each cell with its mean runs (both series) and
 * verdicts in percent, and each design's mean runs per true difference.  With --search it
 * prints, for every growth and rho of a grid, the mean runs per true
 * difference over the noises, the mean ratio to the best design of each
 * cell, and the wrong verdicts (those that need an interval to miss the true
 * difference: at most alpha / 2 each side).  With --before it prints the
 * driver's designs and the schedule before, both with the driver's rule,
 * under NOISE_FILE's noise alone when one is given (the schedule before
 * looks up to 300 times and takes long under the other noises too).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq_sim.h"

#define FIRST 10
#define BUDGET 3000 /* per series */
#define NDIFF 5
#define NSCALE 3
#define NNOISE 4

static const double diffs[NDIFF] = {0.0, 0.5, 1.0, 2.0, 10.0};
/* The designs' own tables add 0.75 T, in the zone where either verdict may be right. */
#define NSHOWN 6
static const double shown_diffs[NSHOWN] = {0.0, 0.5, 0.75, 1.0, 2.0, 10.0};
static const double scales[NSCALE] = {0.5, 2.0, 5.0};
static const char *const noise_name[NNOISE] = {"normal", "lognormal", "outliers", "empirical"};
/* The first noise simulated: --before with a NOISE_FILE simulates its noise alone. */
static int first_noise;

/* The sd of the unscaled noise (the outliers' mixture: 1 + 0.02 * 0.98 * 20^2). */
static double noise_sd(enum seq_noise noise)
{
	return noise == SEQ_OUTLIERS ? sqrt(1.0 + 0.02 * 0.98 * 400.0) : 1.0;
}

struct cell {
	double runs; /* mean, both series */
	unsigned n[PP_SEQ_UNDECIDED + 1];
	unsigned wrong; /* verdicts that need a missed interval */
};

/* Whether @v at true difference @diff (threshold 1) needs an interval that missed it. */
static bool wrong(enum pp_seq_verdict v, double diff)
{
	switch (v) {
	case PP_SEQ_SLOWER:
		return diff <= 0.5;
	case PP_SEQ_FASTER:
	case PP_SEQ_FASTER_BELOW:
		return diff >= 0.0;
	case PP_SEQ_SLOWER_BELOW:
		return diff <= 0.0 || diff >= 1.0;
	case PP_SEQ_SAME:
	case PP_SEQ_NOT_SLOWER:
		return diff >= 1.0;
	default:
		return false;
	}
}

/*
 * The rule and spending the driver had before, for comparison: a look every
 * FIRST values, alpha spent over t = runs / budget, Pocock-type alpha * ln(1 +
 * (e - 1) t) for the entry (one-sided), split for the others (half of alpha by
 * look k, with weights 6 / (pi^2 k^2), half Pocock-type), SLOWER at L > 0
 * once not inside +-T (one-sided: not below +T).
 * Built from pp_compare() here; the driver no longer has it.
 */
static enum pp_seq_verdict old_rule(const struct pp_interval *iv, double t, bool one_sided)
{
	if (!one_sided && iv->low > -t && iv->high < t)
		return PP_SEQ_SAME;
	if (one_sided && iv->high < -t)
		return PP_SEQ_FASTER;
	if (one_sided && iv->high < t)
		return PP_SEQ_NOT_SLOWER;
	if (iv->low > 0.0)
		return PP_SEQ_SLOWER;
	if (iv->high < 0.0)
		return PP_SEQ_FASTER;
	return PP_SEQ_CONTINUE;
}

static struct seq_outcome old_simulate(const gsl_rng *r, const struct pp_seq_design *d,
				       enum seq_noise noise, double scale, double shift, double *x,
				       double *y, bool new_rule)
{
	struct seq_outcome o = {.min_confidence = 1.0};
	double spent = 0.0, looks = 0.0;
	size_t n = 0, end = d->budget / 2;

	o.last.verdict = PP_SEQ_CONTINUE;
	for (unsigned k = 1; o.last.verdict == PP_SEQ_CONTINUE; k++) {
		size_t want = n + d->first > end ? end : n + d->first;
		double t = (double)want / (double)end, pocock = log1p((M_E - 1.0) * t), a;
		struct pp_comparison c;

		seq_fill(r, noise, scale, shift, x, y, n, want);
		n = want;
		looks += 1.0 / ((double)k * (double)k);
		a = d->one_sided ? d->alpha * pocock
				 : d->alpha / 2.0 * (6.0 / (M_PI * M_PI) * looks + pocock);
		a = (n == end ? d->alpha : a) - spent;
		o.last.runs = 2 * n;
		if (a >= 1e-12 && pp_seq_attainable(d->test, n, n, a)) {
			o.err = pp_compare(d->test, x, n, y, n, 1.0 - a, &c);
			if (o.err)
				return o;
			spent += a;
			o.last.verdict = new_rule ? pp_seq_verdict_of(&c.diff, d->threshold, d->one_sided)
						  : old_rule(&c.diff, d->threshold, d->one_sided);
		}
		if (n == end && o.last.verdict == PP_SEQ_CONTINUE)
			o.last.verdict = PP_SEQ_UNDECIDED;
	}
	return o;
}

/*
 * The rule with SLOWER (FASTER) widened to any interval that reaches T (-T)
 * and is clear of T/2, whatever its centre: it stops wherever the driver's
 * rule stops and also there, with the same error bounds; measured here
 * against the driver's, which asks the centre to be at T or beyond.
 */
static bool reach_stop(const struct pp_seq_design *d, struct pp_seq_result *res)
{
	const struct pp_interval *iv = &res->diff;

	if (iv->high >= d->threshold && iv->low > d->threshold / 2.0)
		res->verdict = PP_SEQ_SLOWER;
	else if (!d->one_sided && iv->low <= -d->threshold && iv->high < -d->threshold / 2.0)
		res->verdict = PP_SEQ_FASTER;
	else
		return false;
	return true;
}

enum kind { DRIVER, REACH, BEFORE, BEFORE_SCHEDULE };

static void run_cell(gsl_rng *r, unsigned long seed, const struct pp_seq_design *d, enum kind kind,
		     enum seq_noise noise, double scale, double diff, int trials, double *x,
		     double *y, struct cell *out)
{
	memset(out, 0, sizeof(*out));
	gsl_rng_set(r, seed);
	for (int k = 0; k < trials; k++) {
		double sc = scale / noise_sd(noise);
		struct seq_outcome o =
		    kind == DRIVER ? seq_simulate(r, d, noise, sc, diff, x, y)
		    : kind == REACH
			? seq_simulate_until(r, d, noise, sc, diff, x, y, reach_stop)
			: old_simulate(r, d, noise, sc, diff, x, y, kind == BEFORE_SCHEDULE);

		if (o.err) {
			fprintf(stderr, "seq_runs: a look failed (%d)\n", o.err);
			exit(1);
		}
		out->runs += (double)o.last.runs;
		out->n[o.last.verdict]++;
		out->wrong += wrong(o.last.verdict, diff);
	}
	out->runs /= trials;
}

static unsigned long cell_seed(int nz, int s, double diff)
{
	return 20261123ul + 1000ul * (unsigned long)nz + 100ul * (unsigned long)s +
	       (unsigned long)(4.0 * diff);
}

static int load_noise(const char *path)
{
	FILE *f = fopen(path, "r");
	static double *v;
	size_t cap = 0, n = 0;
	char line[128];

	if (!f) {
		fprintf(stderr, "bench-seq-runs: cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *end;
		double d = strtod(line, &end);

		if (line[0] == '#' || end == line)
			continue;
		if (n == cap) {
			double *nv = realloc(v, (cap = cap ? 2 * cap : 1024) * sizeof(*v));

			if (!nv) {
				fclose(f);
				return -1;
			}
			v = nv;
		}
		v[n++] = d;
	}
	fclose(f);
	seq_empirical = v;
	seq_nempirical = n;
	return n > 100 ? 0 : -1;
}

static const char *verdict_short[PP_SEQ_UNDECIDED + 1] = {
    [PP_SEQ_SLOWER] = "slow",	  [PP_SEQ_SLOWER_BELOW] = "slowB", [PP_SEQ_SAME] = "same",
    [PP_SEQ_NOT_SLOWER] = "notS", [PP_SEQ_FASTER_BELOW] = "fastB", [PP_SEQ_FASTER] = "fast",
    [PP_SEQ_UNDECIDED] = "und"};

static const enum pp_seq_verdict shown[] = {PP_SEQ_SLOWER,     PP_SEQ_SLOWER_BELOW, PP_SEQ_SAME,
					    PP_SEQ_NOT_SLOWER, PP_SEQ_FASTER_BELOW, PP_SEQ_FASTER,
					    PP_SEQ_UNDECIDED};

/* Every cell of one design, one line each. */
static void print_design(gsl_rng *r, const char *name, const struct pp_seq_design *d,
			 enum kind kind, int nnoise, int trials, double *x, double *y)
{
	double total = 0.0, per_diff[NSHOWN] = {0};
	unsigned wrong_all = 0, cells = 0;

	printf("\n%s%s\n", name, d->one_sided ? " (one-sided)" : "");
	printf("%-9s %4s %5s %7s", "noise", "sd", "diff", "runs");
	for (size_t v = 0; v < sizeof(shown) / sizeof(shown[0]); v++)
		printf(" %5s%%", verdict_short[shown[v]]);
	printf(" %6s\n", "wrong%");
	for (int nz = first_noise; nz < nnoise; nz++)
		for (int s = 0; s < NSCALE; s++)
			for (int h = 0; h < NSHOWN; h++) {
				struct cell c;

				run_cell(r, cell_seed(nz, s, shown_diffs[h]), d, kind,
					 (enum seq_noise)nz, scales[s], shown_diffs[h], trials, x,
					 y, &c);
				printf("%-9s %4.1f %5.2f %7.1f", noise_name[nz], scales[s],
				       shown_diffs[h], c.runs);
				for (size_t v = 0; v < sizeof(shown) / sizeof(shown[0]); v++)
					printf(" %6.1f", 100.0 * c.n[shown[v]] / trials);
				printf(" %6.2f\n", 100.0 * c.wrong / trials);
				total += c.runs;
				per_diff[h] += c.runs;
				wrong_all += c.wrong;
				cells++;
			}
	printf("%s: mean runs over the cells %.1f, wrong verdicts %.2f%%\n", name, total / cells,
	       100.0 * wrong_all / (cells * (double)trials));
	printf("%s: mean runs per true difference over %d noises x %d sds:", name,
	       nnoise - first_noise, NSCALE);
	for (int h = 0; h < NSHOWN; h++)
		printf(" %g T %.1f%s", shown_diffs[h],
		       per_diff[h] / ((nnoise - first_noise) * NSCALE),
		       h + 1 < NSHOWN ? "," : "\n");
}

#define NGROWTH 5
#define NRHO 6

/* Mean runs of every design of the grid, per true difference, over the noises and sds. */
static void search(gsl_rng *r, bool one_sided, const struct pp_seq_design *base, int nnoise,
		   int trials, double *x, double *y)
{
	static const double growths[NGROWTH] = {1.25, 1.4, 1.5, 1.75, 2.0};
	static const double rhos[NRHO] = {-0.5, 0.0, 0.5, 1.0, 1.5, 2.0};
	static struct cell c[NGROWTH][NRHO][NNOISE][NSCALE][NDIFF];

	for (int g = 0; g < NGROWTH; g++)
		for (int p = 0; p < NRHO; p++) {
			struct pp_seq_design d = *base;

			d.growth = growths[g];
			d.rho = rhos[p];
			d.one_sided = one_sided;
			for (int nz = 0; nz < nnoise; nz++)
				for (int s = 0; s < NSCALE; s++)
					for (int h = 0; h < NDIFF; h++)
						run_cell(r, cell_seed(nz, s, diffs[h]), &d, DRIVER,
							 (enum seq_noise)nz, scales[s], diffs[h],
							 trials, x, y, &c[g][p][nz][s][h]);
		}
	printf("\n%s, alpha %g: mean runs (both series) over %d noises x %d sds, the mean "
	       "ratio to the\nbest design of each cell, wrong verdicts, first look's alpha\n",
	       one_sided ? "one-sided" : "two-sided", base->alpha, nnoise, NSCALE);
	printf("%6s %5s %5s", "growth", "rho", "looks");
	for (int h = 0; h < NDIFF; h++)
		printf("   d=%-4g", diffs[h]);
	printf(" %7s %6s %6s %9s\n", "all", "ratio", "wrong%", "alpha_1");
	for (int g = 0; g < NGROWTH; g++)
		for (int p = 0; p < NRHO; p++) {
			struct pp_seq_design d = *base;
			double all = 0.0, ratio = 0.0;
			unsigned wrong_all = 0, cells = 0;

			d.growth = growths[g];
			d.rho = rhos[p];
			printf("%6.2f %5.1f %5u", growths[g], rhos[p], pp_seq_looks(&d));
			for (int h = 0; h < NDIFF; h++) {
				double sum = 0.0;

				for (int nz = 0; nz < nnoise; nz++)
					for (int s = 0; s < NSCALE; s++) {
						const struct cell *e = &c[g][p][nz][s][h];
						double best = INFINITY;

						for (int g2 = 0; g2 < NGROWTH; g2++)
							for (int p2 = 0; p2 < NRHO; p2++)
								best = fmin(
								    best, c[g2][p2][nz][s][h].runs);
						sum += e->runs;
						ratio += e->runs / best;
						wrong_all += e->wrong;
						cells++;
					}
				all += sum;
				printf(" %8.1f", sum / (nnoise * NSCALE));
			}
			printf(" %7.1f %6.3f %6.2f %9.2e\n", all / cells, ratio / cells,
			       100.0 * wrong_all / (cells * (double)trials),
			       pp_seq_spent_after(&d, 1));
		}
}

int main(int argc, char **argv)
{
	const char *noise_file = NULL;
	int trials = 200, nnoise = 3;
	bool grid = false, before = false;
	struct pp_seq_design d = {.test = PP_TEST_MANN_WHITNEY,
				  .alpha = 0.05,
				  .threshold = 1.0,
				  .budget = 2 * BUDGET,
				  .first = FIRST,
				  .growth = PP_SEQ_GROWTH,
				  .rho = PP_SEQ_RHO};
	double *x = malloc(BUDGET * sizeof(*x)), *y = malloc(BUDGET * sizeof(*y));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			trials = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--alpha") && i + 1 < argc)
			d.alpha = atof(argv[++i]);
		else if (!strcmp(argv[i], "--search"))
			grid = true;
		else if (!strcmp(argv[i], "--before"))
			before = true;
		else if (!strcmp(argv[i], "--welch"))
			d.test = PP_TEST_WELCH;
		else if (argv[i][0] != '-' && !noise_file)
			noise_file = argv[i];
		else
			trials = 0;
	}
	if (!x || !y || !r || trials < 1 || !(d.alpha > 0.0 && d.alpha < 1.0)) {
		fprintf(stderr, "usage: bench-seq-runs [--trials N] [--search | --before] "
				"[--alpha A] [--welch] [NOISE_FILE]\n");
		return 2;
	}
	if (noise_file) {
		if (load_noise(noise_file))
			return 2;
		nnoise = NNOISE;
		first_noise = before ? SEQ_EMPIRICAL : 0;
	}
	printf("sequential rule: %s, alpha %g, threshold T = 1, first look %d values per "
	       "series,\nbudget %d per series, %d trials a cell; noise sd in units of T; runs: "
	       "mean runs used, both series\n",
	       d.test == PP_TEST_WELCH ? "welch" : "mann-whitney", d.alpha, FIRST, BUDGET, trials);
	if (noise_file)
		printf("empirical noise: %zu values from %s\n", seq_nempirical, noise_file);
	if (grid) {
		search(r, false, &d, nnoise, trials, x, y);
		search(r, true, &d, nnoise, trials, x, y);
	} else if (before) {
		struct pp_seq_design old = d;

		print_design(r, "driver, two-sided", &d, DRIVER, nnoise, trials, x, y);
		print_design(r, "schedule before: looks every 10, split spending", &old,
			     BEFORE_SCHEDULE, nnoise, trials, x, y);
		d.one_sided = old.one_sided = true;
		d.rho = PP_SEQ_ENTRY_RHO;
		print_design(r, "driver, entry", &d, DRIVER, nnoise, trials, x, y);
		print_design(r, "schedule before: entry, Pocock-type spending", &old,
			     BEFORE_SCHEDULE, nnoise, trials, x, y);
	} else {
		struct pp_seq_design old = d;

		old.rho = 0.0;

		print_design(r, "driver, two-sided", &d, DRIVER, nnoise, trials, x, y);
		print_design(r, "two-sided, SLOWER once H >= T, L > T/2", &d, REACH, nnoise, trials,
			     x, y);
		d.one_sided = true;
		d.rho = PP_SEQ_ENTRY_RHO;
		print_design(r, "driver, entry", &d, DRIVER, nnoise, trials, x, y);
		print_design(r, "entry, SLOWER once H >= T, L > T/2", &d, REACH, nnoise, trials, x,
			     y);
		print_design(r, "schedule before: looks every 10, split spending", &old,
			     BEFORE_SCHEDULE, nnoise, trials, x, y);
		print_design(r, "before: looks every 10, split spending, SLOWER at L > 0", &old,
			     BEFORE, nnoise, trials, x, y);
		old.one_sided = true;
		print_design(r, "schedule before: entry, Pocock-type spending", &old,
			     BEFORE_SCHEDULE, nnoise, trials, x, y);
		print_design(r, "before: entry, Pocock-type spending, SLOWER at L > 0", &old,
			     BEFORE, nnoise, trials, x, y);
	}
	gsl_rng_free(r);
	free(x);
	free(y);
	return 0;
}
