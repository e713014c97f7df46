/*
 * same.c - two identical revisions: pinpoint must find no regression.
 */
#include <stdio.h>

volatile long sink;

void part(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

void steady(void)
{
	part(1000000);
	part(1500000);
}

int main(void)
{
	steady();
	printf("%d\n", sink != 0);
	return 0;
}
