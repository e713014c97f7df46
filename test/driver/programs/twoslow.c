/*
 * twoslow.c - two slower calls in one list: in the current revision
 * (-DCURRENT) step1() costs 2 units more and step3() 6 more; the larger,
 * in the second half, must head the chain, the smaller follow it.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define EXTRA1 (2 * UNIT)
#define EXTRA3 (6 * UNIT)
#else
#define EXTRA1 0
#define EXTRA3 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void step0(void) { spin(2 * UNIT); }
NOINLINE void step1(void) { spin(2 * UNIT + EXTRA1); }
NOINLINE void step2(void) { spin(2 * UNIT); }
NOINLINE void step3(void) { spin(2 * UNIT + EXTRA3); }

NOINLINE void job(void)
{
	step0();
	step1();
	step2();
	step3();
}

int main(void)
{
	job();
	printf("%d\n", sink != 0);
	return 0;
}
