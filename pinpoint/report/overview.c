// SPDX-License-Identifier: MIT
/*
 * overview.c - the search at a glance (overview.h).  Each node of the
 * attribution tree is a row (depth first), drawn under its parent and beside
 * its siblings, as wide as its share of the parent's difference (so widths
 * are shares of the entry's), red for slower and green for faster, the deeper the colour the larger
 * its share of the entry, grey when not significantly different.  Shares
 * need not add up to 1 (a part slower by more than its function, beside a
 * faster one): the parts of a node are scaled together to fit under it, so
 * that no bar leaves the picture.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/report/html.h"
#include "pinpoint/report/overview.h"
#include "pinpoint/report/plots.h"
#include "pinpoint/report/report.h"

#define W 1000
#define ROW 30
#define ML 8
#define MIN_W 4 /* the narrowest bar */
/*
 * Labels are 12 px monospace, 0.6 em a character, and each is given the
 * length it is estimated at (textLength): its place in the picture is then
 * the one computed here, whatever font the browser picks.
 */
#define FONT 12
#define CHAR_W 7.2
#define PAD 6 /* between a label and the edge of its bar */
#define MAX_CHARS ((int)((W - 2 * ML) / CHAR_W))

void pp_overview_free(struct pp_overview_node *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].label);
	free(v);
}

/* A value that prints as 0 (pp_fmt_ns). */
static bool zero_ns(double ns)
{
	return fabs(ns) < 1e-3;
}

static long walk(const struct pp_outcome *oc, int i, int parent, unsigned depth,
		 struct pp_overview_node *v, long n)
{
	const struct pp_outcome_node *nd = &oc->nodes[i];
	struct pp_overview_node *o = &v[n];
	long at = n;

	o->parent = parent;
	o->depth = depth;
	o->label = strdup(nd->name);
	if (!o->label)
		return -ENOMEM;
	o->diff = nd->diff;
	o->share = parent < 0 ? 1 : nd->share;
	o->verdict = nd->sign > 0 ? PP_V_SLOWER : nd->sign < 0 ? PP_V_FASTER : PP_V_SAME;
	o->order = nd->cmp ? nd->cmp->order : 0;
	o->rest = nd->kind == PP_NODE_REST;
	n++;
	for (int k = nd->child; k >= 0 && n >= 0; k = oc->nodes[k].next)
		n = walk(oc, k, (int)at, depth + 1, v, n);
	return n;
}

long pp_overview_nodes(const struct pp_outcome *o, struct pp_overview_node **out)
{
	struct pp_overview_node *v;
	long n;

	*out = NULL;
	if (!o->nnodes)
		return 0;
	v = calloc(o->nnodes, sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* The attribution tree, depth first from the entry's node: parents first. */
	n = walk(o, 0, -1, 0, v, 0);
	if (n < 0) {
		pp_overview_free(v, o->nnodes);
		return n;
	}
	*out = v;
	return n;
}

/* Red (slower) or green (faster), deeper for a larger share @f (0..1) of the entry. */
static void fill_of(enum pp_verdict v, double f, char *buf, size_t len)
{
	double k = 0.25 + 0.75 * fmin(fmax(f, 0), 1);

	if (v == PP_V_SLOWER)
		snprintf(buf, len, "rgb(%d,%d,%d)", (int)(250 - 70 * k), (int)(225 - 185 * k),
			 (int)(220 - 185 * k));
	else if (v == PP_V_FASTER)
		snprintf(buf, len, "rgb(%d,%d,%d)", (int)(215 - 180 * k), (int)(240 - 115 * k),
			 (int)(215 - 165 * k));
	else
		snprintf(buf, len, "#d6d6d6");
}

/* A bar's width before its siblings are scaled to fit: its share of its parent's. */
static double raw_width(const struct pp_overview_node *nd, double parent_w)
{
	double share = isfinite(nd->share) ? fabs(nd->share) : 0;

	return fmax(parent_w * share, MIN_W);
}

/* Coordinates in hundredths, so that a bar's printed edges are the ones computed. */
static double hundredths(double x)
{
	return round(x * 100) / 100;
}

/*
 * The left edges @x0 and widths @wd of the children of node @p, side by side
 * under it in their order, scaled together when they would be wider than it.
 */
static void lay_out(const struct pp_overview_node *v, long n, long p, double *x0, double *wd)
{
	double total = 0, scale, at = 0;

	for (long c = p + 1; c < n && v[c].depth > v[p].depth; c++)
		if (v[c].parent == p)
			total += raw_width(&v[c], wd[p]);
	scale = total > wd[p] ? wd[p] / total : 1;
	for (long c = p + 1; c < n && v[c].depth > v[p].depth; c++) {
		double left, right;

		if (v[c].parent != p)
			continue;
		left = hundredths(x0[p] + at);
		at += raw_width(&v[c], wd[p]) * scale;
		right = hundredths(fmin(x0[p] + at, x0[p] + wd[p]));
		x0[c] = left;
		wd[c] = right - left;
	}
}

/* Code points of UTF-8 @s: what a monospace font gives a cell each. */
static size_t chars_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The byte length of the first @k code points of @s. */
static size_t bytes_of(const char *s, size_t k)
{
	size_t i = 0;

	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && k-- == 0)
			break;
	return i;
}

/*
 * A node's label: "[order] name  +diff (share of its parent)", its name cut
 * short with an ellipsis when the whole would be wider than the picture (the
 * <title> keeps the full name).  Placed inside its bar when it fits there,
 * else right of the bar, else left of it, else over the row from the bar's
 * left edge (dark, with a white outline), never past the picture's margins.
 */
static void label(FILE *f, const struct pp_overview_node *nd, double x, double w, long y,
		  bool dark_box)
{
	char pre[24] = "", suf[96], a[32];
	size_t name = chars_of(nd->label), fixed, keep;
	double px, tx;
	const char *anchor = "start", *fill = "#111";
	bool outline = false, cut;

	if (nd->order)
		snprintf(pre, sizeof(pre), "[%u] ", nd->order);
	pp_fmt_ns(nd->diff.centre, a, sizeof(a));
	snprintf(suf, sizeof(suf), "  %s%s (%.0f%% of %s)", nd->diff.centre >= 0 ? "+" : "", a,
		 100 * nd->share, nd->parent < 0 ? "itself" : "its parent");
	fixed = chars_of(pre) + chars_of(suf);
	cut = fixed + name > (size_t)MAX_CHARS;
	keep = cut ? (fixed + 1 < (size_t)MAX_CHARS ? MAX_CHARS - fixed - 1 : 0) : name;
	px = CHAR_W * (double)(fixed + keep + cut);

	if (px + 2 * PAD <= w) {
		tx = x + PAD;
		fill = dark_box ? "white" : "#111";
	} else if (x + w + PAD + px <= W - ML) {
		tx = x + w + PAD;
	} else if (x - PAD - px >= ML) {
		tx = x - PAD;
		anchor = "end";
	} else {
		tx = fmin(x + PAD, W - ML - px);
		outline = true;
	}
	fprintf(f,
		"<text x=\"%.2f\" y=\"%ld\" font-size=\"%d\" font-family=\"monospace\" "
		"textLength=\"%.1f\" lengthAdjust=\"spacingAndGlyphs\" fill=\"%s\" "
		"text-anchor=\"%s\"%s>",
		tx, y, FONT, px, fill, anchor,
		outline ? " stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\"" : "");
	pp_html_escape(f, pre);
	if (cut) {
		char *part = strndup(nd->label, bytes_of(nd->label, keep));

		if (part)
			pp_html_escape(f, part);
		free(part);
		fputs("\xe2\x80\xa6", f); /* U+2026, the ellipsis */
	} else {
		pp_html_escape(f, nd->label);
	}
	pp_html_escape(f, suf);
	fputs("</text>", f);
}

/* A remainder that is zero, interval and all, says nothing: it is left out. */
static bool shown(const struct pp_overview_node *v, long n, long i)
{
	const struct pp_overview_node *nd = &v[i];
	bool leaf = i + 1 == n || v[i + 1].depth <= nd->depth;

	return !nd->rest || !leaf || !zero_ns(nd->diff.centre) || !zero_ns(nd->diff.low) ||
	       !zero_ns(nd->diff.high);
}

/*
 * The nodes of @in[0..@n) that are shown, copied to @v (their labels
 * shared) with their parents' indices among them.  Returns their number.
 */
static long prune(const struct pp_overview_node *in, long n, struct pp_overview_node *v, long *at)
{
	long m = 0;

	for (long i = 0; i < n; i++) {
		if (!shown(in, n, i)) {
			at[i] = -1;
			continue;
		}
		v[m] = in[i];
		v[m].parent = in[i].parent < 0 ? -1 : (int)at[in[i].parent];
		at[i] = m++;
	}
	return m;
}

void pp_svg_overview_draw(FILE *f, const struct pp_overview_node *all, long count)
{
	struct pp_overview_node *v = NULL;
	double *x0 = NULL, *wd = NULL;
	long *at = NULL, n;
	char fill[32];

	if (count <= 0)
		return;
	v = calloc((size_t)count, sizeof(*v));
	at = calloc((size_t)count, sizeof(*at));
	x0 = calloc((size_t)count, sizeof(*x0));
	wd = calloc((size_t)count, sizeof(*wd));
	if (!v || !at || !x0 || !wd)
		goto out;
	n = prune(all, count, v, at);
	fprintf(f,
		"<svg class=\"overview\" viewBox=\"0 0 %d %ld\" width=\"100%%\" "
		"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n",
		W, n * ROW + 4);
	for (long i = 0; i < n; i++) {
		const struct pp_overview_node *nd = &v[i];
		double entry_share;

		if (nd->parent < 0) {
			x0[i] = ML;
			wd[i] = W - 2 * ML;
		}
		/* Its parts, each on a row of its own below it (parents come first). */
		lay_out(v, n, i, x0, wd);
		entry_share = wd[i] / (W - 2 * ML);
		fill_of(nd->verdict, entry_share, fill, sizeof(fill));
		fprintf(f,
			"<g class=\"node %s\" data-depth=\"%u\" data-share=\"%.4f\">"
			"<rect x=\"%.2f\" y=\"%ld\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
			"stroke=\"white\"/>",
			pp_verdict_name(nd->verdict), nd->depth, nd->share, x0[i], i * ROW + 2,
			wd[i], ROW - 3, fill);
		label(f, nd, x0[i], wd[i], i * ROW + ROW / 2 + 6,
		      nd->verdict != PP_V_SAME && entry_share > 0.5);
		fputs("<title>", f);
		pp_html_escape(f, nd->label);
		fputs("</title></g>\n", f);
	}
	fputs("</svg>\n", f);
out:
	free(v);
	free(at);
	free(x0);
	free(wd);
}

void pp_svg_overview(FILE *f, const struct pp_outcome *o)
{
	struct pp_overview_node *v;
	long n = pp_overview_nodes(o, &v);

	if (n <= 0)
		return;
	pp_svg_overview_draw(f, v, n);
	pp_overview_free(v, (size_t)n);
}
