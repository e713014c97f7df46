// SPDX-License-Identifier: MIT
/*
 * decide_budget.c - the runs per revision at every comparison's last look:
 * --max-runs-per-comparison N, or (auto, the default) what the session's
 * time and runs pay for, fixed once when the first comparison's first look
 * is due and the same for every comparison after it.
 *
 * A fixed number of runs is the wrong unit: 3,000 runs a revision are six
 * seconds of a 1 ms program and an hour of a 0.6 s one.  So the budget is
 * what 85 % of the time --max-time has left then pays for, at the pace of
 * the measured pairs so far (everything a pair costs: both runs, the
 * warm-ups and spoiled rounds among them, and the code layouts the schedule
 * links for it, past those it has or finds in the cache), at most what is
 * left of --max-runs.
 *
 * Nothing in it depends on a difference: it is fixed before the first
 * comparison's first look is taken, from how long runs took and how many
 * there were, and a pair's two runs enter its pace alike (their sum), so
 * that under no change, a pair's sign is as likely either way whatever the
 * budget (doc/statistics.md, "The budget").  Later comparisons take the same
 * budget and are stopped early by the time their turn leaves them, which
 * never weakens a look's error rate; because looks grow geometrically, a
 * budget that time cuts short costs their levels little (three looks of
 * about twenty that never come).
 */
#include <math.h>

#include "pinpoint/layouts/both.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/decide_priv.h"
#include "pinpoint/session/summary.h"

/* The budget without --max-time and --max-runs, runs per revision. */
#define PP_BUDGET_UNTIMED 3000
/*
 * The share of the time left the budget is sized for: the rest pays for
 * what the pace of the first pairs leaves out (the driver's own time
 * between rounds, slower runs later), so that the budget's last look is
 * not the one the time stops (7 real sessions of placement.c: the pace at
 * the first look, its links included, was 0.87-1.12 times the session's).
 */
#define PP_BUDGET_TIME_SHARE 0.85
/* The most the budget may be, runs per revision (--max-runs-per-comparison's own most). */
#define PP_BUDGET_MOST 1000000

/*
 * Seconds a measured pair took so far: the measuring batches' runs, warm-ups
 * and spoiled rounds included, over the pairs they kept.  0: none yet.
 */
static double pair_pace(const struct pp_session *s)
{
	double t = 0;
	size_t kept = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *r = &s->runs[i];

		if (!r->batch || !(r->turn_s >= 0))
			continue; /* a discovery run: the whole program, once */
		t += r->turn_s;
		kept += !r->warmup && !r->spoiled;
	}
	return kept >= 2 ? t / ((double)kept / 2.0) : 0.0;
}

/*
 * The pairs @left seconds pay for at @pace a pair, where every @m pairs
 * past the @ready layouts made ahead need a layout of both revisions,
 * @link s, up to @more of them (the rest of --max-layouts).
 */
static double pairs_for(double left, double pace, double link, double m, double ready, double more)
{
	double p = left / pace, with;

	if (!(link > 0) || !(m > 0) || p / m <= ready)
		return p;
	with = (left + link * ready) / (pace + link / m);
	if (with / m - ready <= more)
		return with;
	return (left - link * more) / pace; /* the layouts all made: runs only after them */
}

/*
 * The layouts of both revisions no pair so far was scheduled into that need
 * no link: made, or in the cache from an earlier session (@reuse in all).
 */
static double layouts_ready(const struct pp_session *s, unsigned reuse)
{
	unsigned long long ran = s->layout_runs[PP_PREV] > s->layout_runs[PP_CUR]
				     ? s->layout_runs[PP_PREV]
				     : s->layout_runs[PP_CUR];
	double used = ceil((double)ran / (double)s->layout_every);

	return fmax(0.0, (double)reuse - used);
}

void pp_decide_fix_budget(struct pp_session *s, size_t have)
{
	const struct pp_options *opt = s->opt;
	double pace, left = pp_session_time_left(s), p = INFINITY, link = 0, ready = 0, more = 0;

	if (s->comparison_runs)
		return; /* given, fixed, or a replay's as recorded */
	if (opt->max_runs_comparison > 0) {
		s->comparison_runs = (size_t)opt->max_runs_comparison;
		return;
	}
	pace = pair_pace(s);
	if (isfinite(left) && pace > 0) {
		if (pp_layouts_varied(s) && s->layout_every &&
		    s->layouts_cap > s->rev[PP_PREV].lay.n) {
			unsigned reuse = pp_layouts_reusable_both(s);

			if (reuse > s->layouts_cap)
				reuse = s->layouts_cap;
			link = s->layout_link_s;
			ready = layouts_ready(s, reuse);
			more = (double)(s->layouts_cap - reuse);
		}
		p = pairs_for(PP_BUDGET_TIME_SHARE * fmax(left, 0.0), pace, link,
			      (double)s->layout_every, ready, more);
	}
	if (opt->max_runs)
		p = fmin(p, (double)((size_t)opt->max_runs > s->runs_used
					 ? ((size_t)opt->max_runs - s->runs_used) / 2
					 : 0));
	if (!isfinite(p))
		p = PP_BUDGET_UNTIMED; /* neither --max-time (nor a pace) nor --max-runs */
	p = fmin(floor(p) + (double)have, PP_BUDGET_MOST);
	s->comparison_runs = (size_t)fmax(p, (double)opt->measurements);
	s->comparison_pair_s = pace;
	pr_dbg("%zu runs a revision a comparison: %.0f s left at %.4f s a measured pair; "
	       "%.0f layouts ahead without a link, then one every %u pairs linked in %.3f s",
	       s->comparison_runs, left, pace, ready, s->layout_every, link);
}

size_t pp_decide_first_budget(const struct pp_session *s)
{
	return s->opt->max_runs_comparison > 0 ? (size_t)s->opt->max_runs_comparison
					       : PP_BUDGET_MOST;
}

size_t pp_decide_budget(const struct pp_session *s)
{
	/* not fixed yet: only the first look's size asks */
	return s->comparison_runs ? s->comparison_runs : pp_decide_first_budget(s);
}
