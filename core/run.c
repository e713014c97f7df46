// SPDX-License-Identifier: MIT
/*
 * run.c - run the benchmark once in a build directory, with a time limit.
 *
 * The child runs in its own process group so that a hang or an interrupt can
 * kill everything it started.  Completion is awaited on a pidfd, so pinpoint
 * does not wake up periodically while the benchmark is being measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pinpoint/abi.h"
#include "core/run.h"

/* The running benchmark's process group, for pp_run_kill() from a signal handler. */
static volatile sig_atomic_t running_pgid;

void pp_run_kill(void)
{
	pid_t pgid = (pid_t)running_pgid;

	if (pgid > 0)
		kill(-pgid, SIGKILL);
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

static void __attribute__((noreturn)) child(char *const argv[], const char *dir,
					    const char *arming, const char *out_path,
					    const char *err_path, int errpipe)
{
	int fd, err;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (chdir(dir))
		goto fail;
	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || dup2(fd, 0) < 0)
		goto fail;
	close(fd);
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, 1) < 0)
		goto fail;
	close(fd);
	fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, 2) < 0)
		goto fail;
	close(fd);
	if (arming ? setenv(PP_ENV, arming, 1) : unsetenv(PP_ENV))
		goto fail;
	execvp(argv[0], argv);
fail:
	err = errno;
	if (write(errpipe, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

static uint64_t hash_file(const char *path)
{
	uint64_t h = 1469598103934665603ull;
	unsigned char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	close(fd);
	return h;
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

int pp_run(char *const argv[], const char *dir, const char *arming, const char *out_path,
	   const char *err_path, double timeout_s, volatile int *stop, struct pp_run_status *st)
{
	int pipefd[2], pidfd, status, err = 0, child_errno = 0;
	double start, deadline;
	sigset_t block, old;
	ssize_t n;
	pid_t pid;

	memset(st, 0, sizeof(*st));
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	/* No interrupt between fork() and noting the child: pp_run_kill() must see it. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	start = now_s();
	pid = fork();
	if (pid < 0) {
		err = -errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(pipefd[0]);
		child(argv, dir, arming, out_path, err_path, pipefd[1]);
	}
	setpgid(pid, pid); /* also from the parent: no window before the child does it */
	running_pgid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(pipefd[1]);

	deadline = timeout_s > 0 ? start + timeout_s : 0;
	pidfd = pidfd_open_compat(pid);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		int wait_ms = 50;

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			err = -errno;
			kill_group(pid);
			waitpid(pid, &status, 0);
			running_pgid = 0;
			goto out;
		}
		if (stop && *stop) {
			st->interrupted = true;
			kill_group(pid);
			waitpid(pid, &status, 0);
			break;
		}
		if (deadline) {
			double left = deadline - now_s();

			if (left <= 0) {
				st->timed_out = true;
				kill_group(pid);
				waitpid(pid, &status, 0);
				break;
			}
			if (left * 1000 < wait_ms || pidfd >= 0)
				wait_ms = left * 1000 < 1000 ? (int)(left * 1000) + 1 : 1000;
		} else if (pidfd >= 0) {
			wait_ms = 1000; /* only to notice an interrupt */
		}
		if (pidfd >= 0) {
			struct pollfd p = {.fd = pidfd, .events = POLLIN};

			poll(&p, 1, wait_ms);
		} else {
			struct timespec ts = {0, (long)wait_ms * 1000000L};

			nanosleep(&ts, NULL);
		}
	}
	st->wall_s = now_s() - start;
	/* Reap anything the group left behind, so no benchmark process outlives its run. */
	kill(-pid, SIGKILL);
	running_pgid = 0;

	n = read(pipefd[0], &child_errno, sizeof(child_errno));
	if (n == (ssize_t)sizeof(child_errno)) {
		err = -child_errno;
		goto out;
	}
	if (WIFEXITED(status)) {
		st->exited = 1;
		st->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		st->signal = WTERMSIG(status);
	}
	st->output_hash = hash_file(out_path);
out:
	if (pidfd >= 0)
		close(pidfd);
	close(pipefd[0]);
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
