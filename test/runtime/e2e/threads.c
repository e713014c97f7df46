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

static unsigned long long work_ns; /* as the callers see it */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void *body(void *arg)
{
	unsigned long long t0 = now_ns();

	(void)arg;
	work();
	__atomic_fetch_add(&work_ns, now_ns() - t0, __ATOMIC_RELAXED);
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
	printf("work_ns %llu\n", work_ns);
	return 0;
}
