// SPDX-License-Identifier: MIT
/*
 * text.c - the text report, on stdout.
 *
 * A line per comparison as it is decided (what was compared, each revision's
 * centre with its interval, the difference with its interval, the verdict),
 * then the verdict: "no regression", or the bottleneck chain from the entry
 * down to the call that costs it, each step with its callee, file:line and
 * what it accounts for.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/report/report.h"

void pp_report_comparison(const struct pp_session *s, const struct pp_quantity *q)
{
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32], i[32], m[64] = "";
	struct pp_interval p = q->ci[PP_PREV];
	struct pp_interval cu = q->ci[PP_CUR];
	const struct pp_quantity *entry = s->q[0];
	double base = pp_summary_centre(&entry->sum[PP_PREV], s->opt->test);
	char *label;

	if (s->opt->quiet)
		return;
	label = pp_quantity_label(q);
	if (q->verdict == PP_V_UNDECIDED) {
		char t[32];

		snprintf(m, sizeof(m), ", minimum detectable effect %s",
			 pp_fmt_end(q->final_look.mde, t, 32));
	}
	printf("[%u] %-44s previous %s [%s, %s]  current %s [%s, %s]  diff %s%s [%s, %s] "
	       "(%+.1f%% of entry)  %s (%zu+%zu runs, %u look%s%s)\n",
	       q->order, label ? label : "?", pp_fmt_ns(p.centre, a, 32), pp_fmt_ns(p.low, b, 32),
	       pp_fmt_ns(p.high, c, 32), pp_fmt_ns(cu.centre, d, 32), pp_fmt_ns(cu.low, e, 32),
	       pp_fmt_ns(cu.high, f, 32), q->cmp.diff.centre >= 0 ? "+" : "",
	       pp_fmt_ns(q->cmp.diff.centre, g, 32), pp_fmt_end(q->cmp.diff.low, h, 32),
	       pp_fmt_end(q->cmp.diff.high, i, 32),
	       base > 0 ? 100.0 * q->cmp.diff.centre / base : 0.0, pp_verdict_word(q->verdict),
	       q->final_look.runs / 2, q->final_look.runs / 2, q->final_look.looks,
	       q->final_look.looks == 1 ? "" : "s", m);
	fflush(stdout);
	free(label);
}

static void print_name(FILE *f, const struct pp_session *s, const struct pp_node *n)
{
	char *name = pp_node_name(s, n);

	fputs(name ? name : "?", f);
	free(name);
}

/* "run → bridge → failure_run": the path of names from the entry to node @i. */
static void print_path(FILE *f, const struct pp_session *s, int i)
{
	if (s->nodes[i].parent >= 0) {
		print_path(f, s, s->nodes[i].parent);
		fprintf(f, " → ");
	}
	print_name(f, s, &s->nodes[i]);
}

static void print_chain_line(FILE *f, const struct pp_session *s)
{
	int last = 0;

	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].chain)
			last = (int)i;
	fprintf(f, "Bottleneck chain: ");
	print_path(f, s, last);
	fprintf(f, "\n");
}

static void print_diff(FILE *f, struct pp_interval d, bool point)
{
	char a[32], b[32], c[32];

	fprintf(f, "%s%s", d.centre >= 0 ? "+" : "", pp_fmt_ns(d.centre, a, 32));
	if (point)
		fprintf(f, " (point estimate)");
	else
		fprintf(f, " [%s, %s]", pp_fmt_ns(d.low, b, 32), pp_fmt_ns(d.high, c, 32));
}

/* Where a node is: the call's file:line:col, or the function's file:line. */
static void print_where(FILE *f, const struct pp_node *n)
{
	const struct pp_prog_fn *fn = n->fn[PP_CUR] ? n->fn[PP_CUR] : n->fn[PP_PREV];
	const struct pp_prog_call *c;
	int r;

	switch (n->kind) {
	case PP_NODE_CALL:
	case PP_NODE_ADDED:
	case PP_NODE_REMOVED:
		c = pp_node_call(n, &r);
		if (!c)
			return;
		fprintf(f, "call %u of %s at ", n->first[r], pp_fn_name(n->fn[r]));
		pp_print_loc(f, c->file, c->line, c->col);
		break;
	case PP_NODE_RANGE:
		c = pp_node_call(n, &r);
		if (!c)
			return;
		fprintf(f, "from ");
		pp_print_loc(f, c->file, c->line, c->col);
		c = &n->fn[r]->calls[n->last[r]];
		fprintf(f, " to ");
		pp_print_loc(f, c->file, c->line, c->col);
		break;
	case PP_NODE_REST:
		break;
	default:
		pp_print_loc(f, fn->file, fn->line, 0);
	}
}

/* A chain step its parent's runs do not tell from the runner-up: say so. */
static void print_tie(FILE *f, const struct pp_session *s, const struct pp_node *n)
{
	const struct pp_node *p = n->parent >= 0 ? &s->nodes[n->parent] : NULL;

	if (!p || p->tie < 0 || &s->nodes[p->lead] != n)
		return;
	fprintf(f, "  [undecided between ");
	print_name(f, s, n);
	fprintf(f, " and ");
	print_name(f, s, &s->nodes[p->tie]);
	fprintf(f, ": the runs do not tell which costs more]");
}

static void print_chain(FILE *f, const struct pp_session *s)
{
	const struct pp_node *root = &s->nodes[0];
	int indent = 0;

	print_chain_line(f, s);
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct pp_node *n = &s->nodes[i];
		char a[32], b[32], c[32];

		if (!n->chain)
			continue;
		fprintf(f, "%*s%s", indent + 2, "", i ? "→ " : "");
		print_name(f, s, n);
		fprintf(f, "  ");
		print_where(f, n);
		if (n->kind == PP_NODE_STRUCTURAL)
			fprintf(f, "  %s", n->detail ? n->detail : "its call list changed");
		fprintf(f, "  costs %s%s [%s, %s]", n->diff.centre >= 0 ? "+" : "",
			pp_fmt_ns(n->diff.centre, a, 32), pp_fmt_ns(n->diff.low, b, 32),
			pp_fmt_ns(n->diff.high, c, 32));
		if (root->diff.centre != 0)
			fprintf(f, " = %.1f%% of %s", 100.0 * n->diff.centre / root->diff.centre,
				pp_fn_name(root->fn[PP_CUR]));
		if (n->stop)
			fprintf(f, "  [%s]", n->stop);
		print_tie(f, s, n);
		fprintf(f, "\n");
		indent += 2;
	}
}

static char sign_mark(const struct pp_node *n)
{
	return n->sign > 0 ? '+' : n->sign < 0 ? '-' : ' ';
}

/* Whether @n's numbers come from the runs that measured its function's parts together. */
static bool accounted(const struct pp_session *s, const struct pp_node *n)
{
	const struct pp_node *p = n->parent >= 0 ? &s->nodes[n->parent] : NULL;

	if (p && p->kind == PP_NODE_STRUCTURAL && p->parent >= 0)
		p = &s->nodes[p->parent];
	return p && p->runs[0] >= 2 && p->runs[1] >= 2;
}

static void print_subtree(FILE *f, const struct pp_session *s, int i, int indent)
{
	const struct pp_node *n = &s->nodes[i];
	char a[32], b[32], c[32];

	fprintf(f, "%*s%c ", indent, "", sign_mark(n));
	print_name(f, s, n);
	fprintf(f, "  ");
	print_where(f, n);
	fprintf(f, "%s", n->kind == PP_NODE_REST ? "" : "  ");
	print_diff(f, n->diff, n->kind == PP_NODE_REST && !accounted(s, n));
	if (n->parent >= 0 && (n->kind != PP_NODE_REST || accounted(s, n)))
		fprintf(f, "  %s [%s, %s]", pp_fmt_pct(n->share, a, sizeof(a)),
			pp_fmt_pct(n->share_ci.low, b, sizeof(b)),
			pp_fmt_pct(n->share_ci.high, c, sizeof(c)));
	else if (n->parent >= 0)
		fprintf(f, "  %s", pp_fmt_pct(n->share, a, sizeof(a)));
	if (n->chain)
		fprintf(f, "  (chain)");
	if (n->rank)
		fprintf(f, "  (contributor %u)", n->rank + 1);
	if (n->stop && n->kind != PP_NODE_REST)
		fprintf(f, "  [%s]", n->stop);
	if (n->q && n->q->has_layout && n->q->layout_sensitive)
		fprintf(f, "  [layout-sensitive: two layouts alone differ by up to %s]",
			pp_fmt_ns(2 * n->q->layout_sd, a, sizeof(a)));
	if (n->detail && n->kind != PP_NODE_STRUCTURAL)
		fprintf(f, "  %s", n->detail);
	else if (n->detail && !n->chain)
		fprintf(f, "  %s", n->detail);
	if (n->runs[0] >= 2 && n->runs[1] >= 2) {
		fprintf(f, "  (whole, with its parts: ");
		print_diff(f, n->whole, false);
		fprintf(f, " in %zu+%zu runs)", n->runs[PP_PREV], n->runs[PP_CUR]);
	}
	fprintf(f, "\n");
	for (int c = n->child; c >= 0; c = s->nodes[c].next)
		print_subtree(f, s, c, indent + 4);
}

static void print_tree(FILE *f, const struct pp_session *s)
{
	const struct pp_node *root = &s->nodes[0];
	unsigned nfast = 0;

	if (s->nnodes < 2 || s->opt->search != PP_SEARCH_ATTRIB)
		return;
	fprintf(f, "\nAttribution tree (+ slower, - faster; difference [interval]; share of its "
		   "function's difference [interval]; a function's parts, its remainder and its "
		   "whole are measured in the same runs):\n");
	print_subtree(f, s, 0, 2);
	for (unsigned r = 1;; r++) {
		int k = -1;

		for (size_t i = 0; i < s->nnodes; i++)
			if (s->nodes[i].rank == r)
				k = (int)i;
		if (k < 0)
			break;
		if (r == 1)
			fprintf(f, "\nFurther contributors:\n");
		fprintf(f, "  %u. ", r + 1);
		print_path(f, s, k);
		fprintf(f, "  ");
		print_diff(f, s->nodes[k].diff, false);
		if (root->diff.centre != 0)
			fprintf(f, " = %.1f%% of %s",
				100 * s->nodes[k].diff.centre / root->diff.centre,
				pp_fn_name(root->fn[PP_CUR]));
		if (s->nodes[k].stop)
			fprintf(f, "  [%s]", s->nodes[k].stop);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < s->nnodes; i++) {
		if (s->nodes[i].sign >= 0 || s->nodes[i].kind == PP_NODE_REST)
			continue;
		if (!nfast++)
			fprintf(f, "\nImprovements (faster in the current revision):\n");
		fprintf(f, "  ");
		print_path(f, s, (int)i);
		fprintf(f, "  ");
		print_diff(f, s->nodes[i].diff, false);
		if (root->diff.centre != 0)
			fprintf(f, " = %.1f%% of %s",
				100 * s->nodes[i].diff.centre / root->diff.centre,
				pp_fn_name(root->fn[PP_CUR]));
		fprintf(f, "\n");
	}
	if (s->budget_cut)
		fprintf(f,
			"\nThe search was cut short by --max-paths %d: the slower calls marked "
			"[budget] were not examined.\n",
			s->opt->max_paths);
}

/*
 * The blank line that sets a block of the verdict apart from what came
 * before it; with --quiet nothing comes before the first block.
 */
static void gap(FILE *f, const struct pp_session *s, bool *printed)
{
	if (*printed || !s->opt->quiet)
		fputc('\n', f);
	*printed = true;
}

/* Executions the runtime could not count, over every run kept. */
static void print_lost(FILE *f, const struct pp_session *s, bool *printed)
{
	unsigned long long lost = 0;
	size_t runs = 0;

	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].lost) {
			lost += s->runs[i].lost;
			runs++;
		}
	if (!lost)
		return;
	gap(f, s, printed);
	fprintf(f,
		"Dropped executions: %llu measured executions in %zu runs were abandoned "
		"without their exit probe (longjmp, exceptions) and not counted.\n",
		lost, runs);
}

/* Comparisons of the search left open or undecided, at what resolution, and why. */
static void print_open(FILE *f, const struct pp_session *s)
{
	unsigned n = 0;

	for (size_t i = 1; i < s->nq; i++) {
		const struct pp_quantity *q = s->q[i];
		char *label, a[32], b[32], c[32];

		if (!q->decided || (q->verdict != PP_V_BOUNDED && q->verdict != PP_V_UNDECIDED))
			continue;
		if (!n++)
			fprintf(
			    f,
			    "\nLeft open (their answers could not change the chain, or their time "
			    "ran out):\n");
		label = pp_quantity_label(q);
		fprintf(f, "  [%u] %s  %s%s [%s, %s] after %zu+%zu runs  ", q->order,
			label ? label : "?", q->cmp.diff.centre >= 0 ? "+" : "",
			pp_fmt_ns(q->cmp.diff.centre, a, 32), pp_fmt_end(q->cmp.diff.low, b, 32),
			pp_fmt_end(q->cmp.diff.high, c, 32), q->final_look.runs / 2,
			q->final_look.runs / 2);
		if (q->verdict == PP_V_BOUNDED)
			fprintf(f, "%s\n", q->left ? q->left : "left open");
		else if (q->truncated)
			fprintf(f, "undecided: %s was spent\n", pp_spent_option(q->truncated));
		else
			fprintf(f, "undecided: --max-runs-per-comparison was spent\n");
		free(label);
	}
}

/* Where the session's time went. */
static void print_time(FILE *f, const struct pp_session *s)
{
	struct pp_time_use u;

	pp_time_use(s, &u);
	fprintf(f, "Time: %.0f s in all: builds %.1f s, discovery %.1f s (%zu runs)", u.total_s,
		u.builds_s, u.discovery_s, u.discovery_runs);
	if (u.layouts_s > 0)
		fprintf(f, ", linking the layouts %.1f s", u.layouts_s);
	for (unsigned l = 0; l < u.nlayers; l++) {
		if (!u.layer_runs[l])
			continue;
		if (l == 0)
			fprintf(f, ", the entry %.1f s (%zu runs)", u.layer_s[l], u.layer_runs[l]);
		else
			fprintf(f, ", layer %u %.1f s (%zu runs)", l, u.layer_s[l],
				u.layer_runs[l]);
	}
	fprintf(f, ", the driver %.1f s.\n", u.other_s);
}

/* How much the runs varied, and what the runs bought. */
static void print_noise(FILE *f, const struct pp_session *s)
{
	const struct pp_quantity *entry = s->nq ? s->q[0] : NULL;
	unsigned decided = 0, undecided = 0, left = 0;

	if (!entry || entry->series[PP_PREV].n < 2)
		return;
	for (size_t i = 0; i < s->nq; i++)
		if (s->q[i]->decided)
			s->q[i]->verdict == PP_V_UNDECIDED ? undecided++
			: s->q[i]->verdict == PP_V_BOUNDED ? left++
							   : decided++;
	fprintf(f,
		"\nNoise: the entry varied by %.1f%% (previous) and %.1f%% (current) from run to "
		"run (coefficient of variation).\n",
		100.0 * pp_series_cov(&entry->series[PP_PREV]),
		100.0 * pp_series_cov(&entry->series[PP_CUR]));
	if (s->entry_stop && s->entry_stop < s->entry_count)
		fprintf(f,
			"Each run ended after the entry's execution %llu (of at least %llu), "
			"skipping the first %llu (--executions).\n",
			s->entry_stop, s->entry_count, s->entry_skip);
	char line[256];

	fprintf(f, "Runs: %zu", s->runs_used);
	if (s->opt->max_runs)
		fprintf(f, " of --max-runs %ld", s->opt->max_runs);
	fprintf(f, " decided %u comparison%s", decided, decided == 1 ? "" : "s");
	if (undecided)
		fprintf(f, "; %u stayed undecided", undecided);
	if (left)
		fprintf(f, "; %u were left open", left);
	fprintf(f, ".  %s\n", pp_runs_sentence(s, line, sizeof(line)));
	print_time(f, s);
}

/*
 * The code layouts: after the noise, or with --quiet after the verdict, and
 * there only when they were not varied (the verdict can include their effect).
 */
static void print_layouts(FILE *f, const struct pp_session *s, bool *printed)
{
	char line[1024];

	if (!s->nruns || (s->opt->quiet && pp_layouts_varied(s)))
		return;
	if (s->opt->quiet)
		gap(f, s, printed);
	pp_layouts_sentence(s, line, sizeof(line));
	fprintf(f, "Layouts: %s\n", line);
	if (!s->opt->quiet && pp_layouts_spread(s, line, sizeof(line)))
		fprintf(f, "Layout spread: %s\n", line);
}

/* The entry spent its runs without deciding: say so, never "no regression". */
/* What the entry's undecided interval would need, at the noise measured. */
static void print_runs_needed(FILE *f, const struct pp_quantity *e)
{
	size_t n = e->final_look.runs / 2;
	double need =
	    pp_seq_runs_to_decide(e->cmp.diff.centre, (e->cmp.diff.high - e->cmp.diff.low) / 2.0,
				  e->threshold_ns, true, n);

	if (isnan(need) || !isfinite(e->cmp.diff.low) || !isfinite(e->cmp.diff.high))
		return;
	if (need > 100.0 * (double)n)
		fprintf(
		    f,
		    "At the noise measured, a difference this close to the threshold needs more "
		    "than %zu runs per revision.\n",
		    100 * n);
	else
		fprintf(f,
			"At the noise and the difference measured, a verdict needs at least about "
			"%.0f runs per revision (%zu so far).\n",
			need, n);
}

static void print_undecided(FILE *f, const struct pp_quantity *e)
{
	char a[32], b[32], c[32], t[32], m[32];

	if (!e->final_look.looks) {
		fprintf(f, "Undecided: %s was spent before %s could be compared.\n",
			pp_spent_option(e->truncated), pp_fn_name(e->fn[PP_CUR]));
		return;
	}
	fprintf(
	    f,
	    "Undecided: could not decide within %zu runs whether %s got slower: difference "
	    "%s%s [%s, %s] at %.4g%% confidence, threshold %s, minimum detectable effect %s.%s\n",
	    e->final_look.runs, pp_fn_name(e->fn[PP_CUR]), e->cmp.diff.centre >= 0 ? "+" : "",
	    pp_fmt_ns(e->cmp.diff.centre, a, 32), pp_fmt_end(e->cmp.diff.low, b, 32),
	    pp_fmt_end(e->cmp.diff.high, c, 32), 100.0 * e->final_look.confidence,
	    pp_fmt_ns(e->threshold_ns, t, 32), pp_fmt_end(e->final_look.mde, m, 32),
	    e->truncated == PP_SPENT_RUNS   ? " (--max-runs was spent)"
	    : e->truncated == PP_SPENT_TIME ? " (--max-time was spent)"
					    : "");
	if (e->truncated == PP_SPENT_LAYOUTS) {
		fprintf(f,
			"The code layouts move it: whatever the runs, the interval cannot get "
			"narrower than +-%s in these layouts, which decides nothing at the "
			"threshold. More layouts (--layouts) can decide it.\n",
			pp_fmt_ns(e->layout_floor, m, sizeof(m)));
		return;
	}
	print_runs_needed(f, e);
	fprintf(f, "More runs (--max-runs-per-comparison, --max-runs, --max-time) or less noise "
		   "(--cpu, an idle machine) can decide it.\n");
}

static void print_verdict(const struct pp_session *s, FILE *f, bool *printed)
{
	const struct pp_quantity *entry = s->nq ? s->q[0] : NULL;

	if (s->interrupted) {
		gap(f, s, printed);
		fprintf(f, "Interrupted: what was established so far:\n");
	}
	if (s->outcome == PP_EXIT_MEASUREMENT && s->failure) {
		gap(f, s, printed);
		fprintf(f, "Measurement failed: %s\n", s->failure);
	}
	if (entry && entry->decided && entry->verdict == PP_V_UNDECIDED) {
		gap(f, s, printed);
		print_undecided(f, entry);
		return;
	}
	if (entry && entry->decided && entry->verdict != PP_V_SLOWER) {
		char a[32], b[32], c[32], t[32];

		gap(f, s, printed);
		fprintf(
		    f,
		    "No regression: %s is %s in the current revision (difference %s%s "
		    "[%s, %s], threshold %s).\n",
		    pp_fn_name(entry->fn[PP_CUR]),
		    entry->verdict == PP_V_FASTER	  ? "faster"
		    : entry->verdict == PP_V_SLOWER_BELOW ? "slower by less than the threshold"
		    : entry->verdict == PP_V_FASTER_BELOW ? "faster by less than the threshold"
		    : entry->verdict == PP_V_NOT_SLOWER	  ? "not slower by more than the threshold"
							  : "not significantly slower",
		    entry->cmp.diff.centre >= 0 ? "+" : "",
		    pp_fmt_ns(entry->cmp.diff.centre, a, 32), pp_fmt_ns(entry->cmp.diff.low, b, 32),
		    pp_fmt_ns(entry->cmp.diff.high, c, 32), pp_fmt_ns(entry->threshold_ns, t, 32));
		return;
	}
	if (!s->nnodes)
		return;
	gap(f, s, printed);
	print_chain(f, s);
	print_tree(f, s);
	if (!s->opt->quiet)
		print_open(f, s);
}

void pp_report_verdict(const struct pp_session *s, FILE *f)
{
	bool printed = false;

	print_lost(f, s, &printed);
	if (!s->opt->quiet) {
		print_noise(f, s);
		print_layouts(f, s, &printed);
	}
	print_verdict(s, f, &printed);
	if (s->opt->quiet)
		print_layouts(f, s, &printed);
}
