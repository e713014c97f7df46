/* SPDX-License-Identifier: MIT */
/*
 * bisect.h - the exit status of a session for `git bisect run` (--bisect):
 * 0 good, 1 bad, 125 skip (the commit does not build or cannot be measured
 * or decided), 128 and above abort the bisection (a usage error, a baseline
 * that does not build, an interrupt).
 */
#ifndef PINPOINT_BISECT_H
#define PINPOINT_BISECT_H

#define PP_BISECT_SKIP 125
#define PP_BISECT_ABORT 128

/* Where a session ended before its verdict. */
enum pp_bisect_stage {
	PP_BISECT_SESSION,	  /* it ran: @code is its exit status */
	PP_BISECT_OPTIONS,	  /* the command line is wrong */
	PP_BISECT_BUILD_PREVIOUS, /* the good revision did not build */
	PP_BISECT_BUILD_CURRENT,  /* the commit under test did not build */
};

/* The `git bisect run` status of a session that ended at @stage with status @code. */
int pp_bisect_status(enum pp_bisect_stage stage, int code);

#endif /* PINPOINT_BISECT_H */
