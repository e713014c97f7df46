/*
 * inlined.c - an entry the optimiser inlines into its only caller: built at
 * -O2 with the optimiser's own inlining, run() has no call left to time.
 */
#include <stdio.h>

volatile long sink;

static void work(void)
{
	for (long i = 0; i < 100000; i++)
		sink += i;
}

void run(void)
{
	work();
}

int main(void)
{
	run();
	printf("%ld\n", sink);
	return 0;
}
