// SPDX-License-Identifier: MIT
/*
 * settle_sim.c - simulated sessions through the driver's real measure,
 * decide and settle stages (pinpoint/measure/measure.c, decide.c, settle.c,
 * pinpoint/session/session.c): the runs come from a measurement backend of
 * this file's own (pinpoint/measure/backend.h), which gives each run the
 * real measure stage asks for a synthetic value; pp_measure() makes the
 * batches, draws the runs' order (pp_schedule()) and records every run.
 * Checks:
 *
 *   - A/A sessions (identical revisions): the entry is found slower - the
 *     session's exit status 1 - in at most alpha/2 of them.  1000 sessions
 *     per setting; the count must stay under the 99.9% binomial limit at 5%,
 *     a limit that a 10% rate exceeds with probability above 0.99 (both
 *     printed, and the second checked), so the check tells 5% from 10%.  Settings: threshold 0 (no
 *     comparison can end "same": every look is a chance for a false claim,
 *     the hardest case for repeated looks) and the default 2%, normal and
 *     skewed noise, with outliers, and noise that depends on the run's
 *     place in time, in the order pp_schedule() draws (pairs by default,
 *     --runs shuffled too, duet runs).  The order is the scheduler's: the
 *     ABBA demonstration (a fixed order failing under a period in step with
 *     it) went with the measure stage this file used to replace.
 *   - the threshold means what it says: an entry slower by T/2 is SLOWER (a
 *     regression) in at most alpha/2 of the sessions, one slower by 1.5 T
 *     in at least 90%.
 *   - an entry that cannot be decided within its budget or within --max-runs
 *     is UNDECIDED, never "same", and carries its interval, runs and MDE.
 *   - the look sizes are fixed: values that arrived riding along in another
 *     comparison's runs are looked at in the schedule's steps
 *     (pp_seq_look_size, from --measurements).
 *   - comparisons measured together are measured again together while open.
 *   - a clear regression is found slower.
 *   - the noise warnings (pinpoint/measure/noise.c) against a made-up /proc and /sys.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "pinpoint/measure/backend.h"
#include "pinpoint/measure/decide.h"
#include "pinpoint/measure/duet.h"
#include "pinpoint/measure/measure.h"
#include "pinpoint/measure/noise.h"
#include "pinpoint/measure/schedule.h"
#include "pinpoint/measure/settle.h"

#include "check.h"

int pp_verbose; /* the driver's, from main.c: quiet here */

/*
 * What the backend gives a run: 100 + shift (current only) + scale * noise,
 * the same value for every quantity of its batch (a run's noise is shared
 * by all it measures).  The first two noises are independent from run to
 * run; the others depend on the run's place in time, as a shared machine's
 * noise does, the place being the run's turn in its batch (warm-ups
 * included), in the order measure.c runs them:
 *   PERIODIC  the 2nd and 3rd runs of every 4 are 3 sd slower;
 *   BURSTS    each round's level (drawn when its batch begins) moves by
 *             N(0, 3 sd), and bursts of load (starting at a run with
 *             probability 0.05, ending with 0.3) slow the runs they cover
 *             by 5 sd.
 *   DUET      the two runs of a pair at once (duet.h; the backend's duet
 *             op has the session's pairs run so, and measure.c asks for
 *             both runs of a turn, the first on side 0): the host's
 *             moment, N(0, 3 sd), is the same for both; each run is slowed
 *             by half of what its partner's own noise is (the two contend
 *             for the caches, the memory, the host), and the run on the
 *             first side is 2 sd slower than on the second (it takes the
 *             interrupts).
 */
enum noise { NOISE_NORMAL, NOISE_LOGNORMAL_OUTLIERS, NOISE_PERIODIC, NOISE_BURSTS, NOISE_DUET };

static struct {
	gsl_rng *rng;
	enum noise noise;
	double scale, shift;
	/* DUET: the slower side's 2 sd go to the current revision's run, whichever side it
	 * is on, as if the current revision always ran there (not drawn) */
	bool fixed_cpu;
	bool shuffled;		  /* --runs shuffled: a random order, independent samples */
	bool cpu_term;		  /* --cpu-term on: a duet's CPUs taken out of each comparison */
	unsigned calls, sessions; /* batches begun (reset by the checks), sessions made */
	size_t last_nq;		  /* quantities of the last batch */
	/* the batch being run: the next run's turn, the round's level */
	size_t turn;
	double level;
	bool burst;
	double moment, own[2]; /* DUET: the pair's, drawn at its first run */
	double aa_runs;	       /* the last check_aa()'s runs per session */
	/* > 0: the first batch's current runs are this much slower and faster by turns,
	 * pair by pair, so that a first look can never tell (a noise this large,
	 * drawn, still gave all of a first look's few differences one sign now and then) */
	double first_scale;
} sim;

static double draw(void)
{
	double v;

	if (sim.noise != NOISE_LOGNORMAL_OUTLIERS)
		return gsl_ran_gaussian(sim.rng, 1.0);
	/* lognormal(0, 0.5) scaled to sd 1, and 2% of the runs 20 sd slower */
	v = gsl_ran_lognormal(sim.rng, 0.0, 0.5) / sqrt((exp(0.25) - 1.0) * exp(0.25));
	return v + (gsl_rng_uniform(sim.rng) < 0.02 ? 20.0 : 0.0);
}

/* The noise of the run at turn @j of a round whose level is @level. */
static double noise_at(size_t j, double level)
{
	double v = draw() + level;

	if (sim.noise == NOISE_PERIODIC && (j % 4 == 1 || j % 4 == 2))
		v += 3.0;
	if (sim.noise == NOISE_BURSTS) {
		sim.burst = gsl_rng_uniform(sim.rng) < (sim.burst ? 0.7 : 0.05);
		v += sim.burst ? 5.0 : 0.0;
	}
	return v;
}

/*
 * The noise of duet run @req at turn @j into *@v: its side is the CPUs
 * measure.c gave it (side 0 the first of its pair, at an even turn).  0, or
 * -EIO after pp_session_fail() for a run that is not one of a pair.
 */
static int duet_noise(struct pp_session *s, const struct pp_run_req *req, size_t j, double *v)
{
	int side = req->cpus == &s->duet_cpus[1];
	bool slow = sim.fixed_cpu ? req->rev == PP_CUR : side == 0;

	if (!s->duet || !req->cpus || (size_t)side != j % 2) {
		pp_session_fail(s, "batch run %zu was not one of a duet's pair", j + 1);
		return -EIO;
	}
	if (!side) { /* the pair's first run: the moment and both runs' own noise */
		sim.moment = gsl_ran_gaussian(sim.rng, 3.0);
		sim.own[0] = gsl_ran_gaussian(sim.rng, 1.0);
		sim.own[1] = gsl_ran_gaussian(sim.rng, 1.0);
	}
	*v = sim.moment + sim.own[side] + 0.5 * sim.own[1 - side] + (slow ? 2.0 : 0.0);
	return 0;
}

/* A batch begins: its round's level, and its runs' turns from 0. */
static int sim_batch(struct pp_session *s, struct pp_batch *b)
{
	(void)s;
	sim.calls++;
	sim.last_nq = b->nq;
	sim.turn = 0;
	sim.level = sim.noise == NOISE_BURSTS ? gsl_ran_gaussian(sim.rng, 3.0) : 0.0;
	return 0;
}

/* Run @req of batch @b: one value, the same for each of the batch's @nq quantities. */
static int sim_values(struct pp_session *s, const struct pp_batch *b, const struct pp_run_req *req,
		      struct pp_run_record *rec, size_t nq)
{
	size_t j = sim.turn++;
	double noise, v = 100.0 + (req->rev == PP_CUR ? sim.shift : 0.0);
	int err;

	(void)b;
	if (sim.noise == NOISE_DUET) {
		if ((err = duet_noise(s, req, j, &noise)))
			return err;
	} else {
		noise = noise_at(j, sim.level);
	}
	v += sim.scale * noise;
	if (sim.calls == 1 && sim.first_scale > 0 && req->rev == PP_CUR)
		v += (j / 2) % 2 ? sim.first_scale : -sim.first_scale;
	rec->st.exited = 1;
	rec->st.wall_s = 0.1; /* of the session's clock, the backend's */
	rec->st.cpu_s = 0.1;
	rec->entry_count = 1000;
	rec->nvalues = nq;
	rec->values = calloc(nq ? nq : 1, sizeof(double));
	rec->removed = calloc(nq ? nq : 1, sizeof(double));
	if (!rec->values || !rec->removed) {
		pp_session_fail(s, "out of memory");
		return -EIO;
	}
	for (size_t i = 0; i < nq; i++)
		rec->values[i] = v;
	return 0;
}

/* Pairs of runs at once in the duet setting only, on two sides that are labels, not CPUs. */
static int sim_duet(struct pp_session *s)
{
	s->duet = sim.noise == NOISE_DUET;
	for (int k = 0; k < 2; k++) {
		CPU_ZERO(&s->duet_cpus[k]);
		CPU_SET(k, &s->duet_cpus[k]);
		s->duet_cpu[k] = k;
	}
	return 0;
}

/* No code layouts: the revisions are measured as built. */
static int sim_layouts(struct pp_session *s, enum pp_rev_id r, unsigned want)
{
	(void)s;
	(void)r;
	(void)want;
	return 0;
}

static const struct pp_backend sim_backend = {
    .name = "simulation",
    .duet = sim_duet,
    .layouts = sim_layouts,
    .batch = sim_batch,
    .values = sim_values,
};

/* The one function of both revisions: the entry, and the function of the ranges. */
static const struct pp_prog_fn sim_fn = {.name = "work", .file = ""};

/*
 * A new session @s of options @opt on the simulation's backend, its
 * revisions' entry sim_fn, its clock the backend's, its runs in duets when
 * the options and the noise say so (pp_duet_choose(), as after discovery).
 * 0 or -ENOMEM.
 */
static int sim_session(struct pp_session *s, struct pp_options *opt)
{
	static char workdir[] = "/nonexistent/pinpoint-sim"; /* armings name it, nothing opens it */
	static const char *const label[2] = {"previous", "current"};

	memset(s, 0, sizeof(*s));
	s->opt = opt;
	s->backend = &sim_backend;
	s->virtual_clock = true;
	s->workdir = workdir;
	for (int r = 0; r < 2; r++) {
		s->rev[r].label = label[r];
		s->rev[r].entry = &sim_fn;
		s->rev[r].entry_spec = strdup(sim_fn.name);
		if (!s->rev[r].entry_spec)
			return -ENOMEM;
	}
	pp_duet_choose(s);
	CHECK(s->duet == (sim.noise == NOISE_DUET && opt->runs == PP_RUNS_DUET), "duet runs %s",
	      s->duet ? "chosen" : "not chosen");
	return 0;
}

static struct pp_options default_options(void)
{
	return (struct pp_options){
	    .measurements = 15,
	    .warmups = 1,
	    .confidence = 0.95,
	    .precision = 2.0,
	    .max_runs_comparison = 200,
	    .max_runs = 4000,
	    .test = PP_TEST_MANN_WHITNEY,
	    .quiet = true,
	    .cpu_term = sim.cpu_term,
	};
}

/* One session as the plan runs its entry: a first round, then settle. */
static struct pp_quantity *session(struct pp_session *s, struct pp_options *opt, double thr,
				   size_t prefill)
{
	const struct pp_prog_fn *fns[2] = {&sim_fn, &sim_fn};
	struct pp_quantity *q;
	int err;

	opt->seed = ++sim.sessions; /* the runs' order, reproducibly */
	opt->have_seed = true;
	err = sim_session(s, opt);
	CHECK(!err, "no session: %d", err);
	if (err)
		return NULL;
	s->threshold_ns = thr; /* discovery's; the entry's first look replaces it */
	q = pp_quantity_get(s, PP_Q_ENTRY, fns, 0, 0);
	if (!q)
		return NULL;
	err = prefill ? pp_measure(s, &q, 1, (int)prefill, 0) : 0;
	if (!err)
		err = pp_settle(s, &q, 1, NULL);
	CHECK(!err, "settle failed: %d (%s)", err, s->failure ? s->failure : "");
	CHECK(q->decided, "settle returned an undecided comparison");
	return q;
}

/* Smallest k with P(X > k) <= 0.001 for X ~ Binomial(n, p). */
static unsigned binomial_limit(double p, unsigned n)
{
	unsigned k = 0;

	while (k < n && gsl_cdf_binomial_Q(k, p, n) > 0.001)
		k++;
	return k;
}

#define AA_SESSIONS 1000u

static const char *const noise_name[] = {"normal", "skewed", "periodic", "bursts", "duet"};

/*
 * A/A sessions: how many found the entry slower (checked against the limit
 * unless the current revision always has the slower side).  The runs are
 * paired, shuffled with sim.shuffled, in duets with the duet noise.
 */
static unsigned check_aa(enum pp_test test, enum noise noise, double scale, double precision)
{
	struct pp_options opt = default_options();
	unsigned slower = 0, faster = 0, same = 0, undecided = 0, not_slower = 0;
	unsigned limit = binomial_limit(0.05, AA_SESSIONS);
	double runs = 0;

	opt.test = test;
	opt.precision = precision;
	opt.runs = sim.shuffled		 ? PP_RUNS_SHUFFLED
		   : noise == NOISE_DUET ? PP_RUNS_DUET
					 : PP_RUNS_PAIRED;
	sim.noise = noise;
	sim.scale = scale;
	sim.shift = 0.0;
	for (unsigned k = 0; k < AA_SESSIONS; k++) {
		struct pp_session s;
		struct pp_quantity *q = session(&s, &opt, 100.0 * precision / 100.0, 0);

		if (q) {
			slower += q->verdict == PP_V_SLOWER;
			faster += q->verdict == PP_V_FASTER;
			same += q->verdict == PP_V_SAME;
			undecided += q->verdict == PP_V_UNDECIDED;
			not_slower += q->verdict == PP_V_NOT_SLOWER;
			runs += (double)s.runs_used;
			CHECK(precision > 0 || q->verdict != PP_V_SAME, "threshold 0 gave SAME");
			CHECK(q->final_look.alpha_spent <= q->alpha * (1 + 1e-12), "spent %g of %g",
			      q->final_look.alpha_spent, q->alpha);
		}
		pp_session_free(&s);
	}
	printf(
	    "A/A %-12s %-8s noise %g%% threshold %g%%, %s order%s%s: %u sessions, slower %u "
	    "(limit %u), faster %u, same %u, not slower %u, undecided %u, %.0f runs each\n",
	    test == PP_TEST_WELCH ? "welch" : "mann-whitney", noise_name[noise], scale, precision,
	    opt.runs == PP_RUNS_SHUFFLED ? "shuffled"
	    : opt.runs == PP_RUNS_DUET	 ? "duet"
					 : "paired",
	    opt.runs == PP_RUNS_DUET ? (opt.cpu_term ? ", CPUs a term" : ", CPUs as they ran") : "",
	    sim.fixed_cpu ? ", current always on the slower CPU" : "", AA_SESSIONS, slower, limit,
	    faster, same, not_slower, undecided, runs / AA_SESSIONS);
	sim.aa_runs = runs / AA_SESSIONS;
	CHECK(sim.fixed_cpu || slower <= limit,
	      "%u of %u A/A sessions found slower, limit %u at 5%%", slower, AA_SESSIONS, limit);
	return slower;
}

/*
 * The threshold means what it says, through the driver's entry: a true
 * difference of T/2 is a regression (SLOWER, exit status 1) in at most the
 * 99.9% binomial limit of alpha/2 of the sessions (the target is 10%), one
 * of 1.5 T in at least 90% (limit of Binomial at 90%).  Threshold 2% of
 * 100, noise sd 1 (T/2) and 3 (1.5 T), normal and skewed with outliers.
 */
static void check_threshold(enum noise noise, double scale)
{
	struct pp_options opt = default_options();
	unsigned half = 0, half_below = 0, big = 0, big_undecided = 0;
	unsigned half_limit = binomial_limit(0.025, AA_SESSIONS);
	unsigned miss_limit = binomial_limit(0.10, AA_SESSIONS);
	double runs[2] = {0, 0};

	opt.max_runs_comparison = 3000;
	opt.max_runs = 0;
	sim.noise = noise;
	sim.scale = scale;
	for (int k = 0; k < 2; k++) {
		sim.shift = k ? 3.0 : 1.0;
		for (unsigned i = 0; i < AA_SESSIONS; i++) {
			struct pp_session s;
			struct pp_quantity *q = session(&s, &opt, 2.0, 0);

			if (q && !k) {
				half += q->verdict == PP_V_SLOWER;
				half_below += q->verdict == PP_V_SLOWER_BELOW;
			} else if (q) {
				big += q->verdict == PP_V_SLOWER;
				big_undecided += q->verdict == PP_V_UNDECIDED;
			}
			runs[k] += (double)s.runs_used;
			pp_session_free(&s);
		}
	}
	printf("threshold 2%% %-8s noise %g%%: +1%%: %u of %u sessions slower (limit %u at 2.5%%), "
	       "%u slower below the threshold, %.0f runs each; +3%%: %u slower (at least %u), %u "
	       "undecided, %.0f runs each\n",
	       noise_name[noise], scale, half, AA_SESSIONS, half_limit, half_below,
	       runs[0] / AA_SESSIONS, big, AA_SESSIONS - miss_limit, big_undecided,
	       runs[1] / AA_SESSIONS);
	CHECK(half <= half_limit, "a difference of T/2 was a regression in %u of %u sessions", half,
	      AA_SESSIONS);
	CHECK(AA_SESSIONS - big <= miss_limit,
	      "a difference of 1.5 T was a regression in only %u of %u sessions", big, AA_SESSIONS);
}

/* An entry with a true difference between 0 and the threshold and few runs: undecided. */
static void check_undecided(void)
{
	struct pp_options opt = default_options();
	struct pp_session s;
	struct pp_quantity *q;

	sim.noise = NOISE_NORMAL;
	sim.scale = 20.0; /* CoV 20%: 2% cannot be told within 60 runs */
	sim.shift = 3.0;
	opt.max_runs_comparison = 60;
	/* mostly undecided; a verdict (each look's error rate allows one) draws again */
	for (int tries = 0; tries < 10; tries++) {
		q = session(&s, &opt, 2.0, 0);
		if (!q || q->verdict == PP_V_UNDECIDED)
			break;
		pp_session_free(&s);
	}
	CHECK(q && q->verdict == PP_V_UNDECIDED, "a noisy entry within 60 runs is %s",
	      q ? pp_verdict_name(q->verdict) : "missing");
	if (q && q->verdict == PP_V_UNDECIDED) {
		CHECK(q->final_look.runs == 120, "undecided after %zu runs, budget 120",
		      q->final_look.runs);
		CHECK(q->final_look.looks >= 3,
		      "%u looks, want the schedule's (15 or more, ..., 60)", q->final_look.looks);
		CHECK(isfinite(q->final_look.mde) && q->final_look.mde > 2.0, "MDE %g",
		      q->final_look.mde);
		CHECK(isfinite(q->cmp.diff.low) && q->cmp.diff.low < 2.0 && q->cmp.diff.high > 2.0,
		      "interval [%g, %g]", q->cmp.diff.low, q->cmp.diff.high);
		CHECK(!q->truncated, "the comparison's own budget was spent, not --max-runs");
	}
	pp_session_free(&s);

	/* --max-runs spent first: undecided at the last look taken, marked so. */
	opt = default_options();
	opt.max_runs = 70;
	q = session(&s, &opt, 2.0, 0);
	CHECK(q && q->verdict == PP_V_UNDECIDED && q->truncated, "--max-runs 70 left the entry %s",
	      q ? pp_verdict_name(q->verdict) : "missing");
	CHECK(s.runs_used <= 70, "%zu runs used, --max-runs 70", s.runs_used);
	if (q)
		CHECK(q->final_look.runs == 60 && q->final_look.looks == 3,
		      "stopped at %zu runs, %u looks", q->final_look.runs, q->final_look.looks);
	pp_session_free(&s);
}

/* A clear regression is slower; a clear non-change with small noise is not slower. */
static void check_decides(void)
{
	struct pp_options opt = default_options();
	struct pp_session s;
	struct pp_quantity *q;

	sim.noise = NOISE_NORMAL;
	sim.scale = 1.0;
	sim.shift = 10.0;
	/* A discovery run 25 times too slow: the entry's first look sets the threshold. */
	q = session(&s, &opt, 50.0, 0);
	CHECK(q && q->verdict == PP_V_SLOWER, "a +10%% entry is %s",
	      q ? pp_verdict_name(q->verdict) : "missing");
	CHECK(s.threshold_fixed && fabs(s.threshold_ns - 2.0) < 0.1 && q &&
		  q->threshold_ns == s.threshold_ns,
	      "threshold %g, want 2%% of the previous median (about 2)", s.threshold_ns);
	pp_session_free(&s);
	sim.shift = 0.0;
	sim.scale = 0.2;
	q = session(&s, &opt, 2.0, 0);
	CHECK(q && q->verdict == PP_V_NOT_SLOWER, "an unchanged entry with 0.2%% noise is %s",
	      q ? pp_verdict_name(q->verdict) : "missing");
	pp_session_free(&s);
}

/*
 * Values riding along: 45 per revision before the first look.  The looks
 * are still taken at 15, 30, 45: a clear case is decided at the first.
 */
static void check_fixed_looks(void)
{
	struct pp_options opt = default_options();
	struct pp_session s;
	struct pp_quantity *q;

	sim.noise = NOISE_NORMAL;
	sim.scale = 1.0;
	sim.shift = 10.0;
	q = session(&s, &opt, 2.0, 45);
	CHECK(q && q->verdict == PP_V_SLOWER && q->final_look.looks == 1 &&
		  q->final_look.runs == 30,
	      "with 45 values at hand: %s at look %u, %zu runs",
	      q ? pp_verdict_name(q->verdict) : "missing", q ? q->final_look.looks : 0,
	      q ? q->final_look.runs : 0);
	CHECK(s.runs_used == 2 * 46, "%zu runs used: settle measured again", s.runs_used);
	pp_session_free(&s);
}

/*
 * Comparisons measured together are settled together (pp_settle).  The
 * first round is as large as the first look whose interval exists at its
 * level (pp_seq_first_attainable): asked for 3 pairs, the signed-rank
 * interval of a part at 95 % needs more, and the round measures them, not
 * 3 that could decide nothing.  The first round's runs are 100 times as
 * noisy as the shift, so no range is decided at that look, and the later
 * rounds measure all three in the same runs, not one after the other.  Without the runs to pay for
 * a second round, all three are undecided after the first and nothing more is measured.
 */
static void check_settle_all(void)
{
	const struct pp_prog_fn *fns[2] = {&sim_fn, &sim_fn};
	struct pp_options opt = default_options();
	struct pp_seq_design d = {
	    .test = opt.test,
	    .alpha = 1 - opt.confidence,
	    .threshold = 2.0,
	    .budget = 2 * (size_t)opt.max_runs_comparison,
	    .first = 3,
	    .growth = PP_SEQ_GROWTH,
	    .rho = PP_SEQ_RHO,
	    .paired = true,
	};
	size_t first = pp_seq_first_attainable(&d), round1 = 2 * (first + (size_t)opt.warmups);
	struct pp_quantity *qs[3];
	struct pp_session s;
	int err;

	CHECK(first > 3 && first < 20, "the first attainable look of 3 pairs is %zu", first);
	sim.noise = NOISE_NORMAL;
	sim.scale = 1.0;
	sim.shift = 10.0;
	for (int budget = 0; budget < 2; budget++) {
		sim.first_scale = 1000.0;
		opt.measurements = 3;
		/* the first round's runs and not a second's */
		opt.max_runs = budget ? (long)round1 + 2 : 40000;
		err = sim_session(&s, &opt);
		CHECK(!err, "no session: %d", err);
		s.threshold_ns = 2.0;
		for (unsigned i = 0; i < 3; i++)
			qs[i] = pp_quantity_get(&s, PP_Q_RANGE, fns, i, i);
		CHECK(qs[0] && qs[1] && qs[2] && qs[0] != qs[1] && qs[1] != qs[2], "three ranges");
		if (!qs[0] || !qs[1] || !qs[2])
			return;
		sim.calls = 0;
		err = pp_settle(&s, qs, 3, NULL);
		CHECK(!err, "settle failed: %d", err);
		for (unsigned i = 0; i < 3; i++) {
			CHECK(qs[i]->decided && qs[i]->order > 0, "range %u not decided", i);
			CHECK(qs[i]->final_look.looks >= 1, "range %u: no look", i);
			if (budget)
				CHECK(qs[i]->verdict == PP_V_UNDECIDED && qs[i]->truncated &&
					  qs[i]->final_look.runs == 2 * first,
				      "--max-runs %ld: range %u is %s after %zu runs", opt.max_runs,
				      i, pp_verdict_name(qs[i]->verdict), qs[i]->final_look.runs);
			else
				CHECK(qs[i]->verdict == PP_V_SLOWER && qs[i]->rounds >= 1,
				      "range %u: %s after %d more rounds", i,
				      pp_verdict_name(qs[i]->verdict), qs[i]->rounds);
		}
		if (budget) {
			CHECK(sim.calls == 1 && s.runs_used == round1,
			      "--max-runs %ld: %u batches, %zu runs, want 1 and %zu", opt.max_runs,
			      sim.calls, s.runs_used, round1);
		} else {
			CHECK(sim.calls >= 2, "%u batches: settle did not measure again",
			      sim.calls);
			CHECK(sim.last_nq == 3 && qs[0]->batch == qs[2]->batch,
			      "the last round measured %zu of the 3 open ranges", sim.last_nq);
		}
		sim.first_scale = 0;
		pp_session_free(&s);
	}
}

struct riders {
	struct pp_quantity *q[4];
	unsigned fills;
};

static int fill_riders(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *n,
		       size_t max)
{
	struct riders *r = arg;

	(void)s;
	r->fills++;
	for (size_t i = 0; i < 4 && *n < max; i++)
		out[(*n)++] = r->q[i];
	return 0;
}

/*
 * Riders: two ranges not being settled ride along in every round settle
 * makes, the first included (their values wait for the plan to decide them,
 * so they are not decided here), one of the open ranges given again as a
 * rider is measured once a round, and a decided rider is not measured at
 * all.
 */
static void check_settle_ride(void)
{
	const struct pp_prog_fn *fns[2] = {&sim_fn, &sim_fn};
	struct pp_options opt = default_options();
	struct pp_quantity *qs[3];
	struct riders r = {{NULL}, 0};
	const struct pp_settle_how ride = {.fill = fill_riders, .arg = &r};
	struct pp_session s;
	size_t most = 0, decided_n;
	int err;

	/* the first round's runs 100 times as noisy as the shift: nothing is decided at the
	 * first look, so there are later rounds */
	sim.noise = NOISE_NORMAL;
	sim.scale = 1.0;
	sim.shift = 10.0;
	opt.measurements = 3;
	opt.max_runs = 40000;
	err = sim_session(&s, &opt);
	CHECK(!err, "no session: %d", err);
	s.threshold_ns = 2.0;
	for (unsigned i = 0; i < 3; i++)
		qs[i] = pp_quantity_get(&s, PP_Q_RANGE, fns, i, i);
	r.q[0] = pp_quantity_get(&s, PP_Q_RANGE, fns, 3, 3);
	r.q[1] = pp_quantity_get(&s, PP_Q_RANGE, fns, 4, 4);
	r.q[2] = qs[0];
	r.q[3] = pp_quantity_get(&s, PP_Q_RANGE, fns, 5, 5);
	CHECK(qs[0] && qs[1] && qs[2] && r.q[0] && r.q[1] && r.q[3], "six ranges");
	if (!qs[0] || !qs[1] || !qs[2] || !r.q[0] || !r.q[1] || !r.q[3])
		return;
	err = pp_measure(&s, &r.q[3], 1, opt.measurements, 1);
	r.q[3]->decided = true;
	decided_n = r.q[3]->series[PP_PREV].n;
	sim.calls = 0;
	sim.first_scale = 1000.0;
	err = err ?: pp_settle(&s, qs, 3, &ride);
	CHECK(!err, "settle with riders failed: %d", err);
	for (unsigned i = 0; i < 3; i++) {
		CHECK(qs[i]->decided && qs[i]->verdict == PP_V_SLOWER, "range %u: %s", i,
		      pp_verdict_name(qs[i]->verdict));
		if (qs[i]->series[PP_PREV].n > most)
			most = qs[i]->series[PP_PREV].n;
	}
	/* the range decided last was open in every round, the riders rode in every one */
	CHECK(r.fills >= 2 && r.fills == sim.calls, "%u fills for %u rounds", r.fills, sim.calls);
	sim.first_scale = 0;
	for (unsigned i = 0; i < 2; i++) {
		CHECK(!r.q[i]->decided && r.q[i]->order == 0, "rider %u was decided", i);
		CHECK(r.q[i]->series[PP_PREV].n == most && r.q[i]->series[PP_CUR].n == most,
		      "rider %u has %zu values, the rounds measured %zu", i,
		      r.q[i]->series[PP_PREV].n, most);
	}
	CHECK(r.q[3]->series[PP_PREV].n == decided_n, "a decided rider was measured again");
	CHECK(sim.last_nq <= 3 + 2, "the last round measured %zu quantities", sim.last_nq);
	pp_session_free(&s);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "cannot write %s", path);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Load above the CPUs used, and a governor other than "performance", warn once each. */
static void check_noise(void)
{
	char root[] = "/tmp/pp-noise-XXXXXX", proc[64], sys[64], path[256];
	struct pp_options opt = default_options();
	int n;

	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	mkdir(proc, 0755);
	snprintf(path, sizeof(path), "%s/loadavg", proc);
	opt.cpu_list = "0";
	CPU_ZERO(&opt.cpus);
	CPU_SET(0, &opt.cpus);
	write_file(path, "0.50 0.40 0.30 1/100 1234\n");
	n = pp_noise_check(&opt, proc, sys);
	CHECK(n == 0, "an idle machine without cpufreq gave %d warnings", n);
	write_file(path, "1.50 0.40 0.30 1/100 1234\n");
	n = pp_noise_check(&opt, proc, sys);
	CHECK(n == 1, "load 1.5 on 1 CPU gave %d warnings", n);
	snprintf(path, sizeof(path), "%s/devices", sys);
	mkdir(sys, 0755);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/cpu", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cpufreq", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cpufreq/scaling_governor", sys);
	write_file(path, "powersave\n");
	n = pp_noise_check(&opt, proc, sys);
	CHECK(n == 2, "load and governor powersave gave %d warnings", n);
	write_file(path, "performance\n");
	snprintf(path, sizeof(path), "%s/loadavg", proc);
	write_file(path, "0.10 0.40 0.30 1/100 1234\n");
	n = pp_noise_check(&opt, proc, sys);
	CHECK(n == 0, "governor performance on an idle machine gave %d warnings", n);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	CHECK(system(path) == 0, "cannot remove %s", root);
}

int main(void)
{
	double runs_term[2];

	gsl_rng_env_setup();
	sim.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(sim.rng, 20261123);
	printf("binomial limit at 5%% of %u sessions: %u; P(count <= limit) at 10%%: %.2g\n",
	       AA_SESSIONS, binomial_limit(0.05, AA_SESSIONS),
	       gsl_cdf_binomial_P(binomial_limit(0.05, AA_SESSIONS), 0.10, AA_SESSIONS));
	CHECK(gsl_cdf_binomial_P(binomial_limit(0.05, AA_SESSIONS), 0.10, AA_SESSIONS) < 0.01,
	      "%u sessions do not tell a 5%% rate from 10%%", AA_SESSIONS);
	check_noise();
	check_decides();
	check_fixed_looks();
	check_settle_all();
	check_settle_ride();
	check_undecided();
	printf("at 2.5%% of %u sessions: %u; at 10%%: %u; P(count <= limit) at 20%%: %.2g\n",
	       AA_SESSIONS, binomial_limit(0.025, AA_SESSIONS), binomial_limit(0.10, AA_SESSIONS),
	       gsl_cdf_binomial_P(binomial_limit(0.10, AA_SESSIONS), 0.20, AA_SESSIONS));
	check_threshold(NOISE_NORMAL, 1.0);
	check_threshold(NOISE_LOGNORMAL_OUTLIERS, 3.0);
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_NORMAL, 1.0, 0.0);
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_LOGNORMAL_OUTLIERS, 3.0, 2.0);
	check_aa(PP_TEST_WELCH, NOISE_LOGNORMAL_OUTLIERS, 1.0, 0.0);
	/*
	 * Noise that depends on time: the order measure.c draws (of each pair,
	 * or of a shuffled round) holds the rate.
	 */
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_PERIODIC, 1.0, 2.0);
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_BURSTS, 1.0, 2.0);
	check_aa(PP_TEST_WELCH, NOISE_BURSTS, 1.0, 2.0);
	/* The same with --runs shuffled: a random order, independent samples. */
	sim.shuffled = true;
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_NORMAL, 1.0, 0.0);
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_PERIODIC, 1.0, 2.0);
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_BURSTS, 1.0, 2.0);
	sim.shuffled = false;
	/*
	 * Duet runs: the pair's shared moment cancels, the partners' contention
	 * and a slower side do not, but the drawn order puts each revision on
	 * each side in half the pairs at random, which holds the rate; with the
	 * slower side's time always on the current revision's run, as if it
	 * always ran there, an A/A claims a regression in most sessions (what
	 * this check would miss if the draw did nothing).
	 */
	sim.cpu_term = true; /* the default, decide_cpu.c */
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_DUET, 1.0, 0.0);
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_DUET, 1.0, 2.0);
	runs_term[0] = sim.aa_runs;
	check_aa(PP_TEST_WELCH, NOISE_DUET, 1.0, 2.0);
	runs_term[1] = sim.aa_runs;
	check_threshold(NOISE_DUET, 1.0);
	/* and without the term: the same rates, at more runs a session (the CPUs'
	 * 2 sd widen every interval) */
	sim.cpu_term = false;
	check_aa(PP_TEST_MANN_WHITNEY, NOISE_DUET, 1.0, 2.0);
	CHECK(runs_term[0] < sim.aa_runs,
	      "Mann-Whitney, the CPUs a term: %.0f runs a session, %.0f without", runs_term[0],
	      sim.aa_runs);
	check_aa(PP_TEST_WELCH, NOISE_DUET, 1.0, 2.0);
	CHECK(runs_term[1] < sim.aa_runs,
	      "Welch, the CPUs a term: %.0f runs a session, %.0f without", runs_term[1],
	      sim.aa_runs);
	check_threshold(NOISE_DUET, 1.0);
	sim.fixed_cpu = true;
	CHECK(check_aa(PP_TEST_MANN_WHITNEY, NOISE_DUET, 1.0, 0.0) > AA_SESSIONS / 2,
	      "current always on the slower CPU: not found slower in most sessions");
	sim.fixed_cpu = false;
	gsl_rng_free(sim.rng);
	return report("settle_sim");
}
