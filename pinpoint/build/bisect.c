// SPDX-License-Identifier: MIT
/*
 * bisect.c - --bisect: a session's exit status as `git bisect run` reads it.
 *
 *   git bisect start BAD GOOD
 *   git bisect run pinpoint --bisect --entry FUNC --depth 0 --build-cmd make \
 *       --previous ../good --current . -- ./bench
 *
 * Without it a commit that does not build (2) or cannot be measured (3)
 * would count as bad and send the bisection the wrong way.
 */
#include "pinpoint/build/bisect.h"
#include "pinpoint/log.h"

int pp_bisect_status(enum pp_bisect_stage stage, int code)
{
	if (code == PP_EXIT_INTERRUPTED)
		return code; /* above 127: git bisect run stops */
	switch (stage) {
	case PP_BISECT_OPTIONS:
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
	case PP_EXIT_INTERRUPTED:
		return code; /* above 127: git bisect run stops */
	default:
		return PP_BISECT_SKIP; /* no measurement, no decision: neither good nor bad */
	}
}
