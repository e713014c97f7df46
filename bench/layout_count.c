// SPDX-License-Identifier: MIT
/*
 * layout_count.c - how many code layouts a session should measure each
 * revision in (--layouts), simulated through the driver's real decide and
 * settle stages (as test/driver/settle_sim.c does; only the measure stage is
 * replaced).  A figure, not a test:
 *
 *     cmake --build <dir> --target bench-layout-count
 *
 * Each session compares an entry of 100 whose revisions are the same
 * source (A/A: a layout-only pair, the default threshold T = 2 %), each
 * revision's K layouts drawn anew for the session with an sd of T/2 or T
 * (layout-sensitive programs; expat's is 1-2 T), runs in pairs (duet or paired: the
 * pair's shared moment cancels) with an sd of @run_sd per run.  With K = 1
 * each revision is its one layout, whose difference is real for the two
 * binaries but not for the source; with K layouts the comparison's
 * interval is the layouts' (Student's t on K layout pairs).  Printed per K:
 * how many sessions said "not slower", "slower" (a false claim about the
 * source), undecided, and the runs of each revision they took.
 *
 * Then layout-sensitive programs (scheduled()): a fixed set of 64 layouts
 * against the schedule (pinpoint/layouts/ahead.c: 16 to begin with, a new
 * one every pair, as where a link costs less than a pair, up to
 * --max-layouts' 4096), with the revisions the same
 * (A/A), T/2, T and 2 T apart, where the error rates bind.
 * "bench-layout-count-sim N grown" prints that table alone, and "N check"
 * checks it too (ctest driver-layouts-grow-sim), from seeds fixed here.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>

#include "pinpoint/layouts/both.h"
#include "pinpoint/measure/decide.h"
#include "pinpoint/measure/measure.h"
#include "pinpoint/measure/schedule.h"
#include "pinpoint/measure/settle.h"

int pp_verbose = -1; /* the driver's, from main.c: quiet here */

static struct {
	gsl_rng *rng;
	double run_sd, moment_sd;
	double effect[2][PP_MAX_LAYOUTS]; /* each revision's layouts, drawn per session */
	unsigned every;			  /* the schedule's pairs per layout */
} sim;

/* The measure stage, simulated: pairs of runs, each run in its layout. */
int pp_measure(struct pp_session *s, struct pp_quantity **qs, size_t nq, int runs, int layer)
{
	size_t total = 2 * (size_t)(s->opt->warmups + runs), w = 2 * (size_t)s->opt->warmups;
	enum pp_rev_id *order = calloc(total, sizeof(*order));
	int *layout = calloc(total, sizeof(*layout)), err;
	double moment = 0;
	(void)layer; /* one layer here */

	if (!order || !layout) {
		err = -ENOMEM;
		goto out;
	}
	/* the layouts the schedule's units of these runs need, as ahead.c makes them:
	 * already drawn, one link away */
	if (s->rev[PP_PREV].lay.n && s->layouts_cap > s->rev[PP_PREV].lay.n) {
		unsigned units = pp_layouts_needed(s, runs);

		for (int r = 0; r < 2; r++)
			if (units > s->rev[r].lay.n)
				s->rev[r].lay.n = units;
	}
	err = pp_schedule(s, s->opt->warmups, runs, order, layout);
	for (size_t j = 0; j < total && !err; j++) {
		enum pp_rev_id r = order[j];
		int k = layout[j] < 0 ? 0 : layout[j];
		double v;

		if (j % 2 == 0)
			moment = gsl_ran_gaussian(sim.rng, sim.moment_sd);
		v = 100.0 + sim.effect[r][k] + moment + gsl_ran_gaussian(sim.rng, sim.run_sd);
		if (j < w)
			continue;
		for (size_t i = 0; i < nq; i++)
			if (pp_series_push_in(&qs[i]->series[r], v, (unsigned)k))
				err = -ENOMEM;
	}
	s->runs_used += total;
out:
	free(order);
	free(layout);
	return err;
}

struct outcome {
	unsigned not_slower, slower, undecided, other;
	double runs[4000], layouts[4000];
	unsigned n;
};

/*
 * One session of @k layouts a revision (room for @cap), layouts drawn with
 * an sd of @layout_sd, the current revision slower by @effect.
 */
static void session(unsigned k, unsigned cap, double layout_sd, double effect, unsigned id,
		    struct outcome *o)
{
	static struct pp_prog_fn fn;
	const struct pp_prog_fn *fns[2] = {&fn, &fn};
	struct pp_options opt = {
	    .measurements = 10,
	    .warmups = 0,
	    .confidence = 0.95,
	    .precision = 2.0,
	    .max_runs_comparison = 3000,
	    .max_runs = 0,
	    .test = PP_TEST_MANN_WHITNEY,
	    .runs = PP_RUNS_PAIRED,
	    .seed = id,
	    .have_seed = true,
	};
	struct pp_session s;
	struct pp_quantity *q;

	memset(&s, 0, sizeof(s));
	s.opt = &opt;
	s.threshold_ns = 2.0;
	s.layouts_cap = k > 1 ? cap : 0;
	s.layouts_first = k > 1 ? k : 0;
	/* a fixed set spreads over all of it; the schedule's units are sim.every pairs */
	s.layout_every = cap > k ? sim.every : 1;
	for (int r = 0; r < 2; r++) {
		s.rev[r].lay.n = k > 1 ? k : 0;
		for (unsigned i = 0; i < (cap > k ? cap : k); i++)
			sim.effect[r][i] =
			    gsl_ran_gaussian(sim.rng, layout_sd) + (r == PP_CUR ? effect : 0);
	}
	q = pp_quantity_get(&s, PP_Q_ENTRY, fns, 0, 0);
	if (q && !pp_settle(&s, &q, 1, NULL) && q->decided) {
		o->not_slower += q->verdict == PP_V_NOT_SLOWER || q->verdict == PP_V_SAME ||
				 q->verdict == PP_V_FASTER_BELOW || q->verdict == PP_V_SLOWER_BELOW;
		o->slower += q->verdict == PP_V_SLOWER;
		o->undecided += q->verdict == PP_V_UNDECIDED;
		o->other += q->verdict == PP_V_FASTER;
		o->runs[o->n++] = (double)s.runs_used / 2;
		o->layouts[o->n - 1] = s.rev[PP_PREV].lay.n;
	}
	pp_session_free(&s);
}

/*
 * Layout-sensitive programs (layout sd T/2 to 2.5 T; pairs of single
 * layouts 1.4 to 2.1 T apart at 1-1.5 T: expat's were 2.3-3.3 T on one
 * host), the revisions the same (A/A), T/2, T and 2 T apart, in a fixed set
 * of 64 layouts and by the schedule: the verdicts, the runs and the layouts
 * sessions ended in.
 */
static int scheduled(unsigned sessions, bool check)
{
	static const double layout_sds[] = {1.0, 2.0, 4.0, 5.0}, effects[] = {0, 1.0, 2.0, 4.0};
	static const unsigned firsts[] = {64, 16}, caps[] = {64, PP_MAX_LAYOUTS};
	static struct outcome out[4][4][2];
	int failed = 0;

	/* the same table whether the other ran before it or not */
	gsl_rng_set(sim.rng, 20261129);
	sim.every = 1;

	printf("\nLayout-sensitive: a fixed set of 64 layouts, or the schedule (16 first, a new "
	       "one every %u pairs, up to %u); run sd 0.5 T, %u sessions a cell\n",
	       sim.every, PP_MAX_LAYOUTS, sessions);
	printf("| layout sd | difference | layouts | not slower | slower | undecided | runs a "
	       "revision: median [quartiles] | layouts at the end: median (most) |\n"
	       "|---|---|---|---|---|---|---|---|\n");
	sim.run_sd = 1.0;
	sim.moment_sd = 0;
	for (size_t l = 0; l < 4; l++)
		for (size_t e = 0; e < 4; e++)
			for (size_t c = 0; c < 2; c++) {
				struct outcome *op = &out[l][e][c], o = {0};

				for (unsigned i = 0; i < sessions; i++)
					session(firsts[c], caps[c], layout_sds[l], effects[e],
						(unsigned)(5000000 + l * 100000 + e * 10000 +
							   c * 1000 + i),
						&o);
				gsl_sort(o.layouts, 1, o.n);
				gsl_sort(o.runs, 1, o.n);
				printf("| %.1f T | %.1f T | %s | %u | %u | %u | %.0f [%.0f, %.0f] "
				       "| %.0f (%.0f) |\n",
				       layout_sds[l] / 2, effects[e] / 2,
				       c ? "schedule" : "fixed 64", o.not_slower, o.slower,
				       o.undecided,
				       gsl_stats_median_from_sorted_data(o.runs, 1, o.n),
				       gsl_stats_quantile_from_sorted_data(o.runs, 1, o.n, 0.25),
				       gsl_stats_quantile_from_sorted_data(o.runs, 1, o.n, 0.75),
				       gsl_stats_median_from_sorted_data(o.layouts, 1, o.n),
				       o.layouts[o.n - 1]);
				fflush(stdout);
				*op = o;
			}
	if (!check)
		return 0;
	/*
	 * What the schedule must do, in every layout sd: the same source answers
	 * "not slower" in 95 % of sessions or more (identical builds of
	 * layout-sensitive code), and is called slower in at most 5 %; a difference of
	 * T/2 (below the threshold) is called slower in at most 5 %; T and 2 T
	 * are never called "not slower" in more than 5 % (at T the interval
	 * must fall wholly below T: the one-sided level), and 2 T is found in
	 * 90 % or more.  5 % of a cell is allowed 3 more sessions for the
	 * binomial's spread at 100 sessions.
	 */
	for (size_t l = 0; l < 4; l++) {
		const struct outcome *aa = &out[l][0][1], *half = &out[l][1][1],
				     *one = &out[l][2][1], *two = &out[l][3][1];
		unsigned five = sessions / 20 + 3;

		if (aa->not_slower < sessions - five || aa->slower > five) {
			printf("FAIL: layout sd %.1f T, A/A by the schedule: %u not slower, %u "
			       "slower of %u\n",
			       layout_sds[l] / 2, aa->not_slower, aa->slower, sessions);
			failed++;
		}
		if (half->slower > five) {
			printf("FAIL: layout sd %.1f T, T/2 by the schedule: %u slower of %u\n",
			       layout_sds[l] / 2, half->slower, sessions);
			failed++;
		}
		if (one->not_slower > five || two->not_slower > five) {
			printf("FAIL: layout sd %.1f T, by the schedule: T called not slower %u "
			       "times, 2 T %u, of %u\n",
			       layout_sds[l] / 2, one->not_slower, two->not_slower, sessions);
			failed++;
		}
		if (two->slower < sessions - 2 * five) {
			printf("FAIL: layout sd %.1f T, 2 T by the schedule: found %u of %u\n",
			       layout_sds[l] / 2, two->slower, sessions);
			failed++;
		}
	}
	printf("%s: %d failed\n", failed ? "FAIL" : "PASS", failed);
	return failed;
}

int main(int argc, char **argv)
{
	static const unsigned ks[] = {1, 8, 16, 32, 48, 64};
	static const double run_sds[] = {1.0, 5.0}, layout_sds[] = {1.0, 2.0};
	unsigned sessions = argc > 1 ? (unsigned)atoi(argv[1]) : 400;
	const char *mode = argc > 2 ? argv[2] : "";
	int failed;

	if (sessions < 1 || sessions > 4000) {
		fprintf(stderr, "layout_count: sessions must be 1 to 4000\n");
		return 2;
	}
	gsl_rng_env_setup();
	sim.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(sim.rng, 20261128);
	if (!*mode)
		printf("A/A, threshold T = 2 (2 %% of 100), %u sessions a cell, runs in pairs\n"
		       "| layout sd | run sd | layouts | not slower | slower (false) | undecided | "
		       "runs a revision: median [quartiles] |\n|---|---|---|---|---|---|---|\n",
		       sessions);
	/* "grown": the layout-sensitive table only; "check": that table, checked */
	for (size_t l = *mode ? 2 : 0; l < 2; l++)
		for (size_t a = 0; a < sizeof(run_sds) / sizeof(*run_sds); a++) {
			sim.run_sd = run_sds[a];
			sim.moment_sd = 0; /* shared by a pair: cancels in its difference */
			for (size_t b = 0; b < sizeof(ks) / sizeof(*ks); b++) {
				struct outcome o = {0};

				for (unsigned i = 0; i < sessions; i++)
					session(ks[b], ks[b], layout_sds[l], 0,
						(unsigned)(l * 1000000 + a * 100000 + b * 10000 +
							   i + 1),
						&o);
				gsl_sort(o.runs, 1, o.n);
				printf(
				    "| %.1f T | %.1f T | %u | %u | %u | %u | %.0f [%.0f, %.0f] |\n",
				    layout_sds[l] / 2, sim.run_sd / 2, ks[b], o.not_slower,
				    o.slower, o.undecided,
				    gsl_stats_median_from_sorted_data(o.runs, 1, o.n),
				    gsl_stats_quantile_from_sorted_data(o.runs, 1, o.n, 0.25),
				    gsl_stats_quantile_from_sorted_data(o.runs, 1, o.n, 0.75));
				fflush(stdout);
			}
		}
	failed = scheduled(sessions, !strcmp(mode, "check"));
	gsl_rng_free(sim.rng);
	return failed ? 1 : 0;
}
