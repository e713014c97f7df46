// SPDX-License-Identifier: MIT
/*
 * settle.c - have comparisons measured until they are decided: ask the
 * decide stage, and while some want more runs, have the measure stage add a
 * round of the runs their next looks need, all of them in the same runs, as
 * long as the session's --max-runs and --max-time can pay for them; when
 * they cannot, the comparisons still open are undecided.  The plan stage
 * calls this for every comparison it needs, and may have other quantities
 * ride along in those rounds (pp_settle_ride): measured, not decided here.
 */
#include <errno.h>
#include <stdlib.h>

#include "pinpoint/settle.h"

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"

/* Add what rides along in this round to @open[*nopen..): open quantities only, once each. */
static int add_riders(struct pp_session *s, const struct pp_ride *ride, struct pp_quantity **open,
		      size_t *nopen)
{
	struct pp_quantity *r[PP_BATCH_MAX_SLOTS];
	size_t nr = 0, max = PP_BATCH_MAX_SLOTS - *nopen;
	int err;

	if (!ride || !ride->fill || *nopen >= PP_BATCH_MAX_SLOTS)
		return 0;
	err = ride->fill(s, ride->arg, r, &nr, max);
	if (err)
		return err;
	for (size_t i = 0; i < nr && *nopen < PP_BATCH_MAX_SLOTS; i++) {
		bool dup = r[i]->decided;

		for (size_t j = 0; j < *nopen && !dup; j++)
			dup = open[j] == r[i];
		if (!dup)
			open[(*nopen)++] = r[i];
	}
	return 0;
}

int pp_settle_ride(struct pp_session *s, struct pp_quantity **qs, size_t n,
		   const struct pp_ride *ride)
{
	struct pp_quantity **open = calloc(n + PP_BATCH_MAX_SLOTS, sizeof(*open));
	int ret = 0;

	if (!open)
		return -ENOMEM;
	for (;;) {
		size_t nopen = 0, nall, want = 0;
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
		nall = nopen;
		ret = add_riders(s, ride, open, &nall);
		if (!ret)
			ret = pp_measure(s, open, nall, (int)want, true);
		if (ret)
			break;
	}
out:
	free(open);
	return ret;
}

int pp_settle_all(struct pp_session *s, struct pp_quantity **qs, size_t n)
{
	return pp_settle_ride(s, qs, n, NULL);
}

int pp_settle(struct pp_session *s, struct pp_quantity *q)
{
	return pp_settle_ride(s, &q, 1, NULL);
}
