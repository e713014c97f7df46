// SPDX-License-Identifier: MIT
/*
 * settle.c - have one comparison measured until it is decided: ask the
 * decide stage, and while it wants more runs, have the measure stage add a
 * round of the runs its next look needs, as long as the session's --max-runs
 * can pay for them; when it cannot, the comparison is undecided.  The plan
 * stage calls this for every comparison it needs.
 */
#include "pinpoint/settle.h"

#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"

/* Whether the session's --max-runs can pay for @runs more runs per revision. */
static bool affordable(const struct pp_session *s, size_t runs)
{
	size_t cost = 2 * (runs + (size_t)s->opt->warmups);

	return !s->opt->max_runs || s->runs_used + cost <= (size_t)s->opt->max_runs;
}

int pp_settle(struct pp_session *s, struct pp_quantity *q)
{
	int ret;

	if (q->decided)
		return 0;
	while ((ret = pp_decide(s, q)) == PP_NEEDS_RUNS) {
		size_t want = pp_decide_wanted(q);

		if (!affordable(s, want)) {
			pr_dbg(
			    "comparison of quantity %u: --max-runs %ld spent (%zu used), undecided",
			    q->id, s->opt->max_runs, s->runs_used);
			pp_decide_give_up(s, q);
			ret = PP_DECIDED;
			break;
		}
		q->rounds++;
		pr_dbg("comparison of quantity %u undecided at look %u, measuring %zu more runs "
		       "(round %d)",
		       q->id, q->seq.looks, want, q->rounds);
		ret = pp_measure(s, &q, 1, (int)want, true);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	pp_session_decided(s, q);
	return 0;
}
