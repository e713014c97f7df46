// SPDX-License-Identifier: MIT
/*
 * html.c - the session as one self-contained HTML page: the overview of the
 * search (overview.c), the trend of the entry over a --history, the verdict
 * and the bottleneck chain, then, for every comparison, the interval of the
 * difference against 0 and the threshold, the runs of both revisions in run
 * order and their boxes (plots.c; inline SVG, no script, nothing fetched
 * over the network).  Made from the same outcome as the JSON report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "pinpoint/changes/edivisive.h"
#include "pinpoint/changes/nights.h"
#include "pinpoint/report/history.h"
#include "pinpoint/report/html.h"
#include "pinpoint/report/overview.h"
#include "pinpoint/report/plots.h"
#include "pinpoint/report/report.h"

void pp_html_escape(FILE *f, const char *s)
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
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static void chain(FILE *f, const struct pp_outcome *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	fputs("<pre class=\"chain\">", f);
	if (m) {
		pp_report_verdict(o, m);
		fclose(m);
		pp_html_escape(f, buf);
		free(buf);
	}
	fputs("</pre>\n", f);
}

/* Node @i and its parts as nested <details>; a node opens to its comparison's plot. */
static void tree_node(FILE *f, const struct pp_outcome *o, int i)
{
	const struct pp_outcome_node *n = &o->nodes[i];
	const char *cls = n->sign > 0 ? "slower" : n->sign < 0 ? "faster" : "same";
	char a[32], b[32], c[32], d[32], line[128];

	if (n->zero)
		return;
	fprintf(f, "<details class=\"node\"%s><summary><span class=\"%s\">%c ",
		n->chain ? " open" : "", cls,
		n->sign > 0   ? '+'
		: n->sign < 0 ? '-'
			      : ' ');
	pp_html_escape(f, n->name);
	fprintf(f, "</span> %s%s", n->diff.centre >= 0 ? "+" : "",
		pp_fmt_ns(n->diff.centre, a, 32));
	if (n->point)
		fprintf(f, " (point estimate)");
	else
		fprintf(f, " [%s, %s]", pp_fmt_ns(n->diff.low, b, 32),
			pp_fmt_ns(n->diff.high, c, 32));
	if (n->parent >= 0 && isfinite(n->entry_share) && isfinite(n->entry_share_ci.low))
		fprintf(f, ", %s of its parent (%s [%s, %s] of the entry)",
			pp_fmt_pct(n->share, a, 32), pp_fmt_pct(n->entry_share, b, 32),
			pp_fmt_pct(n->entry_share_ci.low, c, 32),
			pp_fmt_pct(n->entry_share_ci.high, d, 32));
	else if (n->parent >= 0 && isfinite(n->entry_share))
		fprintf(f, ", %s of its parent (%s of the entry)", pp_fmt_pct(n->share, a, 32),
			pp_fmt_pct(n->entry_share, b, 32));
	else if (n->parent >= 0)
		fprintf(f, ", %s of its parent", pp_fmt_pct(n->share, a, 32));
	if (n->inflated) {
		fputs(" [", f);
		pp_html_escape(f, n->inflated);
		fputs("]", f);
	}
	if (n->cmp && n->cmp->counts_said && n->kind != PP_NODE_STRUCTURAL) {
		fputs(" [", f);
		pp_html_escape(f, n->cmp->counts_said);
		fputs("]", f);
	}
	if (isfinite(n->others.centre))
		fprintf(f, " [above 100 %%: the rest of its parent %s%s [%s, %s]]",
			n->others.centre >= 0 ? "+" : "", pp_fmt_ns(n->others.centre, a, 32),
			pp_fmt_ns(n->others.low, b, 32), pp_fmt_ns(n->others.high, c, 32));
	if (n->probe_uncertain)
		fprintf(f, " [probe cost uncertain: up to %s of it]",
			pp_fmt_ns(n->probe_unc, a, 32));
	if (n->stop && n->kind != PP_NODE_REST) {
		fputs(" [", f);
		pp_html_escape(f, n->stop);
		fputs("]", f);
	}
	fputs("</summary>\n", f);
	if (n->detail) {
		fputs("<p>", f);
		pp_html_escape(f, n->detail);
		fputs("</p>\n", f);
	}
	if (pp_fmt_armed(n, line, sizeof(line)))
		fprintf(f, "<p class=\"armed\">%s</p>\n", line);
	if (pp_fmt_counted(n, line, sizeof(line)))
		fprintf(f, "<p class=\"counted\">%s</p>\n", line);
	if (n->ntargets) { /* an indirect call: where its time went */
		fputs("<p class=\"targets\">targets:", f);
		for (size_t k = 0; k < n->ntargets; k++) {
			fputs(k ? ", " : " ", f);
			pp_html_escape(f, n->targets[k].shown);
			fprintf(f, " %.0f %%", 100 * n->targets[k].share);
			if (n->targets[k].compared)
				fprintf(f, " (%s%s [%s, %s] %s)",
					n->targets[k].diff.centre >= 0 ? "+" : "",
					pp_fmt_ns(n->targets[k].diff.centre, a, 32),
					pp_fmt_ns(n->targets[k].diff.low, b, 32),
					pp_fmt_ns(n->targets[k].diff.high, c, 32),
					n->targets[k].verdict_name);
		}
		fputs("</p>\n", f);
	}
	if (n->nsites) { /* a callee group: each of its calls */
		fputs("<ul class=\"sites\">\n", f);
		for (size_t k = 0; k < n->nsites; k++) {
			const struct pp_outcome_site *x = &n->sites[k];

			fprintf(f, "<li>call %u at ", x->call);
			pp_html_escape(f, x->file);
			fprintf(f, ":%u:%u", x->line, x->col);
			if (isfinite(x->diff.centre))
				fprintf(
				    f, " %s%s [%s, %s], %s of the group",
				    x->diff.centre >= 0 ? "+" : "",
				    pp_fmt_ns(x->diff.centre, a, 32), pp_fmt_ns(x->diff.low, b, 32),
				    pp_fmt_ns(x->diff.high, c, 32), pp_fmt_pct(x->share, d, 32));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (n->cmp && n->cmp->decided)
		pp_svg_comparison(f, n->cmp);
	for (int k = n->child; k >= 0; k = o->nodes[k].next)
		tree_node(f, o, k);
	fputs("</details>\n", f);
}

static void tree(FILE *f, const struct pp_outcome *o)
{
	if (!o->nnodes)
		return;
	fputs("<h2>Attribution tree</h2>\n<div class=\"tree\">\n", f);
	tree_node(f, o, 0);
	fputs("</div>\n", f);
}

/*
 * The change points of @h[0..n-1], the sessions of @entry, into *@out
 * (malloc'ed): each machine's and baseline's series as --changes makes
 * them (nights.c, edivisive.c), each point at its first night after.
 * Returns how many; none when out of memory.
 */
static size_t trend_changes(struct pp_history_entry *h, size_t n, const char *entry,
			    struct pp_trend_mark **out)
{
	struct pp_cpd_params par = PP_CPD_DEFAULTS;
	char *names[] = {(char *)entry};
	struct pp_history hist = {.e = h, .n = n, .entry = names, .nentry = 1};
	struct pp_trend_mark *m = NULL;
	struct pp_nights *s = NULL;
	size_t ns = 0, nm = 0;

	*out = NULL;
	for (size_t i = 0; i < n; i++)
		h[i].entry_no = 0;
	if (pp_nights_make(&hist, NULL, &s, &ns))
		goto out;
	for (size_t i = 0; i < ns; i++) {
		struct pp_cp *cp = NULL;
		long k = pp_edivisive(s[i].x, s[i].n, &par, &cp);
		struct pp_trend_mark *nv = k > 0 ? realloc(m, (nm + (size_t)k) * sizeof(*m)) : m;

		if (!nv) {
			free(cp);
			goto out;
		}
		m = nv;
		for (long j = 0; j < k; j++) {
			double base = cp[j].mean[0];

			m[nm++] = (struct pp_trend_mark){
			    .at = (size_t)(s[i].night[cp[j].index] - h),
			    .pct = 100 * cp[j].diff / base,
			    .low = 100 * cp[j].low / base,
			    .high = 100 * cp[j].high / base,
			    .p = cp[j].p,
			};
		}
		free(cp);
	}
	*out = m;
	m = NULL;
out:
	free(m);
	pp_nights_free(s, ns);
	return *out ? nm : 0;
}

/*
 * The entry over the sessions of --history, this one included (it is
 * appended once the reports are written, with their exit status).
 */
static void trend(FILE *f, const struct pp_outcome *o)
{
	struct pp_history_entry *h = NULL, *more;
	struct pp_trend_mark *marks = NULL;
	size_t bad, nm;
	long n;

	if (!o->opt.history)
		return;
	n = pp_history_load(o->opt.history, o->opt.entry, &h, &bad);
	if (n < 0)
		n = 0; /* none yet: this session is the first */
	more = realloc(h, ((size_t)n + 1) * sizeof(*h));
	if (!more) {
		free(h);
		return;
	}
	h = more;
	pp_history_entry_of(o, &h[n++]);
	nm = trend_changes(h, (size_t)n, o->opt.entry, &marks);
	fprintf(f, "<h2>The entry over %ld session%s</h2>\n", n, n == 1 ? "" : "s");
	if (nm)
		fprintf(f,
			"<p>%zu change point%s over the nights (as <code>pinpoint --changes</code> "
			"finds them, per machine).</p>\n",
			nm, nm == 1 ? "" : "s");
	pp_svg_trend(f, h, (size_t)n, marks, nm);
	free(marks);
	free(h);
}

/* The code layouts, in one line; a warning when they were not varied. */
static void layouts(FILE *f, const struct pp_outcome *o)
{
	fprintf(f,
		"<p class=\"%s\">Layouts: ", o->layouts_varied ? "layouts" : "layouts not-varied");
	pp_html_escape(f, o->layouts_sentence);
	if (o->has_spread) {
		fputs(" Layout spread: ", f);
		pp_html_escape(f, o->spread_sentence);
	}
	fputs("</p>\n", f);
}

static void write_html(FILE *f, const void *arg)
{
	const struct pp_outcome *o = arg;
	char a[32], b[32], c[32], d[32];

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>pinpoint: ",
	      f);
	pp_html_escape(f, o->opt.entry);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:1em 2em;color:#222}\n"
	      "svg{display:block;width:100%;height:auto}\n"
	      "pre{background:#f4f4f4;padding:1em;white-space:pre-wrap}\n"
	      "h2{font-size:1.1em;margin-top:2em}\n"
	      ".slower{color:#b3261e;font-weight:bold}.same,.not-slower{color:#555}\n"
	      ".slower-below-threshold,.faster-below-threshold{color:#555}\n"
	      ".faster{color:#2e7d32}\n"
	      ".not-varied{color:#b3261e}\n"
	      "table{border-collapse:collapse}td{padding:2px 10px 2px 0}\n"
	      "details.node details.node{margin-left:1.5em}\n"
	      "</style></head><body>\n<h1>pinpoint: ",
	      f);
	pp_html_escape(f, o->opt.entry);
	fputs("</h1>\n<table>", f);
	fputs("<tr><td>previous</td><td>", f);
	pp_html_escape(f, o->rev[PP_PREV].dir);
	fputs("</td></tr><tr><td>current</td><td>", f);
	pp_html_escape(f, o->rev[PP_CUR].dir);
	fprintf(f,
		"</td></tr><tr><td>test</td><td>%s, %.4g%% confidence, threshold %.4g%% of "
		"the entry</td></tr></table>\n",
		o->opt.runs == PP_RUNS_SHUFFLED
		    ? (o->opt.test == PP_TEST_WELCH ? "Welch (difference of means)"
						    : "Mann-Whitney U (Hodges-Lehmann shift)")
		    : (o->opt.test == PP_TEST_WELCH
			   ? "paired t (mean of the pairs' differences)"
			   : "Wilcoxon signed-rank on the pairs' differences (Hodges-Lehmann)"),
		100 * o->opt.confidence, o->opt.precision);
	fputs("<p>", f);
	pp_html_escape(f, o->runs_sentence);
	fputs("</p>\n", f);
	if (o->preempted_sentence[0]) {
		fputs("<p>", f);
		pp_html_escape(f, o->preempted_sentence);
		fputs("</p>\n", f);
	}
	if (o->cpus.checked) {
		fputs("<p>", f);
		pp_html_escape(f, o->cpus.sentence);
		fputs("</p>\n", f);
	}
	layouts(f, o);
	if (o->nnodes) {
		fputs("<h2>The search</h2>\n", f);
		pp_svg_overview(f, o);
	}
	trend(f, o);
	chain(f, o);
	tree(f, o);
	for (unsigned order = 1;; order++) {
		const struct pp_outcome_cmp *q = NULL;

		for (size_t i = 0; i < o->ncmp; i++)
			if (o->cmp[i].decided && o->cmp[i].order == order)
				q = &o->cmp[i];
		if (!q)
			break;
		fprintf(f, "<h2>[%u] ", order);
		pp_html_escape(f, q->shown);
		fprintf(f, " &mdash; <span class=\"%s\">%s</span></h2>\n", q->verdict_name,
			q->verdict_name);
		fprintf(f,
			"<p>difference %s%s [%s, %s], threshold &#177;%s, p = %.3g, %zu and %zu "
			"runs</p>\n",
			q->cmp.diff.centre >= 0 ? "+" : "", pp_fmt_ns(q->cmp.diff.centre, a, 32),
			pp_fmt_ns(q->cmp.diff.low, b, 32), pp_fmt_ns(q->cmp.diff.high, c, 32),
			pp_fmt_ns(q->threshold_ns, d, 32), q->cmp.p_value, q->series[PP_PREV].n,
			q->series[PP_CUR].n);
		pp_svg_comparison(f, q);
	}
	fputs("</body></html>\n", f);
}

int pp_html_write(const struct pp_outcome *o, const char *path)
{
	return pp_write_atomic(path, write_html, o);
}
