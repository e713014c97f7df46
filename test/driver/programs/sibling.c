/*
 * sibling.c - a regression with a side effect on its sibling: format()
 * calls lower() then width_of(); in the current revision (-DCURRENT)
 * width_of() costs 8 units more and lower() 2 more.  BinaryFind names
 * lower() (first slower half); width_of() explains 80 % of the slowdown.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define LOWER_EXTRA (2 * UNIT)
#define WIDTH_EXTRA (8 * UNIT)
#else
#define LOWER_EXTRA 0
#define WIDTH_EXTRA 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void lower(void) { spin(2 * UNIT + LOWER_EXTRA); }
NOINLINE void width_of(void) { spin(2 * UNIT + WIDTH_EXTRA); }

NOINLINE void format(void)
{
	lower();
	width_of();
}

int main(void)
{
	format();
	printf("%d\n", sink != 0);
	return 0;
}
