/*
 * misbehave.c - a benchmark that misbehaves in the current revision.
 *
 *   ./misbehave MODE COUNTER N
 *
 * Each run of the current revision counts itself in the file COUNTER; from
 * its Nth run on, it misbehaves after the entry: MODE segv (SIGSEGV), abort,
 * hang (forks a sleeping child, then sleeps).  MODE never: neither revision
 * calls the entry.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spin.h"

void job(void)
{
	spin_loop(300000L);
}

static int bump(const char *path)
{
	FILE *f = fopen(path, "r+");
	int n = 0;

	if (!f)
		f = fopen(path, "w+");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &n) != 1)
		n = 0;
	rewind(f);
	fprintf(f, "%d\n", ++n);
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	if (strcmp(argv[1], "never"))
		job();
#ifdef CURRENT
	if (bump(argv[2]) >= atoi(argv[3])) {
		if (!strcmp(argv[1], "segv")) {
			*(volatile int *)(long)atoi("0") = 1;
		} else if (!strcmp(argv[1], "abort")) {
			abort();
		} else if (!strcmp(argv[1], "hang")) {
			if (fork() == 0)
				pause_us(1000000000L);
			pause_us(1000000000L);
		}
	}
#endif
	printf("ok\n");
	return 0;
}
