// SPDX-License-Identifier: MIT
/*
 * driver.c - tree-sitter with its JSON grammar: parse a generated JSON
 * document N times and walk every tree with a cursor.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_json(void);

#define WORKLOAD_SEED 0x9e3779b97f4a7c15ull
#include "workload.h"

static void value(int depth)
{
	char tmp[64];
	unsigned k = (unsigned)(next() % (depth < 4 ? 6 : 4));

	switch (k) {
	case 0:
		snprintf(tmp, sizeof(tmp), "%lld", (long long)(next() % 2000000) - 1000000);
		put(tmp);
		break;
	case 1:
		snprintf(tmp, sizeof(tmp), "%.6g", (double)(next() % 1000000) / 997.0);
		put(tmp);
		break;
	case 2:
		put("\"");
		for (unsigned i = 0, n = 3 + next() % 20; i < n; i++) {
			tmp[0] = (char)('a' + next() % 26);
			tmp[1] = 0;
			put(next() % 17 ? tmp : "\\n");
		}
		put("\"");
		break;
	case 3:
		put(next() % 3 ? (next() % 2 ? "true" : "false") : "null");
		break;
	case 4:
		put("[");
		for (unsigned i = 0, n = 1 + next() % 6; i < n; i++) {
			if (i)
				put(", ");
			value(depth + 1);
		}
		put("]");
		break;
	default:
		put("{");
		for (unsigned i = 0, n = 1 + next() % 6; i < n; i++) {
			snprintf(tmp, sizeof(tmp), "%s\"key%u\": ", i ? ", " : "",
				 (unsigned)(next() % 100));
			put(tmp);
			value(depth + 1);
		}
		put("}");
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 12;
	uint64_t check = 0;
	struct timespec t0, t1, c0, c1;

	put("[");
	for (int i = 0; i < 2000; i++) {
		if (i)
			put(",\n");
		value(0);
	}
	put("]\n");

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	TSParser *parser = ts_parser_new();
	ts_parser_set_language(parser, tree_sitter_json());
	for (long r = 0; r < n; r++) {
		TSTree *tree = ts_parser_parse_string(parser, NULL, buf, (uint32_t)len);
		TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
		for (;;) {
			TSNode node = ts_tree_cursor_current_node(&c);
			check = check * 31 + ts_node_symbol(node) + ts_node_end_byte(node);
			if (ts_tree_cursor_goto_first_child(&c))
				continue;
			while (!ts_tree_cursor_goto_next_sibling(&c))
				if (!ts_tree_cursor_goto_parent(&c))
					goto done;
		}
	done:
		ts_tree_cursor_delete(&c);
		ts_tree_delete(tree);
	}
	ts_parser_delete(parser);
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
