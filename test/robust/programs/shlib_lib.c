/*
 * shlib_lib.c - instrumented code in a shared library (libwork.so), linked
 * normally by shlib_main.c; lib_slow() spins longer in the current revision.
 */
#include "spin.h"

void lib_slow(void)
{
	spin_loop(REV(2000000L, 12000000L));
}

void lib_fast(void)
{
	spin_loop(500000L);
}

void lib_work(void)
{
	lib_fast();
	lib_slow();
}
