/*
 * ambig_a.c - a static step() of the same name as ambig_b.c's; unchanged.
 */
#include "spin.h"

static void step(void)
{
	spin_loop(REV(3000000L, 3000000L));
}

void run_a(void)
{
	step();
}
