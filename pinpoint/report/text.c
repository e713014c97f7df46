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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/report/report.h"

static const char *fn_name(const struct pp_prog_fn *fn)
{
	return pp_demangle(fn->name);
}

char *pp_quantity_label(const struct pp_quantity *q)
{
	const struct pp_prog_fn *fn = q->fn[PP_CUR];
	char *l = NULL;
	int r = -1;

	switch (q->kind) {
	case PP_Q_ENTRY:
		r = asprintf(&l, "%s (entry)", fn_name(fn));
		break;
	case PP_Q_SELF:
		r = asprintf(&l, "%s: own body", fn_name(fn));
		break;
	case PP_Q_RANGE: {
		char *a = strdup(pp_demangle(pp_prog_call_name(&fn->calls[q->first])));
		const char *b = pp_demangle(pp_prog_call_name(&fn->calls[q->last]));

		if (q->first == q->last)
			r = asprintf(&l, "%s: call %u %s", fn_name(fn), q->first, a ? a : "?");
		else
			r = asprintf(&l, "%s: calls %u-%u (%s .. %s)", fn_name(fn), q->first,
				     q->last, a ? a : "?", b);
		free(a);
		break;
	}
	}
	return r < 0 ? NULL : l;
}

static const char *verdict_word(enum pp_verdict v)
{
	switch (v) {
	case PP_V_SLOWER:
		return "SLOWER";
	case PP_V_FASTER:
		return "faster";
	case PP_V_UNDECIDED:
		return "UNDECIDED";
	default:
		return "same";
	}
}

void pp_report_comparison(const struct pp_session *s, const struct pp_quantity *q)
{
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32], i[32];
	struct pp_interval p = pp_revision_interval(s, q, PP_PREV);
	struct pp_interval cu = pp_revision_interval(s, q, PP_CUR);
	const struct pp_quantity *entry = s->q[0];
	double base = pp_summary_centre(&entry->sum[PP_PREV], s->opt->test);
	char *label;

	if (s->opt->quiet)
		return;
	label = pp_quantity_label(q);
	printf("[%u] %-44s previous %s [%s, %s]  current %s [%s, %s]  diff %s%s [%s, %s] "
	       "(%+.1f%% of entry)  %s%s\n",
	       q->order, label ? label : "?", pp_fmt_ns(p.centre, a, 32), pp_fmt_ns(p.low, b, 32),
	       pp_fmt_ns(p.high, c, 32), pp_fmt_ns(cu.centre, d, 32), pp_fmt_ns(cu.low, e, 32),
	       pp_fmt_ns(cu.high, f, 32), q->cmp.diff.centre >= 0 ? "+" : "",
	       pp_fmt_ns(q->cmp.diff.centre, g, 32), pp_fmt_ns(q->cmp.diff.low, h, 32),
	       pp_fmt_ns(q->cmp.diff.high, i, 32),
	       base > 0 ? 100.0 * q->cmp.diff.centre / base : 0.0, verdict_word(q->verdict),
	       q->rounds ? " (re-measured)" : "");
	fflush(stdout);
	free(label);
}

static void print_loc(FILE *f, const char *file, unsigned line, unsigned col)
{
	if (!file || !file[0])
		fprintf(f, "(no debug info)");
	else if (col)
		fprintf(f, "%s:%u:%u", file, line, col);
	else
		fprintf(f, "%s:%u", file, line);
}

static void print_cost(FILE *f, const struct pp_session *s, const struct pp_quantity *q)
{
	const struct pp_quantity *entry = s->q[0];
	double base = pp_summary_centre(&entry->sum[PP_PREV], s->opt->test);
	char a[32], b[32], c[32];

	if (!q || !q->decided)
		return;
	fprintf(f, "  costs %s%s [%s, %s]", q->cmp.diff.centre >= 0 ? "+" : "",
		pp_fmt_ns(q->cmp.diff.centre, a, 32), pp_fmt_ns(q->cmp.diff.low, b, 32),
		pp_fmt_ns(q->cmp.diff.high, c, 32));
	if (base > 0)
		fprintf(f, " = %.1f%% of %s", 100.0 * q->cmp.diff.centre / base,
			pp_demangle(entry->fn[PP_CUR]->name));
}

static void print_chain_line(FILE *f, const struct pp_session *s)
{
	fprintf(f, "Bottleneck chain: ");
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct pp_chain_step *l = &s->steps[i];
		const struct pp_prog_fn *fn = l->fn[PP_CUR];

		switch (l->kind) {
		case PP_STEP_ENTRY:
			fprintf(f, "%s", fn_name(fn));
			break;
		case PP_STEP_CALL:
			fprintf(f, " → %s", pp_demangle(pp_prog_call_name(&fn->calls[l->first])));
			break;
		case PP_STEP_RANGE:
			fprintf(f, " → calls %u-%u of %s", l->first, l->last, fn_name(fn));
			break;
		case PP_STEP_SELF:
			fprintf(f, " → own body of %s", fn_name(fn));
			break;
		case PP_STEP_STRUCTURAL:
			fprintf(f, " → changed code of %s", fn_name(fn));
			break;
		}
	}
	fprintf(f, "\n");
}

/* Executions the runtime could not count, over every run kept. */
static void print_lost(FILE *f, const struct pp_session *s)
{
	unsigned long long lost = 0;
	size_t runs = 0;

	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].lost) {
			lost += s->runs[i].lost;
			runs++;
		}
	if (lost)
		fprintf(f,
			"\nDropped executions: %llu measured executions in %zu runs were abandoned "
			"without their exit probe (longjmp, exceptions) and not counted.\n",
			lost, runs);
}

void pp_report_verdict(const struct pp_session *s, FILE *f)
{
	const struct pp_quantity *entry = s->nq ? s->q[0] : NULL;

	print_lost(f, s);
	if (s->interrupted)
		fprintf(f, "\nInterrupted: what was established so far:\n");
	if (s->outcome == PP_EXIT_MEASUREMENT && s->failure)
		fprintf(f, "\nMeasurement failed: %s\n", s->failure);
	if (entry && entry->decided && entry->verdict != PP_V_SLOWER) {
		char a[32], b[32], c[32], t[32];

		fprintf(
		    f,
		    "\nNo regression: %s is %s in the current revision (difference %s%s "
		    "[%s, %s], threshold %s).\n",
		    fn_name(entry->fn[PP_CUR]),
		    entry->verdict == PP_V_FASTER ? "faster" : "not significantly slower",
		    entry->cmp.diff.centre >= 0 ? "+" : "",
		    pp_fmt_ns(entry->cmp.diff.centre, a, 32), pp_fmt_ns(entry->cmp.diff.low, b, 32),
		    pp_fmt_ns(entry->cmp.diff.high, c, 32), pp_fmt_ns(entry->threshold_ns, t, 32));
		return;
	}
	if (!s->nsteps)
		return;
	fprintf(f, "\n");
	print_chain_line(f, s);
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct pp_chain_step *l = &s->steps[i];
		const struct pp_prog_fn *fn = l->fn[PP_CUR];
		const struct pp_prog_call *c;
		int indent = 2 * (int)i;

		fprintf(f, "%*s", indent + 2, "");
		switch (l->kind) {
		case PP_STEP_ENTRY:
			fprintf(f, "%s  ", fn_name(fn));
			print_loc(f, fn->file, fn->line, 0);
			break;
		case PP_STEP_CALL:
			c = &fn->calls[l->first];
			fprintf(f, "→ %s  call %u of %s at ", pp_demangle(pp_prog_call_name(c)),
				l->first, fn_name(fn));
			print_loc(f, c->file, c->line, c->col);
			break;
		case PP_STEP_RANGE:
			c = &fn->calls[l->first];
			fprintf(f, "→ calls %u-%u of %s, from ", l->first, l->last, fn_name(fn));
			print_loc(f, c->file, c->line, c->col);
			c = &fn->calls[l->last];
			fprintf(f, " to ");
			print_loc(f, c->file, c->line, c->col);
			break;
		case PP_STEP_SELF:
			fprintf(f, "→ own body of %s  ", fn_name(fn));
			print_loc(f, fn->file, fn->line, 0);
			break;
		case PP_STEP_STRUCTURAL:
			fprintf(f, "→ %s  ", fn_name(fn));
			print_loc(f, fn->file, fn->line, 0);
			fprintf(f, "  %s", l->detail ? l->detail : "its call list changed");
			break;
		}
		print_cost(f, s, l->q);
		if (l->stop)
			fprintf(f, "  [%s]", l->stop);
		fprintf(f, "\n");
	}
}
