/* SPDX-License-Identifier: MIT */
/*
 * history.h - --history FILE: one JSON line per session with the entry's
 * figures and the verdict, appended, so that the nights of a nightly can be
 * read back as a trend (the HTML report draws it).
 *
 *   {"time":1700000000,"entry":"run","previous":"/b/old","current":"/b/new",
 *    "verdict":"slower","status":1,"previous_ns":..,"previous_low_ns":..,
 *    "previous_high_ns":..,"current_ns":..,"current_low_ns":..,
 *    "current_high_ns":..,"diff_ns":..,"diff_low_ns":..,"diff_high_ns":..,
 *    "threshold_ns":..,"runs":[15,15],"call":"..."}
 */
#ifndef PINPOINT_HISTORY_H
#define PINPOINT_HISTORY_H

#include <stddef.h>

#include "pinpoint/session/outcome.h"

/* A session read back from a history file. */
struct pp_history_entry {
	double time;	  /* seconds since the epoch */
	char verdict[32]; /* "slower", "slower-below-threshold", ..., or "none" (not decided) */
	int status;
	double prev_ns, prev_low, prev_high;
	double cur_ns, cur_low, cur_high;
	double diff_ns, diff_low, diff_high, threshold_ns;
};

/* Append the outcome @o (its entry, verdict and exit status) to @path.  0 or -errno. */
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

#endif /* PINPOINT_HISTORY_H */
