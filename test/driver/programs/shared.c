/*
 * shared.c - a helper every step calls, slower by a little in each: job()
 * calls step1() .. step4(), each of which calls lookup().  In the current
 * revision (-DCURRENT) each call of lookup() costs 0.1 units more: 2 % of
 * the entry in each step, below the 5 % threshold the test sets, in each
 * half of job()'s calls 4 %, and 8 % together.  No call of job() is
 * slower by the threshold; lookup(), one layer down, is.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define EXTRA (UNIT / 10)
#else
#define EXTRA 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void lookup(int k) { spin(UNIT / 5 + EXTRA + k); }

NOINLINE void step1(void)
{
	spin(UNIT);
	lookup(1);
}

NOINLINE void step2(void)
{
	spin(UNIT);
	lookup(2);
}

NOINLINE void step3(void)
{
	spin(UNIT);
	lookup(3);
}

NOINLINE void step4(void)
{
	spin(UNIT);
	lookup(4);
}

NOINLINE void job(void)
{
	step1();
	step2();
	step3();
	step4();
}

int main(void)
{
	job();
	printf("%d\n", sink != 0);
	return 0;
}
