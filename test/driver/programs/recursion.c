/*
 * recursion.c - a recursive entry: walk(n) calls walk(n - 1) then tick();
 * tick() is slower in the current revision (-DCURRENT).  Digging reaches
 * walk again and stops there: it was inspected already.
 */
#include <stdio.h>

#ifdef CURRENT
#define TICK 60000L
#else
#define TICK 20000L
#endif

volatile long sink;

void tick(void)
{
	for (long i = 0; i < TICK; i++)
		sink += i;
}

void walk(int n)
{
	if (n == 0)
		return;
	walk(n - 1);
	tick();
}

int main(void)
{
	walk(100);
	printf("%d\n", sink != 0);
	return 0;
}
