// SPDX-License-Identifier: MIT
/*
 * power.c - what the sequential decision's guarantees cost in runs, by
 * simulation (figures from a simulation, not a machine; never pass/fail):
 *
 *   cmake --build <build> --target bench-power
 *   bench-power-sim [--iterations N] [--sd S] [--seed N]
 *
 * 60 comparisons a cell by default (about half a minute of CPU here);
 * doc/statistics.md, "What the guarantees cost", has --iterations 1000.
 *
 * Every comparison goes through the real rule (pp_seq_look_in) with the
 * driver's design as the options' defaults give it (read from the option
 * table, pinpoint/session/options.c: --measurements, --max-runs-per-
 * comparison, --confidence, --test, --runs) and stats_seq.h's growth and
 * spending weights: runs in pairs, the paired test on the pairs'
 * differences, threshold T = 1, a pair's difference of true mean delta
 * (0, 1.0 T, 1.5 T) and sd S T (3 by default), normal or Student's t with 3
 * degrees of freedom scaled to the same sd (heavy tails: its kurtosis is
 * infinite).  Runs are per revision (pairs), the power the share of SLOWER.
 *
 * Printed per noise:
 * - the entry's design (one-sided, rho = PP_SEQ_ENTRY_RHO) and a part's
 *   (two-sided, rho = PP_SEQ_RHO, the whole alpha): mean and median runs and
 *   the share SLOWER;
 * - the plain fixed-sample test, one interval at level 1 - alpha with the
 *   same rule, at the entry's mean runs at each delta (its power there), and
 *   the fixed-sample yardstick: the n at which that one interval lies above
 *   T/2 in 80 % of the comparisons (pp_seq_fixed_n's definition, found by
 *   simulation with the same test; its normal-theory value beside it);
 * - what each layer costs, as runs at 1.0 T and 1.5 T, the factor over the
 *   design without the layer and over the yardstick: the split of alpha
 *   over the schedule's looks (against the exact group-sequential boundary
 *   for the same spending, Armitage, McPherson and Rowe's recursive
 *   integration), rho = 1 for the entry against rho = 0, the union with the
 *   layouts' interval (8 and 64 layouts of sd 0.3 T per revision), alpha
 *   shared among 2, 4 and 8 siblings (pp_seq_child_alpha) and over 2 and 3
 *   layers of 4;
 * - the exact boundary's error rate: A/A comparisons at threshold 0 (every
 *   one looks until its budget, here 300 pairs), normal, t and normal noise
 *   whose sd grows as (1 + pairs so far)^2 (a machine that gets noisier
 *   while a comparison is measured), against the split's: pp_seq_look's,
 *   and this program's look replayed at the split's levels, which must
 *   agree exactly.
 *
 * Every row of one noise and delta sees the same random values (the
 * generator is seeded per cell), so rows differ by their rule, not by their
 * draws.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/stats_seq.h"
#include "pinpoint/session/options.h"

int pp_verbose = -1; /* the driver's, from main.c: the option parser's messages */

enum noise { NOISE_NORMAL, NOISE_T3, NOISE_GROWING };

static const char *const noise_names[] = {"normal", "t, 3 df", "growing"};

/* What one comparison's runs are. */
struct world {
	enum noise noise;
	double sd;	  /* of a pair's difference, in T */
	double shift;	  /* true difference, in T */
	unsigned units;	  /* layout units (layout k of each revision), 0: no layouts */
	double layout_sd; /* of each revision's layout effect, in T */
};

/* How it is decided: the design, and per-look levels that replace its spending. */
struct rule {
	struct pp_seq_design d;
	const double *levels; /* alpha of look k at [k - 1]; NULL: pp_seq_look_in's */
};

struct tally {
	double *runs; /* per revision, one per comparison */
	size_t n;
	unsigned verdicts[PP_SEQ_UNDECIDED + 1];
};

static struct {
	gsl_rng *r;
	size_t max; /* values per series the buffers hold */
	double *x, *y, *d;
	unsigned *lx, *ly;
	double effect[2][64]; /* each revision's layout effects, per comparison */
	unsigned perm[64];
} sim;

static double draw(enum noise noise, size_t i)
{
	switch (noise) {
	case NOISE_T3:
		return gsl_ran_tdist(sim.r, 3.0) / sqrt(3.0);
	case NOISE_GROWING:
		/*
		 * a machine that gets noisier while it is measured: pair i's sd grows
		 * as (1 + i)^2, so that each look's new pairs outrank the earlier ones
		 */
		return gsl_ran_gaussian(sim.r, (1.0 + (double)i) * (1.0 + (double)i));
	case NOISE_NORMAL:
		break;
	}
	return gsl_ran_gaussian(sim.r, 1.0);
}

/* Pairs [from, to): each block of w->units pairs takes every unit once, in a random order. */
static void fill(const struct world *w, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		double lp = 0.0, lc = 0.0;

		if (w->units) {
			size_t at = i % w->units;

			if (at == 0) {
				for (unsigned k = 0; k < w->units; k++)
					sim.perm[k] = k;
				gsl_ran_shuffle(sim.r, sim.perm, w->units, sizeof(sim.perm[0]));
			}
			sim.lx[i] = sim.ly[i] = sim.perm[at];
			lp = sim.effect[0][sim.perm[at]];
			lc = sim.effect[1][sim.perm[at]];
		}
		sim.x[i] = 100.0 + lp;
		sim.y[i] = 100.0 + lc + w->shift + w->sd * draw(w->noise, i);
	}
}

static double min_of(const double *v, size_t n)
{
	double m = v[0];

	for (size_t i = 1; i < n; i++)
		m = fmin(m, v[i]);
	return m;
}

static double max_of(const double *v, size_t n)
{
	double m = v[0];

	for (size_t i = 1; i < n; i++)
		m = fmax(m, v[i]);
	return m;
}

/*
 * One look at level 1 - @a as pp_seq_look_in takes it (the paired test's
 * interval, an end the rank test's approximation cannot reach left open,
 * the union with the layout units' interval), for levels other than its
 * spending's.  CONTINUE when the level cannot be reached.
 */
static int look_at(const struct rule *ru, const struct world *w, size_t n, double a, bool last,
		   enum pp_seq_verdict *v)
{
	const struct pp_seq_design *d = &ru->d;
	struct pp_comparison c;
	struct pp_interval iv;
	int err;

	*v = PP_SEQ_CONTINUE;
	/* no signed-rank interval while even V = 0 (2^-n) is not rarer than a / 2 (stats_seq.c) */
	if (a >= 1e-12 && (d->test != PP_TEST_MANN_WHITNEY ||
			   -(double)n * log(2.0) < log(a / 2.0 - 10.0 * DBL_EPSILON))) {
		err = pp_compare_paired(d->test, sim.x, sim.y, n, 1.0 - a, &c);
		if (err)
			return err;
		iv = c.diff;
		for (size_t i = 0; i < n; i++)
			sim.d[i] = sim.y[i] - sim.x[i];
		if (d->test == PP_TEST_MANN_WHITNEY && !c.exact) {
			double lo = min_of(sim.d, n), hi = max_of(sim.d, n);

			if (lo < hi && iv.low <= lo)
				iv.low = -INFINITY;
			if (lo < hi && iv.high >= hi)
				iv.high = INFINITY;
		}
		if (w->units) {
			struct pp_interval l;

			err = pp_layout_paired(sim.d, sim.lx, n, 1.0 - a, &l);
			if (err && err != -ENODATA)
				return err;
			if (!err) {
				iv.low = fmin(iv.low, l.low);
				iv.high = fmax(iv.high, l.high);
			}
		}
		*v = pp_seq_verdict_of(&iv, d->threshold, d->one_sided);
	}
	if (*v == PP_SEQ_CONTINUE && last)
		*v = PP_SEQ_UNDECIDED;
	return 0;
}

/* One comparison to its verdict: the pairs it took in *@pairs. */
static int simulate(const struct rule *ru, const struct world *w, size_t *pairs,
		    enum pp_seq_verdict *v)
{
	struct pp_seq_state st = {0};
	struct pp_seq_result res;
	size_t n = 0;

	for (unsigned k = 0; k < 2 * w->units; k++)
		sim.effect[k % 2][k / 2] = w->layout_sd * gsl_ran_gaussian(sim.r, 1.0);
	for (unsigned k = 1;; k++) {
		size_t want = pp_seq_look_size(&ru->d, k);
		bool last = 2 * want >= ru->d.budget;
		int err;

		fill(w, n, want);
		n = want;
		if (ru->levels)
			err = look_at(ru, w, n, ru->levels[k - 1], last, v);
		else {
			err = pp_seq_look_in(&ru->d, &st, sim.x, w->units ? sim.lx : NULL, n, sim.y,
					     w->units ? sim.ly : NULL, n, &res);
			*v = res.verdict;
		}
		if (err)
			return err;
		if (*v != PP_SEQ_CONTINUE) {
			*pairs = n;
			return 0;
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static unsigned long cell_seed(unsigned long seed, const struct world *w)
{
	return seed + 1000ul * (unsigned long)w->noise + (unsigned long)(100.0 * w->shift);
}

/* @trials comparisons of @w under @ru, from the cell's seed. */
static void run_cell(const struct rule *ru, const struct world *w, unsigned long seed,
		     size_t trials, struct tally *t)
{
	memset(t->verdicts, 0, sizeof(t->verdicts));
	t->n = trials;
	gsl_rng_set(sim.r, cell_seed(seed, w));
	for (size_t i = 0; i < trials; i++) {
		enum pp_seq_verdict v;
		size_t pairs;
		int err = simulate(ru, w, &pairs, &v);

		if (err) {
			fprintf(stderr, "bench-power-sim: a look failed: %s\n", strerror(-err));
			exit(1);
		}
		t->runs[i] = (double)pairs;
		t->verdicts[v]++;
	}
}

static double mean_runs(const struct tally *t)
{
	double s = 0.0;

	for (size_t i = 0; i < t->n; i++)
		s += t->runs[i];
	return s / (double)t->n;
}

static double median_runs(struct tally *t)
{
	qsort(t->runs, t->n, sizeof(t->runs[0]), cmp_double);
	return t->n % 2 ? t->runs[t->n / 2] : (t->runs[t->n / 2 - 1] + t->runs[t->n / 2]) / 2.0;
}

static double share(const struct tally *t, enum pp_seq_verdict v)
{
	return 100.0 * t->verdicts[v] / (double)t->n;
}

/* A fixed-sample test: one look at n pairs, level 1 - alpha, the same rule. */
static struct pp_seq_design fixed_design(const struct pp_seq_design *d, size_t n)
{
	struct pp_seq_design f = *d;

	f.first = n;
	f.budget = 2 * n;
	return f;
}

/*
 * The exact group-sequential boundary for @d's spending: one-sided critical
 * values c_k of a standardised statistic with independent increments
 * (Z_k = S_k / sqrt(I_k), I_k the look's pairs) such that the chance of a
 * first crossing at look k is half of what the spending gives look k,
 * found by Armitage, McPherson and Rowe's recursion (J. Roy. Statist. Soc. A
 * 132(2):235-244, 1969; Jennison and Turnbull, ch. 19): the sub-density of
 * Z_k on the region not yet crossed, by Simpson's rule on a grid of step
 * about 0.02 from -12.  Look k's two-sided level is 2 Q(c_k): at least the
 * split's, with equality at look 1.
 */
static int exact_levels(const struct pp_seq_design *d, double *levels, unsigned looks)
{
	double *z = NULL, *g = NULL, h = 0.0, prev_info = 0.0;
	size_t np = 0;

	for (unsigned k = 1; k <= looks; k++) {
		double info = (double)pp_seq_look_size(d, k), c, lo = -12.0, step;
		double target =
		    (pp_seq_spent_after(d, k) - (k > 1 ? pp_seq_spent_after(d, k - 1) : 0)) / 2.0;
		size_t nn;
		double *z2, *g2;

		if (k == 1)
			c = gsl_cdf_ugaussian_Qinv(target);
		else {
			double a = 0.0, b = 40.0, si = sqrt(info), sp = sqrt(prev_info),
			       sd = sqrt(info - prev_info);

			for (int it = 0; it < 60; it++) {
				double m = (a + b) / 2.0, p = 0.0;

				for (size_t i = 0; i < np; i++)
					p += (i == 0 || i == np - 1 ? 1.0
					      : i % 2		    ? 4.0
								    : 2.0) *
					     g[i] * gsl_cdf_ugaussian_Q((m * si - z[i] * sp) / sd);
				if (p * h / 3.0 > target)
					a = m;
				else
					b = m;
			}
			c = (a + b) / 2.0;
		}
		levels[k - 1] = 2.0 * gsl_cdf_ugaussian_Q(c);
		/* the sub-density of Z_k below c_k, for the next look */
		nn = (size_t)ceil((c - lo) / 0.02);
		nn += nn % 2;
		step = (c - lo) / (double)nn;
		nn++;
		z2 = malloc(nn * sizeof(*z2));
		g2 = malloc(nn * sizeof(*g2));
		if (!z2 || !g2) {
			free(z2);
			free(g2);
			free(z);
			free(g);
			return -ENOMEM;
		}
		for (size_t j = 0; j < nn; j++) {
			z2[j] = lo + (double)j * step;
			if (k == 1) {
				g2[j] = gsl_ran_ugaussian_pdf(z2[j]);
				continue;
			}
			double si = sqrt(info), sp = sqrt(prev_info), sd = sqrt(info - prev_info),
			       s = 0.0;

			for (size_t i = 0; i < np; i++)
				s += (i == 0 || i == np - 1 ? 1.0
				      : i % 2		    ? 4.0
							    : 2.0) *
				     g[i] * gsl_ran_ugaussian_pdf((z2[j] * si - z[i] * sp) / sd);
			g2[j] = s * h / 3.0 * si / sd;
		}
		free(z);
		free(g);
		z = z2;
		g = g2;
		np = nn;
		h = step;
		prev_info = info;
	}
	free(z);
	free(g);
	return 0;
}

/* The split's levels, as pp_seq_look gives them when every look has its interval. */
static void split_levels(const struct pp_seq_design *d, double *levels, unsigned looks)
{
	for (unsigned k = 1; k <= looks; k++)
		levels[k - 1] = (k == looks ? d->alpha : pp_seq_spent_after(d, k)) -
				(k > 1 ? pp_seq_spent_after(d, k - 1) : 0.0);
}

/*
 * The yardstick: the fewest pairs at which one interval at level 1 -
 * @alpha lies above T/2 in at least 80 % of @trials comparisons of @w, by
 * bisection over prefixes of the same series (common random numbers).
 */
static size_t yardstick(const struct pp_seq_design *d, const struct world *w, size_t trials,
			unsigned long seed, double **pool)
{
	size_t lo = 2, hi = sim.max;

	gsl_rng_set(sim.r, cell_seed(seed, w) + 7);
	for (size_t t = 0; t < trials; t++)
		for (size_t i = 0; i < sim.max; i++)
			pool[t][i] = w->shift + w->sd * draw(w->noise, i);
	while (lo < hi) {
		size_t n = (lo + hi) / 2, above = 0;

		for (size_t t = 0; t < trials; t++) {
			struct pp_comparison c;

			for (size_t i = 0; i < n; i++)
				sim.x[i] = 0.0;
			if (pp_compare_paired(d->test, sim.x, pool[t], n, 1.0 - d->alpha, &c) == 0)
				above += c.diff.low > d->threshold / 2.0;
		}
		if (above * 10 >= trials * 8)
			hi = n;
		else
			lo = n + 1;
	}
	return lo;
}

struct layer {
	const char *name;
	struct rule rule;
	struct world w; /* noise and shift set per cell */
	int base;	/* the row it adds its layer to, -1: the yardstick */
};

#define NLAYER 14
#define AA_BUDGET 300	 /* pairs */
#define AA_TRIALS_PER 10 /* A/A comparisons a cell, per --iterations */

static double sum_of(const double *v, size_t n)
{
	double s = 0.0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

static void print_row(const char *name, const double *runs, const double *power, const double *base,
		      const double *yard)
{
	printf("  %-40s", name);
	for (int s = 0; s < 2; s++)
		printf(" %7.1f %5.2f %5.2f %5.1f", runs[s], base ? runs[s] / base[s] : 1.0,
		       runs[s] / yard[s], power[s]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	static const double shifts[3] = {0.0, 1.0, 1.5};
	/* the two options without a default; the rest as the table sets them */
	char *defaults_argv[] = {"pinpoint", "--entry", "main", "--previous",
				 ".",	     "--",	"true", NULL};
	struct pp_options opt;
	size_t trials = 60;
	unsigned long seed = 20260521ul;
	double sd = 3.0, alpha;
	struct pp_seq_design entry, part;
	double *pool[4096];
	struct tally t;
	clock_t started = clock();
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		char *end = NULL;

		if (!strcmp(argv[i], "--iterations") && i + 1 < argc) {
			long v = strtol(argv[++i], &end, 10);

			trials = *end || v < 10 || v > 4096 ? 0 : (size_t)v;
		} else if (!strcmp(argv[i], "--sd") && i + 1 < argc) {
			sd = strtod(argv[++i], &end);
			if (*end || !(sd >= 0.1 && sd <= 20.0))
				trials = 0;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoul(argv[++i], &end, 10);
			if (*end)
				trials = 0;
		} else
			trials = 0;
		if (!trials) {
			fprintf(
			    stderr,
			    "usage: bench-power-sim [--iterations N (10-4096)] [--sd S (0.1-20, "
			    "in T)] [--seed N]\n");
			return 2;
		}
	}
	err = pp_options_parse(&opt, 7, defaults_argv);
	if (err) {
		fprintf(stderr, "bench-power-sim: the option table's defaults do not parse\n");
		return 1;
	}
	/* auto fixes it from the session's time and pace (decide_budget.c); the
	 * simulation takes what auto is without --max-time and --max-runs */
	if (!opt.max_runs_comparison)
		opt.max_runs_comparison = 3000;
	alpha = 1.0 - opt.confidence;
	entry = (struct pp_seq_design){.test = opt.test,
				       .alpha = alpha,
				       .threshold = 1.0,
				       .budget = 2 * (size_t)opt.max_runs_comparison,
				       .first = (size_t)opt.measurements,
				       .growth = PP_SEQ_GROWTH,
				       .rho = PP_SEQ_ENTRY_RHO,
				       .one_sided = true,
				       .paired = opt.runs != PP_RUNS_SHUFFLED};
	entry.first = pp_seq_first_attainable(&entry);
	part = entry;
	part.first = (size_t)opt.measurements;
	part.rho = PP_SEQ_RHO;
	part.one_sided = false;
	part.first = pp_seq_first_attainable(&part);

	sim.r = gsl_rng_alloc(gsl_rng_mt19937);
	sim.max = (size_t)opt.max_runs_comparison;
	sim.x = malloc(sim.max * sizeof(*sim.x));
	sim.y = malloc(sim.max * sizeof(*sim.y));
	sim.d = malloc(sim.max * sizeof(*sim.d));
	sim.lx = malloc(sim.max * sizeof(*sim.lx));
	sim.ly = sim.lx;
	t.runs = malloc(trials * sizeof(*t.runs));
	for (size_t i = 0; i < trials; i++)
		pool[i] = malloc(sim.max * sizeof(*pool[i]));
	if (!sim.r || !sim.x || !sim.y || !sim.d || !sim.lx || !t.runs || !pool[trials - 1]) {
		fprintf(stderr, "bench-power-sim: out of memory\n");
		return 1;
	}

	printf("bench-power-sim: figures from a simulation, not a machine (seed %lu, %zu "
	       "comparisons a "
	       "cell)\n",
	       seed, trials);
	printf("defaults (pinpoint/session/options.c): --measurements %d, "
	       "--max-runs-per-comparison %d, --confidence %g %%, --test %s, --runs %s, --layouts "
	       "%d; growth %g, rho %g (entry) and %g (parts)\n",
	       opt.measurements, opt.max_runs_comparison, 100.0 * opt.confidence,
	       pp_test_name(opt.test), pp_runs_name(opt.runs), opt.layouts, PP_SEQ_GROWTH,
	       PP_SEQ_ENTRY_RHO, PP_SEQ_RHO);
	printf(
	    "entry: one-sided, first look %zu pairs, %u looks, look 1 at alpha %.2e, the last at "
	    "%.2e\n",
	    entry.first, pp_seq_looks(&entry), pp_seq_spent_after(&entry, 1),
	    alpha - pp_seq_spent_after(&entry, pp_seq_looks(&entry) - 1));
	printf("part:  two-sided, first look %zu pairs, %u looks, each at alpha %.2e\n", part.first,
	       pp_seq_looks(&part), pp_seq_spent_after(&part, 1));
	printf("threshold T = 1; a pair's difference: true mean delta, sd %g T; runs: per revision "
	       "(pairs); SLOWER%%: the share called SLOWER\n",
	       sd);
	for (enum noise nz = NOISE_NORMAL; nz <= NOISE_T3; nz++) {
		struct world w = {.noise = nz, .sd = sd};
		double yard[2], yard_power[2], yard_normal[2];
		struct layer layers[NLAYER];
		size_t nl = 0;
		unsigned klooks = pp_seq_looks(&part), elooks = pp_seq_looks(&entry);
		double part_exact[64], entry_exact[64];
		struct rule ru;

		printf("\n%s noise: runs per revision to a verdict (mean, median), SLOWER%% and "
		       "UNDECIDED%%\n",
		       noise_names[nz]);
		printf("  %-36s %-28s %-28s %-28s\n", "", "delta = 0", "delta = 1.0 T",
		       "delta = 1.5 T");
		printf("  %-36s", "");
		for (int s = 0; s < 3; s++)
			printf(" %6s %6s %7s %6s", "mean", "median", "SLOWER%", "UND%");
		putchar('\n');
		for (int k = 0; k < 2; k++) {
			double mean[3];

			ru = (struct rule){.d = k ? part : entry};
			printf("  %-36s",
			       k ? "sequential, a part (alpha whole)" : "sequential, the entry");
			for (int s = 0; s < 3; s++) {
				w.shift = shifts[s];
				run_cell(&ru, &w, seed, trials, &t);
				mean[s] = mean_runs(&t);
				printf(" %6.1f %6.0f %7.2f %6.2f", mean[s], median_runs(&t),
				       share(&t, PP_SEQ_SLOWER), share(&t, PP_SEQ_UNDECIDED));
			}
			putchar('\n');
			if (k)
				continue;
			printf("  %-36s", "fixed, n = the entry's mean at delta");
			for (int s = 0; s < 3; s++) {
				size_t n = (size_t)lround(mean[s]);

				w.shift = shifts[s];
				ru = (struct rule){.d = fixed_design(&entry, n < 2 ? 2 : n)};
				run_cell(&ru, &w, seed, trials, &t);
				printf(" %6zu %6zu %7.2f %6s", n, n, share(&t, PP_SEQ_SLOWER), "-");
			}
			putchar('\n');
		}
		for (int s = 0; s < 2; s++) {
			w.shift = shifts[s + 1];
			yard[s] = (double)yardstick(&entry, &w, trials, seed, pool);
			ru = (struct rule){.d = fixed_design(&entry, (size_t)yard[s])};
			run_cell(&ru, &w, seed, trials, &t);
			yard_power[s] = share(&t, PP_SEQ_SLOWER);
			yard_normal[s] =
			    (double)pp_seq_fixed_n(alpha, 0.80, sd / sqrt(2.0), shifts[s + 1], 0.5);
		}
		printf(
		    "  yardstick: one interval at level %g lies above T/2 in 80 %% of comparisons "
		    "at %.0f pairs (1.0 T) and %.0f (1.5 T);\n  normal theory with the sd known "
		    "(pp_seq_fixed_n): %.0f and %.0f\n",
		    1.0 - alpha, yard[0], yard[1], yard_normal[0], yard_normal[1]);

		if (exact_levels(&part, part_exact, klooks) ||
		    exact_levels(&entry, entry_exact, elooks)) {
			fprintf(stderr, "bench-power-sim: out of memory\n");
			return 1;
		}
		static char split_name[48];

		snprintf(split_name, sizeof(split_name), "part: alpha split over its %u looks",
			 klooks);
		layers[nl++] = (struct layer){split_name, {part, NULL}, w, -1};
		layers[nl++] =
		    (struct layer){"part: exact boundary, same spending", {part, part_exact}, w, 0};
		layers[nl] = (struct layer){"entry: rho 0", {entry, NULL}, w, -1};
		layers[nl++].rule.d.rho = 0.0;
		layers[nl++] = (struct layer){"entry: rho 1 (the default)", {entry, NULL}, w, 2};
		layers[nl++] =
		    (struct layer){"entry: rho 1, exact boundary", {entry, entry_exact}, w, 3};
		layers[nl] = (struct layer){"part + 8 layouts of sd 0.3 T", {part, NULL}, w, 0};
		layers[nl].w.units = 8;
		layers[nl++].w.layout_sd = 0.3;
		layers[nl] = (struct layer){"part + 64 layouts of sd 0.3 T", {part, NULL}, w, 0};
		layers[nl].w.units = 64;
		layers[nl++].w.layout_sd = 0.3;
		for (size_t k = 2; k <= 8; k *= 2) {
			static char names[3][48];
			char *name = names[k / 4];

			snprintf(name, sizeof(names[0]), "part, one of %zu siblings", k);
			layers[nl] = (struct layer){name, {part, NULL}, w, 0};
			layers[nl].rule.d.alpha = pp_seq_child_alpha(alpha, k);
			layers[nl].rule.d.first = pp_seq_first_attainable(&layers[nl].rule.d);
			nl++;
		}
		for (int depth = 2; depth <= 3; depth++) {
			static char names[2][48];
			char *name = names[depth - 2];

			snprintf(name, sizeof(names[0]), "part at depth %d, 4 siblings a layer",
				 depth);
			layers[nl] = (struct layer){name, {part, NULL}, w, 0};
			for (int j = 0; j < depth; j++)
				layers[nl].rule.d.alpha =
				    pp_seq_child_alpha(j ? layers[nl].rule.d.alpha : alpha, 4);
			layers[nl].rule.d.first = pp_seq_first_attainable(&layers[nl].rule.d);
			nl++;
		}

		printf(
		    "\n  what each layer costs (%s noise): runs per revision, the factor over the "
		    "row it adds to\n  (x layer) and over the yardstick (x yard), SLOWER%%\n",
		    noise_names[nz]);
		printf("  %-40s %-25s %-25s\n", "", "delta = 1.0 T", "delta = 1.5 T");
		printf("  %-40s", "");
		for (int s = 0; s < 2; s++)
			printf(" %7s %5s %5s %5s", "runs", "x lay", "x yrd", "SLOW%");
		putchar('\n');
		print_row("yardstick: one interval, 80 % above T/2", yard, yard_power, NULL, yard);
		{
			double runs[NLAYER][2], power[NLAYER][2];

			for (size_t l = 0; l < nl; l++) {
				for (int s = 0; s < 2; s++) {
					layers[l].w.shift = shifts[s + 1];
					run_cell(&layers[l].rule, &layers[l].w, seed, trials, &t);
					runs[l][s] = mean_runs(&t);
					power[l][s] = share(&t, PP_SEQ_SLOWER);
				}
				print_row(layers[l].name, runs[l], power[l],
					  layers[l].base < 0 ? yard : runs[layers[l].base], yard);
			}
		}
	}

	/*
	 * The exact boundary's error rate: A/A at threshold 0, where every
	 * comparison looks until its budget.  AA_BUDGET pairs (AA_TRIALS_PER
	 * times the comparisons of a cell) keep it within the minute; the
	 * replayed split (this program's look at the split's levels) must give
	 * pp_seq_look's verdicts exactly.
	 */
	{
		double split[64], exact[64];
		struct pp_seq_design z = part;
		size_t aa_trials = AA_TRIALS_PER * trials;
		unsigned looks;

		z.threshold = 0.0;
		z.budget = 2 * AA_BUDGET;
		looks = pp_seq_looks(&z);
		split_levels(&z, split, looks);
		if (exact_levels(&z, exact, looks)) {
			fprintf(stderr, "bench-power-sim: out of memory\n");
			return 1;
		}
		free(t.runs);
		t.runs = malloc(aa_trials * sizeof(*t.runs));
		if (!t.runs) {
			fprintf(stderr, "bench-power-sim: out of memory\n");
			return 1;
		}
		printf(
		    "\nA/A at threshold 0 (every comparison to its budget), a part's design with a "
		    "budget of %d pairs (%u looks),\n%zu comparisons a cell: claims (SLOWER or "
		    "FASTER) in %%, bound alpha = %g, Monte-Carlo se %.2f\n",
		    AA_BUDGET, looks, aa_trials, alpha,
		    100.0 * sqrt(alpha * (1.0 - alpha) / (double)aa_trials));
		printf("  %-44s %8s %8s %8s\n", "noise of a pair's difference", "split", "replayed",
		       "exact");
		for (enum noise nz = NOISE_NORMAL; nz <= NOISE_GROWING; nz++) {
			static const char *const aa_names[] = {
			    "normal", "t, 3 df", "normal, sd growing as (1 + pairs so far)^2"};
			struct world w = {.noise = nz, .sd = 1.0};
			struct rule rules[3] = {{z, NULL}, {z, split}, {z, exact}};
			double claims[3];

			for (int k = 0; k < 3; k++) {
				run_cell(&rules[k], &w, seed + 17, aa_trials, &t);
				claims[k] = share(&t, PP_SEQ_SLOWER) + share(&t, PP_SEQ_FASTER);
			}
			printf("  %-44s %8.2f %8.2f %8.2f\n", aa_names[nz], claims[0], claims[1],
			       claims[2]);
		}
		printf(
		    "  the exact boundary's levels add up to %.4f over the looks (the split's to "
		    "%g):\n  its rate with looks independent of each other\n",
		    sum_of(exact, looks), alpha);
	}
	printf("\n%.1f s of CPU\n", (double)(clock() - started) / CLOCKS_PER_SEC);
	pp_options_free(&opt);
	return 0;
}
