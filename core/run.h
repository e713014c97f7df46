/* SPDX-License-Identifier: MIT */
/*
 * run.h - run the benchmark once, in a build directory, with a time limit.
 */
#ifndef PINPOINT_RUN_H
#define PINPOINT_RUN_H

#include <stdbool.h>
#include <stdint.h>

struct pp_run_status {
	int exited; /* exited normally with exit_code */
	int exit_code;
	int signal; /* killed by this signal (0 if none) */
	bool timed_out;
	bool interrupted; /* stopped because pinpoint was interrupted */
	double wall_s;
	uint64_t output_hash; /* FNV-1a of what the command wrote to stdout */
};

/*
 * Run @argv with @dir as working directory and PINPOINT=@arming in its
 * environment; stdout goes to @out_path (hashed afterwards), stderr to
 * @err_path.  The child gets its own process group; it is killed with its
 * group after @timeout_s seconds (0: no limit) or when *@stop becomes true.
 * Returns 0 when the command could be run (see @st for how it ended),
 * -errno when it could not be started.
 */
int pp_run(char *const argv[], const char *dir, const char *arming, const char *out_path,
	   const char *err_path, double timeout_s, volatile int *stop, struct pp_run_status *st);

/*
 * Kill the process group of the benchmark pp_run() is waiting for, if any.
 * Async-signal-safe: for a signal handler that exits at once.
 */
void pp_run_kill(void);

/* One-line description of how a run ended, e.g. "exited with status 2". */
const char *pp_run_describe(const struct pp_run_status *st, char *buf, unsigned len);

#endif /* PINPOINT_RUN_H */
