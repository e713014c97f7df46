/*
 * placement.c - a program whose speed depends on where the linker puts its
 * code: classify()'s loop takes one of four branches per byte, and how
 * those branches fall in the processor's fetch blocks (64-byte lines) and
 * branch predictor entries moves with the function's address.  Built twice
 * from the same source and linked in different orders of its functions,
 * it runs 10 % and more faster or slower, with no change in its code.
 */
#include <stddef.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static const unsigned char text[] = "Aa_bhpzC d iq x";
volatile unsigned sink;

NOINLINE unsigned classify(const unsigned char *s, size_t n, unsigned long reps)
{
	unsigned counts[4] = {0, 0, 0, 0};

	for (unsigned long r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++) {
			unsigned char c = s[i];

			if (c < 'a')
				counts[0]++;
			else if (c < 'h')
				counts[1] += c;
			else if (c < 'p')
				counts[2] ^= c;
			else
				counts[3] += 3;
		}
	return counts[0] + counts[1] + counts[2] + counts[3];
}

/* Code around it, so that a new order of the functions moves it. */
NOINLINE unsigned tally(unsigned x) { return x * 3 + (x >> 5); }
NOINLINE unsigned mix(unsigned x) { return (x ^ (x >> 7)) * 0x9e3779b9u; }
NOINLINE unsigned fold(unsigned x) { return x + (x << 4) - (x >> 3); }
NOINLINE unsigned spread(unsigned x) { return (x << 11) | (x >> 21); }

NOINLINE void run(void)
{
	sink += tally(classify(text, sizeof(text) - 1, 300000));
}

int main(void)
{
	for (int i = 0; i < 20; i++)
		run();
	printf("%u\n", mix(fold(spread(sink))) != 0);
	return 0;
}
