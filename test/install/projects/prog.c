/* A small program for the installation tests: main -> work -> leaf. */
#include <stdio.h>

int leaf(int x)
{
	return x * 2;
}

/* Out of line: an inlined work() would have no probes to arm. */
__attribute__((noinline)) int work(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

int main(void)
{
	printf("%d\n", work(10));
	return 0;
}
