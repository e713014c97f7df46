/*
 * inlined.c - a helper inlined in one revision and not in the other: in
 * the previous revision checksum() is small and inlined into work(); in the
 * current one (-DCURRENT) it does three times the work and is not inlined,
 * so its call is timed in the current revision only.
 */
#include <stdio.h>

#define UNIT 1000000L
#define NOINLINE __attribute__((noinline))

volatile long sink;

#ifdef CURRENT
NOINLINE static void checksum(void)
{
	for (long i = 0; i < 6 * UNIT; i++)
		sink += i;
}
#else
__attribute__((always_inline)) static inline void checksum(void)
{
	for (long i = 0; i < 2 * UNIT; i++)
		sink += i;
}
#endif

NOINLINE void prepare(void)
{
	for (long i = 0; i < 2 * UNIT; i++)
		sink += i;
}

NOINLINE void work(void)
{
	prepare();
	checksum();
}

int main(void)
{
	work();
	printf("%d\n", sink != 0);
	return 0;
}
