/* SPDX-License-Identifier: MIT */
/*
 * run.h - run the benchmark once, in a build directory, with a time limit.
 */
#ifndef PINPOINT_RUN_H
#define PINPOINT_RUN_H

#include "core/process.h"

/*
 * Run @argv with @dir as working directory and PINPOINT=@arming in its
 * environment (unset when @arming is NULL); stdout goes to @out_path (hashed
 * afterwards), stderr to @err_path.  The child gets its own process group;
 * it is killed with its group after @timeout_s seconds (0: no limit) or when
 * *@stop becomes true.  Returns 0 when the command could be run (see @st for
 * how it ended), -errno when it could not be started.
 */
int pp_run(char *const argv[], const char *dir, const char *arming, const char *out_path,
	   const char *err_path, double timeout_s, volatile int *stop, struct pp_run_status *st);

#endif /* PINPOINT_RUN_H */
