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
 * session has room for the layouts that would decide it: then it asks for
 * the fewest, doubling, and goes on.  Values drawn with a fixed seed: 8
 * layouts a revision, 5 runs each.
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

static void fill(gsl_rng *r, struct pp_quantity *q, double layout_sd, double run_sd)
{
	for (int s = 0; s < 2; s++) {
		double eff[K];

		for (int k = 0; k < K; k++)
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

static struct pp_decision dec;

/* With the layouts the session has and no room for more. */
static bool block(struct pp_quantity *q, size_t n)
{
	unsigned more = 99;
	bool b = pp_decide_layouts_block(q, &dec, n, K, K, &more);

	CHECK(more == 0, "no room for more layouts, yet %u asked for", more);
	return b;
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

	/* More layouts: the fewest, doubling, whose floor puts a verdict within
	 * reach, and the comparison goes on; none within the room: stopped. */
	{
		unsigned more, again;

		setup(&q, 4, 1.0 - floor / 2);
		CHECK(!pp_decide_layouts_block(&q, &dec, N, K, 256, &more),
		      "room for 256 layouts: stopped");
		CHECK(more >= 2 * K && more <= 256 && !(more & (more - 1)),
		      "asked for %u layouts, want a doubling of %u up to 256", more, K);
		CHECK(pp_decide_layouts_block(&q, &dec, N, K, more / 2, &again) && !again,
		      "room for %u layouts, half of the %u asked for: not stopped, %u asked for",
		      more / 2, more, again);
		CHECK(!pp_decide_layouts_block(&q, &dec, N, K, more, &again) && again == more,
		      "room for just the %u asked for: %u asked for", more, again);
		/* a room that is no doubling: all of it */
		if (more > 2 * K) {
			CHECK(!pp_decide_layouts_block(&q, &dec, N, K, more - 1, &again) &&
				  again == more - 1,
			      "room for %u: %u asked for", more - 1, again);
		}
		/* layouts just made, with no runs in this look yet: not stopped, none asked */
		CHECK(!pp_decide_layouts_block(&q, &dec, N, 2 * K, 256, &again) && !again,
		      "layouts without runs yet: stopped or %u asked for", again);
		/* the layouts 5x the threshold with the estimate 0.3: 256 are not enough */
		fill(r, &q, 5.0, 0.2);
		setup(&q, 4, 0.3);
		CHECK(pp_decide_layouts_block(&q, &dec, N, K, 256, &again) && !again,
		      "layouts 5x the threshold: %u asked for", again);
	}

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
