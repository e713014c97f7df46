/*
 * spaced/main.c - the regression is in a static function of a source file
 * whose path holds spaces ("with space/part two.c"), and another static
 * function of the same name lives here: pinpoint must arm it as FILE:NAME
 * with FILE encoded (doc/formats.md, section 2).  The functions stay out of
 * line: the search digs only through calls that survive optimisation.
 */
#include <stdio.h>

volatile long sink;

void part_run(void);

static __attribute__((noinline)) void step(void)
{
	for (long i = 0; i < 1000000; i++)
		sink += i;
}

__attribute__((noinline)) void run(void)
{
	step();
	part_run();
}

int main(void)
{
	run();
	printf("%d\n", sink != 0);
	return 0;
}
