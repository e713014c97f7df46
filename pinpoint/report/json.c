// SPDX-License-Identifier: MIT
/*
 * json.c - the session as JSON: options, platform, every run and sample,
 * every comparison, the bottleneck chain.  The layout is described by
 * doc/report.schema.json.  Written to a temporary file and renamed, so a
 * reader never sees half a report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json_string.h"
#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/report/json.h"
#include "pinpoint/outcome.h"
#include "pinpoint/report/platform.h"
#include "pinpoint/report/report.h"

#ifndef PP_VERSION
#define PP_VERSION "0"
#endif

static void sep(struct pp_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
	if (key) {
		fputc('"', j->f);
		for (const char *p = key; *p; p++)
			fputc(*p, j->f);
		fputs("\": ", j->f);
	}
}

void pp_json_begin(struct pp_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
	fputc('{', f);
	j->depth = 1;
	j->first[1] = true;
}

static void open_(struct pp_json *j, const char *key, char c)
{
	sep(j, key);
	fputc(c, j->f);
	if (j->depth < 63)
		j->depth++;
	j->first[j->depth] = true;
}

void pp_json_object(struct pp_json *j, const char *key)
{
	open_(j, key, '{');
}

void pp_json_array(struct pp_json *j, const char *key)
{
	open_(j, key, '[');
}

static void close_(struct pp_json *j, char c)
{
	bool empty = j->first[j->depth];

	j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
}

void pp_json_end_object(struct pp_json *j)
{
	close_(j, '}');
}

void pp_json_end_array(struct pp_json *j)
{
	close_(j, ']');
}

void pp_json_str(struct pp_json *j, const char *key, const char *v)
{
	if (!j)
		return;
	sep(j, key);
	if (v)
		pp_json_put_string(j->f, v);
	else
		fputs("null", j->f);
}

void pp_json_num(struct pp_json *j, const char *key, double v)
{
	sep(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.17g", v);
	else
		fputs("null", j->f);
}

void pp_json_int(struct pp_json *j, const char *key, long long v)
{
	sep(j, key);
	fprintf(j->f, "%lld", v);
}

void pp_json_bool(struct pp_json *j, const char *key, bool v)
{
	sep(j, key);
	fputs(v ? "true" : "false", j->f);
}

void pp_json_null(struct pp_json *j, const char *key)
{
	sep(j, key);
	fputs("null", j->f);
}

static void interval(struct pp_json *j, const char *key, struct pp_interval iv)
{
	pp_json_object(j, key);
	pp_json_num(j, "centre", iv.centre);
	pp_json_num(j, "low", iv.low);
	pp_json_num(j, "high", iv.high);
	pp_json_end_object(j);
}

static const char *test_name(enum pp_test t)
{
	return t == PP_TEST_WELCH ? "welch" : "mann-whitney";
}

static void write_options(struct pp_json *j, const struct pp_session *s)
{
	const struct pp_options *o = s->opt;

	pp_json_object(j, "options");
	pp_json_str(j, "entry", o->entry);
	pp_json_int(j, "depth", o->depth);
	pp_json_str(j, "previous", s->rev[PP_PREV].dir);
	pp_json_str(j, "current", s->rev[PP_CUR].dir);
	pp_json_int(j, "measurements", o->measurements);
	pp_json_int(j, "warmups", o->warmups);
	pp_json_int(j, "layouts", o->layouts);
	pp_json_num(j, "confidence", o->confidence);
	pp_json_num(j, "precision_threshold", o->precision);
	pp_json_int(j, "max_runs", o->max_runs);
	pp_json_int(j, "executions", o->executions);
	pp_json_num(j, "max_time_s", o->max_time);
	pp_json_int(j, "max_runs_per_comparison", o->max_runs_comparison);
	pp_json_str(j, "cpu", o->cpu_list);
	pp_json_num(j, "timeout", s->timeout_s);
	pp_json_array(j, "exclude");
	for (size_t i = 0; i < o->nexclude; i++)
		pp_json_str(j, NULL, o->exclude[i]);
	pp_json_end_array(j);
	pp_json_str(j, "search", pp_search_name(o->search));
	pp_json_int(j, "max_paths", o->max_paths);
	pp_json_str(j, "test", test_name(o->test));
	pp_json_str(j, "runs", pp_runs_name(o->runs));
	pp_json_array(j, "command");
	for (char **a = o->command; a && *a; a++)
		pp_json_str(j, NULL, *a);
	pp_json_end_array(j);
	pp_json_end_object(j);
}

/* The session's measurement rule, what it used and how noisy the runs were. */
static void write_measurement(struct pp_json *j, const struct pp_session *s)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;

	pp_json_object(j, "measurement");
	pp_json_int(j, "entry_skip", (long long)s->entry_skip);
	pp_json_int(j, "entry_stop", (long long)s->entry_stop);
	pp_json_int(j, "entry_count", (long long)s->entry_count);
	if (s->threshold_fixed)
		pp_json_num(j, "threshold_ns", s->threshold_ns);
	else
		pp_json_null(j, "threshold_ns");
	pp_json_int(j, "runs_used", (long long)s->runs_used);
	pp_json_str(j, "design", pp_runs_name(pp_session_runs(s)));
	pp_json_array(j, "duet_cpus");
	for (int i = 0; i < 2 && s->duet; i++)
		if (s->duet_cpu[i] >= 0)
			pp_json_int(j, NULL, s->duet_cpu[i]);
		else
			pp_json_null(j, NULL);
	pp_json_end_array(j);
	if (s->seeded)
		pp_json_int(j, "seed", (long long)s->seed);
	else
		pp_json_null(j, "seed");
	pp_json_num(j, "cov_previous", e ? pp_series_cov(&e->series[PP_PREV]) : NAN);
	pp_json_num(j, "cov_current", e ? pp_series_cov(&e->series[PP_CUR]) : NAN);
	pp_json_end_object(j);
}

/* Measured runs (no discovery run, no warm-up) of revision @r in layout @k. */
static long long runs_in(const struct pp_session *s, int r, unsigned k)
{
	long long n = 0;

	for (size_t i = 0; i < s->nruns; i++)
		n += s->runs[i].batch && !s->runs[i].warmup &&
		     s->runs[i].rev == (enum pp_rev_id)r && s->runs[i].setup.layout == (int)k;
	return n;
}

/* Each revision's code layouts: seeds, what was linked again and what it cost. */
static void write_layouts(struct pp_json *j, const struct pp_session *s)
{
	char line[1024];

	pp_layouts_sentence(s, line, sizeof(line));
	pp_json_object(j, "layouts");
	pp_json_int(j, "requested", s->opt->layouts);
	pp_json_bool(j, "varied", pp_layouts_varied(s));
	pp_json_str(j, "note", line);
	pp_json_num(j, "relink_s",
		    pp_layouts_relink_s(&s->rev[PP_PREV].lay) +
			pp_layouts_relink_s(&s->rev[PP_CUR].lay));
	pp_json_array(j, "revisions");
	for (int r = 0; r < 2; r++) {
		const struct pp_layouts *l = &s->rev[r].lay;

		pp_json_object(j, NULL);
		pp_json_str(j, "label", s->rev[r].label);
		pp_json_str(j, "not_varied", l->n ? NULL : l->not_varied);
		pp_json_array(j, "layouts");
		for (unsigned k = 0; k < l->n; k++) {
			pp_json_object(j, NULL);
			pp_json_int(j, "index", k);
			pp_json_int(j, "seed", (long long)l->seed[k]);
			pp_json_num(j, "relink_s", l->relink_s[k]);
			pp_json_bool(j, "reused", l->reused[k]);
			pp_json_int(j, "runs", runs_in(s, r, k));
			pp_json_end_object(j);
		}
		pp_json_end_array(j);
		pp_json_array(j, "modules");
		for (size_t i = 0; i < l->nmodules; i++) {
			const struct pp_layout_module *m = &l->modules[i];

			pp_json_object(j, NULL);
			pp_json_str(j, "path", m->path);
			pp_json_bool(j, "relinked", !m->why);
			pp_json_str(j, "why", m->why);
			pp_json_num(j, "relink_s", m->relink_s);
			pp_json_end_object(j);
		}
		pp_json_end_array(j);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
	pp_json_end_object(j);
}

static void write_revisions(struct pp_json *j, const struct pp_session *s)
{
	pp_json_array(j, "revisions");
	for (int r = 0; r < 2; r++) {
		const struct pp_revision *rev = &s->rev[r];

		pp_json_object(j, NULL);
		pp_json_str(j, "label", rev->label);
		pp_json_str(j, "dir", rev->dir);
		pp_json_array(j, "binaries");
		for (size_t i = 0; i < rev->prog.nobjects; i++)
			pp_json_str(j, NULL, rev->prog.objects[i]);
		pp_json_end_array(j);
		pp_json_int(j, "functions", (long long)rev->prog.nfuncs);
		if (rev->entry) {
			pp_json_object(j, "entry");
			pp_json_str(j, "name", rev->entry->name);
			pp_json_str(j, "file", rev->entry->file);
			pp_json_int(j, "line", rev->entry->line);
			pp_json_end_object(j);
		}
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
}

static const char *qkind(enum pp_qkind k)
{
	return k == PP_Q_ENTRY	 ? "entry"
	       : k == PP_Q_RANGE ? "range"
	       : k == PP_Q_TOTAL ? "total"
				 : "self";
}

/* What the code layouts did to @q (null when its runs were in one layout). */
static void write_layout_var(struct pp_json *j, const struct pp_quantity *q)
{
	if (!q->has_layout) {
		pp_json_null(j, "layout");
		return;
	}
	pp_json_object(j, "layout");
	pp_json_array(j, "share");
	for (int r = 0; r < 2; r++)
		pp_json_num(j, NULL, q->layout[r].share);
	pp_json_end_array(j);
	pp_json_array(j, "between_sd_ns");
	for (int r = 0; r < 2; r++)
		pp_json_num(j, NULL, sqrt(q->layout[r].between));
	pp_json_end_array(j);
	pp_json_array(j, "within_sd_ns");
	for (int r = 0; r < 2; r++)
		pp_json_num(j, NULL, sqrt(q->layout[r].within));
	pp_json_end_array(j);
	pp_json_array(j, "layouts");
	for (int r = 0; r < 2; r++)
		pp_json_int(j, NULL, (long long)q->layout[r].layouts);
	pp_json_end_array(j);
	pp_json_num(j, "pair_sd_ns", q->layout_sd);
	pp_json_bool(j, "sensitive", q->layout_sensitive);
	pp_json_end_object(j);
}

static void write_comparisons(struct pp_json *j, const struct pp_session *s)
{
	pp_json_array(j, "comparisons");
	for (size_t i = 0; i < s->nq; i++) {
		const struct pp_quantity *q = s->q[i];
		char *label = pp_quantity_label(q);

		pp_json_object(j, NULL);
		pp_json_int(j, "id", q->id);
		pp_json_str(j, "label", label ? label : "");
		free(label);
		pp_json_str(j, "kind", qkind(q->kind));
		pp_json_str(j, "function", q->fn[PP_CUR]->name);
		pp_json_str(j, "file", q->fn[PP_CUR]->file);
		if (q->kind == PP_Q_RANGE) {
			pp_json_int(j, "first_call", q->first);
			pp_json_int(j, "last_call", q->last);
		}
		pp_json_int(j, "batch", q->batch);
		for (int r = 0; r < 2; r++) {
			pp_json_array(j, r == PP_PREV ? "previous_ns" : "current_ns");
			for (size_t k = 0; k < q->series[r].n; k++)
				pp_json_num(j, NULL, q->series[r].v[k]);
			pp_json_end_array(j);
		}
		pp_json_bool(j, "decided", q->decided);
		if (q->decided) {
			pp_json_int(j, "order", q->order);
			for (int r = 0; r < 2; r++) {
				const struct pp_summary *m = &q->sum[r];

				pp_json_object(j, r == PP_PREV ? "previous" : "current");
				pp_json_int(j, "n", (long long)m->n);
				pp_json_num(j, "mean", m->mean);
				pp_json_num(j, "sd", m->sd);
				pp_json_num(j, "median", m->median);
				pp_json_num(j, "min", m->min);
				pp_json_num(j, "max", m->max);
				interval(j, "mean_interval", m->ci);
				interval(j, "interval", q->ci[r]);
				pp_json_end_object(j);
			}
			pp_json_object(j, "difference");
			pp_json_str(j, "test", test_name(q->cmp.test));
			pp_json_num(j, "confidence", q->cmp.confidence);
			interval(j, "interval", q->cmp.diff);
			pp_json_num(j, "p_value", q->cmp.p_value);
			pp_json_num(j, "statistic", q->cmp.statistic);
			pp_json_num(j, "df", q->cmp.df);
			pp_json_bool(j, "exact", q->cmp.exact);
			pp_json_bool(j, "paired", q->cmp.paired);
			pp_json_bool(j, "significant", q->cmp.significant);
			pp_json_end_object(j);
			pp_json_num(j, "threshold_ns", q->threshold_ns);
			pp_json_int(j, "rounds", q->rounds);
			pp_json_object(j, "sequential");
			pp_json_num(j, "alpha", q->final_look.alpha);
			pp_json_int(j, "looks", q->final_look.looks);
			pp_json_int(j, "runs", (long long)q->final_look.runs);
			pp_json_int(j, "budget", (long long)q->final_look.budget);
			pp_json_num(j, "alpha_spent", q->final_look.alpha_spent);
			pp_json_num(j, "look_confidence", q->final_look.confidence);
			pp_json_num(j, "mde_ns", q->final_look.mde);
			pp_json_bool(j, "max_runs_spent", q->truncated == PP_SPENT_RUNS);
			pp_json_bool(j, "max_time_spent", q->truncated == PP_SPENT_TIME);
			pp_json_bool(j, "time_plan_spent", q->truncated == PP_SPENT_PLAN);
			pp_json_bool(j, "layouts_spent", q->truncated == PP_SPENT_LAYOUTS);
			pp_json_end_object(j);
			pp_json_str(j, "verdict", pp_verdict_name(q->verdict));
			pp_json_str(j, "left", q->left);
			write_layout_var(j, q);
		}
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
}

static void write_runs(struct pp_json *j, const struct pp_session *s)
{
	pp_json_array(j, "batches");
	for (size_t i = 0; i < s->nbatches; i++) {
		const struct pp_batch *b = &s->batches[i];

		pp_json_object(j, NULL);
		pp_json_int(j, "id", b->id);
		pp_json_array(j, "comparisons");
		for (size_t k = 0; k < b->nq; k++)
			pp_json_int(j, NULL, b->qids[k]);
		pp_json_end_array(j);
		pp_json_str(j, "arming_previous", b->arming[PP_PREV]);
		pp_json_str(j, "arming_current", b->arming[PP_CUR]);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);

	pp_json_array(j, "runs");
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *r = &s->runs[i];
		char how[128];

		pp_json_object(j, NULL);
		pp_json_int(j, "batch", r->batch);
		pp_json_str(j, "revision", s->rev[r->rev].label);
		pp_json_int(j, "index", r->index);
		pp_json_bool(j, "warmup", r->warmup);
		pp_json_str(j, "status", pp_run_describe(&r->st, how, sizeof(how)));
		pp_json_num(j, "wall_s", r->st.wall_s);
		pp_json_num(j, "cpu_s", r->st.cpu_s);
		if (r->cpu >= 0)
			pp_json_int(j, "cpu", r->cpu);
		else
			pp_json_null(j, "cpu");
		if (r->setup.layout >= 0)
			pp_json_int(j, "layout", r->setup.layout);
		else
			pp_json_null(j, "layout");
		pp_json_int(j, "env_pad", r->setup.env_pad);
		pp_json_int(j, "heap_offset", r->setup.heap);
		pp_json_int(j, "entry_count", (long long)r->entry_count);
		pp_json_array(j, "values_ns");
		for (size_t k = 0; k < r->nvalues; k++)
			pp_json_num(j, NULL, r->values[k]);
		pp_json_end_array(j);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
}

static const char *node_kind(enum pp_node_kind k)
{
	switch (k) {
	case PP_NODE_ENTRY:
		return "entry";
	case PP_NODE_CALL:
		return "call";
	case PP_NODE_RANGE:
		return "range";
	case PP_NODE_SELF:
		return "self";
	case PP_NODE_STRUCTURAL:
		return "structural";
	case PP_NODE_ADDED:
		return "added";
	case PP_NODE_REMOVED:
		return "removed";
	default:
		return "remainder";
	}
}

/*
 * The inlined calls call @k of @fn came through, the outermost first, and
 * the call as reports name it ("(inlined SHA512_Pad) → SHA512_Transform").
 */
static void inlined_through(struct pp_json *j, const struct pp_prog_fn *fn, unsigned k)
{
	uint32_t n = pp_prog_call_chain(fn, k, NULL, 0), *chain = calloc(n + 1, sizeof(*chain));
	char *label = pp_prog_call_label(fn, k);

	pp_json_str(j, "call_label", label);
	free(label);
	pp_json_array(j, "inlined_through");
	if (chain)
		pp_prog_call_chain(fn, k, chain, n);
	for (uint32_t i = 0; chain && i < n; i++) {
		const struct pp_prog_call *c = &fn->calls[chain[i]];

		pp_json_object(j, NULL);
		pp_json_int(j, "call", chain[i]);
		pp_json_str(j, "callee", c->callee);
		pp_json_str(j, "callee_demangled", pp_demangle(c->callee));
		pp_json_str(j, "file", c->file);
		pp_json_int(j, "line", c->line);
		pp_json_int(j, "column", c->col);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
	free(chain);
}

/* The fields a chain step and a tree node share. */
static void node_fields(struct pp_json *j, const struct pp_node *n)
{
	int r;
	const struct pp_prog_call *c = pp_node_call(n, &r);
	const struct pp_prog_fn *fn = n->fn[r] ? n->fn[r] : n->fn[1 - r];

	pp_json_str(j, "kind", node_kind(n->kind));
	pp_json_str(j, "function", fn->name);
	pp_json_str(j, "function_demangled", pp_demangle(fn->name));
	pp_json_str(j, "file", fn->file);
	pp_json_int(j, "line", fn->line);
	if (c && (n->kind == PP_NODE_CALL || n->kind == PP_NODE_RANGE || n->kind == PP_NODE_ADDED ||
		  n->kind == PP_NODE_REMOVED)) {
		pp_json_int(j, "first_call", n->first[r]);
		pp_json_int(j, "last_call", n->last[r]);
		pp_json_str(j, "callee", c->callee);
		pp_json_str(j, "call_file", c->file);
		pp_json_int(j, "call_line", c->line);
		pp_json_int(j, "call_column", c->col);
		inlined_through(j, fn, n->first[r]);
	}
	if (n->q)
		pp_json_int(j, "comparison", n->q->id);
	interval(j, "cost_ns", n->diff);
	pp_json_str(j, "stop", n->stop);
	pp_json_str(j, "detail", n->detail);
}

static void write_chain(struct pp_json *j, const struct pp_outcome *o)
{
	pp_json_array(j, "bottleneck_chain");
	for (size_t k = 0; k < o->nchain; k++) {
		pp_json_object(j, NULL);
		node_fields(j, o->nodes[o->chain[k]].n);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
}

/* The further contributors, in rank order (the chain is the first). */
static void write_contributors(struct pp_json *j, const struct pp_outcome *o)
{
	pp_json_array(j, "contributors");
	for (size_t k = 0; k < o->ncontrib; k++) {
		const struct pp_outcome_node *n = &o->nodes[o->contrib[k]];

		pp_json_object(j, NULL);
		pp_json_int(j, "rank", n->rank + 1);
		pp_json_int(j, "node", o->contrib[k]);
		pp_json_str(j, "kind", node_kind(n->kind));
		pp_json_str(j, "function", pp_node_function(n->n));
		interval(j, "cost_ns", n->diff);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
}

/* A function's whole, its parts together and its remainder, from the same runs. */
static void write_accounting(struct pp_json *j, const struct pp_session *s, const struct pp_node *n)
{
	if (n->runs[0] < 2 || n->runs[1] < 2) {
		pp_json_null(j, "accounting");
		return;
	}
	pp_json_object(j, "accounting");
	pp_json_array(j, "runs");
	pp_json_int(j, NULL, (long long)n->runs[PP_PREV]);
	pp_json_int(j, NULL, (long long)n->runs[PP_CUR]);
	pp_json_end_array(j);
	interval(j, "whole_ns", n->whole);
	interval(j, "parts_ns", n->parts);
	pp_json_num(j, "probe_scale", n->probe_scale);
	pp_json_array(j, "probe_scales");
	for (int r = 0; r < 2; r++)
		pp_json_num(j, NULL, n->scales[r]);
	pp_json_end_array(j);
	pp_json_array(j, "clean_ns");
	pp_json_num(j, NULL, n->clean[PP_PREV]);
	pp_json_num(j, NULL, n->clean[PP_CUR]);
	pp_json_end_array(j);
	pp_json_array(j, "parts");
	for (int c = n->child; c >= 0; c = s->nodes[c].next) {
		pp_json_object(j, NULL);
		pp_json_int(j, "node", c);
		pp_json_array(j, "mean_ns");
		pp_json_num(j, NULL, s->nodes[c].mean[PP_PREV]);
		pp_json_num(j, NULL, s->nodes[c].mean[PP_CUR]);
		pp_json_end_array(j);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
	for (int c = n->child; c >= 0; c = s->nodes[c].next)
		if (s->nodes[c].kind == PP_NODE_REST)
			interval(j, "remainder_ns", s->nodes[c].diff);
	if (n->lead >= 0)
		pp_json_int(j, "lead", n->lead);
	else
		pp_json_null(j, "lead");
	if (n->tie >= 0)
		pp_json_int(j, "tie", n->tie);
	else
		pp_json_null(j, "tie");
	pp_json_end_object(j);
}

static void write_time(struct pp_json *j, const struct pp_outcome *o)
{
	const struct pp_time_use u = o->time;

	pp_json_object(j, "time");
	pp_json_num(j, "total_s", u.total_s);
	pp_json_num(j, "builds_s", u.builds_s);
	pp_json_num(j, "discovery_s", u.discovery_s);
	pp_json_int(j, "discovery_runs", (long long)u.discovery_runs);
	pp_json_num(j, "layouts_s", u.layouts_s);
	pp_json_num(j, "driver_s", u.other_s);
	pp_json_array(j, "layers");
	for (unsigned l = 0; l < u.nlayers; l++) {
		pp_json_object(j, NULL);
		pp_json_int(j, "layer", l);
		pp_json_num(j, "s", u.layer_s[l]);
		pp_json_int(j, "runs", (long long)u.layer_runs[l]);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
	pp_json_end_object(j);
}

static void write_tree(struct pp_json *j, const struct pp_outcome *o)
{
	const struct pp_session *s = o->s;

	write_contributors(j, o);
	pp_json_bool(j, "search_cut_short", o->budget_cut);
	pp_json_array(j, "tree");
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct pp_node *n = &s->nodes[i];

		pp_json_object(j, NULL);
		pp_json_int(j, "id", (long long)i);
		pp_json_int(j, "parent", n->parent);
		pp_json_array(j, "children");
		for (int c = n->child; c >= 0; c = s->nodes[c].next)
			pp_json_int(j, NULL, c);
		pp_json_end_array(j);
		pp_json_int(j, "layer", n->depth);
		node_fields(j, n);
		pp_json_num(j, "share", n->share);
		interval(j, "share_interval", n->share_ci);
		pp_json_bool(j, "point_estimate", o->nodes[i].point);
		write_accounting(j, s, n);
		pp_json_int(j, "sign", n->sign);
		pp_json_bool(j, "chain", n->chain);
		pp_json_int(j, "rank", n->rank ? n->rank + 1 : 0);
		pp_json_end_object(j);
	}
	pp_json_end_array(j);
}

static void platform_json(struct pp_json *j, const struct pp_platform *p)
{
	pp_json_object(j, "platform");
	pp_json_str(j, "cpu", p->cpu);
	pp_json_int(j, "cpus", p->cpus);
	pp_json_str(j, "kernel", p->kernel);
	pp_json_str(j, "machine", p->machine);
	pp_json_str(j, "llvm", p->llvm);
	pp_json_str(j, "compiler_previous", p->compiler[0]);
	pp_json_str(j, "compiler_current", p->compiler[1]);
	pp_json_end_object(j);
}

static void write_json(FILE *f, const void *arg)
{
	const struct pp_outcome *o = arg;
	const struct pp_session *s = o->s;
	struct pp_json j;

	pp_json_begin(&j, f);
	pp_json_str(&j, "format", "pinpoint-report");
	pp_json_int(&j, "version", 1);
	pp_json_str(&j, "pinpoint_version", PP_VERSION);
	pp_json_num(&j, "started", s->started_wall);
	pp_json_num(&j, "duration_s", s->finished - s->started);
	pp_json_str(&j, "outcome", pp_status_name(o->status));
	pp_json_int(&j, "exit_code", o->status);
	pp_json_bool(&j, "interrupted", o->interrupted);
	pp_json_str(&j, "failure", o->failure);
	platform_json(&j, &o->platform);
	write_options(&j, s);
	write_measurement(&j, s);
	write_revisions(&j, s);
	write_layouts(&j, s);
	write_comparisons(&j, s);
	write_chain(&j, o);
	write_tree(&j, o);
	write_runs(&j, s);
	write_time(&j, o);
	pp_json_end_object(&j);
	fputc('\n', f);
}

int pp_json_write(const struct pp_outcome *o, const char *path)
{
	return pp_write_atomic(path, write_json, o);
}
