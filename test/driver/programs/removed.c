/*
 * removed.c - a call removed and another made slower: the current revision
 * (-DCURRENT) no longer calls legacy_check() (2 units) from load(), and
 * decode() costs 8 units more.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define DECODE_WORK (10 * UNIT)
#else
#define DECODE_WORK (2 * UNIT)
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void open_file(void) { spin(UNIT); }
NOINLINE void legacy_check(void) { spin(2 * UNIT); }
NOINLINE void decode(void) { spin(DECODE_WORK); }

NOINLINE void load(void)
{
	open_file();
#ifndef CURRENT
	legacy_check();
#endif
	decode();
}

int main(void)
{
	load();
	printf("%d\n", sink != 0);
	return 0;
}
