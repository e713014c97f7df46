/*
 * extcall.c - an indirect call whose one target is outside every
 * instrumented module: scan() calls the C library's memchr() through a
 * pointer.  In the current revision (-DCURRENT) each call searches a
 * buffer four times as long.  The search names the call and its target
 * and stops there: memchr() has no table and no probes.
 */
#include <stdio.h>
#include <string.h>

#define CALLS 200
#ifdef CURRENT
#define LEN (1L << 20)
#else
#define LEN (1L << 18)
#endif
#define NOINLINE __attribute__((noinline))

typedef void *(*find_fn)(const void *, int, size_t);

volatile long sink;
static char buf[1L << 20];
static find_fn volatile find = memchr;

NOINLINE void scan(void)
{
	for (int i = 0; i < CALLS; i++)
		sink += find(buf, 'x', LEN) != NULL;
}

NOINLINE void job(void)
{
	scan();
}

int main(void)
{
	memset(buf, 'a', sizeof(buf));
	job();
	printf("%d\n", sink != 0);
	return 0;
}
