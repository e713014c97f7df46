// SPDX-License-Identifier: MIT
/*
 * signals.c - the driver's one signal handler, for a session (main.c) and
 * for --commits (commits.c) alike.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/process.h"
#include "pinpoint/log.h"
#include "pinpoint/session/signals.h"

#define MAX_FILES 8

static volatile int *stop_flag;
/* The work directory's files, then the directory: made before the handler reads them. */
static char paths[MAX_FILES + 1][PATH_MAX];
static volatile sig_atomic_t npaths;

static void on_signal(int sig)
{
	static const char msg[] = "\npinpoint: stopped\n";
	int saved_errno = errno;

	(void)sig;
	if (!(*stop_flag)++) {
		errno = saved_errno;
		return;
	}
	pp_process_kill();
	for (sig_atomic_t i = 0; i < npaths; i++)
		if (i < npaths - 1)
			unlink(paths[i]);
		else
			rmdir(paths[i]);
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(PP_EXIT_INTERRUPTED);
	_exit(PP_EXIT_INTERRUPTED);
}

void pp_signals_catch(volatile int *stop)
{
	struct sigaction sa, old;

	stop_flag = stop;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &old) || old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL); /* nohup: ignored it stays */
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int pp_signals_workdir(const char *dir, const char *const files[])
{
	size_t n = 0;

	npaths = 0;
	for (; files[n]; n++) {
		if (n == MAX_FILES)
			return -E2BIG;
		if (snprintf(paths[n], PATH_MAX, "%s/%s", dir, files[n]) >= PATH_MAX)
			return -ENAMETOOLONG;
	}
	if (snprintf(paths[n], PATH_MAX, "%s", dir) >= PATH_MAX)
		return -ENAMETOOLONG;
	npaths = (sig_atomic_t)n + 1;
	return 0;
}
