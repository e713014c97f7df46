/* SPDX-License-Identifier: MIT */
/*
 * backend.h - where a session's runs come from.  The discover, search,
 * settle, decide and report stages see runs only as results (core/results.h)
 * of an arming (measure.c), and the program only as its tables: a backend
 * gives both.  Processes (run.c) run the benchmark; a program model
 * (pinpoint/model/) computes what the runtime would have written for a call
 * tree described in a file, so that whole sessions go through the real
 * search in milliseconds.
 */
#ifndef PINPOINT_BACKEND_H
#define PINPOINT_BACKEND_H

#include <stddef.h>

#include "core/results.h"
#include "pinpoint/measure/run.h"
#include "pinpoint/session/session.h"

struct pp_backend {
	const char *name; /* "processes", "model" */
	/*
	 * The tables of revision @r into s->rev[r].prog, @res being its first
	 * run's results.  0, or -EINVAL after printing one error line.
	 */
	int (*tables)(struct pp_session *s, enum pp_rev_id r, const struct pp_results *res);
	/* The runs @req[0..@n) of batch @batch, as pp_run_revisions() says (run.h). */
	int (*run)(struct pp_session *s, unsigned batch, const struct pp_run_req *req, size_t n,
		   struct pp_results *res, struct pp_run_status *st, int *each);
	/* Whether pairs run at once, and on which sides (NULL: the host's CPUs, duet.c). */
	int (*duet)(struct pp_session *s);
	/*
	 * Revision @r's code layouts made up to @want (NULL: linked again, as
	 * pp_layouts_make() and pp_layouts_grow() do): how many it has, or -errno.
	 */
	int (*layouts)(struct pp_session *s, enum pp_rev_id r, unsigned want);
	/*
	 * The discover stage's work (NULL: its runs, discover.c): each
	 * revision's tables and entry, the session's rule (skip, stop, its
	 * runs' time limit) and the discovery runs' records.  0, -EINVAL after
	 * one line, -EIO after pp_session_fail(), -ENOMEM.
	 */
	int (*discover)(struct pp_session *s);
	/* Told of batch @b as it begins (its armings made), or NULL.  0 or -EIO. */
	int (*batch)(struct pp_session *s, struct pp_batch *b);
	/*
	 * Run @req of batch @b as recorded values (NULL: run() and the slots'
	 * values, measure.c): how it ended (@rec->st), its entry count, lost
	 * executions, values, removed costs and targets for the batch's @nq
	 * quantities.  0, or -EIO after pp_session_fail().
	 */
	int (*values)(struct pp_session *s, const struct pp_batch *b, const struct pp_run_req *req,
		      struct pp_run_record *rec, size_t nq);
	/* The session's runs are over: its clock as it ends (NULL: as it is). */
	void (*finish)(struct pp_session *s);
};

/* The benchmark run as processes in the revisions' directories: the default. */
extern const struct pp_backend pp_backend_processes;

/* @s's backend: s->backend, or processes. */
static inline const struct pp_backend *pp_backend_of(const struct pp_session *s)
{
	return s->backend ? s->backend : &pp_backend_processes;
}

#endif /* PINPOINT_BACKEND_H */
