// SPDX-License-Identifier: MIT
/*
 * decide_layout.c - what the code layouts did to a comparison.
 *
 * With each revision measured in several layouts (layouts.h), a quantity's
 * runs are nested in them: core/stats_nested.c splits each revision's
 * spread into what the layouts add and what runs of one layout vary by.
 * From the layouts' share, the sd of the difference that two single
 * layouts of one revision make, sqrt(between_previous + between_current):
 * a difference no larger than twice that is within what a relink alone can
 * move the quantity by, and the report marks it layout-sensitive
 * (doc/statistics.md, "Code layouts").
 */
#include <math.h>

#include "pinpoint/decide.h"
#include "pinpoint/session.h"

void pp_decide_layout(struct pp_quantity *q, size_t n)
{
	double centre = q->cmp.diff.centre;

	q->has_layout = false;
	q->layout_sensitive = false;
	q->layout_sd = NAN;
	if (n < 4 || !q->series[PP_PREV].layout || !q->series[PP_CUR].layout)
		return;
	for (int r = 0; r < 2; r++)
		if (pp_layout_components(q->series[r].v, q->series[r].layout, n, &q->layout[r]))
			return;
	q->has_layout = true;
	q->layout_sd = sqrt(q->layout[PP_PREV].between + q->layout[PP_CUR].between);
	q->layout_sensitive = isfinite(centre) && q->layout_sd > 0 &&
			      fabs(centre) <= 2 * q->layout_sd;
}
