/*
 * fail.c - a benchmark that misbehaves in the current revision (-DCURRENT):
 * it exits with status 3 once its entry has run.
 */
#include <stdio.h>
#include <stdlib.h>

volatile long sink;

void job(void)
{
	for (long i = 0; i < 100000; i++)
		sink += i;
}

int main(void)
{
	job();
#ifdef CURRENT
	fprintf(stderr, "fail: simulated failure\n");
	return 3;
#endif
	return 0;
}
