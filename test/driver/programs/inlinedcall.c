/*
 * inlinedcall.c - the regression sits in a function reached only through an
 * inlined helper: finish() inlines pad(), whose calls of transform() are
 * then calls of finish().  The current revision's transform() does three
 * times the work.
 */
#include <stdio.h>

#define UNIT 1000000L
#define NOINLINE __attribute__((noinline))

volatile long sink;

NOINLINE static void transform(long n)
{
#ifdef CURRENT
	n *= 3;
#endif
	for (long i = 0; i < n; i++)
		sink += i;
}

NOINLINE void prepare(void)
{
	for (long i = 0; i < 2 * UNIT; i++)
		sink += i;
}

NOINLINE static void settle(long n)
{
	for (long i = 0; i < n; i++)
		sink -= i;
}

__attribute__((always_inline)) static inline void pad(long n)
{
	transform(n);
	if (sink >= 0)
		settle(n / 4);
}

NOINLINE void finish(void)
{
	prepare();
	pad(UNIT);
}

int main(void)
{
	finish();
	printf("%d\n", sink != 0);
	return 0;
}
