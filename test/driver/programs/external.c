/*
 * external.c - the slower call is to code without a pinpoint table (libc's
 * usleep): pinpoint names the call and says it is external.
 */
#include <stdio.h>
#include <unistd.h>

#ifdef CURRENT
#define NAP 12000
#else
#define NAP 4000
#endif

volatile long sink;

void compute(void)
{
	for (long i = 0; i < 1000000; i++)
		sink += i;
}

void work(void)
{
	compute();
	usleep(NAP);
}

int main(void)
{
	work();
	printf("%d\n", sink != 0);
	return 0;
}
