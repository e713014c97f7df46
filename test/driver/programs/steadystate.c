#define _GNU_SOURCE
/*
 * steadystate.c - the same work in both revisions, with different jitter.
 *
 * main() calls the entry step() 200 times; its first 5 executions do three
 * times the work (a cold start).  In the previous revision the executions
 * after those are steady; in the current one they alternate 12.5% above and
 * below the same mean, so no ten of them in a row vary by less than 2%.
 * A rule that took the steady-state mean of a run when its executions were
 * steady and the total over the count otherwise reported the current
 * revision 25% slower.  With one rule for the whole session both revisions
 * are measured alike and nothing is slower.
 *
 * With PP_TEST_AFFINITY_LOG set, each run appends the CPUs it may run on to
 * that file (for the --cpu scenario).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

volatile long sink;

static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

void step(int i)
{
	long n = 60000;

	if (i < 5)
		n *= 3;
#ifdef CURRENT
	n += (i % 2) ? n / 8 : -n / 8;
#endif
	spin(n);
}

static void log_affinity(const char *path)
{
	cpu_set_t set;
	FILE *f;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "cpus");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			fprintf(f, " %d", c);
	fprintf(f, "\n");
	fclose(f);
}

int main(void)
{
	const char *log = getenv("PP_TEST_AFFINITY_LOG");

	if (log)
		log_affinity(log);
	for (int i = 0; i < 200; i++)
		step(i);
	printf("%d\n", sink != 0);
	return 0;
}
