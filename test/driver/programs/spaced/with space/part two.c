/*
 * part two.c - a static step() of its own, slower in the current revision
 * (-DCURRENT).
 */
#ifdef CURRENT
#define WORK 6000000L
#else
#define WORK 2000000L
#endif

extern volatile long sink;

static __attribute__((noinline)) void step(void)
{
	for (long i = 0; i < WORK; i++)
		sink ^= i * 5;
}

__attribute__((noinline)) void part_run(void)
{
	step();
}
