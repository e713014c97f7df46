/*
 * wide.c - a regression three layers down under a call list of 16 calls.
 * top -> w11 -> mid -> leaf; leaf spins three times longer in the current
 * revision (-DCURRENT).
 */
#include <stdio.h>

#ifdef CURRENT
#define LEAF_WORK 6000000L
#else
#define LEAF_WORK 2000000L
#endif

volatile long sink;

void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

void leaf(void) { spin(LEAF_WORK); }
void other(void) { spin(500000); }
void mid(void) { other(); leaf(); }

void w0(void) { spin(200000); }
void w1(void) { spin(200000); }
void w2(void) { spin(200000); }
void w3(void) { spin(200000); }
void w4(void) { spin(200000); }
void w5(void) { spin(200000); }
void w6(void) { spin(200000); }
void w7(void) { spin(200000); }
void w8(void) { spin(200000); }
void w9(void) { spin(200000); }
void w10(void) { spin(200000); }
void w11(void) { spin(100000); mid(); }
void w12(void) { spin(200000); }
void w13(void) { spin(200000); }
void w14(void) { spin(200000); }
void w15(void) { spin(200000); }

void top(void)
{
	w0(); w1(); w2(); w3(); w4(); w5(); w6(); w7();
	w8(); w9(); w10(); w11(); w12(); w13(); w14(); w15();
}

int main(void)
{
	top();
	printf("%d\n", sink > 0);
	return 0;
}
