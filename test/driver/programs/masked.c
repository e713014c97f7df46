/*
 * masked.c - a regression masked by an improvement in the same half: of
 * run()'s 32 calls, in the current revision (-DCURRENT) c3() costs 6 units
 * more and c11() 6 less (the first half is unchanged as a whole), and c21(),
 * in the second half, 3 more.
 */
#include <stdio.h>

#define UNIT 1000000L
#define SMALL (UNIT / 10)
#ifdef CURRENT
#define A_EXTRA (6 * UNIT)
#define BIG_B (1 * UNIT)
#define D_EXTRA (3 * UNIT)
#else
#define A_EXTRA 0
#define BIG_B (7 * UNIT)
#define D_EXTRA 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void c0(void) { spin(SMALL); }
NOINLINE void c1(void) { spin(SMALL); }
NOINLINE void c2(void) { spin(SMALL); }
NOINLINE void c3(void) { spin(SMALL + A_EXTRA); }
NOINLINE void c4(void) { spin(SMALL); }
NOINLINE void c5(void) { spin(SMALL); }
NOINLINE void c6(void) { spin(SMALL); }
NOINLINE void c7(void) { spin(SMALL); }
NOINLINE void c8(void) { spin(SMALL); }
NOINLINE void c9(void) { spin(SMALL); }
NOINLINE void c10(void) { spin(SMALL); }
NOINLINE void c11(void) { spin(BIG_B); }
NOINLINE void c12(void) { spin(SMALL); }
NOINLINE void c13(void) { spin(SMALL); }
NOINLINE void c14(void) { spin(SMALL); }
NOINLINE void c15(void) { spin(SMALL); }
NOINLINE void c16(void) { spin(SMALL); }
NOINLINE void c17(void) { spin(SMALL); }
NOINLINE void c18(void) { spin(SMALL); }
NOINLINE void c19(void) { spin(SMALL); }
NOINLINE void c20(void) { spin(SMALL); }
NOINLINE void c21(void) { spin(SMALL + D_EXTRA); }
NOINLINE void c22(void) { spin(SMALL); }
NOINLINE void c23(void) { spin(SMALL); }
NOINLINE void c24(void) { spin(SMALL); }
NOINLINE void c25(void) { spin(SMALL); }
NOINLINE void c26(void) { spin(SMALL); }
NOINLINE void c27(void) { spin(SMALL); }
NOINLINE void c28(void) { spin(SMALL); }
NOINLINE void c29(void) { spin(SMALL); }
NOINLINE void c30(void) { spin(SMALL); }
NOINLINE void c31(void) { spin(SMALL); }

NOINLINE void run(void)
{
	c0();
	c1();
	c2();
	c3();
	c4();
	c5();
	c6();
	c7();
	c8();
	c9();
	c10();
	c11();
	c12();
	c13();
	c14();
	c15();
	c16();
	c17();
	c18();
	c19();
	c20();
	c21();
	c22();
	c23();
	c24();
	c25();
	c26();
	c27();
	c28();
	c29();
	c30();
	c31();
}

int main(void)
{
	run();
	printf("%d\n", sink != 0);
	return 0;
}
