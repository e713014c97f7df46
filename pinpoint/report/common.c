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

/* A share of the run as the arming sentences say it. */
static const char *fmt_share(double share, char *buf, unsigned len)
{
	if (share < 0.001)
		snprintf(buf, len, "under 0.1 %%");
	else
		snprintf(buf, len, "+%.2g %%", 100 * share);
	return buf;
}

const char *pp_fmt_armed(const struct pp_outcome_node *n, char *buf, unsigned len)
{
	char own[32], parts[32];
	bool plan = n->armed_share > 0 || n->untimed;
	/* a part's own probes are said where they are 0.1 % of the run or more (JSON: always) */
	bool probes = n->probes_share >= 0.001;

	if (!probes && !plan)
		return NULL;
	if (!plan) {
		snprintf(buf, len, "armed: its probes %s of the run",
			 fmt_share(n->probes_share, own, sizeof(own)));
		return buf;
	}
	fmt_share(n->armed_share, parts, sizeof(parts));
	if (probes)
		snprintf(buf, len,
			 "armed: its probes %s of the run, its parts' probes %s, %d call%s untimed",
			 fmt_share(n->probes_share, own, sizeof(own)), parts, n->untimed,
			 n->untimed == 1 ? "" : "s");
	else
		snprintf(buf, len, "armed: its parts' probes %s of the run, %d call%s untimed",
			 parts, n->untimed, n->untimed == 1 ? "" : "s");
	return buf;
}
