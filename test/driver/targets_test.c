// SPDX-License-Identifier: MIT
/*
 * targets_test.c - an indirect call's targets from hand-made run records
 * (pinpoint/session/targets.c) and where the search goes at the call
 * (pp_dig_stop(), pinpoint/search/search.c).
 *
 * Three runs a revision and a warm-up that must be left out.  The call
 * holds targets cmp_a and cmp_b: previous 5, 6, 5.5 each (the call 10, 12,
 * 11), current cmp_a 25, 27, 26 and cmp_b 5, 5, 74 (the call 30, 32, 100:
 * the third run interrupted inside cmp_b).  By hand: the current shares of
 * the call's time are sums, cmp_a 78 / 162 and cmp_b 84 / 162; the medians
 * are the middle values, cmp_a 5.5 -> 26 (+20.5), cmp_b 5.5 -> 5 (-0.5),
 * so cmp_a holds 20.5 / 20 = 102.5 % of the difference and is dug into,
 * though cmp_b has the larger sum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/search/search.h"
#include "pinpoint/session/targets.h"

#include "check.h"

#define RUNS 7 /* a warm-up, then three runs a revision */

int pp_verbose = -1; /* the driver's, from main.c: quiet here */

static struct pp_options opt = {.depth = 5, .confidence = 0.95};
static struct pp_quantity q = {.id = 0, .kind = PP_Q_RANGE};
static unsigned qids[1] = {0};
static struct pp_batch batch = {.id = 1, .nq = 1, .qids = qids};
static struct pp_run_record runs[RUNS];
static double values[RUNS];
static struct pp_run_target targets[RUNS][2];

/* Run @i of revision @r: the call's value @v, targets @ka = @a and @kb = @b (NULL: none). */
static void run(int i, enum pp_rev_id r, bool warmup, double v, const char *ka, double a,
		const char *kb, double b)
{
	values[i] = v;
	targets[i][0] = (struct pp_run_target){.qi = 0, .key = (char *)ka, .v = a, .count = 1};
	targets[i][1] = (struct pp_run_target){.qi = 0, .key = (char *)kb, .v = b, .count = 1};
	runs[i] = (struct pp_run_record){.batch = 1,
					 .rev = r,
					 .index = (unsigned)(i - 1) % 3,
					 .warmup = warmup,
					 .nvalues = 1,
					 .values = &values[i],
					 .ntargets = kb ? 2 : 1,
					 .targets = targets[i]};
}

/* Previous as above; current with targets named @ka and @kb, cmp_b's values @b. */
static void fill(const char *ka, const char *kb, const double b[3])
{
	const double prev[3] = {5, 6, 5.5}, cur_a[3] = {25, 27, 26};

	run(0, PP_CUR, true, 1000, ka, 500, kb, 500);
	for (int i = 0; i < 3; i++) {
		run(1 + i, PP_PREV, false, 2 * prev[i], "cmp_a", prev[i], "cmp_b", prev[i]);
		run(4 + i, PP_CUR, false, cur_a[i] + (kb ? b[i] : 0), ka, cur_a[i], kb,
		    kb ? b[i] : 0);
	}
}

/* The caller's function "scan" and the functions @names of one revision, sorted by name. */
static void program(struct pp_program *p, struct pp_prog_fn *f, const char *const *names, size_t n,
		    struct pp_prog_call *c)
{
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < n; i++)
		f[i] = (struct pp_prog_fn){
		    .name = names[i], .file = "x.c", .object = "prog", .module = "x.c"};
	p->funcs = f;
	p->nfuncs = n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], "scan")) {
			f[i].ncalls = 1;
			f[i].calls = c;
		}
}

static const struct pp_prog_fn *fn_named(const struct pp_program *p, const char *name)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return &p->funcs[i];
	return NULL;
}

/*
 * pp_targets_compare() on 12 pairs: each target's values in the runs that
 * timed the call, 0 where it was not reached, paired by pair, compared at
 * the report's confidence shared among the targets - the same interval as
 * pp_seq_interval() on those values by hand - and its verdict against the
 * threshold (10): cmp_a about 20 slower, cmp_b about 1 (once not reached),
 * or with @both about 30 slower too.
 */
#define PAIRS 12
static void compare_case(const struct pp_session *m, bool both)
{
	static struct pp_run_record r[2 * PAIRS];
	static struct pp_run_target tg[2 * PAIRS][2];
	static double val[2 * PAIRS];
	double a[2][PAIRS], b[2][PAIRS];
	struct pp_options o = {
	    .depth = 5, .confidence = 0.95, .test = PP_TEST_MANN_WHITNEY, .runs = PP_RUNS_DUET};
	struct pp_session s = {
	    .opt = &o, .nbatches = 1, .batches = &batch, .nruns = 2 * PAIRS, .runs = r};
	struct pp_quantity *qs[1] = {&q};
	struct pp_targets t;

	s.nq = 1;
	s.q = qs;
	s.rev[PP_PREV].prog = m->rev[PP_PREV].prog;
	s.rev[PP_CUR].prog = m->rev[PP_CUR].prog;
	s.threshold_ns = 10;
	for (int i = 0; i < PAIRS; i++)
		for (int v = 0; v < 2; v++) {
			int k = 2 * i + v;
			size_t nt = 0;

			a[v][i] = v ? 25 + 0.25 * (i % 4) + 0.05 * i : 5 + 0.3 * (i % 5) + 0.07 * i;
			b[v][i] = v ? (both ? 35 : 5) + 0.13 * i + 0.5 * (i % 2)
				    : (i == 4 ? 0 : 5 + 0.11 * i);
			tg[k][nt++] = (struct pp_run_target){.key = "cmp_a", .v = a[v][i]};
			if (b[v][i] > 0)
				tg[k][nt++] = (struct pp_run_target){.key = "cmp_b", .v = b[v][i]};
			val[k] = a[v][i] + b[v][i];
			/* the current runs first in half the pairs: pairs are found by index */
			r[(i % 2 ? 2 * i + 1 - v : k)] =
			    (struct pp_run_record){.batch = 1,
						   .rev = v ? PP_CUR : PP_PREV,
						   .index = (unsigned)i,
						   .nvalues = 1,
						   .values = &val[k],
						   .ntargets = nt,
						   .targets = tg[k]};
		}
	CHECK(!pp_targets_of(&s, &q, &t) && !pp_targets_compare(&s, &q, &t), "out of memory");
	CHECK(t.n == 2, "%zu targets", t.n);
	for (size_t i = 0; i < t.n; i++) {
		bool is_a = !strcmp(t.t[i].key, "cmp_a");
		struct pp_interval want;
		int e = pp_seq_interval(PP_TEST_MANN_WHITNEY, true, is_a ? a[0] : b[0], NULL, PAIRS,
					is_a ? a[1] : b[1], NULL, PAIRS, 1 - 0.05 / 2, &want);

		CHECK(!e && t.t[i].compared, "%s not compared (%d)", t.t[i].key, e);
		if (e || !t.t[i].compared)
			continue;
		CHECK_CLOSE(t.t[i].key, "difference", t.t[i].diff.centre, want.centre, 1e-12, 0);
		CHECK_CLOSE(t.t[i].key, "low", t.t[i].diff.low, want.low, 1e-12, 0);
		CHECK_CLOSE(t.t[i].key, "high", t.t[i].diff.high, want.high, 1e-12, 0);
		CHECK(t.t[i].verdict == pp_seq_verdict_of(&want, 10, false) &&
			  (is_a || both ? t.t[i].verdict == PP_SEQ_SLOWER
					: t.t[i].verdict != PP_SEQ_SLOWER),
		      "%s: verdict %d", t.t[i].key, (int)t.t[i].verdict);
	}
	pp_targets_free(&t);
	/*
	 * Which of them the search digs into is decided by their sequential
	 * comparisons (pp_slower_targets() settles them), which need runs: the
	 * program models test it (check_alpha.py, check_model.py).
	 */
}

int main(void)
{
	static const char *const prev_names[] = {"cmp_a", "cmp_b", "scan"};
	static const char *const cur_names[] = {"cmp_a", "cmp_b", "cmp_new", "scan"};
	const double b_outlier[3] = {5, 5, 74}, b_even[3] = {25.5, 25.5, 25.5};
	struct pp_prog_call c = {.callee = "",
				 .file = "x.c",
				 .line = 9,
				 .kind = PP_CALL_INDIRECT,
				 .fate = PP_FATE_TIMED};
	struct pp_prog_fn funcs[2][4];
	struct pp_session s = {
	    .opt = &opt, .nbatches = 1, .batches = &batch, .nruns = RUNS, .runs = runs};
	struct pp_quantity *qs[1] = {&q};
	struct pp_node node = {.kind = PP_NODE_CALL, .q = &q, .parent = -1};
	const struct pp_prog_fn *fn[2], *callee[2];
	const struct pp_target_share *d;
	const int at[2] = {0, 0};
	struct pp_targets t;
	const char *stop;

	s.nq = 1;
	s.q = qs;
	program(&s.rev[PP_PREV].prog, funcs[0], prev_names, 3, &c);
	program(&s.rev[PP_CUR].prog, funcs[1], cur_names, 4, &c);
	fn[PP_PREV] = fn_named(&s.rev[PP_PREV].prog, "scan");
	fn[PP_CUR] = fn_named(&s.rev[PP_CUR].prog, "scan");

	/* cmp_a holds the difference by its medians, cmp_b the larger sum */
	fill("cmp_a", "cmp_b", b_outlier);
	CHECK(!pp_targets_of(&s, &q, &t), "out of memory");
	CHECK(t.n == 2 && t.runs[0] == 3 && t.runs[1] == 3, "%zu targets, %zu + %zu runs", t.n,
	      t.runs[0], t.runs[1]);
	if (t.n == 2) {
		CHECK(!strcmp(t.t[0].key, "cmp_b"), "largest share first: %s", t.t[0].key);
		CHECK_CLOSE("cmp_b", "share", t.t[0].share, 84.0 / 162, 1e-12, 0);
		CHECK_CLOSE("cmp_a", "share", t.t[1].share, 78.0 / 162, 1e-12, 0);
		CHECK_CLOSE("cmp_a", "median current", t.t[1].median[PP_CUR], 26, 1e-12, 0);
		CHECK_CLOSE("cmp_b", "median previous", t.t[0].median[PP_PREV], 5.5, 1e-12, 0);
		CHECK_CLOSE("cmp_a", "difference share", t.t[1].diff_share, 1.025, 1e-12, 0);
		CHECK_CLOSE("cmp_b", "difference share", t.t[0].diff_share, -0.025, 1e-12, 0);
		CHECK_CLOSE("call", "mean current", t.call[PP_CUR], 54, 1e-12, 0);
		d = pp_targets_dominant(&t);
		CHECK(d && !strcmp(d->key, "cmp_a"), "dominant %s", d ? d->key : "none");
	}
	pp_targets_free(&t);
	stop = pp_dig_stop(&s, fn, at, 0, &node, callee, NULL);
	pp_targets_drop(&node); /* what the search kept on the node */
	CHECK(!stop && callee[PP_PREV] == fn_named(&s.rev[PP_PREV].prog, "cmp_a") &&
		  callee[PP_CUR] == fn_named(&s.rev[PP_CUR].prog, "cmp_a"),
	      "dug into cmp_a: stop %s", stop ? stop : "none");
	stop = pp_dig_stop(&s, fn, at, 0, NULL, callee, NULL);
	CHECK(stop && !strcmp(stop, "indirect call"), "without its node: %s", stop ? stop : "none");

	/* both +20: half each, none dominant */
	fill("cmp_a", "cmp_b", b_even);
	stop = pp_dig_stop(&s, fn, at, 0, &node, callee, NULL);
	pp_targets_drop(&node); /* what the search kept on the node */
	CHECK(stop && !strcmp(stop, "indirect call: 2 targets, none holds 80 % of it or is "
				    "slower by the threshold on its own"),
	      "%s", stop ? stop : "none");

	/* the only target of the runs, in each case */
	fill("cmp_z", NULL, NULL);
	for (int i = 1; i < 4; i++) /* the previous revision's runs record none */
		runs[i].ntargets = 0;
	stop = pp_dig_stop(&s, fn, at, 0, &node, callee, NULL);
	pp_targets_drop(&node); /* what the search kept on the node */
	CHECK(stop && !strcmp(stop, "indirect call into cmp_z (not instrumented)"), "%s",
	      stop ? stop : "none");
	fill("ext:libc.so.6", NULL, NULL);
	for (int i = 1; i < 4; i++)
		runs[i].ntargets = 0;
	stop = pp_dig_stop(&s, fn, at, 0, &node, callee, NULL);
	pp_targets_drop(&node); /* what the search kept on the node */
	CHECK(stop && !strcmp(stop, "indirect call into libc.so.6 (not instrumented)"), "%s",
	      stop ? stop : "none");
	fill("cmp_new", NULL, NULL);
	for (int i = 1; i < 4; i++)
		runs[i].ntargets = 0;
	stop = pp_dig_stop(&s, fn, at, 0, &node, callee, NULL);
	pp_targets_drop(&node); /* what the search kept on the node */
	CHECK(stop &&
		  !strcmp(stop, "indirect call into cmp_new, a function only the current "
				"revision has") &&
		  !callee[PP_PREV] && !callee[PP_CUR],
	      "%s", stop ? stop : "none");
	opt.depth = 1;
	fill("cmp_a", "cmp_b", b_outlier);
	stop = pp_dig_stop(&s, fn, at, 0, &node, callee, NULL);
	pp_targets_drop(&node); /* what the search kept on the node */
	CHECK(stop && !strcmp(stop, "depth reached"), "at --depth: %s", stop ? stop : "none");
	free(node.stop_own);
	compare_case(&s, false);
	compare_case(&s, true);
	return report("test-driver-targets");
}
