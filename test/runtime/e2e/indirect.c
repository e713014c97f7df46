// SPDX-License-Identifier: MIT
/*
 * indirect.c - end-to-end: an indirect call's targets (abi.h, 5.).
 * Call lists (the numbers the tests arm):
 *   apply: 0 the call through its pointer
 *   run:   0 apply (in a loop)
 * run calls apply 300 times, in turns with sleep_ms (1 ms), count_up
 * (nothing much) and strlen, a function of the C library.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef unsigned long (*op_fn)(const char *);

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long sleep_ms(const char *s)
{
	struct timespec ts = {0, 1000000L};

	nanosleep(&ts, NULL);
	return (unsigned long)s[0];
}

__attribute__((noinline)) unsigned long count_up(const char *s)
{
	return ++sink + (unsigned long)s[1];
}

__attribute__((noinline)) unsigned long apply(op_fn f, const char *s)
{
	return f(s);
}

__attribute__((noinline)) void run(void)
{
	op_fn ops[3] = {sleep_ms, count_up, strlen};

	for (int i = 0; i < 300; i++)
		sink += apply(ops[i % 3], "pinpoint");
}

int main(void)
{
	printf("pid %d\n", (int)getpid());
	run();
	return 0;
}
