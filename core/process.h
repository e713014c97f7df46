/* SPDX-License-Identifier: MIT */
/*
 * process.h - run a program and wait for it, with a time limit: the one
 * fork/exec/wait of pinpoint (benchmark runs, builds, the dynamic loader).
 */
#ifndef PINPOINT_PROCESS_H
#define PINPOINT_PROCESS_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

struct pp_process {
	char *const *argv; /* argv[0] looked up in PATH unless it holds a '/' */
	const char *dir;   /* working directory, NULL: pinpoint's own */
	/* Environment changes, NULL-terminated: "NAME=VALUE" sets, "NAME" removes. */
	const char *const *env;
	int out, err;	    /* the child's stdout and stderr; -1: /dev/null.  stdin is /dev/null */
	bool group;	    /* own process group, killed as a whole (and by pp_process_kill()) */
	double timeout_s;   /* killed after this long; 0: no limit */
	volatile int *stop; /* killed when *stop becomes true (may be NULL) */
	const cpu_set_t *cpus; /* the child runs on these CPUs only; NULL: anywhere */
	/* Files seen at other paths by the child alone: pairs FILE, PATH (both
	 * absolute), NULL-terminated; NULL or empty: none.  The child gets a
	 * mount namespace of its own (in a user namespace of its own when it is
	 * not privileged) and each FILE bind-mounted over its PATH: nothing
	 * changes outside it, and nothing is left when it ends. */
	const char *const *binds;
	/* For each pair of binds (may be NULL): a descriptor of the file FILE
	 * must be, by device and inode, once it is in place at PATH (-1: any);
	 * a bind that shows another file fails the run with ESTALE.  (A mount
	 * cannot take its source from a descriptor opened in another mount
	 * namespace, so the child binds by path and then checks.) */
	const int *bind_fds;
};

struct pp_run_status {
	int exited; /* exited normally with exit_code */
	int exit_code;
	int signal; /* killed by this signal (0 if none) */
	bool timed_out;
	bool interrupted; /* stopped because *stop became true */
	bool bind_failed; /* not started: p->binds could not be put in place (the error) */
	double wall_s;
	double cpu_s; /* user and system time of the child and of what it waited for */
	long nivcsw;  /* the times they were taken off their CPU for other work */
	/* how long its main thread was ready to run while other work had its
	 * CPU (the kernel's schedstat run_delay, read before it was reaped);
	 * below 0: not known */
	double waited_s;
	uint64_t output_hash; /* benchmark runs: FNV-1a of what the command wrote to stdout */
};

/*
 * Run @p and wait for it.  Returns 0 when it ran (@st says how it ended), or
 * -errno when it could not be started (exec failed: the exec's errno).
 * Completion is awaited on a pidfd where the kernel has them.
 */
int pp_process_run(const struct pp_process *p, struct pp_run_status *st);

/* Processes pp_process_run_set() runs at once, at most. */
#define PP_PROCESS_SET_MAX 8

/*
 * Run @p[0..@n) at the same time and wait for all of them.  Each child is
 * made ready first (its directory, CPUs, files, binds) and waits until all
 * of them are: they are released together, and each one's time limit
 * (timeout_s) counts from then, as does its wall_s.  @st[i] says how child
 * i ended; @err[i] is 0, or -errno when it could not be started.  Returns 0
 * when at least one was started, else -errno (-EINVAL: @n is 0 or more
 * than PP_PROCESS_SET_MAX).  Each child is killed on its own timeout or
 * stop, as pp_process_run() does.  After the last one ended, what their groups left behind is
 * killed (pp_process_kill_orphans()).
 */
int pp_process_run_set(const struct pp_process *p, size_t n, struct pp_run_status *st, int *err);

/*
 * Whether this system lets a child see files at other paths of its own
 * (pp_process.binds): 0, or -errno with *@why saying what refused it
 * (static text).  Tried once, by a child that binds /dev/null over itself.
 */
int pp_process_binds_work(const char **why);

/*
 * Kill the process groups pp_process_run() or _run_set() wait for (p->group), if any,
 * and the orphans (pp_process_kill_orphans()).  Async-signal-safe: for a
 * signal handler that exits at once.
 */
void pp_process_kill(void);

/*
 * Make pinpoint a subreaper (PR_SET_CHILD_SUBREAPER): what a child leaves
 * running when it ends (a daemon, a setsid'd grandchild) becomes pinpoint's
 * child instead of init's.  0 or -errno.
 */
int pp_process_adopt_orphans(void);

/*
 * After a run: SIGKILL and reap every process still descended from pinpoint
 * (its children, found in /proc, until there is none).  Returns how many were
 * killed.  Does nothing unless pp_process_adopt_orphans() succeeded.
 * Async-signal-safe.
 */
int pp_process_kill_orphans(void);

/* One-line description of how a run ended, e.g. "exited with status 2". */
const char *pp_run_describe(const struct pp_run_status *st, char *buf, unsigned len);

#endif /* PINPOINT_PROCESS_H */
