// SPDX-License-Identifier: MIT
/*
 * settle.c - have one comparison measured until it is decided: ask the
 * decide stage, and while it wants more runs, have the measure stage add a
 * round of the runs its next look needs, as long as the session's --max-runs
 * and --max-time can pay for them; when they cannot, the comparison is
 * undecided.  The plan
 * stage calls this for every comparison it needs.
 */
#include "pinpoint/settle.h"

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"

int pp_settle(struct pp_session *s, struct pp_quantity *q)
{
	int ret;

	if (q->decided)
		return 0;
	while ((ret = pp_decide(s, q)) == PP_NEEDS_RUNS) {
		size_t want = pp_decide_wanted(q);
		enum pp_spent why = pp_session_can_run(s, 2 * (want + (size_t)s->opt->warmups));

		if (why) {
			pr_dbg("comparison of quantity %u: %s spent (%zu runs used, %.0f s), "
			       "undecided",
			       q->id, pp_spent_option(why), s->runs_used, pp_now() - s->started);
			pp_decide_give_up(s, q, why);
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
