/*
 * hotcalls.c - a hot short call: run() calls scan(), which calls step()
 * 100000 times an execution, each call some 10 ns of work; in the current
 * revision (-DCURRENT) step() does 40 % more.  Armed, every call of step()
 * passes through probes that cost as much as the call itself: what pinpoint
 * reports of scan() and of its parts, whichever runs measured them, must be
 * the program's own time, not the probes'.
 */
#include <stdio.h>

#define CALLS 100000L
#ifdef CURRENT
#define ROUNDS 14
#else
#define ROUNDS 10
#endif
#define NOINLINE __attribute__((noinline))

volatile unsigned sink;

/* A chain of dependent shift, xor and multiply rounds (no closed form to fold). */
NOINLINE unsigned step(unsigned x)
{
	for (int i = 0; i < ROUNDS; i++)
		x = (x ^ (x >> 13)) * 0x5bd1e995u;
	return x;
}

NOINLINE void scan(void)
{
	unsigned x = 1;

	for (long i = 0; i < CALLS; i++)
		x = step(x);
	sink += x;
}

NOINLINE void run(void)
{
	scan();
}

int main(void)
{
	for (int k = 0; k < 30; k++)
		run();
	printf("%u\n", sink != 0);
	return 0;
}
