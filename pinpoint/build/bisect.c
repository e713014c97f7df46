// SPDX-License-Identifier: MIT
/*
 * bisect.c - bisecting on the entry: a session's exit status as `git
 * bisect run` reads it (--bisect), and the threshold of a bisection's steps
 * from its bad commit (--bisect and --commits).
 *
 *   git bisect start BAD GOOD
 *   git bisect run pinpoint --bisect --entry FUNC --depth 0 --build-cmd make \
 *       --previous ../good --current . -- ./bench
 *
 * Without the mapping a commit that does not build (2) or cannot be
 * measured (3) would count as bad and send the bisection the wrong way.
 * BAD is measured once per bisection (commits.c, pp_commits_bisect_bad()),
 * and every step is compared with GOOD at the threshold it gives.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"
#include "pinpoint/build/bisect.h"
#include "pinpoint/log.h"
#include "pinpoint/report/history.h"

int pp_bisect_status(enum pp_bisect_stage stage, int code)
{
	if (code == PP_EXIT_INTERRUPTED)
		return code; /* above 127: git bisect run stops */
	switch (stage) {
	case PP_BISECT_OPTIONS:
	case PP_BISECT_BAD:
	case PP_BISECT_BUILD_PREVIOUS:
		return PP_BISECT_ABORT;
	case PP_BISECT_BUILD_CURRENT:
		return PP_BISECT_SKIP;
	case PP_BISECT_SESSION:
		break;
	}
	switch (code) {
	case PP_EXIT_NO_REGRESSION:
	case PP_EXIT_REGRESSION:
		return code;
	default:
		return PP_BISECT_SKIP; /* no measurement, no decision: neither good nor bad */
	}
}

int pp_bisect_threshold(const char *history, const char *entry, double *precision)
{
	struct pp_history_entry *e = NULL;
	const struct pp_history_entry *b;
	size_t bad;
	long n = pp_history_load(history, entry, &e, &bad);
	double pct;
	int status;

	if (n <= 0) {
		free(e);
		return n ? (int)n : -ENOENT;
	}
	b = &e[n - 1];
	status = b->status;
	pct = 50.0 * b->diff_low / b->prev_ns;
	if (status == PP_EXIT_REGRESSION && isfinite(pct) && b->prev_ns > 0 && pct > *precision) {
		char low[32];

		*precision = pct;
		fprintf(
		    stderr,
		    "pinpoint: BAD is at least %s (%.1f%%) slower than GOOD: while bisecting, a "
		    "commit counts as slower above half of that, %.2f%% (--precision-threshold "
		    "sets it)\n",
		    pp_fmt_ns(b->diff_low, low, sizeof(low)), 2 * pct, pct);
	}
	free(e);
	return status;
}
