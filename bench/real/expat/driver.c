// SPDX-License-Identifier: MIT
/*
 * driver.c - expat: parse a generated XML document (elements, attributes,
 * text, character references) N times, fed in 16 KiB chunks, with handlers
 * that digest what they see.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <expat.h>

#define WORKLOAD_SEED 0x2545f4914f6cdd1dull
#include "workload.h"

static void element(int depth)
{
	char tmp[96];
	unsigned tag = (unsigned)(next() % 12);

	snprintf(tmp, sizeof(tmp), "<item%u", tag);
	put(tmp);
	for (unsigned i = 0, n = next() % 4; i < n; i++) {
		snprintf(tmp, sizeof(tmp), " a%u=\"v%llu\"", i,
			 (unsigned long long)(next() % 100000));
		put(tmp);
	}
	put(">");
	for (unsigned i = 0, n = depth < 5 ? 1 + next() % 4 : 0; i < n; i++) {
		if (next() % 3 == 0) {
			for (unsigned j = 0, m = 4 + next() % 40; j < m; j++) {
				tmp[0] = (char)(next() % 9 ? 'a' + next() % 26 : ' ');
				tmp[1] = 0;
				put(next() % 50 ? tmp : "&amp;&#65;");
			}
		} else {
			element(depth + 1);
		}
	}
	snprintf(tmp, sizeof(tmp), "</item%u>\n", tag);
	put(tmp);
}

static uint64_t check;

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
	(void)ud;
	check = check * 31 + strlen(name);
	for (; *atts; atts += 2)
		check = check * 7 + strlen(atts[0]) + strlen(atts[1]);
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	(void)ud;
	check += (unsigned char)name[0];
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int n)
{
	(void)ud;
	check = check * 3 + (unsigned)n + (unsigned char)s[0];
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 40;
	struct timespec t0, t1, c0, c1;

	put("<?xml version=\"1.0\"?>\n<doc>\n");
	while (len < (1u << 20))
		element(0);
	put("</doc>\n");

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++) {
		XML_Parser p = XML_ParserCreate(NULL);
		XML_SetElementHandler(p, on_start, on_end);
		XML_SetCharacterDataHandler(p, on_text);
		for (size_t off = 0; off < len; off += 16384) {
			size_t k = len - off < 16384 ? len - off : 16384;
			if (XML_Parse(p, buf + off, (int)k, off + k == len) != XML_STATUS_OK) {
				fprintf(stderr, "driver: %s at line %lu\n",
					XML_ErrorString(XML_GetErrorCode(p)),
					(unsigned long)XML_GetCurrentLineNumber(p));
				return 1;
			}
		}
		XML_ParserFree(p);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	printf("ns %lld\n",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec));
	printf("cpu_ns %lld\n",
	       (long long)(c1.tv_sec - c0.tv_sec) * 1000000000ll + (c1.tv_nsec - c0.tv_nsec));
	printf("check %llx bytes %zu\n", (unsigned long long)check, len);
	free(buf);
	return 0;
}
