/*
 * audit.c - a cheap call added at the entry and the cause two layers below:
 * the current revision (-DCURRENT) calls audit_hook() first in serve(), and
 * parse() (serve -> handle -> parse, in both revisions) is 90 % slower.
 */
#include <stdio.h>

#define UNIT 1000000L
#ifdef CURRENT
#define PARSE_WORK (UNIT * 76 / 10)
#else
#define PARSE_WORK (4 * UNIT)
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

/* Work in the function's own body: every function's cost is its own. */
#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

NOINLINE void audit_hook(void) { spin(UNIT / 50); }
NOINLINE void parse(void) { spin(PARSE_WORK); }
NOINLINE void respond(void) { spin(UNIT); }
NOINLINE void handle(void)
{
	spin(UNIT / 2);
	parse();
}

NOINLINE void serve(void)
{
#ifdef CURRENT
	audit_hook();
#endif
	handle();
	respond();
}

int main(void)
{
	serve();
	printf("%d\n", sink != 0);
	return 0;
}
