/*
 * manysites.c - a helper slower at every one of its call sites, none alone
 * enough: rounds() calls mix() from twelve places, as a hash's rounds call
 * its update function.  In the current revision (-DCURRENT) each call of
 * mix() costs 0.075 units more: 1.5 % of the entry at each call, below the
 * 5 % threshold the test sets, 18 % together.  fold(), which mix() calls,
 * does not change: the slowdown is in mix()'s own body.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define EXTRA (UNIT * 3 / 40)
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

NOINLINE void setup(void) { spin(UNIT); }
NOINLINE void finish(void) { spin(UNIT); }
NOINLINE void fold(int k) { spin(UNIT / 20 + k); }

NOINLINE void mix(int k)
{
	spin(UNIT / 5 + EXTRA);
	fold(k);
}

NOINLINE void rounds(void)
{
	setup();
	mix(0);
	mix(1);
	mix(2);
	mix(3);
	mix(4);
	mix(5);
	mix(6);
	mix(7);
	mix(8);
	mix(9);
	mix(10);
	mix(11);
	finish();
}

int main(void)
{
	rounds();
	printf("%d\n", sink != 0);
	return 0;
}
