/*
 * output.c - the same work in both revisions, but a different output.
 */
#include <stdio.h>

#include "spin.h"

void job(void)
{
	spin_loop(300000L);
}

int main(void)
{
	job();
	printf("%s\n", REV("previous answer", "current answer"));
	return 0;
}
