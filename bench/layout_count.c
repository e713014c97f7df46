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
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>

#include "pinpoint/measure/measure.h"
#include "pinpoint/measure/schedule.h"
#include "pinpoint/measure/settle.h"

int pp_verbose = -1; /* the driver's, from main.c: quiet here */

static struct {
	gsl_rng *rng;
	double run_sd, moment_sd;
	double effect[2][PP_MAX_LAYOUTS]; /* each revision's layouts, drawn per session */
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
	double runs[4000];
	unsigned n;
};

static void session(unsigned k, double layout_sd, unsigned id, struct outcome *o)
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
	for (int r = 0; r < 2; r++) {
		s.rev[r].lay.n = k > 1 ? k : 0;
		for (unsigned i = 0; i < k; i++)
			sim.effect[r][i] = gsl_ran_gaussian(sim.rng, layout_sd);
	}
	q = pp_quantity_get(&s, PP_Q_ENTRY, fns, 0, 0);
	if (q && !pp_settle(&s, &q, 1, NULL) && q->decided) {
		o->not_slower += q->verdict == PP_V_NOT_SLOWER || q->verdict == PP_V_SAME ||
				 q->verdict == PP_V_FASTER_BELOW || q->verdict == PP_V_SLOWER_BELOW;
		o->slower += q->verdict == PP_V_SLOWER;
		o->undecided += q->verdict == PP_V_UNDECIDED;
		o->other += q->verdict == PP_V_FASTER;
		o->runs[o->n++] = (double)s.runs_used / 2;
	}
	pp_session_free(&s);
}

int main(int argc, char **argv)
{
	static const unsigned ks[] = {1, 8, 16, 32, 48, 64};
	static const double run_sds[] = {1.0, 5.0}, layout_sds[] = {1.0, 2.0};
	unsigned sessions = argc > 1 ? (unsigned)atoi(argv[1]) : 400;

	if (sessions < 1 || sessions > 4000) {
		fprintf(stderr, "layout_count: sessions must be 1 to 4000\n");
		return 2;
	}
	gsl_rng_env_setup();
	sim.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(sim.rng, 20261128);
	printf("A/A, threshold T = 2 (2 %% of 100), %u sessions a cell, runs in pairs\n", sessions);
	printf("| layout sd | run sd | layouts | not slower | slower (false) | undecided | runs a "
	       "revision: median [quartiles] |\n|---|---|---|---|---|---|---|\n");
	for (size_t l = 0; l < 2; l++)
		for (size_t a = 0; a < sizeof(run_sds) / sizeof(*run_sds); a++) {
			sim.run_sd = run_sds[a];
			sim.moment_sd = 0; /* shared by a pair: cancels in its difference */
			for (size_t b = 0; b < sizeof(ks) / sizeof(*ks); b++) {
				struct outcome o = {0};

				for (unsigned i = 0; i < sessions; i++)
					session(ks[b], layout_sds[l],
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
	gsl_rng_free(sim.rng);
	return 0;
}
