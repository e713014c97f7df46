/*
 * shlib_main.c - the entry run() calls lib_work() in libwork.so.
 */
#include <stdio.h>

#include "spin.h"

void lib_work(void);

void prep(void)
{
	spin_loop(500000L);
}

void run(void)
{
	prep();
	lib_work();
}

int main(void)
{
	run();
	printf("ok\n");
	return 0;
}
