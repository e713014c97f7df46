// SPDX-License-Identifier: MIT
/*
 * plots.c - the per-comparison figure and the trend of the HTML report
 * (plots.h).  Lines and boxes are drawn with crisp edges so that their
 * colours are exactly those of plots.h on the screen.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "pinpoint/report/html.h"
#include "pinpoint/report/plots.h"

/* The figure's coordinates (viewBox); the page scales it to its width. */
#define W 1000
#define ML 78 /* left margin: the axis labels */
#define MR 30
/* The difference panel. */
#define DH 74
#define DT 18 /* its top: the title */
/* The runs panel, below it: run order, then the boxes, then the legend. */
#define RT (DH + 14)
#define RH 230
#define RB 26	 /* bottom margin: the axis title */
#define BOXW 150 /* the two boxes */
#define LEGW 110
#define RUNS_R (W - MR - LEGW - BOXW - 20) /* right end of the run-order plot */

static const char *const colour[2] = {PP_SVG_PREVIOUS, PP_SVG_CURRENT};

size_t pp_nice_ticks(double *lo, double *hi, size_t target, double *ticks, size_t max)
{
	double range = *hi - *lo, raw, mag, step, first;
	size_t n = 0;

	if (!(range > 0) || !isfinite(range)) {
		double pad = fabs(*lo) > 0 ? fabs(*lo) * 0.1 : 1;

		*lo -= pad;
		*hi += pad;
		range = *hi - *lo;
	}
	raw = range / (double)(target ? target : 1);
	mag = pow(10, floor(log10(raw)));
	step = raw / mag <= 1	? mag
	       : raw / mag <= 2 ? 2 * mag
	       : raw / mag <= 5 ? 5 * mag
				: 10 * mag;
	first = floor(*lo / step + 1e-9) * step;
	*lo = first;
	*hi = ceil(*hi / step - 1e-9) * step;
	for (double v = first; v <= *hi + step * 1e-6 && n < max; v = first + step * (double)n) {
		ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

/* A linear map of [lo, hi] onto [a, b]. */
struct axis {
	double lo, hi, a, b;
};

static double map(const struct axis *x, double v)
{
	return x->a + (x->b - x->a) * (v - x->lo) / (x->hi - x->lo);
}

/* Horizontal grid lines at @ticks from the left margin to @x1, labelled on the left. */
static void y_grid(FILE *f, const struct axis *y, const double *ticks, size_t nt, int x1)
{
	char a[32];

	for (size_t i = 0; i < nt; i++) {
		double ty = map(y, ticks[i]);

		fprintf(
		    f,
		    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
		    "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
		    ML, x1, ty, ty, ML - 6, ty + 4, pp_fmt_ns(ticks[i], a, sizeof(a)));
	}
}

/* The interval of the difference, then 0 and +- the threshold over it, then its centre. */
static void diff_panel(FILE *f, const struct pp_outcome_cmp *q)
{
	double thr = q->threshold_ns > 0 ? q->threshold_ns : 0;
	double lo = fmin(fmin(q->cmp.diff.low, -thr), 0), hi = fmax(fmax(q->cmp.diff.high, thr), 0);
	double ticks[16], pad = (hi - lo) * 0.05;
	struct axis x = {0, 0, ML, W - MR};
	size_t nt;
	char a[32];
	double y0 = DT, y1 = DH - 16, ym = (y0 + y1) / 2;

	lo -= pad;
	hi += pad;
	nt = pp_nice_ticks(&lo, &hi, 8, ticks, 16);
	x.lo = lo;
	x.hi = hi;
	fprintf(f,
		"<g class=\"diff\">\n<text x=\"%d\" y=\"12\" font-size=\"12\">difference current "
		"&#8722; previous, per execution of the entry</text>\n",
		ML);
	fprintf(f,
		"<rect x=\"%d\" y=\"%g\" width=\"%d\" height=\"%g\" fill=\"#fafafa\" "
		"stroke=\"#ccc\"/>\n",
		ML, y0, W - MR - ML, y1 - y0);
	for (size_t i = 0; i < nt; i++) {
		double tx = map(&x, ticks[i]);

		fprintf(
		    f,
		    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%g\" y2=\"%g\" stroke=\"#e4e4e4\"/>"
		    "<text x=\"%.1f\" y=\"%g\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
		    tx, tx, y0, y1, tx, y1 + 13, pp_fmt_ns(ticks[i], a, sizeof(a)));
	}
	fprintf(f,
		"<rect class=\"diff-interval\" x=\"%.1f\" y=\"%g\" width=\"%.1f\" height=\"12\" "
		"fill=\"%s\" shape-rendering=\"crispEdges\"><title>%s",
		map(&x, q->cmp.diff.low), ym - 6,
		fmax(map(&x, q->cmp.diff.high) - map(&x, q->cmp.diff.low), 2), PP_SVG_DIFF,
		pp_fmt_ns(q->cmp.diff.low, a, sizeof(a)));
	fprintf(f, " .. %s</title></rect>\n", pp_fmt_ns(q->cmp.diff.high, a, sizeof(a)));
	if (thr > 0)
		for (int sgn = -1; sgn <= 1; sgn += 2) {
			double tx = map(&x, sgn * thr);

			fprintf(
			    f,
			    "<line class=\"threshold\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%g\" y2=\"%g\" "
			    "stroke=\"%s\" stroke-width=\"3\" stroke-dasharray=\"6,3\" "
			    "shape-rendering=\"crispEdges\"/>\n",
			    tx, tx, y0, y1, PP_SVG_THRESHOLD);
		}
	fprintf(f,
		"<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%g\" y2=\"%g\" stroke=\"%s\" "
		"stroke-width=\"2\" shape-rendering=\"crispEdges\"/>\n",
		map(&x, 0), map(&x, 0), y0, y1, PP_SVG_ZERO);
	fprintf(f,
		"<circle class=\"diff-centre\" cx=\"%.1f\" cy=\"%g\" r=\"7\" fill=\"white\" "
		"stroke=\"%s\" stroke-width=\"3\"/>\n</g>\n",
		map(&x, q->cmp.diff.centre), ym, PP_SVG_DIFF);
}

/* One revision's runs as a box plot (outcome.h): quartiles, median, whiskers, the values beyond. */
static void box(FILE *f, const struct pp_outcome_box *b, int r, const struct axis *y, double cx)
{
	double q1 = b->q1, q2 = b->median, q3 = b->q3, wlo = b->low, whi = b->high;
	const double *v = b->sorted;
	size_t n = b->n;

	if (!n)
		return;
	fprintf(f, "<g class=\"box\" data-rev=\"%s\">", r ? "current" : "previous");
	fprintf(f,
		"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"2\"/>",
		cx, cx, map(y, whi), map(y, q3), colour[r]);
	fprintf(f,
		"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"2\"/>",
		cx, cx, map(y, q1), map(y, wlo), colour[r]);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"44\" height=\"%.1f\" fill=\"%s\" "
		"fill-opacity=\"0.35\" stroke=\"%s\" stroke-width=\"2\" "
		"shape-rendering=\"crispEdges\"/>",
		cx - 22, map(y, q3), fmax(map(y, q1) - map(y, q3), 1), colour[r], colour[r]);
	fprintf(f,
		"<line class=\"median\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"3\" shape-rendering=\"crispEdges\"/>",
		cx - 22, cx + 22, map(y, q2), map(y, q2), colour[r]);
	for (size_t i = 0; i < n; i++)
		if (v[i] < wlo || v[i] > whi)
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"none\" "
				"stroke=\"%s\"/>",
				cx, map(y, v[i]), colour[r]);
	fputs("</g>\n", f);
}

static void runs_panel(FILE *f, const struct pp_outcome_cmp *q)
{
	double lo = INFINITY, hi = -INFINITY, ticks[16];
	size_t n = q->series[0].n > q->series[1].n ? q->series[0].n : q->series[1].n, nt;
	double xstep = n > 1 ? (double)(RUNS_R - ML - 12) / (double)(n - 1) : 0;
	struct axis y = {0, 0, RT + RH, RT};

	for (int r = 0; r < 2; r++)
		for (size_t i = 0; i < q->series[r].n; i++) {
			lo = fmin(lo, q->series[r].v[i]);
			hi = fmax(hi, q->series[r].v[i]);
		}
	if (!isfinite(lo))
		return;
	nt = pp_nice_ticks(&lo, &hi, 6, ticks, 16);
	y.lo = lo;
	y.hi = hi;
	fprintf(f,
		"<g class=\"runs\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"#fafafa\" stroke=\"#ccc\"/>\n",
		ML, RT, W - MR - LEGW - ML, RH);
	y_grid(f, &y, ticks, nt, W - MR - LEGW);
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">run, in "
		"order</text><text x=\"%d\" y=\"%d\" font-size=\"11\" "
		"text-anchor=\"middle\">distribution</text>\n",
		(ML + RUNS_R) / 2, RT + RH + 18, RUNS_R + 10 + BOXW / 2, RT + RH + 18);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>\n", RUNS_R + 10,
		RUNS_R + 10, RT, RT + RH);
	for (int r = 0; r < 2; r++) {
		struct pp_interval iv = q->ci[r];
		double y1 = map(&y, iv.high), y2 = map(&y, iv.low), yc = map(&y, iv.centre);

		/* The interval as a band, the centre as a line, then every run as a dot. */
		fprintf(f,
			"<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\" "
			"fill-opacity=\"0.15\"/>\n",
			ML, y1, RUNS_R - ML, fmax(y2 - y1, 1.0), colour[r]);
		fprintf(f,
			"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-dasharray=\"5,3\"/>\n",
			ML, RUNS_R, yc, yc, colour[r]);
		for (size_t i = 0; i < q->series[r].n; i++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\"/>",
				ML + 6 + xstep * (double)i, map(&y, q->series[r].v[i]), colour[r]);
		fputc('\n', f);
		box(f, &q->box[r], r, &y, RUNS_R + 10 + BOXW * (r ? 0.72 : 0.28));
		fprintf(f,
			"<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n",
			W - MR - LEGW + 16, RT + 16 + 20 * r, colour[r], W - MR - LEGW + 26,
			RT + 20 + 20 * r, r ? "current" : "previous");
	}
	fputs("</g>\n", f);
}

void pp_svg_comparison(FILE *f, const struct pp_outcome_cmp *q)
{
	fprintf(f,
		"<svg class=\"plot\" viewBox=\"0 0 %d %d\" width=\"100%%\" "
		"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n",
		W, RT + RH + RB);
	diff_panel(f, q);
	runs_panel(f, q);
	fputs("</svg>\n", f);
}

/* The change points: a dashed line between the nights either side, its size above. */
static void trend_marks(FILE *f, const struct pp_trend_mark *m, size_t nm, double x0, double xstep,
			int top, int bottom)
{
	for (size_t i = 0; i < nm; i++) {
		double x = x0 + xstep * ((double)m[i].at - 0.5);
		const char *c = m[i].pct > 0 ? "#b3261e" : "#2e7d32";

		fprintf(f,
			"<g class=\"change\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
			"stroke=\"%s\" stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" "
			"font-size=\"10\" fill=\"%s\">%+.1f%%</text>"
			"<title>change point: %+.2f%% [%+.2f%%, %+.2f%%], p %.2g</title></g>\n",
			x, x, top, bottom, c, x + 3, top + 10, c, m[i].pct, m[i].pct, m[i].low,
			m[i].high, m[i].p);
	}
}

void pp_svg_trend(FILE *f, const struct pp_history_entry *h, size_t n,
		  const struct pp_trend_mark *marks, size_t nmarks)
{
	const int th = 240, top = 12, bottom = 40;
	double lo = INFINITY, hi = -INFINITY, ticks[16];
	struct axis y = {0, 0, th - bottom, top};
	double xstep = n > 1 ? (double)(W - MR - ML - 40) / (double)(n - 1) : 0;
	size_t nt;
	char a[32];

	for (size_t i = 0; i < n; i++) {
		if (isfinite(h[i].cur_low) && isfinite(h[i].cur_high)) {
			lo = fmin(lo, h[i].cur_low);
			hi = fmax(hi, h[i].cur_high);
		}
		if (isfinite(h[i].prev_ns)) {
			lo = fmin(lo, h[i].prev_ns);
			hi = fmax(hi, h[i].prev_ns);
		}
	}
	if (!isfinite(lo))
		return;
	nt = pp_nice_ticks(&lo, &hi, 6, ticks, 16);
	y.lo = lo;
	y.hi = hi;
	fprintf(f,
		"<svg class=\"trend\" viewBox=\"0 0 %d %d\" width=\"100%%\" "
		"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n",
		W, th);
	fprintf(f,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
		"stroke=\"#ccc\"/>\n",
		ML, top, W - MR - ML, th - top - bottom);
	y_grid(f, &y, ticks, nt, W - MR);
	trend_marks(f, marks, n > 1 ? nmarks : 0, ML + 20, xstep, top, th - bottom);
	for (size_t i = 0; i < n; i++) {
		double x = ML + 20 + xstep * (double)i;
		bool slower = !strcmp(h[i].verdict, "slower");
		const char *c = slower				  ? "#b3261e"
				: !strcmp(h[i].verdict, "faster") ? "#2e7d32"
								  : PP_SVG_CURRENT;
		char date[32] = "";
		/* a time read back from the history: no date where no time_t holds it */
		bool dated = fabs(h[i].time) < 1e15;
		time_t t = dated ? (time_t)h[i].time : 0;
		struct tm tm;

		if (dated && gmtime_r(&t, &tm))
			strftime(date, sizeof(date), "%m-%d %H:%M", &tm);
		if (isfinite(h[i].prev_ns))
			fprintf(
			    f,
			    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"2\"/>",
			    x - 8, x + 8, map(&y, h[i].prev_ns), map(&y, h[i].prev_ns),
			    PP_SVG_PREVIOUS);
		if (isfinite(h[i].cur_ns)) {
			fprintf(
			    f,
			    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"2\"/>",
			    x, x, map(&y, h[i].cur_high), map(&y, h[i].cur_low), c);
			/* the verdict is the history file's: escaped in both places */
			fputs("<circle class=\"night ", f);
			pp_html_escape(f, h[i].verdict);
			fprintf(f, "\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>%s: %s, ",
				x, map(&y, h[i].cur_ns), c, date,
				pp_fmt_ns(h[i].cur_ns, a, sizeof(a)));
			pp_html_escape(f, h[i].verdict);
			fputs("</title></circle>", f);
		}
		if (n <= 12 || i % ((n + 11) / 12) == 0)
			fprintf(f,
				"<text x=\"%.1f\" y=\"%d\" font-size=\"10\" "
				"text-anchor=\"middle\">%s</text>",
				x, th - bottom + 14, date);
		fputc('\n', f);
	}
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">session "
		"(UTC); the entry in the current revision with its interval, the previous as a "
		"blue tick; red when slower; dashed: a change point (--changes)</text>\n</svg>\n",
		(ML + W - MR) / 2, th - 8);
}
