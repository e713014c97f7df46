/* SPDX-License-Identifier: MIT */
/*
 * commits.h - --commits GOOD..BAD: find the first commit of a git range
 * that made the entry slower, then pinpoint the call inside it.
 */
#ifndef PINPOINT_COMMITS_H
#define PINPOINT_COMMITS_H

#include "pinpoint/session/options.h"

/*
 * Run the whole of --commits and return pinpoint's exit status: that of the
 * session between the last fast and the first slow commit (1 when the call
 * is pinpointed), 0 when BAD is not slower than GOOD, 2 on a usage error or
 * when GOOD does not build, 3 when BAD cannot be built or measured (or no
 * work directory can be made), 4 when BAD stays undecided, 130 when
 * interrupted (what was established is printed first).
 */
int pp_commits_run(const struct pp_options *opt);

/*
 * --bisect without --precision-threshold, one step of a `git bisect` of
 * the work tree of --current: sets opt->precision to the threshold of every
 * step (pp_bisect_threshold()) from the bisection's bad commit, compared
 * with --previous once per bisection as --commits compares BAD with GOOD
 * (checked out and built under the build root, a --depth 0 session), its
 * --history line kept under the build root for the later steps.  Returns 0
 * to go on (opt->precision left alone, after a warning, outside a
 * bisection), else an exit status after one error line: 2 when BAD is not
 * slower, stays undecided or cannot be built, or the command line cannot
 * build it; 3 when it cannot be measured; 130 when interrupted.
 */
int pp_commits_bisect_bad(struct pp_options *opt);

#endif /* PINPOINT_COMMITS_H */
