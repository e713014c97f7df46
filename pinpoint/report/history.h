/* SPDX-License-Identifier: MIT */
/*
 * history.h - --history FILE: one JSON line per session with the entry's
 * figures and the verdict, appended, so that the nights of a nightly can be
 * read back as a trend (the HTML report draws it).
 *
 *   {"time":1700000000,"entry":"run","previous":"/b/old","current":"/b/new",
 *    "machine":"nightly-1","previous_commit":"9fceb02..","current_commit":null,
 *    "verdict":"slower","status":1,"previous_ns":..,"previous_low_ns":..,
 *    "previous_high_ns":..,"current_ns":..,"current_low_ns":..,
 *    "current_high_ns":..,"diff_ns":..,"diff_low_ns":..,"diff_high_ns":..,
 *    "threshold_ns":..,"runs":[15,15],"call":"...","label":"nightly-412",
 *    "baseline":false,"rerun":{"cwd":"/b/new","argv":["--entry=run",...]}}
 *
 * "previous" and "current" are the directories named (not their
 * instrumented copies), each commit the one checked out where the revision
 * was built from (pp_git_build_commit()), "rerun" the options and COMMAND
 * of the session as pp_options_argv() gives them, with the directory they
 * are relative to: what --changes --investigate runs --commits with.
 * --investigate appends lines of a second kind, one per change point it
 * ran (investigate.c):
 *
 *   {"time":..,"entry":"run","machine":"nightly-1","investigation":{
 *    "before_time":..,"after_time":..,"last_time":..,"from":"9fceb02..","to":"1a2b3c4..",
 *    "status":1,"first_slower":"5e6f7a8..","call":"...","why":null}}
 *
 * Lines are appended whole under a lock (fcntl(2), which NFS honours
 * too), so runners on several machines can share one file.
 */
#ifndef PINPOINT_HISTORY_H
#define PINPOINT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "pinpoint/build/git.h"
#include "pinpoint/session/outcome.h"

/* A host's name and its NUL, as uname(2) gives it. */
#define PP_HISTORY_MACHINE_LEN 65
/* The longest --label kept, and its NUL. */
#define PP_HISTORY_LABEL_LEN (PP_LABEL_MAX + 1)

/* A session read back from a history file. */
struct pp_history_entry {
	double time;	  /* seconds since the epoch */
	char verdict[32]; /* "slower", "slower-below-threshold", ..., or "none" (not decided) */
	int status;
	double prev_ns, prev_low, prev_high;
	double cur_ns, cur_low, cur_high;
	double diff_ns, diff_low, diff_high, threshold_ns;
	/* What lines written before these keys lack: "" or 0 when not recorded. */
	char machine[PP_HISTORY_MACHINE_LEN]; /* the host it ran on */
	char commit[2][PP_GIT_HASH_LEN];      /* each revision's commit (PP_PREV, PP_CUR) */
	uint64_t previous_hash;		      /* pp_str_hash() of the previous directory */
	char label[PP_HISTORY_LABEL_LEN];     /* --label of the current revision, or "" */
	bool baseline;			      /* the previous revision was --baseline */
	json_t *rerun;			      /* "rerun", or NULL (pp_history_read() only) */
	size_t entry_no;		      /* pp_history_read(): its entry in h->entry */
};

/* An --investigate line read back: a change point run through --commits. */
struct pp_history_inv {
	double time;			      /* when it was appended */
	size_t entry_no;		      /* its entry in h->entry */
	char machine[PP_HISTORY_MACHINE_LEN]; /* the series' machine */
	double before_time, after_time;	      /* the nights on either side of the change */
	double last_time; /* the night whose commit ended the range run (NAN: after_time) */
	char from[PP_GIT_HASH_LEN], to[PP_GIT_HASH_LEN]; /* the range run */
	int status;					 /* --commits' exit status */
	char first_slower[PP_GIT_HASH_LEN];		 /* the commit found, or "" */
	char *call;					 /* the call named, or NULL */
	char *why;					 /* why nothing was run, or NULL */
};

/* A history file read whole (pp_history_read()). */
struct pp_history {
	struct pp_history_entry *e; /* every session line, in the file's order */
	size_t n;
	char **entry; /* the entries named, each once, in the order first seen */
	size_t nentry;
	struct pp_history_inv *inv; /* the investigation lines, in the file's order */
	size_t ninv;
	size_t bad; /* lines that are not a session's (one warning names the first) */
};

/*
 * Append the outcome @o (its entry, verdict and exit status) to @path, with
 * the machine's name and the commit of each revision directory that is in
 * a git work tree (git.h).  0 or -errno.
 */
int pp_history_append(const struct pp_outcome *o, const char *path);

/* The entry of @path that @o's session appends (history.h's line, read back). */
void pp_history_entry_of(const struct pp_outcome *o, struct pp_history_entry *e);

/*
 * The sessions of @path for entry @entry, oldest first, in *@out (malloc'ed).
 * Lines of other entries and blank lines are left out; lines that are not
 * pinpoint's (not JSON, or without a verdict and a time) are counted in
 * *@bad and named by one warning.  Returns the number read, or -errno.
 */
long pp_history_load(const char *path, const char *entry, struct pp_history_entry **out,
		     size_t *bad);

/*
 * Every session line of @path, of every entry, into @h; lines that are not
 * pinpoint's are counted in h->bad and named by one warning.  0 or -errno
 * (-ENOENT and the like when @path cannot be opened); free @h with
 * pp_history_free() either way.
 */
int pp_history_read(const char *path, struct pp_history *h);

/* Free what @inv holds (its call and why). */
void pp_history_inv_free(struct pp_history_inv *inv);

/* Append @inv of entry @entry to @path, as its line above.  0 or -errno. */
int pp_history_append_inv(const char *path, const char *entry, const struct pp_history_inv *inv);
void pp_history_free(struct pp_history *h);

#endif /* PINPOINT_HISTORY_H */
