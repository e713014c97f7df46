// SPDX-License-Identifier: MIT
/*
 * basic.c - end-to-end: counts, a 20 ms call, recursion, ranges.
 * Call lists (the numbers the tests arm):
 *   run:  0 leaf, 1 sleep_ms, 2 fib
 *   fib:  0 fib(n - 1), 1 fib(n - 2)
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void leaf(void)
{
	sink++;
}

__attribute__((noinline)) void sleep_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};

	nanosleep(&ts, NULL);
}

/* No tail recursion elimination: both recursive calls stay calls. */
__attribute__((noinline, disable_tail_calls)) unsigned long fib(unsigned n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) void run(void)
{
	for (int i = 0; i < 1000; i++)
		leaf();
	sleep_ms(20);
	sink += fib(20);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int main(void)
{
	unsigned long long t0;

	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	t0 = now_ns();
	run();
	printf("run_ns %llu\n", now_ns() - t0);
	return 0;
}
