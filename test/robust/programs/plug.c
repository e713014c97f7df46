/*
 * plug.c - instrumented code in a library loaded with dlopen (libplug.so):
 * the entry plug_run() lives here; plug_slow() spins longer in the current
 * revision.
 */
#include "spin.h"

void plug_slow(void)
{
	spin_loop(REV(2000000L, 12000000L));
}

void plug_prep(void)
{
	spin_loop(500000L);
}

void plug_run(void)
{
	plug_prep();
	plug_slow();
}
