/* SPDX-License-Identifier: MIT */
/*
 * prog.c - a small C program for the end-to-end tests of the table: a static
 * function whose name util.c also uses, an indirect call, recursion, calls
 * into another file and into libc.
 */
#include <stdio.h>

#include "util.h"

static int square(int x)
{
	return x * x;
}

int sum_squares(int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++)
		s += square(i);
	return s;
}

static int (*volatile op)(int) = square;

int apply(int v)
{
	return op(v) + square(v);
}

int main(int argc, char **argv)
{
	int n = argc + 9, a, b, c;

	(void)argv;
	a = sum_squares(n);
	b = apply(n);
	c = util_scale(a);
	printf("%d %d %d\n", a, b, c);
	return 0;
}
