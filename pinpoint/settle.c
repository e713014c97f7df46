// SPDX-License-Identifier: MIT
/*
 * settle.c - have one comparison measured until it is decided: ask the
 * decide stage, and while it wants more runs, have the measure stage add a
 * round.  The plan stage calls this for every comparison it needs.
 */
#include "pinpoint/settle.h"

#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"

int pp_settle(struct pp_session *s, struct pp_quantity *q)
{
	int ret;

	if (q->decided)
		return 0;
	while ((ret = pp_decide(s, q)) == PP_NEEDS_RUNS) {
		q->rounds++;
		pr_dbg("comparison of quantity %u too wide, re-measuring (round %d)", q->id,
		       q->rounds);
		ret = pp_measure(s, &q, 1, s->opt->measurements, true);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	pp_session_decided(s, q);
	return 0;
}
