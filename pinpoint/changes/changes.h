/* SPDX-License-Identifier: MIT */
/*
 * changes.h - pinpoint --changes FILE: the change points of each entry's
 * time over the nights of a --history file, per machine.
 *
 *   pinpoint --changes nightly.jsonl [--entry run] [--json changes.json]
 */
#ifndef PINPOINT_CHANGES_H
#define PINPOINT_CHANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "pinpoint/changes/edivisive.h"
#include "pinpoint/changes/nights.h"
#include "pinpoint/session/options.h"

/* A change point of one series. */
struct pp_change {
	const struct pp_nights *s;
	struct pp_cp cp;		  /* cp.index: its first night after the change */
	const struct pp_history_inv *inv; /* its investigation (investigate.c), or NULL */
	bool new_inv;			  /* inv was run by this --investigate */
};

/* What --changes found: the text and the JSON (changes_json.c) format it. */
struct pp_changes {
	const char *history; /* the file read */
	const char *entry;   /* --entry, or NULL: every entry */
	struct pp_cpd_params par;
	struct pp_nights *s; /* every series of the file (of --entry) */
	size_t ns;
	struct pp_change *c; /* by series, then by night */
	size_t nc;
	size_t bad; /* lines skipped: not a session's */
	const struct pp_history *h;
	struct pp_history_inv *ran; /* the investigations this run made */
	size_t nran;
};

/* A change's size in percent of the mean before it: its centre, low and high end. */
void pp_change_pct(const struct pp_change *c, double pct[3]);
/* The commits around @c: the last night's before (@from) and the first's after (@to), or "". */
void pp_change_commits(const struct pp_change *c, const char **from, const char **to);

/* Write --json of --changes to @path (doc/changes.schema.json).  0 or -errno. */
int pp_changes_json_write(const struct pp_changes *ch, const char *path);

/*
 * Run --changes as @opt asks and return the exit status: 0 no slowdown
 * among the change points (none, or only speed-ups), 1 a slowdown, 2 the
 * file cannot be read or holds no session (--entry's), 3 --json cannot be
 * written, 4 no series has the nights a change point needs (undecided).
 * With --investigate: 0 no slower change point that was not investigated
 * before, 1 one or more, each now run through --commits and recorded, 3 an
 * investigation could not build or measure (not recorded: the next run
 * tries again), 4 one stayed undecided (likewise), 130 interrupted.
 */
int pp_changes_run(const struct pp_options *opt);

/*
 * Whether the history @path may have its commands run: the user's own
 * file, which no one else can write or replace.  0, or -errno after one
 * error line.
 */
int pp_investigate_check_owner(const char *path);

/*
 * Run the slower change point @c through --commits (investigate.c) as its
 * first night after was run, and describe what came of it in @inv (its
 * call and why malloc'ed): inv->status is --commits' exit status, or 2
 * with inv->why when it could not be run.  0, or -errno when the child
 * could not be started.
 */
int pp_investigate(const struct pp_options *opt, const struct pp_change *c,
		   struct pp_history_inv *inv);

#endif /* PINPOINT_CHANGES_H */
