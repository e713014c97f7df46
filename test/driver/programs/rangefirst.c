/*
 * rangefirst.c - a first half slower only as a range: in the current
 * revision (-DCURRENT) each of part0()..part3() costs 5 % of the entry
 * more (below the 12 % threshold the test sets, 20 % together) and part6(),
 * in the second half, costs more than the whole entry again.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define SMALL_EXTRA (UNIT * 4 / 10)
#define BIG_EXTRA (10 * UNIT)
#else
#define SMALL_EXTRA 0
#define BIG_EXTRA 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void part0(void) { spin(UNIT + SMALL_EXTRA); }
NOINLINE void part1(void) { spin(UNIT + SMALL_EXTRA); }
NOINLINE void part2(void) { spin(UNIT + SMALL_EXTRA); }
NOINLINE void part3(void) { spin(UNIT + SMALL_EXTRA); }
NOINLINE void part4(void) { spin(UNIT); }
NOINLINE void part5(void) { spin(UNIT); }
NOINLINE void part6(void) { spin(UNIT + BIG_EXTRA); }
NOINLINE void part7(void) { spin(UNIT); }

NOINLINE void pipeline(void)
{
	part0();
	part1();
	part2();
	part3();
	part4();
	part5();
	part6();
	part7();
}

int main(void)
{
	pipeline();
	printf("%d\n", sink != 0);
	return 0;
}
