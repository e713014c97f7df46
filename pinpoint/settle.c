// SPDX-License-Identifier: MIT
/*
 * settle.c - have comparisons measured until they are decided: ask the
 * decide stage, and while some want more runs, have the measure stage add a
 * round of the runs their next looks need, all of them in the same runs, as
 * long as the session's --max-runs and --max-time can pay for them; when
 * they cannot, the comparisons still open are undecided.  The plan stage
 * calls this for every comparison it needs.
 */
#include <errno.h>
#include <stdlib.h>

#include "pinpoint/settle.h"

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"

int pp_settle_all(struct pp_session *s, struct pp_quantity **qs, size_t n)
{
	struct pp_quantity **open = calloc(n ? n : 1, sizeof(*open));
	int ret = 0;

	if (!open)
		return -ENOMEM;
	for (;;) {
		size_t nopen = 0, want = 0;
		enum pp_spent why;

		for (size_t i = 0; i < n; i++) {
			if (qs[i]->decided)
				continue;
			ret = pp_decide(s, qs[i]);
			if (ret == PP_DECIDED) {
				pp_session_decided(s, qs[i]);
			} else if (ret == PP_NEEDS_RUNS) {
				size_t w = pp_decide_wanted(qs[i]);

				open[nopen++] = qs[i];
				want = w > want ? w : want;
			} else {
				goto out;
			}
		}
		ret = 0;
		if (!nopen)
			break;
		/* One round for all: each looks at its own fixed sizes, whatever it was given. */
		why = pp_session_can_run(s, 2 * (want + (size_t)s->opt->warmups));
		if (why) {
			for (size_t i = 0; i < nopen; i++) {
				pr_dbg(
				    "comparison of quantity %u: %s spent (%zu runs used, %.0f s), "
				    "undecided",
				    open[i]->id, pp_spent_option(why), s->runs_used,
				    pp_now() - s->started);
				pp_decide_give_up(s, open[i], why);
				pp_session_decided(s, open[i]);
			}
			break;
		}
		for (size_t i = 0; i < nopen; i++) {
			open[i]->rounds++;
			pr_dbg("comparison of quantity %u undecided at look %u, measuring %zu more "
			       "runs (round %d, with %zu others)",
			       open[i]->id, open[i]->seq.looks, want, open[i]->rounds, nopen - 1);
		}
		ret = pp_measure(s, open, nopen, (int)want, true);
		if (ret)
			break;
	}
out:
	free(open);
	return ret;
}

int pp_settle(struct pp_session *s, struct pp_quantity *q)
{
	return pp_settle_all(s, &q, 1);
}
