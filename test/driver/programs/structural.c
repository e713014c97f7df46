/*
 * structural.c - the entry's call list changes: the current revision
 * (-DCURRENT) calls validate() between step1() and step2().
 */
#include <stdio.h>

volatile long sink;

void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

void step1(void) { spin(1000000); }
void step2(void) { spin(1000000); }
void validate(void) { spin(3000000); }

void process(void)
{
	step1();
#ifdef CURRENT
	validate();
#endif
	step2();
}

int main(void)
{
	process();
	printf("%d\n", sink != 0);
	return 0;
}
