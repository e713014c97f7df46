/*
 * threads.c - the entry runs its callee on 8 threads: bench() starts 7
 * threads running worker() and runs worker() itself, then joins them.
 * worker() sleeps in slow(), much longer in the current revision, so the range
 * "call slow of worker" adds up 8 threads' time: several times the entry's
 * own (wall) time.
 */
#include <pthread.h>
#include <stdio.h>

#include "spin.h"

void slow(void)
{
	pause_us(REV(5000, 40000));
}

void other(void)
{
	pause_us(2000);
}

void *worker(void *arg)
{
	other();
	slow();
	return arg;
}

void bench(void)
{
	pthread_t t[7];
	int n = 0;

	for (int i = 0; i < 7; i++)
		if (!pthread_create(&t[n], NULL, worker, NULL))
			n++;
	worker(NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

int main(void)
{
	bench();
	printf("ok\n");
	return 0;
}
