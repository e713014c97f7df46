/* SPDX-License-Identifier: MIT */
/*
 * fib-many.h - two functions the tests of a function's body probes share
 * (stub.c, entry.c): a recursive one, and one of nine integer arguments,
 * three of them passed on the stack on x86-64.
 */
static volatile int sink;

__attribute__((noinline)) int fib(int n)
{
	sink = n;
	if (n < 2)
		return n;
	return fib(n - 1) - 2 * fib(n - 2); /* no accumulator for tail recursion */
}

__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g, long h,
				    long i)
{
	sink = (int)a;
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h - i;
}
