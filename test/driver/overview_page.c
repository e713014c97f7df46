// SPDX-License-Identifier: MIT
/*
 * overview_page.c - the HTML report's overview of the search
 * (pinpoint/report/overview.c) for a tree read from a fixture, on a page
 * styled as the report is: check_pinpoint.py's html scenario renders it in
 * headless Chromium and measures where its bars and labels end.
 *
 *   test-driver-overview FIXTURE PAGE
 *
 * FIXTURE: one node per line, depth first, parents before their parts:
 *   DEPTH KIND VERDICT SHARE DIFF LOW HIGH ORDER LABEL
 * DEPTH 0 is the entry; KIND is part, or rest for a function's unexplained
 * remainder; VERDICT is slower, faster or same; SHARE is the
 * node's share of its parent's difference; DIFF, LOW and HIGH are ns; ORDER
 * is its comparison's number (0: none); LABEL runs to the end of the line.
 * Lines that are empty or start with # are skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/report/overview.h"

int pp_verbose = -1; /* the driver's, from main.c: quiet here */

#define MAX_NODES 1024
#define MAX_DEPTH 64

static int parse(FILE *in, const char *path, struct pp_overview_node *v, long *n)
{
	int stack[MAX_DEPTH];
	char line[4096], kind[8], verdict[16];
	unsigned lineno = 0;

	*n = 0;
	while (fgets(line, sizeof(line), in)) {
		struct pp_overview_node *o = &v[*n];
		int used = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (*n == MAX_NODES ||
		    sscanf(line, "%u %7s %15s %lf %lf %lf %lf %u %n", &o->depth, kind, verdict,
			   &o->share, &o->diff.centre, &o->diff.low, &o->diff.high, &o->order,
			   &used) < 8 ||
		    !used || (strcmp(kind, "part") && strcmp(kind, "rest")) ||
		    o->depth >= MAX_DEPTH || o->depth > (*n ? v[*n - 1].depth + 1 : 0) ||
		    (o->depth == 0) != (*n == 0)) {
			fprintf(stderr, "test-driver-overview: %s:%u: not a node below the last\n",
				path, lineno);
			return -EINVAL;
		}
		if (!strcmp(verdict, "slower"))
			o->verdict = PP_V_SLOWER;
		else if (!strcmp(verdict, "faster"))
			o->verdict = PP_V_FASTER;
		else if (!strcmp(verdict, "same"))
			o->verdict = PP_V_SAME;
		else {
			fprintf(stderr, "test-driver-overview: %s:%u: verdict '%s'\n", path, lineno,
				verdict);
			return -EINVAL;
		}
		o->rest = !strcmp(kind, "rest");
		o->label = strdup(line + used);
		if (!o->label)
			return -ENOMEM;
		o->parent = o->depth ? stack[o->depth - 1] : -1;
		stack[o->depth] = (int)*n;
		(*n)++;
	}
	if (!*n)
		fprintf(stderr, "test-driver-overview: %s: no nodes\n", path);
	return *n ? 0 : -EINVAL;
}

int main(int argc, char **argv)
{
	struct pp_overview_node *v;
	FILE *in, *out;
	long n = 0;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: test-driver-overview FIXTURE PAGE\n");
		return 2;
	}
	v = calloc(MAX_NODES, sizeof(*v));
	in = fopen(argv[1], "r");
	if (!v || !in) {
		fprintf(stderr, "test-driver-overview: cannot read %s\n", argv[1]);
		return 2;
	}
	err = parse(in, argv[1], v, &n);
	fclose(in);
	out = err ? NULL : fopen(argv[2], "w");
	if (out) {
		/* The report's page (pinpoint/report/html.c) around the figure. */
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<title>overview</title>\n<style>\n"
		      "body{font-family:sans-serif;margin:1em 2em;color:#222}\n"
		      "svg{display:block;width:100%;height:auto}\n"
		      "</style></head><body>\n<h2>The search</h2>\n",
		      out);
		pp_svg_overview_draw(out, v, n);
		fputs("</body></html>\n", out);
		if (fclose(out))
			out = NULL;
	}
	if (!err && !out)
		fprintf(stderr, "test-driver-overview: cannot write %s\n", argv[2]);
	pp_overview_free(v, MAX_NODES);
	return err || !out ? 2 : 0;
}
