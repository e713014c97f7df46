/*
 * self.c - the regression is a loop in the entry's own body: crunch() calls
 * prepare() and finish(), which do not change, and loops longer itself in
 * the current revision (-DCURRENT).
 */
#include <stdio.h>

#ifdef CURRENT
#define OWN_WORK 6000000L
#else
#define OWN_WORK 2000000L
#endif

volatile long sink;

void prepare(void)
{
	for (long i = 0; i < 1000000; i++)
		sink += i;
}

void finish(void)
{
	for (long i = 0; i < 1000000; i++)
		sink ^= i;
}

void crunch(void)
{
	prepare();
	for (long i = 0; i < OWN_WORK; i++)
		sink += i * 3;
	finish();
}

int main(void)
{
	crunch();
	printf("%d\n", sink != 0);
	return 0;
}
