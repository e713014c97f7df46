/* SPDX-License-Identifier: MIT */
/* uselib.c - a program whose layers go into an instrumented library. */
#include <stdio.h>

int lib_work(int n);

static int twice(int n)
{
	return lib_work(n) * 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", twice(argc));
	return 0;
}
