// SPDX-License-Identifier: MIT
/*
 * decide.c - the decide stage: statistics only.  Compare a quantity's two
 * series with the chosen test, summarise each revision, set the threshold
 * (--precision of the entry's previous centre) and the verdict.  No
 * measuring and no printing: the plan asks for more runs when a comparison
 * is too wide to decide, the report prints it.
 */
#include <errno.h>
#include <math.h>

#include "pinpoint/decide.h"

double pp_summary_centre(const struct pp_summary *sum, enum pp_test test)
{
	return test == PP_TEST_WELCH ? sum->mean : sum->median;
}

struct pp_interval pp_revision_interval(const struct pp_session *s, const struct pp_quantity *q,
					int rev)
{
	if (s->opt->test == PP_TEST_WELCH)
		return q->sum[rev].ci;
	return pp_median_interval(q->series[rev].v, q->series[rev].n, s->opt->confidence);
}

int pp_decide(struct pp_session *s, struct pp_quantity *q)
{
	const struct pp_options *opt = s->opt;
	struct pp_quantity *entry = s->q[0];
	int err;

	if (q->decided)
		return PP_DECIDED;
	{
		double thr;

		err = pp_compare(opt->test, q->series[PP_PREV].v, q->series[PP_PREV].n, q->series[PP_CUR].v,
				 q->series[PP_CUR].n, opt->confidence, &q->cmp);
		if (err) {
			pp_session_fail(s, "too few measurements to compare (%zu and %zu)",
				    q->series[PP_PREV].n, q->series[PP_CUR].n);
			return -EIO;
		}
		pp_summarize(q->series[PP_PREV].v, q->series[PP_PREV].n, opt->confidence, &q->sum[PP_PREV]);
		pp_summarize(q->series[PP_CUR].v, q->series[PP_CUR].n, opt->confidence, &q->sum[PP_CUR]);
		if (q == entry)
			thr = fabs(pp_summary_centre(&q->sum[PP_PREV], opt->test));
		else
			thr = fabs(pp_summary_centre(&entry->sum[PP_PREV], opt->test));
		thr *= opt->precision / 100.0;
		q->threshold_ns = thr;
		/* Too wide to decide: the interval holds both "below" and "above" the threshold. */
		if (q->rounds < opt->remeasure && q->cmp.diff.low < thr && q->cmp.diff.high > thr)
			return PP_NEEDS_RUNS;
	}
	if (q->cmp.significant && q->cmp.diff.low > 0 && q->cmp.diff.centre > q->threshold_ns)
		q->verdict = PP_V_SLOWER;
	else if (q->cmp.significant && q->cmp.diff.high < 0)
		q->verdict = PP_V_FASTER;
	else
		q->verdict = PP_V_SAME;
	q->decided = true;
	return PP_DECIDED;
}
