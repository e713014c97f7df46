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

#endif /* PINPOINT_COMMITS_H */
