/*
 * setup.c - a set-up that runs the entry's functions: main() first calls
 * lookup() 200000 times to fill a table, as a program fills its data
 * before the work it is benchmarked on, then calls the entry query() 10
 * times, each calling lookup() 1000 times.  In the current revision
 * (-DCURRENT) lookup() does 30 % more.  A part's value is its time over the
 * run divided by the entry's executions: without leaving the set-up out,
 * query's call of lookup would count 21000 executions an execution of
 * query, and take more than query itself.
 */
#include <stdio.h>

#ifdef CURRENT
#define ROUNDS 13
#else
#define ROUNDS 10
#endif
#define NOINLINE __attribute__((noinline))

volatile unsigned sink;
static unsigned table[1024];

NOINLINE unsigned lookup(unsigned x)
{
	for (int i = 0; i < ROUNDS * 10; i++)
		x = (x ^ (x >> 13)) * 0x5bd1e995u + table[x & 1023];
	return x;
}

NOINLINE void query(void)
{
	unsigned x = 7;

	for (int i = 0; i < 1000; i++)
		x = lookup(x);
	sink += x;
}

int main(void)
{
	unsigned x = 1;

	for (int i = 0; i < 200000; i++) {
		x = lookup(x);
		table[i & 1023] = x;
	}
	for (int i = 0; i < 10; i++)
		query();
	printf("%u\n", sink);
	return 0;
}
