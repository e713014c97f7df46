/*
 * mutual.c - mutual recursion: ping(n) -> pong(n) -> ping(n - 1) ...; pong
 * then calls tick(), slower in the current revision.  Digging reaches ping
 * again from pong and stops there: it was inspected already.
 */
#include <stdio.h>

#include "spin.h"

void tick(void)
{
	spin_loop(REV(20000L, 120000L));
}

void pong(int n);

void ping(int n)
{
	if (n == 0)
		return;
	pong(n);
}

void pong(int n)
{
	ping(n - 1);
	tick();
}

int main(void)
{
	ping(100);
	printf("ok\n");
	return 0;
}
