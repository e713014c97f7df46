/*
 * morecalls.c - a loop that runs 30 % more iterations of an unchanged
 * call: in the current revision (-DCURRENT) render() calls paint() 130
 * times per execution where the previous called it 100 times, each call the
 * same work.  The slowdown is render's loop, not paint: the chain must end
 * at the call, "more calls", and not dig into paint.  paint() is most of
 * render(), so the entry is some 28 % slower: a verdict within the suite's
 * 200 runs even where other work preempts the runs.
 */
#include <stdio.h>

#ifdef CURRENT
#define PAINTS 130
#else
#define PAINTS 100
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/*
 * A chain of dependent multiplies: its time is the multiplier's latency,
 * the same wherever the linker puts the loop (a loop of stores to a
 * volatile moved by 15 % between the two revisions' builds).
 */
static inline __attribute__((always_inline)) long chain(long x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005L + 1442695040888963407L;
	return x;
}

NOINLINE void layout(void)
{
	sink = chain(sink, 15000);
}

NOINLINE void paint(int k)
{
	sink = chain(sink + k, 60000);
}

NOINLINE void render(void)
{
	layout();
	for (int k = 0; k < PAINTS; k++)
		paint(k);
}

int main(void)
{
	for (int e = 0; e < 40; e++)
		render();
	printf("%d\n", sink != 0);
	return 0;
}
