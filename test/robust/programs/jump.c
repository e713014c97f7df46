/*
 * jump.c - longjmp across instrumented frames: work() calls leaf_slow()
 * then bail(), which jumps back to run() every third time.  leaf_slow()
 * spins longer in the current revision.
 */
#include <setjmp.h>
#include <stdio.h>

#include "spin.h"

static jmp_buf env;

void leaf_slow(void)
{
	spin_loop(REV(100000L, 600000L));
}

void bail(int i)
{
	if (i % 3 == 0)
		longjmp(env, 1);
}

void work(int i)
{
	leaf_slow();
	bail(i);
}

int run(void)
{
	volatile int jumps = 0;

	for (volatile int i = 0; i < 30; i++) {
		if (!setjmp(env))
			work(i);
		else
			jumps++;
	}
	return jumps;
}

int main(void)
{
	printf("%d\n", run());
	return 0;
}
