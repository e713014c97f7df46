// SPDX-License-Identifier: MIT
/*
 * threads.c - end-to-end: four threads each spend 20 ms in work().
 * Call lists:  work: 0 nanosleep
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void work(void)
{
	struct timespec ts = {0, 20000000L};

	nanosleep(&ts, NULL);
}

static void *body(void *arg)
{
	(void)arg;
	work();
	return NULL;
}

int main(void)
{
	pthread_t tids[4];

	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	for (int i = 0; i < 4; i++)
		if (pthread_create(&tids[i], NULL, body, NULL))
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(tids[i], NULL);
	return 0;
}
