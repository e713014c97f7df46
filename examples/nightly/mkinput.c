// SPDX-License-Identifier: MIT
/*
 * mkinput.c - write the benchmark's input: the same records every time
 * (a fixed pseudo-random sequence), with escaped text in every record.
 *
 *   mkinput FILE [RECORDS]
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state = 0x9e3779b97f4a7c15ULL;

static unsigned next(unsigned n)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(state >> 33) % n;
}

static void text(FILE *f, int words)
{
	static const char *const w[] = {"build",  "night", "parser", "record", "value",
					"escape", "quote", "line",   "tab",    "slash"};
	static const char *const esc[] = {"\\n", "\\t",	    "\\\"",   "\\\\",
					  "\\/", "\\u00e9", "\\u20ac"};

	fputc('"', f);
	for (int i = 0; i < words; i++) {
		fputs(w[next(10)], f);
		fputs(next(3) ? " " : esc[next(7)], f);
	}
	fputc('"', f);
}

int main(int argc, char **argv)
{
	int records = argc > 2 ? atoi(argv[2]) : 400;
	FILE *f;

	if (argc < 2 || records < 1) {
		fprintf(stderr, "usage: mkinput FILE [RECORDS]\n");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fputs("[\n", f);
	for (int r = 0; r < records; r++) {
		unsigned v[7];

		/* One draw at a time: argument evaluation order is unspecified. */
		for (int i = 0; i < 7; i++)
			v[i] = next(i == 0 ? 100000 : i == 1 ? 2 : i == 2 ? 1000 : 100);
		fprintf(f, "  {\"id\": %d, \"name\": \"user%u\", \"active\": %s, ", r, v[0],
			v[1] ? "true" : "false");
		fprintf(f, "\"score\": %u.%02ue%d, \"tags\": [%u, %u, %u], \"manager\": null, ",
			v[2], v[3], (int)(v[4] % 5) - 2, v[4] % 50, v[5] % 50, v[6] % 50);
		fputs("\"bio\": ", f);
		text(f, 20 + (int)next(60));
		fputs(r + 1 < records ? "},\n" : "}\n", f);
	}
	fputs("]\n", f);
	return fclose(f) ? 1 : 0;
}
