/* SPDX-License-Identifier: MIT */
/*
 * workdir.h - the session's work directory in $TMPDIR: made with mkdtemp,
 * named for the driver's pid (pinpoint.PID.XXXXXX), and what a killed
 * session left there removed by the next one.
 */
#ifndef PINPOINT_WORKDIR_H
#define PINPOINT_WORKDIR_H

#include <stddef.h>

/*
 * Remove the work directories in @tmpdir that a pinpoint session of this
 * user left when it was killed: pinpoint.PID.XXXXXX directories (not links)
 * owned by the effective user whose process PID is gone.  Only the files in
 * them are removed, by name (unlinkat: no link is followed); a directory
 * with anything else in it stays.  Returns how many were removed.
 */
int pp_workdir_clean_stale(const char *tmpdir);

/* Where the driver's temporary files go: $TMPDIR when set and not empty, else /tmp. */
const char *pp_workdir_tmpdir(void);

/* Make the work directory in @tmpdir; its path in @buf.  0 or -errno. */
int pp_workdir_create(const char *tmpdir, char *buf, size_t len);

/* What a session writes in its work directory (run.c, pp_session_results_path()), NULL-ended. */
extern const char *const pp_work_files[];

/* Remove the session's work directory @dir (NULL: none) and what the runs wrote in it. */
void pp_workdir_remove(const char *dir);

#endif /* PINPOINT_WORKDIR_H */
