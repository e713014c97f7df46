// SPDX-License-Identifier: MIT
/*
 * html.c - the session as one self-contained HTML page: the verdict and the
 * bottleneck chain, then, for every comparison, the runs of both revisions
 * plotted side by side with their centre and confidence interval (inline
 * SVG, no script, nothing fetched over the network).  Made from the same
 * session data as the JSON report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/report/html.h"
#include "pinpoint/report/report.h"

#define W 720
#define H 220
#define ML 70  /* left margin: axis labels */
#define MR 150 /* right margin: legend */
#define MT 12
#define MB 28

static const char *colour[2] = {"#3b6fb6", "#d9682b"};

static void put_escaped(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static double ymap(double v, double lo, double hi)
{
	return MT + (H - MT - MB) * (1.0 - (v - lo) / (hi - lo));
}

static void plot(FILE *f, const struct pp_session *s, const struct pp_quantity *q)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t n = q->series[0].n > q->series[1].n ? q->series[0].n : q->series[1].n;
	double xstep = n > 1 ? (double)(W - ML - MR) / (double)(n - 1) : 0;
	char a[32];

	for (int r = 0; r < 2; r++)
		for (size_t i = 0; i < q->series[r].n; i++) {
			lo = fmin(lo, q->series[r].v[i]);
			hi = fmax(hi, q->series[r].v[i]);
		}
	if (!isfinite(lo))
		return;
	if (hi - lo < 1e-9 * fabs(hi) + 1) {
		hi += 1;
		lo -= 1;
	}
	{
		double pad = (hi - lo) * 0.08;

		hi += pad;
		lo = lo - pad < 0 && lo >= 0 ? 0 : lo - pad;
	}
	fprintf(f,
		"<svg class=\"plot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n",
		W, H, W, H);
	fprintf(f,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
		"stroke=\"#ccc\"/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	for (int t = 0; t <= 4; t++) {
		double v = lo + (hi - lo) * t / 4.0;
		double y = ymap(v, lo, hi);

		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>",
			ML, W - MR, y, y);
		fprintf(
		    f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
		    ML - 6, y + 4, pp_fmt_ns(v, a, sizeof(a)));
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">run</text>\n",
		(W - MR + ML) / 2, H - 8);
	for (int r = 0; r < 2; r++) {
		struct pp_interval iv = pp_revision_interval(s, q, r);
		double y1 = ymap(iv.high, lo, hi), y2 = ymap(iv.low, lo, hi);
		double yc = ymap(iv.centre, lo, hi);

		/* The interval as a band, the centre as a line, then every run as a dot. */
		fprintf(f,
			"<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\" "
			"fill-opacity=\"0.15\"/>\n",
			ML, y1, W - ML - MR, fmax(y2 - y1, 1.0), colour[r]);
		fprintf(f,
			"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-dasharray=\"5,3\"/>\n",
			ML, W - MR, yc, yc, colour[r]);
		for (size_t i = 0; i < q->series[r].n; i++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\"/>",
				ML + xstep * (double)i, ymap(q->series[r].v[i], lo, hi), colour[r]);
		fprintf(f,
			"\n<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n",
			W - MR + 16, MT + 16 + 20 * r, colour[r], W - MR + 26, MT + 20 + 20 * r,
			r ? "current" : "previous");
	}
	fprintf(f, "</svg>\n");
}

static void chain(FILE *f, const struct pp_session *s)
{
	fputs("<pre class=\"chain\">", f);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			pp_report_verdict((struct pp_session *)s, m);
			fclose(m);
			put_escaped(f, buf);
			free(buf);
		}
	}
	fputs("</pre>\n", f);
}

/* Node @i and its parts as nested <details>; a node opens to its comparison's plot. */
static void tree_node(FILE *f, const struct pp_session *s, int i)
{
	const struct pp_node *n = &s->nodes[i];
	char *name = pp_node_name(s, n);
	char a[32], b[32], c[32];
	const char *cls = n->sign > 0 ? "slower" : n->sign < 0 ? "faster" : "same";

	fprintf(f, "<details class=\"node\"%s><summary><span class=\"%s\">%c ",
		n->chain ? " open" : "", cls,
		n->sign > 0   ? '+'
		: n->sign < 0 ? '-'
			      : ' ');
	put_escaped(f, name);
	free(name);
	fprintf(f, "</span> %s%s", n->diff.centre >= 0 ? "+" : "",
		pp_fmt_ns(n->diff.centre, a, 32));
	if (n->kind == PP_NODE_REST)
		fprintf(f, " (point estimate)");
	else
		fprintf(f, " [%s, %s]", pp_fmt_ns(n->diff.low, b, 32),
			pp_fmt_ns(n->diff.high, c, 32));
	if (n->parent >= 0)
		fprintf(f, ", %.1f%% of its parent", 100 * n->share);
	if (n->stop && n->kind != PP_NODE_REST) {
		fputs(" [", f);
		put_escaped(f, n->stop);
		fputs("]", f);
	}
	fputs("</summary>\n", f);
	if (n->detail) {
		fputs("<p>", f);
		put_escaped(f, n->detail);
		fputs("</p>\n", f);
	}
	if (n->q && n->q->decided)
		plot(f, s, n->q);
	for (int k = n->child; k >= 0; k = s->nodes[k].next)
		tree_node(f, s, k);
	fputs("</details>\n", f);
}

static void tree(FILE *f, const struct pp_session *s)
{
	if (!s->nnodes)
		return;
	fputs("<h2>Attribution tree</h2>\n<div class=\"tree\">\n", f);
	tree_node(f, s, 0);
	fputs("</div>\n", f);
}

static void write_html(FILE *f, const void *arg)
{
	const struct pp_session *s = arg;
	char a[32], b[32], c[32];

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>pinpoint: ",
	      f);
	put_escaped(f, s->opt->entry);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;max-width:60em;color:#222}\n"
	      "pre{background:#f4f4f4;padding:1em;white-space:pre-wrap}\n"
	      "h2{font-size:1.1em;margin-top:2em}\n"
	      ".slower{color:#b3261e;font-weight:bold}.same{color:#555}.faster{color:#2e7d32}\n"
	      "table{border-collapse:collapse}td{padding:2px 10px 2px 0}\n"
	      "details.node details.node{margin-left:1.5em}\n"
	      "</style></head><body>\n<h1>pinpoint: ",
	      f);
	put_escaped(f, s->opt->entry);
	fputs("</h1>\n<table>", f);
	fputs("<tr><td>previous</td><td>", f);
	put_escaped(f, s->rev[PP_PREV].dir);
	fputs("</td></tr><tr><td>current</td><td>", f);
	put_escaped(f, s->rev[PP_CUR].dir);
	fprintf(f,
		"</td></tr><tr><td>test</td><td>%s, %.4g%% confidence, threshold %.4g%% of "
		"the entry</td></tr></table>\n",
		s->opt->test == PP_TEST_WELCH ? "Welch (difference of means)"
					      : "Mann-Whitney U (Hodges-Lehmann shift)",
		100 * s->opt->confidence, s->opt->precision);
	chain(f, s);
	tree(f, s);
	for (unsigned order = 1;; order++) {
		const struct pp_quantity *q = NULL;
		char *label;

		for (size_t i = 0; i < s->nq; i++)
			if (s->q[i]->decided && s->q[i]->order == order)
				q = s->q[i];
		if (!q)
			break;
		label = pp_quantity_label(q);
		fprintf(f, "<h2>[%u] ", order);
		put_escaped(f, label);
		free(label);
		fprintf(f, " &mdash; <span class=\"%s\">%s</span></h2>\n",
			pp_verdict_name(q->verdict), pp_verdict_name(q->verdict));
		fprintf(f, "<p>difference %s%s [%s, %s], p = %.3g, %zu and %zu runs</p>\n",
			q->cmp.diff.centre >= 0 ? "+" : "", pp_fmt_ns(q->cmp.diff.centre, a, 32),
			pp_fmt_ns(q->cmp.diff.low, b, 32), pp_fmt_ns(q->cmp.diff.high, c, 32),
			q->cmp.p_value, q->series[PP_PREV].n, q->series[PP_CUR].n);
		plot(f, s, q);
	}
	fputs("</body></html>\n", f);
}

int pp_html_write_session(const struct pp_session *s, const char *path)
{
	return pp_write_atomic(path, write_html, s);
}
