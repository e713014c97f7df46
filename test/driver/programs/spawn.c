/*
 * spawn.c - a benchmark that runs itself again as a child (fork and exec),
 * which ends after the parent's results are written: the parent lets it go
 * from a destructor, which runs after the runtime's exit handler, and waits
 * for it.  The child, built with the runtime too, never calls the entry: had
 * it been measured, its results would replace the parent's and the entry
 * would look never called.  The entry is slower in the current revision
 * (-DCURRENT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef CURRENT
#define WORK 3000000L
#else
#define WORK 1000000L
#endif

volatile long sink;
static pid_t child = -1;
static int go = -1; /* write end of the child's pipe */

void job(void)
{
	for (long i = 0; i < WORK; i++)
		sink += i;
}

__attribute__((destructor)) static void release_child(void)
{
	int status;

	if (child <= 0)
		return;
	if (write(go, "x", 1) != 1 || waitpid(child, &status, 0) != child)
		_exit(1);
}

int main(int argc, char **argv)
{
	char fd[16];
	int p[2];

	if (argc > 2 && !strcmp(argv[1], "child")) {
		char c;

		return read(atoi(argv[2]), &c, 1) == 1 ? 0 : 1;
	}
	job();
	if (pipe(p))
		return 1;
	snprintf(fd, sizeof(fd), "%d", p[0]);
	child = fork();
	if (child == 0) {
		execl("/proc/self/exe", argv[0], "child", fd, (char *)NULL);
		_exit(127);
	}
	if (child < 0)
		return 1;
	close(p[0]);
	go = p[1];
	printf("%d\n", sink != 0);
	return 0;
}
