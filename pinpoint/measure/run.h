/* SPDX-License-Identifier: MIT */
/*
 * run.h - run the benchmark once, in a build directory, with a time limit.
 */
#ifndef PINPOINT_RUN_H
#define PINPOINT_RUN_H

#include "core/process.h"
#include "core/results.h"
#include "pinpoint/session/session.h"

/* One run of the benchmark as a process. */
struct pp_run_job {
	char *const *argv;
	const char *dir;	  /* its working directory */
	const char *arming;	  /* PINPOINT's value, NULL: unset */
	unsigned env_pad;	  /* bytes of PINPOINT_PAD (PP_ENV_PAD_MAX at most) */
	const char *out_path;	  /* its stdout (hashed afterwards) */
	const char *err_path;	  /* its stderr */
	const cpu_set_t *cpus;	  /* the CPUs it runs on, NULL: anywhere */
	const char *const *binds; /* files it sees at other paths (pp_process.binds), or NULL */
	const int *bind_fds;	  /* what they must be (pp_process.bind_fds), or NULL */
};

/*
 * Run @jobs[0..@n) at once, released together (pp_process_run_set()), each in
 * its own process group, killed with it after @timeout_s seconds (0: no
 * limit) or when *@stop becomes true.  @st[i] says how job i ended and
 * @errs[i] whether it could be started (0 or -errno).  Returns 0, or -errno
 * when none could be.
 */
int pp_run_jobs(const struct pp_run_job *jobs, size_t n, double timeout_s, volatile int *stop,
		struct pp_run_status *st, int *errs);

/* One run of a revision, to be made by pp_run_revisions(). */
struct pp_run_req {
	enum pp_rev_id rev;
	const char *arming; /* its PINPOINT variable */
	unsigned index;	    /* within the batch (for messages) */
	struct pp_run_setup setup;
	const cpu_set_t *cpus; /* its CPUs, NULL: --cpu's, or anywhere */
};

/*
 * The runs @req[0..@n) of batch @batch at the same time (duet runs; n = 1:
 * one run), each as pp_run_revision() makes it, into @res[i] and @st[i],
 * and (unless @each is NULL) @each[i] its own error, 0 when it succeeded.
 * Returns 0 or the first error of pp_run_revision()'s; every run is waited
 * for and read first.
 */
int pp_run_revisions(struct pp_session *s, unsigned batch, const struct pp_run_req *req, size_t n,
		     struct pp_results *res, struct pp_run_status *st, int *each);

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
