/*
 * deep.c - regressions at different depths: in the current revision
 * (-DCURRENT) leaf3() (main_loop -> stage_a -> inner_a -> leaf3) costs
 * 8 units more, the own body of stage_b() 4 more and leaf2()
 * (main_loop -> stage_c -> leaf2) 2 more.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define E3 (8 * UNIT)
#define EB (4 * UNIT)
#define E2 (2 * UNIT)
#else
#define E3 0
#define EB 0
#define E2 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void leaf3(void) { spin(UNIT + E3); }
NOINLINE void other(void) { spin(UNIT); }
NOINLINE void inner_a(void)
{
	other();
	leaf3();
}
NOINLINE void stage_a(void)
{
	spin(UNIT / 2);
	inner_a();
}

NOINLINE void stage_b(void)
{
	for (long i = 0; i < UNIT + EB; i++)
		sink += i;
}

NOINLINE void leaf2(void) { spin(UNIT + E2); }
NOINLINE void stage_c(void)
{
	other();
	leaf2();
}

NOINLINE void main_loop(void)
{
	stage_a();
	stage_b();
	stage_c();
}

int main(void)
{
	main_loop();
	printf("%d\n", sink != 0);
	return 0;
}
