/*
 * forkchild.c - the entry forks a child that runs instrumented code (the
 * same slow() and more) and exits inside the entry; the parent waits for it
 * after the entry.  slow() spins longer in the current revision.
 * "./forkchild late": the parent does not wait, and the child exits 300 ms
 * after it, so a child that wrote results would overwrite the parent's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spin.h"

static pid_t child;
static int late;

void slow(void)
{
	spin_loop(REV(2000000L, 12000000L));
}

void child_job(void)
{
	for (int i = 0; i < 3; i++)
		slow();
	if (late)
		pause_us(300000);
}

void run(void)
{
	slow();
	child = fork();
	if (child == 0) {
		child_job();
		exit(0);
	}
}

int main(int argc, char **argv)
{
	late = argc > 1 && !strcmp(argv[1], "late");
	run();
	if (child > 0 && !late)
		waitpid(child, NULL, 0);
	printf("ok\n");
	return 0;
}
