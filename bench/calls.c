// SPDX-License-Identifier: MIT
/*
 * calls.c - a call-heavy program for the probe benchmarks: eight small
 * functions called in a tight loop, and a recursive fib.  Built plain and
 * with the plugin; bench.py runs both.
 *
 *   calls [ITERS [FIB_N]]   run the work, print "ns", "sites", "calls"
 *   calls rdtsc [ITERS]     time pairs of raw rdtsc reads, print "rdtsc2_ns"
 *
 * "sites" is the number of probe sites the work executes when instrumented:
 * every executed call is one call site in its caller plus one function body
 * (site 0) in its callee.  Call lists:  loop: 0 f1, 1 f2, ... 7 f8.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define NOINLINE __attribute__((noinline))

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

NOINLINE unsigned f1(unsigned x)
{
	return x * 3u + 1u;
}

NOINLINE unsigned f2(unsigned x)
{
	return x ^ (x >> 7);
}

NOINLINE unsigned f3(unsigned x)
{
	return x + 0x9e3779b9u;
}

NOINLINE unsigned f4(unsigned x)
{
	return (x << 5) | (x >> 27);
}

NOINLINE unsigned f5(unsigned x)
{
	return x & 1u ? x * 5u : x / 2u;
}

NOINLINE unsigned f6(unsigned x)
{
	return x - (x >> 3);
}

NOINLINE unsigned f7(unsigned x)
{
	return x * 0x85ebca6bu;
}

NOINLINE unsigned f8(unsigned x)
{
	return x ^ 0x5bd1e995u;
}

NOINLINE unsigned loop(unsigned long iters, unsigned x)
{
	for (unsigned long i = 0; i < iters; i++) {
		x = f1(x);
		x = f2(x);
		x = f3(x);
		x = f4(x);
		x = f5(x);
		x = f6(x);
		x = f7(x);
		x = f8(x);
	}
	return x;
}

NOINLINE unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int rdtsc_pairs(unsigned long iters)
{
#if defined(__x86_64__)
	uint64_t t0, t1, sum = 0;

	t0 = now_ns();
	for (unsigned long i = 0; i < iters; i++) {
		uint64_t a = __rdtsc();
		uint64_t b = __rdtsc();

		sum += b - a;
	}
	t1 = now_ns();
	printf("rdtsc2_ns %.3f\n", (double)(t1 - t0) / (double)iters);
	printf("rdtsc2_ticks %.3f\n", (double)sum / (double)iters);
	return 0;
#else
	(void)iters;
	printf("rdtsc2_ns 0\n");
	return 0;
#endif
}

int main(int argc, char **argv)
{
	unsigned long iters = 10000000, execs[64], fib_execs;
	unsigned n = 27;
	uint64_t t0, t1;
	unsigned x;
	unsigned long f;

	if (argc > 1 && !strcmp(argv[1], "rdtsc"))
		return rdtsc_pairs(argc > 2 ? strtoul(argv[2], NULL, 0) : 10000000);
	if (argc > 1)
		iters = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		n = (unsigned)strtoul(argv[2], NULL, 0);
	if (n >= 64)
		return 2;

	t0 = now_ns();
	x = loop(iters, 1);
	f = fib(n);
	t1 = now_ns();

	/* executions of fib(n): E(k) = E(k-1) + E(k-2) + 1 */
	execs[0] = execs[1] = 1;
	for (unsigned k = 2; k <= n; k++)
		execs[k] = execs[k - 1] + execs[k - 2] + 1;
	fib_execs = execs[n];
	printf("result %u %lu\n", x, f);
	printf("ns %llu\n", (unsigned long long)(t1 - t0));
	/* loop: 8 calls + 8 bodies an iteration, + its own body and call;
	 * fib: a body and a call site per execution */
	printf("sites %lu\n", 16 * iters + 2 + 2 * fib_execs);
	printf("calls %lu\n", 8 * iters + 1 + fib_execs);
	return 0;
}
