// SPDX-License-Identifier: MIT
/*
 * layouts_block.c - pp_decide_layouts_block (pinpoint/measure/decide_layout.c):
 * a comparison whose layouts differ by more than its threshold lets, with
 * its estimate near 0, no verdict through however many runs the same
 * layouts get, and is stopped; the same comparison with layouts that do not
 * differ (even with runs five times as noisy as the threshold, in 200
 * samples), or with an estimate far beyond the threshold, or before its
 * fourth look, goes on; one whose estimate lies between 0 and the threshold
 * with a floor that reaches past the threshold is stopped too, unless the
 * rest of its budget brings enough new layouts by the schedule (ahead.c)
 * and the session has room for them.  Paired, with pairs in layout k of
 * each revision, the floor is that of the pairs' differences by layout:
 * layouts that move both revisions alike (one seed for both) stop nothing.
 * Values drawn with a fixed seed: 8 layouts a revision, 5 runs each.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "pinpoint/measure/decide_priv.h"
#include "pinpoint/session/session.h"

#include "check.h"

#define K 8
#define PER 5
#define N (K * PER)

static double v[2][N];
static unsigned lay[2][N];

/*
 * Each revision's runs in K layouts, PER a layout; @shared: layout k moves
 * both revisions alike (pairs in layout k of each, one seed for both).
 */
static void fill_as(gsl_rng *r, struct pp_quantity *q, double layout_sd, double run_sd, bool shared)
{
	double eff[K];

	for (int s = 0; s < 2; s++) {
		for (int k = 0; k < K && (!s || !shared); k++)
			eff[k] = gsl_ran_gaussian(r, layout_sd);
		for (int i = 0; i < N; i++) {
			lay[s][i] = (unsigned)(i % K);
			v[s][i] = 100 + eff[i % K] + gsl_ran_gaussian(r, run_sd);
		}
		q->series[s].v = v[s];
		q->series[s].layout = lay[s];
		q->series[s].n = N;
	}
}

static void fill(gsl_rng *r, struct pp_quantity *q, double layout_sd, double run_sd)
{
	fill_as(r, q, layout_sd, run_sd, false);
}

static struct pp_decision dec;

/* With the layouts the session has and no room for more. */
static bool block(struct pp_quantity *q, size_t n)
{
	return pp_decide_layouts_block(q, &dec, n, 1000, K);
}

static void setup(struct pp_quantity *q, unsigned looks, double centre)
{
	(void)q;
	memset(&dec, 0, sizeof(dec));
	dec.design.alpha = 0.05;
	dec.design.threshold = 1.0;
	dec.seq.looks = looks;
	dec.seq.spent = 0.01;
	dec.look.diff.centre = centre;
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct pp_quantity q;
	double floor;

	if (!r)
		return 2;
	gsl_rng_set(r, 7);
	memset(&q, 0, sizeof(q));

	fill(r, &q, 5.0, 0.2);
	setup(&q, 4, 0.3);
	CHECK(block(&q, N), "layouts 5x the threshold, estimate 0.3: not stopped");
	CHECK(q.layout_floor > 1.0, "floor %.3f, want above the threshold", q.layout_floor);
	setup(&q, 3, 0.3);
	CHECK(!block(&q, N), "stopped before the fourth look");
	setup(&q, 4, 30.0);
	CHECK(!block(&q, N), "estimate 30x the threshold: stopped");
	CHECK(!block(&q, 3 * K), "three runs a layout: stopped");

	/* an estimate between 0 and T whose floor reaches past T: the interval
	 * clears 0 but can never fall below T, and no verdict is within reach */
	fill(r, &q, 1.2, 0.2);
	setup(&q, 4, 0.5);
	block(&q, N);
	floor = q.layout_floor;
	/* (Student's quantile, wider than the normal one) */
	CHECK(floor > 0.2 && floor < 0.8, "floor %.3f, want 0.2 to 0.8 of the threshold", floor);
	setup(&q, 4, 1.0 - floor / 2);
	CHECK(block(&q, N), "estimate %.3f, floor %.3f: not stopped", 1.0 - floor / 2, floor);

	/* New layouts by the schedule: enough of them within the budget and the
	 * room, and the comparison goes on; too few, or no room: stopped. */
	{
		unsigned enough = 0;

		setup(&q, 4, 1.0 - floor / 2);
		for (unsigned later = 1; later <= 4096 && !enough; later *= 2)
			if (!pp_decide_layouts_block(&q, &dec, N, later, 4096))
				enough = later;
		CHECK(enough > 0, "no number of new layouts up to 4096 lets it go on");
		CHECK(pp_decide_layouts_block(&q, &dec, N, enough / 2, 4096),
		      "%u new layouts are enough, yet %u let it go on", enough, enough / 2);
		CHECK(pp_decide_layouts_block(&q, &dec, N, enough, K + enough / 2),
		      "room for %u layouts, fewer than the %u it needs: not stopped",
		      K + enough / 2, K + enough);
		/* the layouts 5x the threshold with the estimate 0.3: a floor at 4096
		 * layouts is below it, at 64 it is not */
		fill(r, &q, 5.0, 0.2);
		setup(&q, 4, 0.3);
		CHECK(!pp_decide_layouts_block(&q, &dec, N, 4096, 4096),
		      "layouts 5x the threshold, room for 4096: stopped (floor %.3f)",
		      q.layout_floor);
		CHECK(pp_decide_layouts_block(&q, &dec, N, 56, 64),
		      "layouts 5x the threshold, room for 64: not stopped (floor %.3f)",
		      q.layout_floor);
	}

	/* Paired, units of a layout of each: the floor is the units' differences'.
	 * Layouts 5x the threshold that move both revisions alike leave nothing in
	 * them (not stopped), where Welch's on each revision's layouts would stop
	 * it; drawn apart for each revision, they stop it paired too. */
	fill_as(r, &q, 5.0, 0.2, true);
	setup(&q, 4, 0.3);
	dec.design.paired = true;
	CHECK(!block(&q, N), "paired, layouts alike in both: stopped (floor %.3f)", q.layout_floor);
	CHECK(q.layout_floor < 0.2, "paired, layouts alike in both: floor %.3f", q.layout_floor);
	setup(&q, 4, 0.3);
	CHECK(block(&q, N), "unpaired, layouts 5x the threshold: not stopped");
	fill(r, &q, 5.0, 0.2);
	setup(&q, 4, 0.3);
	dec.design.paired = true;
	CHECK(block(&q, N), "paired, layouts drawn apart: not stopped (floor %.3f)",
	      q.layout_floor);
	CHECK(q.layout_floor > 1.0, "paired, layouts drawn apart: floor %.3f", q.layout_floor);

	fill(r, &q, 0.0, 0.2);
	setup(&q, 4, 0.05);
	CHECK(!block(&q, N), "layouts that do not differ: stopped (floor %.3f)", q.layout_floor);
	/* noisy runs, layouts that do not differ: whatever the point estimate of
	 * the between-layout variance, its lower bound stops nothing */
	for (int i = 0; i < 200; i++) {
		fill(r, &q, 0.0, 5.0);
		setup(&q, 4, 0.3);
		CHECK(!block(&q, N),
		      "noise 5x the threshold, no layout effect, "
		      "sample %d: stopped (floor %.3f)",
		      i, q.layout_floor);
	}

	q.series[0].layout = NULL;
	setup(&q, 4, 0.3);
	CHECK(!block(&q, N), "runs in one layout: stopped");
	gsl_rng_free(r);
	return report("layouts-block");
}
