/*
 * qsortcmp.c - a comparator the C library calls back: sort_keys() sorts
 * with qsort() and cmp_keys(); in the current revision (-DCURRENT) each
 * comparison costs 300 more iterations of work.  The call the search sees
 * is qsort's, which has no table; the table records that it is handed
 * cmp_keys, and the search digs into that.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 4000
#ifdef CURRENT
#define EXTRA 300
#else
#define EXTRA 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;
static int keys[N];

NOINLINE int cmp_keys(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	for (int i = 0; i < 100 + EXTRA; i++)
		sink += i;
	return (x > y) - (x < y);
}

NOINLINE void fill(void)
{
	unsigned s = 12345;

	for (int i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		keys[i] = (int)(s >> 8);
	}
}

NOINLINE void sort_keys(void)
{
	fill();
	qsort(keys, N, sizeof(keys[0]), cmp_keys);
}

int main(void)
{
	sort_keys();
	printf("%d\n", keys[0] <= keys[1]);
	return 0;
}
