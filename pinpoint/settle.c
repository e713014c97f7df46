// SPDX-License-Identifier: MIT
/*
 * settle.c - the one way into measurement: ask the decide stage, and while
 * some comparisons want more runs, have the measure stage add a round of the
 * runs their next looks need, all of them in the same runs, as long as the
 * session's --max-runs and --max-time can pay for them; when they cannot,
 * the comparisons still open are undecided.  Riders (pp_ride) are measured
 * in those rounds, not decided.
 */
#include <errno.h>
#include <stdlib.h>

#include "pinpoint/settle.h"

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"

/* Add @q to @open[0..*n) unless it is decided, there already, or there is no room. */
static void add_open(struct pp_quantity **open, size_t *n, struct pp_quantity *q)
{
	if (q->decided || *n >= PP_BATCH_MAX_SLOTS)
		return;
	for (size_t j = 0; j < *n; j++)
		if (open[j] == q)
			return;
	open[(*n)++] = q;
}

/* Add what rides along in this round to @open[*nopen..). */
static int add_riders(struct pp_session *s, const struct pp_ride *ride, struct pp_quantity **open,
		      size_t *nopen)
{
	struct pp_quantity *r[PP_BATCH_MAX_SLOTS];
	size_t nr = 0;
	int err;

	if (!ride)
		return 0;
	for (size_t i = 0; i < ride->n; i++)
		add_open(open, nopen, ride->q[i]);
	if (!ride->fill || *nopen >= PP_BATCH_MAX_SLOTS)
		return 0;
	err = ride->fill(s, ride->arg, r, &nr, PP_BATCH_MAX_SLOTS - *nopen);
	if (err)
		return err;
	for (size_t i = 0; i < nr; i++)
		add_open(open, nopen, r[i]);
	return 0;
}

/* Decide what can be decided; the open ones go to @open, the most runs any wants to *@want. */
static int look_all(struct pp_session *s, struct pp_quantity **qs, size_t n,
		    struct pp_quantity **open, size_t *nopen, size_t *want)
{
	*nopen = 0;
	*want = 0;
	for (size_t i = 0; i < n; i++) {
		int ret;

		if (qs[i]->decided)
			continue;
		ret = pp_decide(s, qs[i]);
		if (ret == PP_DECIDED) {
			pp_session_decided(s, qs[i]);
		} else if (ret == PP_NEEDS_RUNS) {
			size_t w = pp_decide_wanted(s, qs[i]);

			open[(*nopen)++] = qs[i];
			*want = w > *want ? w : *want;
		} else {
			return ret;
		}
	}
	return 0;
}

/* pp_settle for at most PP_BATCH_MAX_SLOTS comparisons. */
static int settle_batch(struct pp_session *s, struct pp_quantity **qs, size_t n,
			const struct pp_ride *ride)
{
	struct pp_quantity *open[PP_BATCH_MAX_SLOTS];
	int ret;

	for (;;) {
		size_t nopen, nall, want;
		enum pp_spent why;

		ret = look_all(s, qs, n, open, &nopen, &want);
		if (ret || !nopen)
			return ret;
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
			return 0;
		}
		for (size_t i = 0; i < nopen; i++) {
			if (open[i]->series[PP_PREV].n)
				open[i]->rounds++;
			pr_dbg("comparison of quantity %u undecided at look %u, measuring %zu more "
			       "runs (round %d, with %zu others)",
			       open[i]->id, open[i]->seq.looks, want, open[i]->rounds, nopen - 1);
		}
		nall = nopen;
		ret = add_riders(s, ride, open, &nall);
		if (!ret)
			ret = pp_measure(s, open, nall, (int)want);
		if (ret)
			return ret;
	}
}

int pp_settle(struct pp_session *s, struct pp_quantity **qs, size_t n, const struct pp_ride *ride)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i += PP_BATCH_MAX_SLOTS)
		ret = settle_batch(s, qs + i,
				   n - i < PP_BATCH_MAX_SLOTS ? n - i : PP_BATCH_MAX_SLOTS, ride);
	return ret;
}
