/* SPDX-License-Identifier: MIT */
/*
 * bisect.h - bisecting on the entry: the exit status of a session for `git
 * bisect run` (--bisect): 0 good, 1 bad, 125 skip (the commit does not
 * build or cannot be measured or decided), 128 and above abort the
 * bisection (a usage error, a baseline that does not build, a bad commit
 * that cannot be measured or is not slower, an interrupt); and the
 * threshold of a bisection's steps, from its bad commit (--bisect and
 * --commits alike).
 */
#ifndef PINPOINT_BISECT_H
#define PINPOINT_BISECT_H

#define PP_BISECT_SKIP 125
#define PP_BISECT_ABORT 128

/* Where a session ended before its verdict. */
enum pp_bisect_stage {
	PP_BISECT_SESSION,	  /* it ran: @code is its exit status */
	PP_BISECT_OPTIONS,	  /* the command line is wrong */
	PP_BISECT_BAD,		  /* the bisection's bad commit gave no threshold for the steps */
	PP_BISECT_BUILD_PREVIOUS, /* the good revision did not build */
	PP_BISECT_BUILD_CURRENT,  /* the commit under test did not build */
};

/* The `git bisect run` status of a session that ended at @stage with status @code. */
int pp_bisect_status(enum pp_bisect_stage stage, int code);

/*
 * The threshold of a bisection's steps, from BAD's session against GOOD:
 * the last line for entry @entry of the --history file @history.  Half
 * the lower end of the interval of BAD's slowdown, in percent of GOOD's
 * entry, replaces *@precision (the default) when it is above it, and one
 * line on stderr says so: a step asks which commit brought the slowdown
 * BAD shows, and an unchanged commit is told from GOOD within a threshold
 * that size in a few rounds, where the default 1 % can take hundreds of
 * runs on a noisy entry - and answers good, bad or undecided by chance
 * when it is about 1 % slower, where a bisection needs answers that do not
 * change from step to step.  Returns the exit status BAD's session
 * recorded (*@precision is left alone unless it is 1, a regression), or
 * -ENOENT when @history has no line for @entry, -errno.
 */
int pp_bisect_threshold(const char *history, const char *entry, double *precision);

#endif /* PINPOINT_BISECT_H */
