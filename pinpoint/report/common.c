// SPDX-License-Identifier: MIT
/*
 * common.c - what every report format prints the same way.
 */
#include <math.h>
#include <stdio.h>

#include "core/util.h"
#include "pinpoint/report/report.h"

/* A time, or "-inf"/"+inf" for the open end of an interval. */
const char *pp_fmt_end(double ns, char *buf, unsigned len)
{
	if (isinf(ns)) {
		snprintf(buf, len, "%sinf", ns < 0 ? "-" : "+");
		return buf;
	}
	return pp_fmt_ns(ns, buf, len);
}

const char *pp_fmt_counted(const struct pp_outcome_node *n, char *buf, unsigned len)
{
	if (!n->calls_listed)
		return NULL;
	snprintf(buf, len, "%d of its %d calls ran; counted in %d round%s of runs", n->calls_ran,
		 n->calls_listed, n->count_rounds, n->count_rounds == 1 ? "" : "s");
	return buf;
}

const char *pp_fmt_armed(const struct pp_outcome_node *n, char *buf, unsigned len)
{
	char share[32];

	if (!(n->armed_share > 0) && !n->untimed)
		return NULL;
	if (n->armed_share < 0.001)
		snprintf(share, sizeof(share), "under 0.1 %%");
	else
		snprintf(share, sizeof(share), "+%.2g %%", 100 * n->armed_share);
	snprintf(buf, len, "armed: its parts' probes %s of the run, %d call%s untimed", share,
		 n->untimed, n->untimed == 1 ? "" : "s");
	return buf;
}
