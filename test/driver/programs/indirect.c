/*
 * indirect.c - a comparator called through a function pointer: scan()
 * compares 2000 pairs, nine in ten with cmp_keys() and one in ten with
 * cmp_names(), through its one indirect call.  In the current
 * revision (-DCURRENT) cmp_keys() costs 4 units more a call; cmp_names() is
 * unchanged.  The chain must go through the indirect call into cmp_keys.
 * Built with -DBOTH too, cmp_names() costs 36 units more a call as well:
 * each comparator then holds half of the call's difference, each is slower
 * on its own, and the search digs into both, under the call.
 */
#include <stdio.h>

#define CALLS 2000
#define UNIT 1000L
#ifdef CURRENT
#define EXTRA (4 * UNIT)
#else
#define EXTRA 0
#endif
#if defined(CURRENT) && defined(BOTH)
#define EXTRA_NAMES (36 * UNIT)
#else
#define EXTRA_NAMES 0
#endif
#define NOINLINE __attribute__((noinline))

typedef long (*cmp_fn)(long, long);

volatile long sink;

#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE long cmp_keys(long a, long b)
{
	spin(UNIT + EXTRA);
	return a - b;
}

NOINLINE long cmp_names(long a, long b)
{
	spin(UNIT + EXTRA_NAMES);
	return b - a;
}

/* Set at run time, so that the compiler cannot tell where scan()'s call goes. */
cmp_fn comparators[2];

NOINLINE void scan(void)
{
	long s = 0;

	for (long i = 0; i < CALLS; i++)
		s += comparators[i % 10 == 9](i, i + 1);
	sink += s;
}

NOINLINE void job(void)
{
	spin(200 * UNIT);
	scan();
}

int main(void)
{
	comparators[0] = cmp_keys;
	comparators[1] = cmp_names;
	job();
	printf("%d\n", sink != 0);
	return 0;
}
