/* SPDX-License-Identifier: MIT */
/* util.c - the second file of prog: another static square, and recursion. */
#include "util.h"

static int square(int x)
{
	return x * x * x;
}

int helper_rec(int depth)
{
	return depth ? helper_rec(depth - 1) + 1 : 0;
}

int util_scale(int v)
{
	return square(v % 7) + helper_rec(3);
}
