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
#include "pinpoint/report/report.h"

void pp_report_cmp_line(const struct pp_outcome_cmp *q, FILE *out)
{
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32], i[32], m[64] = "";
	struct pp_interval p = q->ci[PP_PREV], cu = q->ci[PP_CUR];

	if (q->verdict == PP_V_UNDECIDED) {
		char t[32];

		snprintf(m, sizeof(m), ", minimum detectable effect %s",
			 pp_fmt_end(q->look.mde, t, 32));
	}
	/* a label longer than its column (the what-if's, a C++ name) keeps two spaces after it */
	fprintf(out,
		"[%u] %-44s%s previous %s [%s, %s]  current %s [%s, %s]  diff %s%s [%s, %s] "
		"(%+.1f%% of entry)  %s (%zu+%zu runs, %u look%s%s)\n",
		q->order, q->shown, strlen(q->shown) >= 44 ? " " : "", pp_fmt_ns(p.centre, a, 32),
		pp_fmt_ns(p.low, b, 32), pp_fmt_ns(p.high, c, 32), pp_fmt_ns(cu.centre, d, 32),
		pp_fmt_ns(cu.low, e, 32), pp_fmt_ns(cu.high, f, 32),
		q->cmp.diff.centre >= 0 ? "+" : "", pp_fmt_ns(q->cmp.diff.centre, g, 32),
		pp_fmt_end(q->cmp.diff.low, h, 32), pp_fmt_end(q->cmp.diff.high, i, 32),
		100.0 * q->share_of_entry, q->verdict_word, q->runs_per_revision,
		q->runs_per_revision, q->look.looks, q->look.looks == 1 ? "" : "s", m);
	fflush(out);
}

/* The live line: the session and @q are handed to outcome.c, which makes the view printed. */
void pp_report_comparison(const struct pp_session *s, const struct pp_quantity *q)
{
	struct pp_outcome_cmp c;
	struct pp_arena mem;

	pp_arena_init(&mem);
	if (!pp_outcome_live(s, q, &c, &mem))
		pp_report_cmp_line(&c, stdout);
	pp_arena_free(&mem);
}

/* "run → bridge → failure_run": the path of names from the entry to node @i. */
static void print_path(FILE *f, const struct pp_outcome *o, int i)
{
	int p = o->nodes[i].parent;

	/* a call measured alone is a step of its function, as on the chain */
	if (pp_outcome_alone_step(o, i))
		p = o->nodes[p].parent;
	if (p >= 0) {
		print_path(f, o, p);
		fprintf(f, " → ");
	}
	fputs(o->nodes[i].name, f);
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

/*
 * " = 12.3% [10.1%, 14.0%] of run": @n's share of the entry's difference,
 * its shares along its path multiplied, with the product of their intervals.
 */
static void print_of_entry(FILE *f, const struct pp_outcome *o, const struct pp_outcome_node *n)
{
	const struct pp_interval *c = &n->entry_share_ci;

	if (!isfinite(n->entry_share))
		return;
	fprintf(f, " = %.1f%%", 100.0 * n->entry_share);
	if (n->parent >= 0 && isfinite(c->low))
		fprintf(f, " [%.1f%%, %.1f%%]", 100.0 * c->low, 100.0 * c->high);
	fprintf(f, " of %s", o->nodes[0].name);
}

/* A figure more than it can cost (outcome_inflated.c): why, in place of its share of the entry. */
static void print_inflated(FILE *f, const struct pp_outcome_node *n)
{
	if (n->inflated)
		fprintf(f, "  [%s]", n->inflated);
}

/* A share above all of its function's: say that the rest of the function got faster. */
static void print_others(FILE *f, const struct pp_outcome *o, const struct pp_outcome_node *n)
{
	int w = n->whole_of;
	char a[32], b[32], c[32];

	if (!isfinite(n->others.centre) || w < 0)
		return;
	fprintf(f, "  [above 100 %%: the rest of %s %s %s%s [%s, %s]]", o->nodes[w].name,
		n->others.high < 0 ? "got faster:" : "changed by", n->others.centre >= 0 ? "+" : "",
		pp_fmt_ns(n->others.centre, a, 32), pp_fmt_ns(n->others.low, b, 32),
		pp_fmt_ns(n->others.high, c, 32));
}

/* A part whose count changed: "[called 1.15x as often (100 → 115 ...), each call the same]". */
static void print_counts(FILE *f, const struct pp_outcome_node *n)
{
	if (n->cmp && n->cmp->counts_said && n->kind != PP_NODE_STRUCTURAL)
		fprintf(f, "  [%s]", n->cmp->counts_said);
}

/* A part whose difference the probes' cost left in its function could move by T/2 or more. */
static void print_probe_mark(FILE *f, const struct pp_outcome_node *n)
{
	char a[32];

	if (n->probe_uncertain)
		fprintf(f, "  [probe cost uncertain: up to %s of it]",
			pp_fmt_ns(n->probe_unc, a, 32));
}

/* "probe cost left in: +1.2 us [-0.4 us, +2.8 us] of 40 us taken out (previous), ...". */
static void print_left_in(FILE *f, const struct pp_outcome_node *n)
{
	static const char *const rev[2] = {"previous", "current"};
	char a[32], b[32], c[32], d[32];

	if (!isfinite(n->left_in[0].centre) && !isfinite(n->left_in[1].centre)) {
		fprintf(
		    f,
		    "; probe cost left in: not measured, no run timed it with nothing armed inside "
		    "(%s taken out, %s)",
		    pp_fmt_ns(n->removed[0], a, 32), pp_fmt_ns(n->removed[1], b, 32));
		return;
	}
	fprintf(f, "; probe cost left in:");
	for (int r = 0; r < 2; r++) {
		const struct pp_interval *l = &n->left_in[r];

		if (!isfinite(l->centre))
			fprintf(f, "%s not known (%s)", r ? "," : "", rev[r]);
		else
			fprintf(f, "%s %s%s [%s, %s] of %s taken out (%s)", r ? "," : "",
				l->centre >= 0 ? "+" : "", pp_fmt_ns(l->centre, a, 32),
				pp_fmt_ns(l->low, b, 32), pp_fmt_ns(l->high, c, 32),
				pp_fmt_ns(n->removed[r], d, 32), rev[r]);
	}
}

/* A chain step its parent's runs do not tell from the runner-up: say so. */
static void print_tie(FILE *f, const struct pp_outcome *o, const struct pp_outcome_node *n)
{
	if (n->tie < 0)
		return;
	fprintf(f, "  [undecided between %s and %s: the runs do not tell which costs more]",
		n->name, o->nodes[n->tie].name);
}

/* An indirect call's targets, on a line of their own under its node. */
static void print_targets(FILE *f, const struct pp_outcome_node *n, int indent)
{
	if (!n->ntargets)
		return;
	fprintf(f, "%*stargets:", indent, "");
	for (size_t k = 0; k < n->ntargets; k++) {
		const struct pp_outcome_target *t = &n->targets[k];

		fprintf(f, "%s %s %.0f %%", k ? "," : "", t->shown, 100 * t->share);
		if (t->compared) {
			fprintf(f, " (");
			print_diff(f, t->diff, false);
			fprintf(f, " %s)", t->verdict_name);
		}
	}
	fprintf(f, "\n");
}

/* A callee group's calls, each with its own difference and share, a line each. */
static void print_sites(FILE *f, const struct pp_outcome_node *n, int indent)
{
	char a[32];

	for (size_t k = 0; k < n->nsites; k++) {
		const struct pp_outcome_site *x = &n->sites[k];

		fprintf(f, "%*s%c call %u at ", indent, "",
			x->sign > 0   ? '+'
			: x->sign < 0 ? '-'
				      : ' ',
			x->call);
		fputs(x->where, f);
		if (!isfinite(x->diff.centre)) {
			fprintf(f, "  not decided\n");
			continue;
		}
		fprintf(f, "  ");
		print_diff(f, x->diff, false);
		if (isfinite(x->share))
			fprintf(f, "  %s of the group", pp_fmt_pct(x->share, a, sizeof(a)));
		fprintf(f, "\n");
	}
}

static void print_chain(FILE *f, const struct pp_outcome *o)
{
	int indent = 0;

	fprintf(f, "Bottleneck chain: ");
	print_path(f, o, o->chain[o->nchain - 1]);
	fprintf(f, "\n");
	for (size_t k = 0; k < o->nchain; k++) {
		const struct pp_outcome_node *n = &o->nodes[o->chain[k]];
		char a[32], b[32], c[32];

		fprintf(f, "%*s%s%s  %s", indent + 2, "", k ? "→ " : "", n->name, n->where);
		if (n->kind == PP_NODE_STRUCTURAL)
			fprintf(f, "  %s", n->detail ? n->detail : "its call list changed");
		fprintf(f, "  costs %s%s [%s, %s]", n->diff.centre >= 0 ? "+" : "",
			pp_fmt_ns(n->diff.centre, a, 32), pp_fmt_ns(n->diff.low, b, 32),
			pp_fmt_ns(n->diff.high, c, 32));
		print_of_entry(f, o, n);
		print_inflated(f, n);
		print_counts(f, n);
		print_others(f, o, n);
		print_probe_mark(f, n);
		if (n->stop)
			fprintf(f, "  [%s]", n->stop);
		print_tie(f, o, n);
		fprintf(f, "\n");
		print_targets(f, n, indent + 6);
		indent += 2;
	}
}

static char sign_mark(const struct pp_outcome_node *n)
{
	return n->sign > 0 ? '+' : n->sign < 0 ? '-' : ' ';
}

static void print_subtree(FILE *f, const struct pp_outcome *o, int i, int indent)
{
	const struct pp_outcome_node *n = &o->nodes[i];
	char a[32], b[32], c[32], line[128];

	if (n->zero)
		return;
	fprintf(f, "%*s%c %s  %s", indent, "", sign_mark(n), n->name, n->where);
	fprintf(f, "%s", n->kind == PP_NODE_REST ? "" : "  ");
	print_diff(f, n->diff, n->point);
	if (n->share_shown)
		fprintf(f, "  %s [%s, %s]", pp_fmt_pct(n->share, a, sizeof(a)),
			pp_fmt_pct(n->share_ci.low, b, sizeof(b)),
			pp_fmt_pct(n->share_ci.high, c, sizeof(c)));
	else if (n->parent >= 0)
		fprintf(f, "  %s", pp_fmt_pct(n->share, a, sizeof(a)));
	print_inflated(f, n);
	print_counts(f, n);
	print_others(f, o, n);
	print_probe_mark(f, n);
	if (n->chain)
		fprintf(f, "  (chain)");
	if (n->rank)
		fprintf(f, "  (contributor %u)", n->rank + 1);
	if (n->stop && n->kind != PP_NODE_REST)
		fprintf(f, "  [%s]", n->stop);
	if (n->cmp && n->cmp->layout_sensitive)
		fprintf(f, "  [layout-sensitive: two layouts alone differ by up to %s]",
			pp_fmt_ns(2 * n->cmp->layout_sd, a, sizeof(a)));
	if (n->detail && (n->kind != PP_NODE_STRUCTURAL || !n->chain))
		fprintf(f, "  %s", n->detail);
	if (n->whole_measured) {
		fprintf(f, "  (whole, with its parts: ");
		print_diff(f, n->whole, false);
		if (n->paired)
			fprintf(f, " in %zu pairs", n->runs[PP_CUR]);
		else
			fprintf(f, " in %zu+%zu runs", n->runs[PP_PREV], n->runs[PP_CUR]);
		print_left_in(f, n);
		fprintf(f, ")");
	}
	if (pp_fmt_counted(n, line, sizeof(line)))
		fprintf(f, "  (%s)", line);
	if (pp_fmt_armed(n, line, sizeof(line)))
		fprintf(f, "  (%s)", line);
	fprintf(f, "\n");
	print_targets(f, n, indent + 4);
	print_sites(f, n, indent + 4);
	for (int k = n->child; k >= 0; k = o->nodes[k].next)
		print_subtree(f, o, k, indent + 4);
}

static void print_tree(FILE *f, const struct pp_outcome *o)
{
	if (!o->tree)
		return;
	fprintf(f, "\nAttribution tree (+ slower, - faster; difference [interval], taken as the "
		   "verdicts are; share of its function's difference [Fieller's interval]; a "
		   "function's parts, its remainder and its whole from the same runs, each "
		   "interval at the level of the verdict it stands for):\n");
	print_subtree(f, o, 0, 2);
	for (size_t k = 0; k < o->ncontrib; k++) {
		const struct pp_outcome_node *n = &o->nodes[o->contrib[k]];

		if (!k)
			fprintf(f, "\nFurther contributors:\n");
		fprintf(f, "  %u. ", n->rank + 1);
		print_path(f, o, o->contrib[k]);
		fprintf(f, "  ");
		print_diff(f, n->diff, false);
		print_of_entry(f, o, n);
		print_inflated(f, n);
		if (n->stop)
			fprintf(f, "  [%s]", n->stop);
		fprintf(f, "\n");
	}
	for (size_t k = 0; k < o->nimproved; k++) {
		const struct pp_outcome_node *n = &o->nodes[o->improved[k]];

		if (!k)
			fprintf(f, "\nImprovements (faster in the current revision):\n");
		fprintf(f, "  ");
		print_path(f, o, o->improved[k]);
		fprintf(f, "  ");
		print_diff(f, n->diff, false);
		print_of_entry(f, o, n);
		fprintf(f, "\n");
	}
	if (o->budget_cut)
		fprintf(f,
			"\nThe search was cut short by --max-paths %d: the slower calls marked "
			"[budget] were not examined.\n",
			o->opt.max_paths);
}

/*
 * The blank line that sets a block of the verdict apart from what came
 * before it; with --quiet nothing comes before the first block.
 */
static void gap(FILE *f, const struct pp_outcome *o, bool *printed)
{
	if (*printed || !o->opt.quiet)
		fputc('\n', f);
	*printed = true;
}

/* Executions the runtime could not count, over every run kept. */
static void print_lost(FILE *f, const struct pp_outcome *o, bool *printed)
{
	if (!o->lost)
		return;
	gap(f, o, printed);
	fprintf(f,
		"Dropped executions: %llu measured executions in %zu runs were abandoned "
		"without their exit probe (longjmp, exceptions) and not counted.\n",
		o->lost, o->lost_runs);
}

/* What gives a comparison more runs: its own budget, given, or the time that set it (auto). */
static const char *more_runs(const struct pp_outcome *o)
{
	return o->opt.max_runs_comparison > 0 ? "--max-runs-per-comparison"
					      : "--max-time, which sets the runs a comparison gets";
}

/* Comparisons of the search left open or undecided, at what resolution, and why. */
static void print_open(FILE *f, const struct pp_outcome *o)
{
	unsigned n = 0;

	for (size_t i = 1; i < o->ncmp; i++) {
		const struct pp_outcome_cmp *q = &o->cmp[i];
		char a[32], b[32], c[32];

		if (!q->decided || (q->verdict != PP_V_BOUNDED && q->verdict != PP_V_UNDECIDED))
			continue;
		if (!n++)
			fprintf(
			    f,
			    "\nLeft open (their answers could not change the chain, or their time "
			    "ran out):\n");
		fprintf(f, "  [%u] %s  %s%s [%s, %s] after %zu+%zu runs  ", q->order, q->shown,
			q->cmp.diff.centre >= 0 ? "+" : "", pp_fmt_ns(q->cmp.diff.centre, a, 32),
			pp_fmt_end(q->cmp.diff.low, b, 32), pp_fmt_end(q->cmp.diff.high, c, 32),
			q->runs_per_revision, q->runs_per_revision);
		if (q->verdict == PP_V_BOUNDED)
			fprintf(f, "%s\n", q->left ? q->left : "left open");
		else if (q->truncated)
			fprintf(f, "undecided: %s was spent\n", q->spent_option);
		else
			fprintf(f, "undecided: its runs were spent (%s)\n", more_runs(o));
	}
}

/* Where the session's time went. */
static void print_time(FILE *f, const struct pp_outcome *o)
{
	const struct pp_time_use *u = &o->time;

	fprintf(f, "Time: %.0f s in all: builds %.1f s, discovery %.1f s (%zu runs)", u->total_s,
		u->builds_s, u->discovery_s, u->discovery_runs);
	if (u->layouts_s > 0)
		fprintf(f, ", linking the layouts %.1f s", u->layouts_s);
	for (unsigned l = 0; l < u->nlayers; l++) {
		if (!u->layer_runs[l])
			continue;
		if (l == 0)
			fprintf(f, ", the entry %.1f s (%zu runs)", u->layer_s[l],
				u->layer_runs[l]);
		else
			fprintf(f, ", layer %u %.1f s (%zu runs)", l, u->layer_s[l],
				u->layer_runs[l]);
	}
	if (u->confirm_runs)
		fprintf(f, ", the what-if %.1f s (%zu runs)", u->confirm_s, u->confirm_runs);
	fprintf(f, ", the driver %.1f s.\n", u->other_s);
}

/* How much the runs varied, and what the runs bought. */
static void print_noise(FILE *f, const struct pp_outcome *o)
{
	const struct pp_outcome_measurement *s = &o->measurement;

	if (!o->entry || o->entry->series[PP_PREV].n < 2) {
		/* no value to vary, but a load that kept every round from it */
		if (o->preempted_sentence[0])
			fprintf(f, "\n%s\n", o->preempted_sentence);
		return;
	}
	fprintf(f,
		"\nNoise: the entry varied by %.1f%% (previous) and %.1f%% (current) from run to "
		"run (coefficient of variation).\n",
		100.0 * o->cov[PP_PREV], 100.0 * o->cov[PP_CUR]);
	if (o->preempted_sentence[0])
		fprintf(f, "%s\n", o->preempted_sentence);
	if (o->cpus.checked)
		fprintf(f, "%s\n", o->cpus.sentence);
	if (s->entry_stop && s->entry_stop < s->entry_count)
		fprintf(f,
			"Each run ended after the entry's execution %llu (of at least %llu), "
			"skipping the first %llu (--executions)%s.\n",
			s->entry_stop, s->entry_count, s->entry_skip,
			s->entry_skip_setup ? ", and with it what the run did before it" : "");
	else if (s->entry_skip_setup)
		fprintf(f, "Each run skipped the entry's first execution, and with it what the run "
			   "did before it.\n");
	fprintf(f, "Runs: %zu", s->runs_used);
	if (o->opt.max_runs)
		fprintf(f, " of --max-runs %ld", o->opt.max_runs);
	fprintf(f, " decided %u comparison%s", o->ndecided, o->ndecided == 1 ? "" : "s");
	if (o->nundecided)
		fprintf(f, "; %u stayed undecided", o->nundecided);
	if (o->nleft)
		fprintf(f, "; %u %s left open", o->nleft, o->nleft == 1 ? "was" : "were");
	fprintf(f, ".  %s\n", o->runs_sentence);
	print_time(f, o);
}

/*
 * The code layouts: after the noise, or with --quiet after the verdict, and
 * there only when they were not varied (the verdict can include their effect).
 */
static void print_layouts(FILE *f, const struct pp_outcome *o, bool *printed)
{
	if (!o->nruns || (o->opt.quiet && o->layouts_varied))
		return;
	if (o->opt.quiet)
		gap(f, o, printed);
	fprintf(f, "Layouts: %s\n", o->layouts_sentence);
	if (!o->opt.quiet && o->has_spread)
		fprintf(f, "Layout spread: %s\n", o->spread_sentence);
}

/* What the entry's undecided interval would need, at the noise measured. */
static void print_runs_needed(FILE *f, const struct pp_outcome *o)
{
	const struct pp_outcome_cmp *e = o->entry;
	size_t n = e->runs_per_revision;
	double need = o->runs_needed;

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

/* The entry spent its runs without deciding: say so, never "no regression". */
static void print_undecided(FILE *f, const struct pp_outcome *o)
{
	const struct pp_outcome_cmp *e = o->entry;
	const char *name = o->entry_name;
	char a[32], b[32], c[32], t[32], m[32];

	if (!e->look.looks && e->truncated == PP_SPENT_LOAD) {
		fprintf(f,
			"Undecided: other work on the machine spoiled most rounds before %s could "
			"be compared. A quieter machine, or CPUs no other work uses (--cpu), can "
			"decide it.\n",
			name);
		return;
	}
	if (!e->look.looks) {
		fprintf(f, "Undecided: %s was spent before %s could be compared.\n",
			e->spent_option, name);
		return;
	}
	fprintf(
	    f,
	    "Undecided: could not decide within %zu runs whether %s got slower: difference "
	    "%s%s [%s, %s] at %.4g%% confidence, threshold %s, minimum detectable effect %s.%s\n",
	    e->look.runs, name, e->cmp.diff.centre >= 0 ? "+" : "",
	    pp_fmt_ns(e->cmp.diff.centre, a, 32), pp_fmt_end(e->cmp.diff.low, b, 32),
	    pp_fmt_end(e->cmp.diff.high, c, 32), 100.0 * e->look.confidence,
	    pp_fmt_ns(e->threshold_ns, t, 32), pp_fmt_end(e->look.mde, m, 32),
	    e->truncated == PP_SPENT_RUNS   ? " (--max-runs was spent)"
	    : e->truncated == PP_SPENT_TIME ? " (--max-time was spent)"
	    : e->truncated == PP_SPENT_LOAD ? " (other work on the machine spoiled most rounds)"
					    : "");
	if (e->truncated == PP_SPENT_LOAD) {
		fprintf(f, "A quieter machine, or CPUs no other work uses (--cpu), can decide "
			   "it.\n");
		return;
	}
	if (e->truncated == PP_SPENT_LAYOUTS) {
		fprintf(
		    f,
		    "The code layouts move it: even in the layouts the rest of its runs would "
		    "bring, the interval cannot get narrower than +-%s, which decides nothing at "
		    "the threshold. ",
		    pp_fmt_ns(e->layout_floor, m, sizeof(m)));
		if (o->layouts_cap <= o->layouts_first)
			fprintf(f,
				"Layouts that grow with the runs (--max-layouts above --layouts) "
				"can decide it.\n");
		else if (o->layouts_cap < (unsigned)o->opt.max_layouts)
			fprintf(f,
				"The layouts cache had room for %u layouts a revision; more room "
				"can decide it.\n",
				o->layouts_cap);
		else
			fprintf(f,
				"More layouts (--max-layouts, now %u; fewer pairs in each, "
				"--pairs-per-layout, now %u) or more runs (%s) can decide it.\n",
				o->layouts_cap, o->layouts_every, more_runs(o));
		return;
	}
	print_runs_needed(f, o);
	if (o->opt.max_runs_comparison > 0)
		fprintf(f, "More runs (--max-runs-per-comparison, --max-runs, --max-time) or less "
			   "noise (--cpu, an idle machine) can decide it.\n");
	else
		fprintf(f, "More runs (--max-time, which sets the runs a comparison gets; "
			   "--max-runs) or less noise (--cpu, an idle machine) can decide it.\n");
}

/* "faster", "slower by less than the threshold", ...: the entry's verdict when not slower. */
static const char *not_slower_words(enum pp_verdict v)
{
	switch (v) {
	case PP_V_FASTER:
		return "faster";
	case PP_V_SLOWER_BELOW:
		return "slower by less than the threshold";
	case PP_V_FASTER_BELOW:
		return "faster by less than the threshold";
	case PP_V_NOT_SLOWER:
		return "not slower by more than the threshold";
	default:
		return "not significantly slower";
	}
}

static void print_verdict(const struct pp_outcome *o, FILE *f, bool *printed)
{
	const struct pp_outcome_cmp *e = o->entry;

	if (o->interrupted) {
		gap(f, o, printed);
		fprintf(f, "Interrupted: what was established so far:\n");
	}
	if (o->failure) {
		gap(f, o, printed);
		fprintf(f, "Measurement failed: %s\n", o->failure);
	}
	if (o->decided && o->verdict == PP_V_UNDECIDED) {
		gap(f, o, printed);
		print_undecided(f, o);
		return;
	}
	if (o->decided && o->verdict != PP_V_SLOWER) {
		char a[32], b[32], c[32], t[32];

		gap(f, o, printed);
		fprintf(f,
			"No regression: %s is %s in the current revision (difference %s%s "
			"[%s, %s], threshold %s).\n",
			o->entry_name, not_slower_words(o->verdict),
			e->cmp.diff.centre >= 0 ? "+" : "", pp_fmt_ns(e->cmp.diff.centre, a, 32),
			pp_fmt_ns(e->cmp.diff.low, b, 32), pp_fmt_ns(e->cmp.diff.high, c, 32),
			pp_fmt_ns(e->threshold_ns, t, 32));
		return;
	}
	if (!o->nchain)
		return;
	gap(f, o, printed);
	print_chain(f, o);
	/* the what-if on the chain's claim (--confirm), under it */
	if (*o->confirm.sentence)
		fprintf(f, "%s\n", o->confirm.sentence);
	print_tree(f, o);
	if (!o->opt.quiet)
		print_open(f, o);
}

void pp_report_verdict(const struct pp_outcome *o, FILE *f)
{
	bool printed = false;

	print_lost(f, o, &printed);
	if (!o->opt.quiet) {
		print_noise(f, o);
		print_layouts(f, o, &printed);
	}
	print_verdict(o, f, &printed);
	if (o->opt.quiet)
		print_layouts(f, o, &printed);
}
