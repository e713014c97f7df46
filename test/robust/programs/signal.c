/*
 * signal.c - a signal handler running instrumented code: tick() raises
 * SIGALRM, whose handler calls on_alarm(), slower in the current revision.
 * The time is the raise() call's: that is where it is spent.
 */
#include <signal.h>
#include <stdio.h>

#include "spin.h"

void on_alarm(void)
{
	spin_loop(REV(200000L, 1200000L));
}

static void handler(int sig)
{
	(void)sig;
	on_alarm();
}

void other(void)
{
	spin_loop(100000L);
}

void tick(void)
{
	raise(SIGALRM);
}

void run(void)
{
	for (int i = 0; i < 10; i++) {
		other();
		tick();
	}
}

int main(void)
{
	signal(SIGALRM, handler);
	run();
	printf("ok\n");
	return 0;
}
