/*
 * ambig_b.c - a static step() of the same name as ambig_a.c's; its slow()
 * spins longer in the current revision.
 */
#include "spin.h"

static void slow(void)
{
	spin_loop(REV(2000000L, 12000000L));
}

static void step(void)
{
	spin_loop(300000L);
	slow();
}

void run_b(void)
{
	step();
}
