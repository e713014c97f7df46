/* SPDX-License-Identifier: MIT */
/*
 * signals.h - how the driver is stopped.  The first SIGINT, SIGTERM, SIGHUP
 * (unless ignored, as under nohup) or SIGQUIT asks it to stop once what runs
 * now has ended, and to report what was established; a second one stops it
 * at once.  SIGPIPE is ignored.
 */
#ifndef PINPOINT_SIGNALS_H
#define PINPOINT_SIGNALS_H

/*
 * Catch the signals: the first sets *@stop, a second one kills the running
 * child's process group (core/process.h), removes the work directory given
 * to pp_signals_workdir() and exits with status 130, with async-signal-safe
 * calls only.
 */
void pp_signals_catch(volatile int *stop);

/*
 * The work directory @dir a second signal removes, with its files @files
 * (NULL-terminated, names in @dir).  0, or -ENAMETOOLONG / -E2BIG, when
 * nothing is registered.
 */
int pp_signals_workdir(const char *dir, const char *const files[]);

#endif /* PINPOINT_SIGNALS_H */
