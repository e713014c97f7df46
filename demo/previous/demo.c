/*
 * demo.c - PinpointDemo: a benchmark with a planted regression, two revisions.
 *
 * run() calls bridge() then ok_main(); bridge() calls foo(), which sleeps
 * 50 ms, then failure_run(), which asks many linked lists for their size.
 * In the previous revision list_size() is O(1); in the current one it walks
 * the list, O(n).  `pinpoint --entry run --depth 2` finds run -> bridge ->
 * failure_run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NLISTS 1000
#define LIST_LEN 50
#define ROUNDS 200

struct node {
	struct node *next;
	long value;
};

struct list {
	struct node *head;
	size_t len;
};

static struct list lists[NLISTS];
static long grid[256][256];

size_t list_size(const struct list *l)
{
	return l->len;
}

void foo(void)
{
	struct timespec ts = {0, 50 * 1000 * 1000};

	nanosleep(&ts, NULL);
}

long failure_run(void)
{
	long sum = 0;

	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < NLISTS; i++)
			sum += (long)list_size(&lists[i]);
	return sum;
}

long bridge(void)
{
	foo();
	return failure_run();
}

/* Costs time without any regression: flattens a nested grid many times. */
long ok_main(void)
{
	long sum = 0;

	for (int r = 0; r < 1000; r++)
		for (int i = 0; i < 256; i++)
			for (int j = 0; j < 256; j++)
				sum += grid[i][j] ^ r;
	return sum;
}

long run(void)
{
	long a = bridge();

	return a + ok_main();
}

static void setup(void)
{
	for (int i = 0; i < NLISTS; i++) {
		for (int k = 0; k < LIST_LEN; k++) {
			struct node *n = malloc(sizeof(*n));

			if (!n)
				exit(1);
			n->value = k;
			n->next = lists[i].head;
			lists[i].head = n;
			lists[i].len++;
		}
	}
	for (int i = 0; i < 256; i++)
		for (int j = 0; j < 256; j++)
			grid[i][j] = i * j;
}

int main(void)
{
	setup();
	printf("%ld\n", run());
	return 0;
}
