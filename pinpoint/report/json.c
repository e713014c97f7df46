// SPDX-License-Identifier: MIT
/*
 * json.c - the session as JSON: options, platform, every run and sample,
 * every comparison, the bottleneck chain.  The layout is described by
 * doc/report.schema.json.  Each object of the report is made by one
 * function from plain values (core/json.h), the whole document in memory,
 * then written to a temporary file and renamed, so a reader never sees half
 * a report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"
#include "pinpoint/report/json.h"
#include "pinpoint/report/report.h"

#ifndef PP_VERSION
#define PP_VERSION "0"
#endif

/* An integer that is null when negative (no CPU, no layout, no node). */
static json_t *index_or_null(long long v)
{
	return v >= 0 ? pp_json_int(v) : json_null();
}

static json_t *interval_json(struct pp_interval iv)
{
	return pp_json_interval(iv.centre, iv.low, iv.high);
}

/* [previous, current] */
static json_t *pair_real(double prev, double cur)
{
	return pp_json_push(pp_json_push(json_array(), pp_json_real(prev)), pp_json_real(cur));
}

/* An interval, or null when its centre is not known. */
static json_t *interval_or_null(struct pp_interval iv)
{
	return isfinite(iv.centre) ? interval_json(iv) : json_null();
}

static json_t *pair_int(long long prev, long long cur)
{
	return pp_json_push(pp_json_push(json_array(), pp_json_int(prev)), pp_json_int(cur));
}

static json_t *strings_json(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		a = pp_json_push(a, pp_json_str(v[i]));
	return a;
}

/*
 * The options of the table that make the measurement (options.c), with the
 * directories as the session resolved them and the timeout it used.
 */
static json_t *options_json(const struct pp_outcome *oc)
{
	json_t *o = pp_options_json(&oc->opt);

	o = pp_json_set(o, "previous", pp_json_str(oc->rev[PP_PREV].dir));
	if (oc->opt.baseline)
		o = pp_json_set(o, "baseline", pp_json_str(oc->rev[PP_PREV].dir));
	o = pp_json_set(o, "current", pp_json_str(oc->rev[PP_CUR].dir));
	return pp_json_set(o, "timeout", pp_json_real(oc->measurement.timeout_s));
}

/* The check of a duet's two CPUs (outcome_cpus.c), null when none was made. */
static json_t *cpu_check_json(const struct pp_outcome_cpus *c)
{
	if (!c->checked)
		return json_null();
	return pp_json_object(
	    "cpus",
	    pp_json_push(pp_json_push(json_array(), pp_json_int(c->cpu[0])),
			 pp_json_int(c->cpu[1])),
	    "pairs",
	    pp_json_push(pp_json_push(json_array(), pp_json_int((long long)c->pairs[0])),
			 pp_json_int((long long)c->pairs[1])),
	    "slower_ns", interval_json(c->slower_ns), "differ", pp_json_bool(c->differ),
	    "variance_share", pp_json_real(c->share), "widened", pp_json_real(c->widened),
	    "matters", pp_json_bool(c->matters), "sentence", pp_json_str(c->sentence), NULL);
}

/* The session's measurement rule, what it used and how noisy the runs were. */
static json_t *measurement_json(const struct pp_outcome *o)
{
	const struct pp_outcome_measurement *s = &o->measurement;
	json_t *cpus = json_array(), *m;

	for (int i = 0; i < 2 && s->duet; i++)
		cpus = pp_json_push(cpus, index_or_null(s->duet_cpu[i]));
	m = pp_json_object(
	    "entry_skip", pp_json_int((long long)s->entry_skip), "entry_skip_setup",
	    pp_json_bool(s->entry_skip_setup), "entry_stop", pp_json_int((long long)s->entry_stop),
	    "entry_count", pp_json_int((long long)s->entry_count), "threshold_ns",
	    s->threshold_fixed ? pp_json_real(s->threshold_ns) : json_null(), "runs_used",
	    pp_json_int((long long)s->runs_used), "design", pp_json_str(s->design), "duet_cpus",
	    cpus, "seed", s->seeded ? pp_json_int((long long)s->seed) : json_null(), "cov_previous",
	    pp_json_real(o->cov[PP_PREV]), "cov_current", pp_json_real(o->cov[PP_CUR]), "backend",
	    pp_json_str(s->backend), "model",
	    o->opt.model ? pp_json_str(o->opt.model) : json_null(), "preempted_runs",
	    pp_json_int((long long)o->preempted_runs), "waited_share",
	    pp_json_real(o->waited_share), "involuntary_switches", pp_json_int(o->switches),
	    "duet_smt", pp_json_bool(s->duet_smt), "duet_note",
	    s->duet_note ? pp_json_str(s->duet_note) : json_null(), "rounds_spoiled",
	    pp_json_int((long long)o->rounds_spoiled), "rounds_kept",
	    pp_json_int((long long)o->rounds_kept), "load_spent", pp_json_bool(o->load_spent),
	    "cpu_check", cpu_check_json(&o->cpus), NULL);
	/* the budget auto fixed (decide_budget.c); a given one is the option's */
	if (!o->opt.max_runs_comparison)
		m = pp_json_set(
		    pp_json_set(m, "runs_per_comparison",
				s->comparison_runs ? pp_json_int((long long)s->comparison_runs)
						   : json_null()),
		    "pair_s",
		    s->comparison_pair_s > 0 ? pp_json_real(s->comparison_pair_s) : json_null());
	/* only where they did: a replay of an earlier session writes what it recorded */
	return s->pairs_share ? pp_json_set(m, "pairs_share_draws", json_true()) : m;
}

static json_t *layout_json(const struct pp_outcome_layout *l, unsigned k)
{
	return pp_json_object("index", pp_json_int(k), "seed", pp_json_int((long long)l->seed),
			      "relink_s", pp_json_real(l->relink_s), "reused",
			      pp_json_bool(l->reused), "runs", pp_json_int((long long)l->runs),
			      NULL);
}

static json_t *layout_module_json(const struct pp_outcome_module *m)
{
	return pp_json_object("path", pp_json_str(m->path), "relinked", pp_json_bool(!m->why),
			      "why", pp_json_str(m->why), "relink_s", pp_json_real(m->relink_s),
			      NULL);
}

/* A revision's code layouts and modules. */
static json_t *revision_layouts_json(const struct pp_outcome_rev *rev)
{
	json_t *layouts = json_array(), *modules = json_array();

	for (unsigned k = 0; k < rev->nlayouts; k++)
		layouts = pp_json_push(layouts, layout_json(&rev->layouts[k], k));
	for (size_t i = 0; i < rev->nmodules; i++)
		modules = pp_json_push(modules, layout_module_json(&rev->modules[i]));
	return pp_json_object("label", pp_json_str(rev->label), "not_varied",
			      pp_json_str(rev->not_varied), "layouts", layouts, "modules", modules,
			      NULL);
}

/* Each revision's code layouts: seeds, what was linked again and what it cost. */
static json_t *layouts_json(const struct pp_outcome *o)
{
	json_t *revs = json_array(), *added = json_null(), *schedule = json_null();

	for (int r = 0; r < 2; r++)
		revs = pp_json_push(revs, revision_layouts_json(&o->rev[r]));
	if (o->layouts_added)
		added = pp_json_object("layouts", pp_json_int(o->layouts_more), "seconds",
				       pp_json_real(o->layouts_more_s), NULL);
	if (o->layouts_first)
		schedule = pp_json_object("pairs_per_layout", pp_json_int(o->layouts_every), "most",
					  pp_json_int(o->layouts_cap), "link_s",
					  pp_json_real(o->layouts_link_s), "pair_s",
					  pp_json_real(o->layouts_pair_s), NULL);
	/* only where it is so: a report without it is one of other code, or older */
	if (o->layouts_first && o->layouts_same)
		schedule = pp_json_set(schedule, "same_code", json_true());
	return pp_json_object(
	    "requested", pp_json_int(o->opt.layouts), "varied", pp_json_bool(o->layouts_varied),
	    "note", pp_json_str(o->layouts_sentence), "relink_s", pp_json_real(o->layouts_relink_s),
	    "first", pp_json_int(o->layouts_first), "added", added, "schedule", schedule,
	    "revisions", revs, NULL);
}

static json_t *revision_json(const struct pp_outcome_rev *rev)
{
	json_t *o = pp_json_object("label", pp_json_str(rev->label), "dir", pp_json_str(rev->dir),
				   "binaries", strings_json(rev->binaries, rev->nbinaries),
				   "functions", pp_json_int((long long)rev->nfuncs), "commit",
				   pp_json_str(rev->commit), NULL);

	if (rev->built_from)
		o = pp_json_set(o, "built_from", pp_json_str(rev->built_from));
	if (rev->entry.name)
		o = pp_json_set(o, "entry",
				pp_json_object("name", pp_json_str(rev->entry.name), "file",
					       pp_json_str(rev->entry.file), "line",
					       pp_json_int(rev->entry.line), NULL));
	return o;
}

static json_t *revisions_json(const struct pp_outcome *o)
{
	return pp_json_push(pp_json_push(json_array(), revision_json(&o->rev[PP_PREV])),
			    revision_json(&o->rev[PP_CUR]));
}

static const char *qkind(enum pp_qkind k)
{
	return k == PP_Q_ENTRY	   ? "entry"
	       : k == PP_Q_RANGE   ? "range"
	       : k == PP_Q_TOTAL   ? "total"
	       : k == PP_Q_GROUP   ? "group"
	       : k == PP_Q_CONFIRM ? "confirm"
	       : k == PP_Q_TARGET  ? "target"
	       : k == PP_Q_CHANGED ? "changed"
	       : k == PP_Q_COUNT   ? "count"
				   : "self";
}

/* What the code layouts did to @q (null when its runs were in one layout). */
static json_t *layout_var_json(const struct pp_outcome_cmp *q)
{
	if (!q->has_layout)
		return json_null();
	return pp_json_object(
	    "share", pair_real(q->layout[PP_PREV].share, q->layout[PP_CUR].share), "between_sd_ns",
	    pair_real(sqrt(q->layout[PP_PREV].between), sqrt(q->layout[PP_CUR].between)),
	    "within_sd_ns",
	    pair_real(sqrt(q->layout[PP_PREV].within), sqrt(q->layout[PP_CUR].within)), "layouts",
	    pair_int((long long)q->layout[PP_PREV].layouts, (long long)q->layout[PP_CUR].layouts),
	    "pair_sd_ns", pp_json_real(q->layout_sd), "sensitive",
	    pp_json_bool(q->layout_sensitive), NULL);
}

static json_t *values_json(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		a = pp_json_push(a, pp_json_real(v[i]));
	return a;
}

/* Revision @r's runs of a decided comparison, summed up. */
static json_t *summary_json(const struct pp_outcome_cmp *q, int r)
{
	const struct pp_summary *m = &q->sum[r];

	return pp_json_object("n", pp_json_int((long long)m->n), "mean", pp_json_real(m->mean),
			      "sd", pp_json_real(m->sd), "median", pp_json_real(m->median), "min",
			      pp_json_real(m->min), "max", pp_json_real(m->max), "mean_interval",
			      interval_json(m->ci), "interval", interval_json(q->ci[r]), NULL);
}

static json_t *difference_json(const struct pp_comparison *c)
{
	return pp_json_object(
	    "test", pp_json_str(pp_test_name(c->test)), "confidence", pp_json_real(c->confidence),
	    "interval", interval_json(c->diff), "p_value", pp_json_real(c->p_value), "statistic",
	    pp_json_real(c->statistic), "df", pp_json_real(c->df), "exact", pp_json_bool(c->exact),
	    "paired", pp_json_bool(c->paired), "significant", pp_json_bool(c->significant), NULL);
}

static json_t *sequential_json(const struct pp_outcome_cmp *c)
{
	const struct pp_last_look *l = &c->look;

	return pp_json_object("alpha", pp_json_real(l->alpha), "looks", pp_json_int(l->looks),
			      "runs", pp_json_int((long long)l->runs), "budget",
			      pp_json_int((long long)l->budget), "alpha_spent",
			      pp_json_real(l->alpha_spent), "look_confidence",
			      pp_json_real(l->confidence), "mde_ns", pp_json_real(l->mde),
			      "max_runs_spent", pp_json_bool(c->truncated == PP_SPENT_RUNS),
			      "max_time_spent", pp_json_bool(c->truncated == PP_SPENT_TIME),
			      "time_plan_spent", pp_json_bool(c->truncated == PP_SPENT_PLAN),
			      "layouts_spent", pp_json_bool(c->truncated == PP_SPENT_LAYOUTS),
			      "load_spent", pp_json_bool(c->truncated == PP_SPENT_LOAD), NULL);
}

static json_t *comparison_json(const struct pp_outcome_cmp *c)
{
	const struct pp_outcome_cmp *q = c;
	json_t *o = pp_json_object("id", pp_json_int(q->id), "label", pp_json_str(c->label), "kind",
				   pp_json_str(qkind(q->kind)), "function", pp_json_str(q->fn.name),
				   "file", pp_json_str(q->fn.file), NULL);

	if (q->kind == PP_Q_RANGE || q->kind == PP_Q_TARGET || q->kind == PP_Q_COUNT) {
		o = pp_json_set(o, "first_call", pp_json_int(q->first));
		o = pp_json_set(o, "last_call", pp_json_int(q->last));
	}
	o = pp_json_set(o, "batch", pp_json_int(q->batch));
	o = pp_json_set(o, "previous_ns", values_json(q->series[PP_PREV].v, q->series[PP_PREV].n));
	o = pp_json_set(o, "current_ns", values_json(q->series[PP_CUR].v, q->series[PP_CUR].n));
	o = pp_json_set(o, "decided", pp_json_bool(c->decided));
	if (!c->decided)
		return o;
	o = pp_json_set(o, "order", pp_json_int(c->order));
	o = pp_json_set(o, "previous", summary_json(q, PP_PREV));
	o = pp_json_set(o, "current", summary_json(q, PP_CUR));
	o = pp_json_set(o, "difference", difference_json(&c->cmp));
	o = pp_json_set(o, "threshold_ns", pp_json_real(c->threshold_ns));
	o = pp_json_set(o, "rounds", pp_json_int(q->rounds));
	o = pp_json_set(o, "sequential", sequential_json(c));
	o = pp_json_set(o, "verdict", pp_json_str(c->verdict_name));
	o = pp_json_set(o, "left", pp_json_str(c->left));
	o = pp_json_set(o, "executions",
			pp_json_object("previous", pp_json_real(c->execs[PP_PREV]), "current",
				       pp_json_real(c->execs[PP_CUR]), "changed",
				       pp_json_bool(c->execs_changed), NULL));
	o = pp_json_set(o, "per_execution_ns", interval_or_null(c->per_exec));
	o = pp_json_set(o, "cause", pp_json_str(c->cause));
	o = pp_json_set(o, "cpu_term_ns", pp_json_real(c->cpu_term_ns));
	return pp_json_set(o, "layout", layout_var_json(q));
}

static json_t *comparisons_json(const struct pp_outcome *o)
{
	json_t *a = json_array();

	for (size_t i = 0; i < o->ncmp; i++)
		a = pp_json_push(a, comparison_json(&o->cmp[i]));
	return a;
}

static json_t *batch_json(const struct pp_outcome_batch *b)
{
	json_t *qids = json_array();

	for (size_t k = 0; k < b->nq; k++)
		qids = pp_json_push(qids, pp_json_int(b->qids[k]));
	return pp_json_object("id", pp_json_int(b->id), "comparisons", qids, "arming_previous",
			      pp_json_str(b->arming[PP_PREV]), "arming_current",
			      pp_json_str(b->arming[PP_CUR]), "clock_s", pp_json_real(b->clock_s),
			      NULL);
}

static json_t *batches_json(const struct pp_outcome *o)
{
	json_t *a = json_array();

	for (size_t i = 0; i < o->nbatches; i++)
		a = pp_json_push(a, batch_json(&o->batches[i]));
	return a;
}

/* Where run @r's indirect calls went: per quantity of its batch, each target. */
static json_t *run_targets_json(const struct pp_outcome_run *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->ntargets; i++) {
		const struct pp_outcome_run_target *t = &r->targets[i];

		a = pp_json_push(a,
				 pp_json_object("value", pp_json_int(t->qi), "target",
						pp_json_str(t->key), "value_ns", pp_json_real(t->v),
						"count", pp_json_int((long long)t->count), NULL));
	}
	return a;
}

static json_t *run_json(const struct pp_outcome *o, const struct pp_outcome_run *r)
{
	return pp_json_object(
	    "batch", pp_json_int(r->batch), "revision", pp_json_str(o->rev[r->rev].label), "index",
	    pp_json_int(r->index), "warmup", pp_json_bool(r->warmup), "status",
	    pp_json_str(r->status), "wall_s", pp_json_real(r->wall_s), "cpu_s",
	    pp_json_real(r->cpu_s), "involuntary_switches", pp_json_int(r->nivcsw), "waited_s",
	    r->waited_s >= 0 ? pp_json_real(r->waited_s) : json_null(), "spoiled",
	    pp_json_bool(r->spoiled), "cpu", index_or_null(r->cpu), "layout",
	    index_or_null(r->layout), "env_pad", pp_json_int(r->env_pad), "heap_offset",
	    pp_json_int(r->heap), "entry_count", pp_json_int((long long)r->entry_count),
	    "lost_executions", pp_json_int((long long)r->lost), "values_ns",
	    values_json(r->values, r->nvalues), "removed_ns",
	    values_json(r->removed, r->removed ? r->nvalues : 0), "executions",
	    values_json(r->execs, r->execs ? r->nvalues : 0), "targets", run_targets_json(r), NULL);
}

static json_t *runs_json(const struct pp_outcome *o)
{
	json_t *a = json_array();

	for (size_t i = 0; i < o->nruns; i++)
		a = pp_json_push(a, run_json(o, &o->runs[i]));
	return a;
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
	case PP_NODE_GROUP:
		return "group";
	case PP_NODE_SHARED:
		return "shared";
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

static json_t *inlined_call_json(const struct pp_outcome_call *c)
{
	return pp_json_object("call", pp_json_int(c->index), "callee", pp_json_str(c->callee),
			      "callee_demangled", pp_json_str(c->callee_demangled), "file",
			      pp_json_str(c->file), "line", pp_json_int(c->line), "column",
			      pp_json_int(c->col), NULL);
}

/* The inlined calls a node's call came through, the outermost first. */
static json_t *inlined_through_json(const struct pp_outcome_node *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->ninlined; i++)
		a = pp_json_push(a, inlined_call_json(&v->inlined[i]));
	return a;
}

/* An indirect call's targets, largest share of its time first. */
static json_t *targets_json(const struct pp_outcome_node *v)
{
	json_t *a = json_array();

	for (size_t k = 0; k < v->ntargets; k++) {
		const struct pp_outcome_target *t = &v->targets[k];

		a = pp_json_push(
		    a, pp_json_object(
			   "name", pp_json_str(t->name), "share", pp_json_real(t->share),
			   "difference_share", pp_json_real(t->diff_share), "difference_ns",
			   t->compared ? interval_json(t->diff) : json_null(), "verdict",
			   t->compared ? pp_json_str(t->verdict_name) : json_null(), "comparison",
			   t->comparison >= 0 ? pp_json_int(t->comparison) : json_null(), NULL));
	}
	return a;
}

/* A callee group's calls, each with its own comparison's difference. */
static json_t *sites_json(const struct pp_outcome_node *v)
{
	json_t *a = json_array();

	for (size_t k = 0; k < v->nsites; k++) {
		const struct pp_outcome_site *x = &v->sites[k];

		a = pp_json_push(
		    a, pp_json_object(
			   "call", pp_json_int(x->call), "file", pp_json_str(x->file), "line",
			   pp_json_int(x->line), "column", pp_json_int(x->col), "cost_ns",
			   isfinite(x->diff.centre) ? interval_json(x->diff) : json_null(), "share",
			   pp_json_real(x->share), "sign", pp_json_int(x->sign), NULL));
	}
	return a;
}

/* The fields a chain step and a tree node share, into @o. */
static json_t *node_fields(json_t *o, const struct pp_outcome_node *v)
{
	o = pp_json_set(o, "kind", pp_json_str(node_kind(v->kind)));
	o = pp_json_set(o, "function", pp_json_str(v->fn.name));
	o = pp_json_set(o, "function_demangled", pp_json_str(v->fn.demangled));
	o = pp_json_set(o, "file", pp_json_str(v->fn.file));
	o = pp_json_set(o, "line", pp_json_int(v->fn.line));
	if (v->has_call) {
		/* the call as reports name it: "(inlined SHA512_Pad) → SHA512_Transform" */
		o = pp_json_set(o, "first_call", pp_json_int(v->first_call));
		o = pp_json_set(o, "last_call", pp_json_int(v->last_call));
		o = pp_json_set(o, "callee", pp_json_str(v->call.callee));
		o = pp_json_set(o, "call_file", pp_json_str(v->call.file));
		o = pp_json_set(o, "call_line", pp_json_int(v->call.line));
		o = pp_json_set(o, "call_column", pp_json_int(v->call.col));
		o = pp_json_set(o, "call_label", pp_json_str(v->call_label));
		o = pp_json_set(o, "inlined_through", inlined_through_json(v));
	}
	if (v->ntargets)
		o = pp_json_set(o, "targets", targets_json(v));
	if (v->kind == PP_NODE_GROUP) {
		o = pp_json_set(o, "callee", pp_json_str(v->callee));
		o = pp_json_set(o, "sites", sites_json(v));
	}
	if (v->into.name)
		o = pp_json_set(o, "into",
				pp_json_object("function", pp_json_str(v->into.name),
					       "function_demangled", pp_json_str(v->into.demangled),
					       "file", pp_json_str(v->into.file), "line",
					       pp_json_int(v->into.line), NULL));
	if (v->comparison >= 0)
		o = pp_json_set(o, "comparison", pp_json_int(v->comparison));
	o = pp_json_set(o, "cost_ns", interval_json(v->diff));
	o = pp_json_set(o, "level", pp_json_real(v->level));
	/* a structural change's calls are different calls: no count tells a cause */
	o = pp_json_set(
	    o, "cause",
	    pp_json_str(v->cmp && v->kind != PP_NODE_STRUCTURAL ? v->cmp->cause : NULL));
	o = pp_json_set(o, "share_of_entry", pp_json_real(v->entry_share));
	o = pp_json_set(o, "share_of_entry_interval", interval_or_null(v->entry_share_ci));
	o = pp_json_set(o, "share_of_entry_level", pp_json_real(v->entry_share_level));
	o = pp_json_set(o, "inflated", pp_json_str(v->inflated));
	o = pp_json_set(o, "at_most_ns",
			isfinite(v->at_most.centre) ? interval_json(v->at_most) : json_null());
	o = pp_json_set(o, "stop", pp_json_str(v->stop));
	return pp_json_set(o, "detail", pp_json_str(v->detail));
}

static json_t *chain_json(const struct pp_outcome *o)
{
	json_t *a = json_array();

	for (size_t k = 0; k < o->nchain; k++)
		a = pp_json_push(a, node_fields(json_object(), &o->nodes[o->chain[k]]));
	return a;
}

/* The further contributors, in rank order (the chain is the first). */
static json_t *contributors_json(const struct pp_outcome *o)
{
	json_t *a = json_array();

	for (size_t k = 0; k < o->ncontrib; k++) {
		const struct pp_outcome_node *n = &o->nodes[o->contrib[k]];

		a = pp_json_push(a, pp_json_object("rank", pp_json_int(n->rank + 1), "node",
						   pp_json_int(o->contrib[k]), "kind",
						   pp_json_str(node_kind(n->kind)), "function",
						   pp_json_str(n->function), "cost_ns",
						   interval_json(n->diff), NULL));
	}
	return a;
}

/* A function's whole, its parts together and its remainder, from the same runs. */
static json_t *accounting_json(const struct pp_outcome *oc, const struct pp_outcome_node *n)
{
	const struct pp_outcome_node *nodes = oc->nodes;
	json_t *parts = json_array(), *o;

	if (!n->whole_measured) {
		json_decref(parts);
		return json_null();
	}
	for (int c = n->child; c >= 0; c = nodes[c].next)
		if (nodes[c].kind != PP_NODE_SHARED) /* inside some parts, not one */
			parts = pp_json_push(
			    parts,
			    pp_json_object("node", pp_json_int(c), "mean_ns",
					   pair_real(nodes[c].mean[PP_PREV], nodes[c].mean[PP_CUR]),
					   "probe_cost_removed_ns",
					   pair_real(nodes[c].part_removed[PP_PREV],
						     nodes[c].part_removed[PP_CUR]),
					   "probe_cost_uncertainty_ns",
					   pp_json_real(nodes[c].probe_unc), "probe_cost_uncertain",
					   pp_json_bool(nodes[c].probe_uncertain), NULL));
	o = pp_json_object(
	    "runs", pair_int((long long)n->runs[PP_PREV], (long long)n->runs[PP_CUR]), "paired",
	    pp_json_bool(n->paired), "whole_ns", interval_json(n->whole), "whole_mean_ns",
	    pair_real(n->whole_mean[PP_PREV], n->whole_mean[PP_CUR]), "parts_ns",
	    interval_json(n->parts), "probe_cost_removed_ns",
	    pair_real(n->removed[PP_PREV], n->removed[PP_CUR]), "probe_cost_left_in_ns",
	    pp_json_push(pp_json_push(json_array(), interval_or_null(n->left_in[PP_PREV])),
			 interval_or_null(n->left_in[PP_CUR])),
	    "clean_ns", pair_real(n->clean[PP_PREV], n->clean[PP_CUR]), "parts", parts, NULL);
	for (int c = n->child; c >= 0; c = nodes[c].next)
		if (nodes[c].kind == PP_NODE_REST)
			o = pp_json_set(o, "remainder_ns", interval_json(nodes[c].diff));
	o = pp_json_set(o, "lead", index_or_null(n->lead));
	return pp_json_set(o, "tie", index_or_null(n->lead_tie));
}

static json_t *time_json(const struct pp_outcome *o)
{
	const struct pp_time_use u = o->time;
	json_t *layers = json_array();

	for (unsigned l = 0; l < u.nlayers; l++)
		layers = pp_json_push(
		    layers, pp_json_object("layer", pp_json_int(l), "s", pp_json_real(u.layer_s[l]),
					   "runs", pp_json_int((long long)u.layer_runs[l]), NULL));
	return pp_json_object(
	    "total_s", pp_json_real(u.total_s), "builds_s", pp_json_real(u.builds_s), "discovery_s",
	    pp_json_real(u.discovery_s), "discovery_runs", pp_json_int((long long)u.discovery_runs),
	    "layouts_s", pp_json_real(u.layouts_s), "driver_s", pp_json_real(u.other_s), "layers",
	    layers, "confirm_s", pp_json_real(u.confirm_s), "confirm_runs",
	    pp_json_int((long long)u.confirm_runs), NULL);
}

static json_t *tree_node_json(const struct pp_outcome *oc, size_t i)
{
	const struct pp_outcome_node *n = &oc->nodes[i];
	json_t *children = json_array(), *o;

	for (int c = n->child; c >= 0; c = oc->nodes[c].next)
		children = pp_json_push(children, pp_json_int(c));
	o = pp_json_object("id", pp_json_int((long long)i), "parent", pp_json_int(n->parent),
			   "children", children, "layer", pp_json_int(n->depth), NULL);
	o = node_fields(o, n);
	o = pp_json_set(o, "share", pp_json_real(n->share));
	o = pp_json_set(o, "share_interval", interval_json(n->share_ci));
	o = pp_json_set(o, "point_estimate", pp_json_bool(n->point));
	o = pp_json_set(o, "others_ns", interval_or_null(n->others));
	o = pp_json_set(o, "accounting", accounting_json(oc, n));
	o = pp_json_set(o, "armed",
			isfinite(n->armed_share)
			    ? pp_json_object("share_of_run", pp_json_real(n->armed_share),
					     "untimed_calls", pp_json_int(n->untimed), NULL)
			    : json_null());
	o = pp_json_set(o, "probes_share_of_run",
			isfinite(n->probes_share) ? pp_json_real(n->probes_share) : json_null());
	o = pp_json_set(o, "calls_counted",
			n->calls_listed ? pp_json_object("listed", pp_json_int(n->calls_listed),
							 "ran", pp_json_int(n->calls_ran), "rounds",
							 pp_json_int(n->count_rounds), NULL)
					: json_null());
	o = pp_json_set(o, "sign", pp_json_int(n->sign));
	o = pp_json_set(o, "chain", pp_json_bool(n->chain));
	return pp_json_set(o, "rank", pp_json_int(n->rank ? n->rank + 1 : 0));
}

static json_t *tree_json(const struct pp_outcome *o)
{
	json_t *a = json_array();

	for (size_t i = 0; i < o->nnodes; i++)
		a = pp_json_push(a, tree_node_json(o, i));
	return a;
}

/* The what-if on the chain's claim (outcome.h), null when not asked. */
static json_t *confirmation_json(const struct pp_outcome *o)
{
	const struct pp_outcome_confirm *c = &o->confirm;

	if (!c->verdict_name)
		return json_null();
	return pp_json_object(
	    "verdict", pp_json_str(c->verdict_name), "why", pp_json_str(c->why), "claim_node",
	    index_or_null(c->claim_node), "node", index_or_null(c->node), "comparison",
	    index_or_null(c->comparison), "part", pp_json_str(c->what), "moved",
	    pp_json_str(c->moved), "claim_ns", pp_json_real(c->claim_ns), "executions",
	    pp_json_real(c->execs), "delay_ns", pp_json_real(c->delay_ns), "delay_every",
	    c->every ? pp_json_int(c->every) : json_null(), "delayed_executions",
	    pp_json_real(c->delayed), "difference", interval_or_null(c->diff), "explained_share",
	    interval_or_null(c->explained), "slowdown_ns", interval_or_null(c->slowdown),
	    "by_estimate", c->comparison >= 0 ? json_boolean(c->by_estimate) : json_null(), "runs",
	    pp_json_int((long long)c->runs), "continued_into", pp_json_int(c->continued),
	    "sentence", pp_json_str(c->sentence), NULL);
}

static json_t *platform_json(const struct pp_platform *p)
{
	return pp_json_object("cpu", pp_json_str(p->cpu), "cpus", pp_json_int(p->cpus), "kernel",
			      pp_json_str(p->kernel), "machine", pp_json_str(p->machine), "llvm",
			      pp_json_str(p->llvm), "compiler_previous",
			      pp_json_str(p->compiler[0]), "compiler_current",
			      pp_json_str(p->compiler[1]), NULL);
}

static json_t *outcome_json(const struct pp_outcome *o)
{
	return pp_json_object(
	    "format", pp_json_str("pinpoint-report"), "version", pp_json_int(1), "pinpoint_version",
	    pp_json_str(PP_VERSION), "started", pp_json_real(o->started_wall), "duration_s",
	    pp_json_real(o->duration_s), "outcome", pp_json_str(pp_status_name(o->status)),
	    "exit_code", pp_json_int(o->status), "interrupted", pp_json_bool(o->interrupted),
	    "failure", pp_json_str(o->failure), "platform", platform_json(&o->platform), "options",
	    options_json(o), "measurement", measurement_json(o), "revisions", revisions_json(o),
	    "layouts", layouts_json(o), "comparisons", comparisons_json(o), "bottleneck_chain",
	    chain_json(o), "confirmation", confirmation_json(o), "contributors",
	    contributors_json(o), "search_cut_short", pp_json_bool(o->budget_cut), "tree",
	    tree_json(o), "batches", batches_json(o), "runs", runs_json(o), "time", time_json(o),
	    NULL);
}

static void write_json(FILE *f, const void *arg)
{
	if (!pp_json_dumpf(arg, f, JSON_INDENT(2)))
		fputc('\n', f);
}

int pp_json_write(const struct pp_outcome *o, const char *path)
{
	json_t *doc = outcome_json(o);
	int err;

	if (!doc)
		return -ENOMEM;
	err = pp_write_atomic(path, write_json, doc);
	json_decref(doc);
	return err;
}
