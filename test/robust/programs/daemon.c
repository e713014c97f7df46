/*
 * daemon.c - "./daemon DIR": before its entry, each run starts a daemon
 * (fork, setsid, fork again) that writes its pid to DIR/daemons and sleeps
 * for ten minutes with SIGTERM and SIGHUP ignored; the run then does its work
 * (slow() spins longer in the current revision) and exits, leaving the
 * daemon behind.  A session must leave none of them running.
 * "./daemon DIR hang": no daemon; the run writes its pid to DIR/hung and
 * sleeps for ten minutes after its entry.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spin.h"

void slow(void)
{
	spin_loop(REV(2000000L, 12000000L));
}

void run(void)
{
	slow();
	spin_loop(1000000L);
}

static void start_daemon(const char *dir)
{
	pid_t pid = fork();

	if (pid == 0) {
		char path[4096], line[32];
		int fd, n;

		setsid();
		if (fork() != 0)
			_exit(0);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		snprintf(path, sizeof(path), "%s/daemons", dir);
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
		n = snprintf(line, sizeof(line), "%d\n", (int)getpid());
		if (fd >= 0 && write(fd, line, (size_t)n) != n)
			_exit(1);
		close(fd);
		close(0);
		close(1);
		close(2);
		pause_us(600000000L);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void hang(const char *dir)
{
	char tmp[4096], path[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/hung.tmp", dir);
	snprintf(path, sizeof(path), "%s/hung", dir);
	f = fopen(tmp, "w");
	if (!f)
		exit(1);
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	rename(tmp, path);
	pause_us(600000000L);
}

int main(int argc, char **argv)
{
	int hung = argc > 2 && !strcmp(argv[2], "hang");

	if (argc > 1 && !hung)
		start_daemon(argv[1]);
	run();
	if (hung)
		hang(argv[1]);
	printf("ok\n");
	return 0;
}
