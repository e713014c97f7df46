// SPDX-License-Identifier: MIT
/*
 * overview.c - the search at a glance (overview.h).  Each node of the
 * attribution tree is a row (depth first), drawn under its parent and beside
 * its siblings, as wide as its share of the parent's difference (so widths
 * are shares of the entry's), red for slower and green for faster, the deeper the colour the larger
 * its share of the entry, grey when not significantly different.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/report/overview.h"
#include "pinpoint/report/plots.h"
#include "pinpoint/report/report.h"

#define W 1000
#define ROW 30
#define ML 8

void pp_overview_free(struct pp_overview_node *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].label);
	free(v);
}

static long walk(const struct pp_outcome *oc, int i, int parent, unsigned depth,
		 struct pp_overview_node *v, long n)
{
	const struct pp_outcome_node *nd = &oc->nodes[i];
	struct pp_overview_node *o = &v[n];
	long at = n;

	if (nd->zero) /* a remainder that is zero by construction */
		return n;
	o->parent = parent;
	o->depth = depth;
	o->label = strdup(nd->name);
	if (!o->label)
		return -ENOMEM;
	o->diff = nd->diff;
	o->share = parent < 0 ? 1 : nd->share;
	o->verdict = nd->sign > 0 ? PP_V_SLOWER : nd->sign < 0 ? PP_V_FASTER : PP_V_SAME;
	o->order = nd->cmp ? nd->cmp->order : 0;
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

/*
 * Opens a node's label.  A label wider than its box (at about 6.6 px per
 * character of the 12 px font) is drawn in dark text over the empty rest of
 * its row: from the box's left edge when it fits before the right edge of
 * the picture, else ending just left of the box.
 */
static void label_at(FILE *f, double x, double w, long y, bool dark_box, size_t chars)
{
	double px = 6.6 * (double)chars;

	if (px + 12 <= w) {
		fprintf(f, "<text x=\"%.1f\" y=\"%ld\" font-size=\"12\" fill=\"%s\">", x + 6, y,
			dark_box ? "white" : "#111");
	} else if (x + 6 + px <= W) {
		fprintf(f, "<text x=\"%.1f\" y=\"%ld\" font-size=\"12\" fill=\"#111\">", x + 6, y);
	} else {
		fprintf(f,
			"<text x=\"%.1f\" y=\"%ld\" font-size=\"12\" fill=\"#111\" "
			"text-anchor=\"end\">",
			fmax(x - 4, fmin(px, W - ML)), y);
	}
}

void pp_svg_overview(FILE *f, const struct pp_outcome *o)
{
	struct pp_overview_node *v;
	long n = pp_overview_nodes(o, &v);
	double *x0, *wd, *next_x;
	char a[32], fill[32];

	if (n <= 0)
		return;
	x0 = calloc((size_t)n, sizeof(*x0));
	wd = calloc((size_t)n, sizeof(*wd));
	next_x = calloc((size_t)n, sizeof(*next_x));
	if (!x0 || !wd || !next_x)
		goto out;
	fprintf(f,
		"<svg class=\"overview\" viewBox=\"0 0 %d %ld\" width=\"100%%\" "
		"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n",
		W, n * ROW + 4);
	for (long i = 0; i < n; i++) {
		const struct pp_overview_node *nd = &v[i];
		double share = fmin(fmax(nd->share, 0), 1), entry_share;

		if (nd->parent < 0) {
			x0[i] = ML;
			wd[i] = W - 2 * ML;
		} else {
			/* Side by side under the parent, each part on a row of its own. */
			x0[i] = x0[nd->parent] + next_x[nd->parent];
			wd[i] = fmax(wd[nd->parent] * share, 4);
			next_x[nd->parent] += wd[i];
		}
		entry_share = wd[i] / (W - 2 * ML);
		fill_of(nd->verdict, entry_share, fill, sizeof(fill));
		fprintf(f,
			"<g class=\"node %s\" data-depth=\"%u\" data-share=\"%.4f\">"
			"<rect x=\"%.1f\" y=\"%ld\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
			"stroke=\"white\"/>",
			pp_verdict_name(nd->verdict), nd->depth, nd->share, x0[i], i * ROW + 2,
			wd[i], ROW - 3, fill);
		pp_fmt_ns(nd->diff.centre, a, sizeof(a));
		label_at(f, x0[i], wd[i], i * ROW + ROW / 2 + 6,
			 nd->verdict != PP_V_SAME && entry_share > 0.5,
			 strlen(nd->label) + strlen(a) + 32);
		if (nd->order)
			fprintf(f, "[%u] ", nd->order);
		pp_svg_escape(f, nd->label);
		fprintf(f, "  %s%s (%.0f%% of %s)</text><title>", nd->diff.centre >= 0 ? "+" : "",
			a, 100 * nd->share, nd->parent < 0 ? "itself" : "its parent");
		pp_svg_escape(f, nd->label);
		fputs("</title></g>\n", f);
	}
	fputs("</svg>\n", f);
out:
	free(x0);
	free(wd);
	free(next_x);
	pp_overview_free(v, (size_t)n);
}
