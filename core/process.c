// SPDX-License-Identifier: MIT
/*
 * process.c - fork, exec and wait with a time limit.
 *
 * The environment is built before fork() (the child only calls
 * async-signal-safe functions).  A child in its own process group is killed
 * with everything it started on a timeout or a stop, and after it ended.
 *
 * A child can see files at paths of its own (pp_process.binds): it
 * unshares its mount namespace (inside a new user namespace that maps its
 * own user and group alone, when the first is not allowed), makes every
 * mount private, and bind-mounts each file over its path, before exec.
 * The parent's view never changes, and nothing is left to undo.
 *
 * Nothing a child starts outlives it: the child dies with pinpoint
 * (PR_SET_PDEATHSIG, even when pinpoint is killed with SIGKILL), and once
 * pinpoint is a subreaper (pp_process_adopt_orphans()) a process that left
 * the group (setsid, a daemon) is reparented to pinpoint when its parent
 * ends, and killed and reaped after the run (pp_process_kill_orphans()).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/process.h"

extern char **environ;

/* The running children's process groups, for pp_process_kill() from a signal handler. */
static volatile sig_atomic_t running_pgid[PP_PROCESS_SET_MAX];

/* Whether pinpoint is a subreaper: orphans of its children are its own. */
static volatile sig_atomic_t subreaper;

void pp_process_kill(void)
{
	for (int i = 0; i < PP_PROCESS_SET_MAX; i++)
		if ((pid_t)running_pgid[i] > 0)
			kill(-(pid_t)running_pgid[i], SIGKILL);
	pp_process_kill_orphans();
}

int pp_process_adopt_orphans(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		return -errno;
	subreaper = 1;
	return 0;
}

struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * The start of the file at @path (a /proc file: one read) into @buf of
 * @size bytes, NUL-terminated: its length, or -1 when it cannot be read
 * or is empty.  Async-signal-safe.
 */
static ssize_t read_start(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	return len;
}

/* The parent of @pid from /proc/PID/stat, or -1.  Async-signal-safe. */
static pid_t parent_of(const char *pid)
{
	char path[64] = "/proc/", buf[512], *p = NULL;
	size_t n = 6;
	ssize_t len;
	pid_t ppid = 0;

	for (const char *c = pid; *c && n < sizeof(path) - 6; c++)
		path[n++] = *c;
	memcpy(path + n, "/stat", 6);
	len = read_start(path, buf, sizeof(buf));
	if (len < 0)
		return -1;
	/* "PID (COMM) S PPID ...": COMM may hold anything, the last ')' ends it. */
	for (ssize_t i = 0; i < len; i++)
		if (buf[i] == ')')
			p = buf + i;
	if (!p || len - (p - buf) < 5)
		return -1;
	for (p += 4; *p >= '0' && *p <= '9'; p++)
		ppid = ppid * 10 + (*p - '0');
	return ppid;
}

/* SIGKILL each child of pinpoint's; how many there were.  Async-signal-safe. */
static int kill_children(pid_t self)
{
	_Alignas(8) char buf[4096];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), found = 0;
	long n;

	if (fd < 0)
		return 0;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64_raw *d = (struct dirent64_raw *)(void *)(buf + off);
			pid_t pid = 0;
			const char *c;

			off += d->reclen;
			for (c = d->name; *c >= '0' && *c <= '9'; c++)
				pid = pid * 10 + (*c - '0');
			if (*c || c == d->name || pid == self || parent_of(d->name) != self)
				continue;
			kill(pid, SIGKILL);
			found++;
		}
	}
	close(fd);
	return found;
}

int pp_process_kill_orphans(void)
{
	pid_t self = getpid();
	int killed = 0;

	if (!subreaper)
		return 0;
	/*
	 * No child at all (ECHILD): no orphan was reparented here.  Otherwise
	 * kill the children, reap them, and again: a killed process's own
	 * children come to pinpoint when it dies.
	 */
	for (int round = 0; round < 1000; round++) {
		struct timespec ts = {0, 2000000L};
		int found;

		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
			break;
		found = kill_children(self);
		if (!found)
			break;
		killed += found;
		nanosleep(&ts, NULL);
	}
	return killed;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int pidfd_open_compat(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Length of the NAME of "NAME=VALUE" (or of "NAME"). */
static size_t name_len(const char *s)
{
	return strcspn(s, "=");
}

/* @environ with @changes applied; NULL when out of memory. */
static char **child_env(const char *const *changes)
{
	size_t n = 0, nc = 0, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	while (changes && changes[nc])
		nc++;
	env = calloc(n + nc + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t len = name_len(environ[i]);
		bool changed = false;

		for (size_t c = 0; c < nc && !changed; c++)
			changed =
			    name_len(changes[c]) == len && !strncmp(changes[c], environ[i], len);
		if (!changed)
			env[k++] = environ[i];
	}
	for (size_t c = 0; c < nc; c++)
		if (changes[c][name_len(changes[c])] == '=')
			env[k++] = (char *)changes[c];
	return env;
}

/* A child's error: the errno, and this bit when it was the binds'. */
#define BIND_FAILED 0x10000

/* What a user namespace of the child's own maps: its ids, written before fork(). */
struct idmaps {
	char uid[32], gid[32];
};

static void idmaps_init(struct idmaps *m)
{
	snprintf(m->uid, sizeof(m->uid), "%u %u 1\n", (unsigned)geteuid(), (unsigned)geteuid());
	snprintf(m->gid, sizeof(m->gid), "%u %u 1\n", (unsigned)getegid(), (unsigned)getegid());
}

/* Async-signal-safe: write @s to the file @path. */
static int put_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* In the child: a private mount namespace with @binds in place.  Async-signal-safe. */
static int private_binds(const char *const *binds, const int *fds, const struct idmaps *ids)
{
	if (unshare(CLONE_NEWNS)) {
		if (errno != EPERM)
			return -1;
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
		    put_file("/proc/self/setgroups", "deny") ||
		    put_file("/proc/self/uid_map", ids->uid) ||
		    put_file("/proc/self/gid_map", ids->gid))
			return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	for (size_t i = 0; binds[i] && binds[i + 1]; i += 2) {
		struct stat want, got;

		if (mount(binds[i], binds[i + 1], NULL, MS_BIND, NULL))
			return -1;
		if (!fds || fds[i / 2] < 0)
			continue;
		if (fstat(fds[i / 2], &want) || stat(binds[i + 1], &got))
			return -1;
		if (want.st_dev != got.st_dev || want.st_ino != got.st_ino) {
			errno = ESTALE;
			return -1;
		}
	}
	return 0;
}

/*
 * In the child: made ready, then wait until the parent closes its end of
 * @release (all of a set are ready), then exec.  Async-signal-safe.
 */
static void __attribute__((noreturn)) child(const struct pp_process *p, char **env, int errpipe,
					    int release[2], pid_t parent, const struct idmaps *ids)
{
	int null, err, flag = 0;
	char c;

	close(release[1]);
	if (p->group)
		setpgid(0, 0);
	/* Dies with pinpoint, whatever ends it; already gone: do not start. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0 && getppid() != parent)
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (p->binds && p->binds[0] && private_binds(p->binds, p->bind_fds, ids)) {
		flag = BIND_FAILED;
		goto fail;
	}
	if (p->dir && chdir(p->dir))
		goto fail;
	if (p->cpus && sched_setaffinity(0, sizeof(*p->cpus), p->cpus))
		goto fail;
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(p->out >= 0 ? p->out : null, 1) < 0 ||
	    dup2(p->err >= 0 ? p->err : null, 2) < 0)
		goto fail;
	if (null > 2)
		close(null);
	/* Ready: released with the others (end of file), or the parent is gone. */
	while (read(release[0], &c, 1) < 0 && errno == EINTR)
		;
	close(release[0]);
	execvpe(p->argv[0], p->argv, env);
fail:
	err = errno | flag;
	if (write(errpipe, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

static void kill_child(const struct pp_process *p, pid_t pid)
{
	if (p->group)
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* One child of a set, as the parent follows it. */
struct member {
	pid_t pid;   /* 0: not started */
	int pidfd;   /* -1: none (polled) */
	int errpipe; /* read end: the child's errno when it could not exec */
	int status;  /* its wait status */
	bool done;
	double end;	  /* when it was seen to end */
	struct rusage ru; /* its CPU time, and its descendants' that it waited for */
	double waited_s;  /* its run_delay (read_waited()), < 0: not known */
};

/*
 * How long exited child @pid, not yet reaped, waited on a run queue while
 * other tasks had its CPU: /proc/PID/schedstat's second field, in ns (a
 * kernel without schedstats has no such file).  Seconds, or -1.
 */
static double read_waited(pid_t pid)
{
	char path[64], buf[128];
	unsigned long long run, delay;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if (read_start(path, buf, sizeof(buf)) < 0 || sscanf(buf, "%llu %llu", &run, &delay) != 2)
		return -1;
	return (double)delay * 1e-9;
}

/* Kill member @m (run as @p) before its end, and reap it. */
static void end_member(const struct pp_process *p, struct member *m, int *err)
{
	kill_child(p, m->pid);
	if (wait4(m->pid, &m->status, 0, &m->ru) < 0 && !*err)
		*err = -errno;
	m->done = true;
	m->end = now_s();
}

/*
 * Wait for the started members of @m[0..@n), killing one on its timeout and
 * all on a stop; *@err[i] gets -errno when member i could not be waited for.
 */
static void wait_set(const struct pp_process *p, struct member *m, size_t n, double start,
		     struct pp_run_status *st, int *err)
{
	for (;;) {
		struct pollfd pfd[PP_PROCESS_SET_MAX];
		double now = now_s();
		size_t npfd = 0, left = 0;
		int wait_ms = 1000; /* with pidfds, only to notice a stop */
		bool polled = false;

		for (size_t i = 0; i < n; i++) {
			pid_t r;

			siginfo_t si;

			if (!m[i].pid || m[i].done)
				continue;
			/* ended: what it waited for a CPU, while it can still be read */
			memset(&si, 0, sizeof(si));
			if (!waitid(P_PID, (id_t)m[i].pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
			    si.si_pid == m[i].pid)
				m[i].waited_s = read_waited(m[i].pid);
			r = wait4(m[i].pid, &m[i].status, WNOHANG, &m[i].ru);
			if (r == m[i].pid) {
				m[i].done = true;
				m[i].end = now_s();
				continue;
			}
			if (r < 0 && errno != EINTR) {
				err[i] = -errno;
				end_member(&p[i], &m[i], &err[i]);
				continue;
			}
			if (p[i].stop && *p[i].stop) {
				st[i].interrupted = true;
				end_member(&p[i], &m[i], &err[i]);
				continue;
			}
			if (p[i].timeout_s > 0) {
				double until = start + p[i].timeout_s - now;

				if (until <= 0) {
					st[i].timed_out = true;
					end_member(&p[i], &m[i], &err[i]);
					continue;
				}
				if (until * 1000 < wait_ms)
					wait_ms = (int)(until * 1000) + 1;
			}
			if (m[i].pidfd >= 0)
				pfd[npfd++] = (struct pollfd){.fd = m[i].pidfd, .events = POLLIN};
			else
				polled = true;
			left++;
		}
		if (!left)
			break;
		if (polled && wait_ms > 50)
			wait_ms = 50;
		if (npfd && !polled) {
			poll(pfd, npfd, wait_ms);
		} else {
			struct timespec ts = {0, (long)wait_ms * 1000000L};

			nanosleep(&ts, NULL);
		}
	}
}

int pp_process_run_set(const struct pp_process *p, size_t n, struct pp_run_status *st, int *err)
{
	struct member m[PP_PROCESS_SET_MAX];
	char **env[PP_PROCESS_SET_MAX] = {NULL};
	int release[2] = {-1, -1}, ret = 0;
	size_t started = 0;
	struct idmaps ids = {{0}, {0}};
	sigset_t block, old;
	double start;
	pid_t self;

	if (!n || n > PP_PROCESS_SET_MAX)
		return -EINVAL;
	memset(m, 0, sizeof(m));
	for (size_t i = 0; i < n; i++) {
		memset(&st[i], 0, sizeof(st[i]));
		err[i] = 0;
		m[i].pidfd = m[i].errpipe = -1;
		m[i].waited_s = -1;
		env[i] = child_env(p[i].env);
		if (!env[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (p[i].binds && p[i].binds[0]) {
			idmaps_init(&ids);
			break;
		}
	if (pipe2(release, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	fflush(NULL);
	/* No interrupt between fork() and noting the child: pp_process_kill() must see it. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &old);
	self = getpid();
	for (size_t i = 0; i < n; i++) {
		int pipefd[2];
		pid_t pid;

		if (pipe2(pipefd, O_CLOEXEC)) {
			err[i] = -errno;
			continue;
		}
		pid = fork();
		if (pid < 0) {
			err[i] = -errno;
			close(pipefd[0]);
			close(pipefd[1]);
			continue;
		}
		if (pid == 0) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			close(pipefd[0]);
			child(&p[i], env[i], pipefd[1], release, self, &ids);
		}
		close(pipefd[1]);
		m[i].errpipe = pipefd[0];
		m[i].pid = pid;
		m[i].pidfd = pidfd_open_compat(pid);
		if (p[i].group) {
			setpgid(pid, pid); /* also from the parent: no window before the child */
			running_pgid[i] = pid;
		}
		started++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* All forked: release them together. */
	start = now_s();
	close(release[1]);
	release[1] = -1;
	wait_set(p, m, n, start, st, err);
	for (size_t i = 0; i < n; i++) {
		int child_errno = 0;

		if (!m[i].pid)
			continue;
		st[i].wall_s = m[i].end - start;
		st[i].cpu_s = (double)(m[i].ru.ru_utime.tv_sec + m[i].ru.ru_stime.tv_sec) +
			      (double)(m[i].ru.ru_utime.tv_usec + m[i].ru.ru_stime.tv_usec) * 1e-6;
		st[i].nivcsw = m[i].ru.ru_nivcsw;
		st[i].waited_s = m[i].waited_s;
		if (p[i].group) {
			/* Reap anything the group left behind, so nothing outlives the run. */
			kill(-m[i].pid, SIGKILL);
			running_pgid[i] = 0;
		}
		if (err[i])
			continue;
		if (read(m[i].errpipe, &child_errno, sizeof(child_errno)) ==
		    (ssize_t)sizeof(child_errno)) {
			st[i].bind_failed = (child_errno & BIND_FAILED) != 0;
			err[i] = -(child_errno & ~BIND_FAILED);
		} else if (WIFEXITED(m[i].status)) {
			st[i].exited = 1;
			st[i].exit_code = WEXITSTATUS(m[i].status);
		} else if (WIFSIGNALED(m[i].status)) {
			st[i].signal = WTERMSIG(m[i].status);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (m[i].pid && p[i].group) {
			pp_process_kill_orphans();
			break;
		}
	if (!started)
		ret = err[0];
out:
	for (size_t i = 0; i < n; i++) {
		if (m[i].pidfd >= 0)
			close(m[i].pidfd);
		if (m[i].errpipe >= 0)
			close(m[i].errpipe);
		free(env[i]);
	}
	if (release[0] >= 0)
		close(release[0]);
	if (release[1] >= 0)
		close(release[1]);
	return ret;
}

int pp_process_run(const struct pp_process *p, struct pp_run_status *st)
{
	int err, ret = pp_process_run_set(p, 1, st, &err);

	return ret ? ret : err;
}

int pp_process_binds_work(const char **why)
{
	static const char *const binds[] = {"/dev/null", "/dev/null", NULL};
	char *const argv[] = {"true", NULL};
	struct pp_process p = {.argv = argv, .out = -1, .err = -1, .binds = binds};
	struct pp_run_status st;
	int err = pp_process_run(&p, &st);

	*why = NULL;
	if (!err && st.exited && !st.exit_code)
		return 0;
	if (!err)
		err = -ECHILD;
	if (!st.bind_failed)
		*why = "a child could not be started";
	else if (err == -EPERM || err == -EACCES || err == -ENOSPC || err == -EINVAL)
		*why = "no private mount namespace is allowed here (unprivileged user namespaces "
		       "are disabled: sysctl kernel.unprivileged_userns_clone=1, or "
		       "user.max_user_namespaces > 0; or a container forbids them)";
	else
		*why = "a private mount namespace could not be made";
	return err;
}

const char *pp_run_describe(const struct pp_run_status *st, char *buf, unsigned len)
{
	if (st->interrupted)
		snprintf(buf, len, "was interrupted");
	else if (st->timed_out)
		snprintf(buf, len, "timed out after %.1f s", st->wall_s);
	else if (st->signal)
		snprintf(buf, len, "was killed by signal %d (%s)", st->signal,
			 strsignal(st->signal));
	else if (st->exited && st->exit_code)
		snprintf(buf, len, "exited with status %d", st->exit_code);
	else
		snprintf(buf, len, "succeeded");
	return buf;
}
