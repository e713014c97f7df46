// SPDX-License-Identifier: MIT
/*
 * bench.c - the nightly benchmark: parse FILE ROUNDS times with parse_doc
 * and print a checksum of what was parsed.
 *
 *   ./bench input.json [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "jot.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 10;
	double sum = 0;
	size_t len = 0;
	char *text;

	if (argc < 2 || rounds < 1) {
		fprintf(stderr, "usage: bench FILE [ROUNDS]\n");
		return 2;
	}
	text = slurp(argv[1], &len);
	if (!text) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 0; i < rounds; i++) {
		struct jot_doc doc;

		if (parse_doc(&doc, text, len)) {
			fprintf(stderr, "%s: %s at byte %zu\n", argv[1],
				doc.error ? doc.error : "out of memory", doc.error_at);
			doc_free(&doc);
			free(text);
			return 1;
		}
		sum += doc_checksum(&doc);
		doc_free(&doc);
	}
	printf("%zu bytes, %d rounds, checksum %.1f\n", len, rounds, sum);
	free(text);
	return 0;
}
