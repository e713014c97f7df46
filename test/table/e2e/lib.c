/* SPDX-License-Identifier: MIT */
/* lib.c - an instrumented shared library for the end-to-end tests. */
int lib_work(int n);

static int lib_step(int n)
{
	return n * 3;
}

int lib_work(int n)
{
	return lib_step(n) + lib_step(n + 1);
}
