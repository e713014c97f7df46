// SPDX-License-Identifier: MIT
/*
 * settle.c - the one way into measurement: ask the decide stage, and while
 * some comparisons want more runs, have the measure stage add a round of the
 * runs their next looks need, all of them in the same runs, as long as the
 * session's --max-runs, --max-time and time plan can pay for them; when
 * they cannot, the comparisons still open are undecided.  Riders are
 * measured in those rounds, not decided; comparisons that can no longer
 * change the search's answer are left open (settle.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "pinpoint/measure/settle.h"

#include "core/util.h"
#include "pinpoint/measure/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/measure.h"

/* Add @q to @list[0..*n) unless it is there already or there is no room. */
static void add_to(struct pp_quantity **list, size_t *n, struct pp_quantity *q)
{
	if (*n >= PP_BATCH_MAX_SLOTS)
		return;
	for (size_t j = 0; j < *n; j++)
		if (list[j] == q)
			return;
	list[(*n)++] = q;
}

/* Add what rides along in this round to @list[*n..). */
static int add_riders(struct pp_session *s, const struct pp_settle_how *how,
		      struct pp_quantity **list, size_t *n)
{
	struct pp_quantity *r[PP_BATCH_MAX_SLOTS];
	size_t nr = 0;
	int err;

	if (!how)
		return 0;
	for (size_t i = 0; i < how->nride; i++)
		add_to(list, n, how->ride[i]);
	if (!how->fill || *n >= PP_BATCH_MAX_SLOTS)
		return 0;
	err = how->fill(s, how->arg, r, &nr, PP_BATCH_MAX_SLOTS - *n);
	if (err)
		return err;
	for (size_t i = 0; i < nr; i++)
		if (!r[i]->decided)
			add_to(list, n, r[i]);
	return 0;
}

/*
 * Decide what can be decided, and leave open what cannot change the answer;
 * the open ones go to @open, the most runs any wants to *@want.
 */
static int look_all(struct pp_session *s, struct pp_quantity **qs, size_t n,
		    const struct pp_settle_how *how, struct pp_quantity **open, size_t *nopen,
		    size_t *want)
{
	*nopen = 0;
	*want = 0;
	for (size_t i = 0; i < n; i++) {
		struct pp_quantity *q = qs[i];
		const char *why;
		int ret;

		if (q->decided)
			continue;
		ret = pp_decide(s, q);
		if (ret != PP_DECIDED && ret != PP_NEEDS_RUNS)
			return ret;
		if (ret == PP_NEEDS_RUNS && pp_decide_looks(q) && how && how->matters &&
		    (why = how->matters(s, how->arg, q, pp_decide_interval(q)))) {
			pr_dbg("comparison of quantity %u left open after look %u: %s", q->id,
			       pp_decide_looks(q), why);
			pp_decide_bound(s, q, why);
			ret = PP_DECIDED;
		}
		if (ret == PP_DECIDED) {
			pp_session_decided(s, q);
		} else {
			size_t w = pp_decide_wanted(s, q);

			open[(*nopen)++] = q;
			*want = w > *want ? w : *want;
		}
	}
	return 0;
}

/* pp_settle for at most PP_BATCH_MAX_SLOTS comparisons. */
static int settle_batch(struct pp_session *s, struct pp_quantity **qs, size_t n,
			const struct pp_settle_how *how)
{
	struct pp_quantity *open[PP_BATCH_MAX_SLOTS], *round[PP_BATCH_MAX_SLOTS];
	int ret;

	for (;;) {
		size_t nopen, nround = 0, want;
		double deadline = how ? how->deadline : 0;
		enum pp_spent why;

		ret = look_all(s, qs, n, how, open, &nopen, &want);
		if (ret || !nopen)
			return ret;
		/* One round for all: each looks at its own fixed sizes, whatever it was given. */
		why = pp_session_can_run(s, 2 * (want + (size_t)s->opt->warmups), deadline);
		if (why) {
			for (size_t i = 0; i < nopen; i++) {
				pr_dbg(
				    "comparison of quantity %u: %s spent (%zu runs used, %.0f s), "
				    "undecided",
				    open[i]->id, pp_spent_option(why, open[i]->kind), s->runs_used,
				    pp_session_now(s) - s->started);
				ret = pp_decide_give_up(s, open[i], why);
				if (ret)
					return ret;
				pp_session_decided(s, open[i]);
			}
			return 0;
		}
		for (size_t i = 0; i < nopen; i++) {
			if (open[i]->series[PP_PREV].n)
				open[i]->rounds++;
			pr_dbg("comparison of quantity %u undecided at look %u, measuring %zu more "
			       "runs (round %d, with %zu others)",
			       open[i]->id, pp_decide_looks(open[i]), want, open[i]->rounds,
			       nopen - 1);
		}
		/* The open ones, then the decided ones of the group, then the riders. */
		for (size_t i = 0; i < nopen; i++)
			add_to(round, &nround, open[i]);
		for (size_t i = 0; i < n; i++)
			add_to(round, &nround, qs[i]);
		ret = add_riders(s, how, round, &nround);
		if (!ret)
			ret = pp_measure(s, round, nround, (int)want, how ? how->layer : 0);
		if (ret)
			return ret;
	}
}

int pp_settle(struct pp_session *s, struct pp_quantity **qs, size_t n,
	      const struct pp_settle_how *how)
{
	int ret = 0;

	for (size_t i = 0; how && i < how->nresume; i++)
		pp_decide_resume(s, how->resume[i]);
	for (size_t i = 0; i < n && !ret; i += PP_BATCH_MAX_SLOTS)
		ret = settle_batch(s, qs + i,
				   n - i < PP_BATCH_MAX_SLOTS ? n - i : PP_BATCH_MAX_SLOTS, how);
	return ret;
}
