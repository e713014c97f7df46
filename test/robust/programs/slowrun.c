/*
 * slowrun.c - a long search: eight stages of four steps each; step 3 of
 * stage 5 spins 30 times longer in the current revision (the entry takes about
 * twice as long).  Each run takes tens of ms.
 */
#include <stdio.h>

#include "spin.h"

void step(int s, int k)
{
	spin_loop(s == 5 && k == 3 ? REV(1000000L, 30000000L) : 1000000L);
}

void stage(int s)
{
	step(s, 0);
	step(s, 1);
	step(s, 2);
	step(s, 3);
}

void run(void)
{
	stage(0);
	stage(1);
	stage(2);
	stage(3);
	stage(4);
	stage(5);
	stage(6);
	stage(7);
}

int main(void)
{
	run();
	printf("ok\n");
	return 0;
}
