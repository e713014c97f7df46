/* SPDX-License-Identifier: MIT */
/*
 * run.h - run the benchmark once, in a build directory, with a time limit.
 */
#ifndef PINPOINT_RUN_H
#define PINPOINT_RUN_H

#include "core/process.h"
#include "core/results.h"
#include "pinpoint/session.h"

/*
 * Run @argv with @dir as working directory and PINPOINT=@arming in its
 * environment (unset when @arming is NULL), and PINPOINT_PAD of @env_pad
 * bytes (PP_ENV_PAD_MAX at most); stdout goes to @out_path (hashed
 * afterwards), stderr to @err_path.  The child gets its own process group;
 * it is killed with its group after @timeout_s seconds (0: no limit) or when
 * *@stop becomes true.  It runs on the CPUs of @cpus only (NULL: anywhere), and sees the files
 * of @binds at their paths (pp_process.binds; NULL: none).  Returns 0 when the
 * command could be run (see @st for how it ended), -errno when it could not be started.
 */
int pp_run(char *const argv[], const char *dir, const char *arming, unsigned env_pad,
	   const char *out_path, const char *err_path, double timeout_s, volatile int *stop,
	   const cpu_set_t *cpus, const char *const *binds, struct pp_run_status *st);

/*
 * One run of revision @r with PINPOINT=@arming, made as @setup says (its
 * layout put in place, heap= added to the arming, the environment padded),
 * its results read into @res (run @index of batch @batch, for messages).  Returns 0, -EIO after
 * recording why the run failed (pp_session_fail()), -EINTR, or -EINVAL after
 * reporting that the first run (batch 0) wrote no results: a build without
 * the plugin and runtime.
 */
int pp_run_revision(struct pp_session *s, enum pp_rev_id r, const char *arming, unsigned batch,
		    unsigned index, const struct pp_run_setup *setup, struct pp_results *res,
		    struct pp_run_status *st);

#endif /* PINPOINT_RUN_H */
