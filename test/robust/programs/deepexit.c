/*
 * deepexit.c - exit() called deep inside the entry: run() -> work() ->
 * finish() -> exit(0).  The entry is counted up to the exit; slow() spins
 * longer in the current revision.
 */
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

void prep(void)
{
	spin_loop(500000L);
}

void slow(void)
{
	spin_loop(REV(2000000L, 12000000L));
}

void finish(void)
{
	printf("ok\n");
	exit(0);
}

void work(void)
{
	prep();
	slow();
	finish();
}

void run(void)
{
	work();
}

int main(void)
{
	run();
	return 1; /* not reached */
}
