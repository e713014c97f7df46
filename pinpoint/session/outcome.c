// SPDX-License-Identifier: MIT
/*
 * outcome.c - what a session established, made once for every writer
 * (outcome.h): the comparisons as decided, the tree's nodes with their
 * names and places, the chain and where it ends, the contributors and
 * improvements, the exit status, the noise and the time.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/measure/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/session/outcome.h"
#include "pinpoint/session/targets.h"
#include "pinpoint/report/report.h"

int pp_outcome_cmp_make(const struct pp_session *s, const struct pp_quantity *q,
			struct pp_outcome_cmp *c, struct pp_names *nm)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;
	double base =
	    e && e->sum[PP_PREV].n ? pp_summary_centre(&e->sum[PP_PREV], s->opt->test) : 0;

	memset(c, 0, sizeof(*c));
	c->q = q;
	c->label = pp_quantity_label(q);
	c->shown = pp_quantity_label_named(q, nm);
	if (!c->label || !c->shown) {
		pp_outcome_cmp_clear(c);
		return -ENOMEM;
	}
	c->verdict = q->verdict;
	c->verdict_name = pp_verdict_name(q->verdict);
	c->verdict_word = pp_verdict_word(q->verdict);
	c->decided = q->decided;
	c->order = q->order;
	c->ci[PP_PREV] = q->ci[PP_PREV];
	c->ci[PP_CUR] = q->ci[PP_CUR];
	c->cmp = q->cmp;
	c->look = q->final_look;
	c->threshold_ns = q->threshold_ns;
	c->truncated = q->truncated;
	c->left = q->left;
	c->share_of_entry = base > 0 ? q->cmp.diff.centre / base : 0;
	c->runs_per_revision = q->final_look.runs / 2;
	c->layout_sensitive = q->has_layout && q->layout_sensitive;
	c->layout_sd = q->layout_sd;
	c->layout_floor = q->layout_floor;
	return 0;
}

void pp_outcome_cmp_clear(struct pp_outcome_cmp *c)
{
	free(c->label);
	free(c->shown);
	c->label = NULL;
	c->shown = NULL;
}

const struct pp_outcome_cmp *pp_outcome_cmp_of(const struct pp_outcome *o,
					       const struct pp_quantity *q)
{
	if (!q || q->id >= o->ncmp || o->cmp[q->id].q != q)
		return NULL;
	return &o->cmp[q->id];
}

/* Where a node is: the call's file:line:col, or the function's file:line (malloc'ed). */
static char *node_where(const struct pp_node *n, struct pp_names *nm)
{
	const struct pp_prog_fn *fn = n->fn[PP_CUR] ? n->fn[PP_CUR] : n->fn[PP_PREV];
	const struct pp_prog_call *c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return NULL;
	switch (n->kind) {
	case PP_NODE_CALL:
	case PP_NODE_ADDED:
	case PP_NODE_REMOVED:
		c = pp_node_call(n, &r);
		if (!c)
			break;
		fprintf(f, "call %u of %s at ", n->first[r], pp_fn_name(n->fn[r], nm));
		pp_print_loc(f, c->file, c->line, c->col);
		if (n->into[r] && c->kind != PP_CALL_INDIRECT &&
		    c->kind != PP_CALL_INVOKE_INDIRECT) { /* dug into through its callback */
			fprintf(f, " to %s, which calls back ", pp_names_get(nm, c->callee));
			pp_print_loc(f, n->into[r]->file, n->into[r]->line, 0);
		} else if (n->into[r]) { /* an indirect call, dug into through its target */
			fprintf(f, ", through its pointer into ");
			pp_print_loc(f, n->into[r]->file, n->into[r]->line, 0);
		}
		break;
	case PP_NODE_RANGE:
		c = pp_node_call(n, &r);
		if (!c)
			break;
		fprintf(f, "from ");
		pp_print_loc(f, c->file, c->line, c->col);
		c = &n->fn[r]->calls[n->last[r]];
		fprintf(f, " to ");
		pp_print_loc(f, c->file, c->line, c->col);
		break;
	case PP_NODE_GROUP:
		/* "in F at a.c:12:3, :15:3 and :20:5": the calls' places */
		fprintf(f, "in %s at ", pp_fn_name(fn, nm));
		for (size_t t = 0; n->q && t < n->q->nterms; t++) {
			c = &fn->calls[n->q->terms[t]->first];
			if (t && t + 1 == n->q->nterms)
				fprintf(f, " and ");
			else if (t)
				fprintf(f, ", ");
			if (!t || strcmp(c->file, fn->calls[n->q->terms[0]->first].file))
				pp_print_loc(f, c->file, c->line, c->col);
			else
				fprintf(f, ":%u:%u", c->line, c->col);
		}
		break;
	case PP_NODE_SHARED: /* its function, and the one whose calls call it */
		pp_print_loc(f, n->into[PP_CUR]->file, n->into[PP_CUR]->line, 0);
		fprintf(f, ", one layer below %s", pp_fn_name(fn, nm));
		break;
	case PP_NODE_REST:
		break;
	default:
		pp_print_loc(f, fn->file, fn->line, 0);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The targets of indirect call @n that its current revision's runs saw, their
 * names gathered into @nm. */
static int node_targets(struct pp_outcome_node *v, const struct pp_session *s,
			const struct pp_node *n, struct pp_names *nm)
{
	const struct pp_prog_call *c;
	struct pp_targets t;
	int r, err;

	v->into = n->into[PP_CUR];
	c = n->kind == PP_NODE_CALL && n->q ? pp_node_call(n, &r) : NULL;
	if (!c || (c->kind != PP_CALL_INDIRECT && c->kind != PP_CALL_INVOKE_INDIRECT))
		return 0;
	err = pp_targets_of(s, n->q, &t);
	if (!err)
		err = pp_targets_compare(s, n->q, &t);
	if (!err && t.n) {
		v->targets = calloc(t.n, sizeof(*v->targets));
		err = v->targets ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !err && i < t.n; i++) {
		if (!t.t[i].mean[PP_CUR])
			continue; /* a target of the previous revision only */
		v->targets[v->ntargets++] = (struct pp_outcome_target){
		    .key = t.t[i].key,
		    .name = pp_names_get(nm, t.t[i].key),
		    .share = t.t[i].share,
		    .diff_share = t.t[i].diff_share,
		    .compared = t.t[i].compared,
		    .diff = t.t[i].diff,
		    .verdict_name = pp_verdict_name(pp_verdict_of(t.t[i].verdict))};
	}
	pp_targets_free(&t);
	return err;
}

/* The calls of callee group @n, each with its own comparison's difference. */
static int node_sites(struct pp_outcome_node *v, const struct pp_node *n)
{
	const struct pp_quantity *g = n->q;

	if (n->kind != PP_NODE_GROUP || !g || !g->nterms)
		return 0;
	v->sites = calloc(g->nterms, sizeof(*v->sites));
	if (!v->sites)
		return -ENOMEM;
	for (size_t t = 0; t < g->nterms; t++) {
		const struct pp_quantity *q = g->terms[t];
		struct pp_outcome_site *x = &v->sites[v->nsites++];

		x->call = q->first;
		x->c = &g->fn[PP_CUR]->calls[q->first];
		x->diff = q->decided ? q->cmp.diff : (struct pp_interval){NAN, NAN, NAN};
		x->share = q->decided && g->cmp.diff.centre != 0
			       ? q->cmp.diff.centre / g->cmp.diff.centre
			       : NAN;
		x->sign = !q->decided		      ? 0
			  : q->verdict == PP_V_SLOWER ? 1
			  : q->verdict == PP_V_FASTER ? -1
						      : 0;
	}
	return 0;
}

/* The nodes, all but their names (name_all()). */
static int make_nodes(struct pp_outcome *o, const struct pp_session *s)
{
	o->nodes = calloc(s->nnodes ? s->nnodes : 1, sizeof(*o->nodes));
	if (!o->nodes)
		return -ENOMEM;
	o->nnodes = s->nnodes;
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct pp_node *n = &s->nodes[i];
		struct pp_outcome_node *v = &o->nodes[i];

		v->n = n;
		v->kind = n->kind;
		v->parent = n->parent;
		v->child = n->child;
		v->next = n->next;
		v->depth = n->depth;
		v->cmp = pp_outcome_cmp_of(o, n->q);
		v->diff = n->diff;
		v->share = n->share;
		v->share_ci = n->share_ci;
		v->entry_share = n->entry_share;
		v->others = n->share > 1 ? n->others : (struct pp_interval){NAN, NAN, NAN};
		v->probe_unc = n->probe_unc;
		v->probe_uncertain = n->probe_uncertain;
		v->point = n->kind == PP_NODE_REST && !pp_node_accounted(s, n);
		v->share_shown = n->parent >= 0 && !v->point;
		/* the own body is the whole less its calls in the same runs: the
		 * remainder of an accounted function is zero by construction */
		v->zero = n->kind == PP_NODE_REST && n->diff.centre == 0 && n->diff.low == 0 &&
			  n->diff.high == 0;
		v->sign = n->sign;
		v->chain = n->chain;
		v->rank = n->rank;
		v->stop = n->stop;
		v->detail = n->detail;
		v->whole_measured = n->runs[0] >= 2 && n->runs[1] >= 2;
		v->tie = n->parent >= 0 && s->nodes[n->parent].tie >= 0 &&
				 s->nodes[n->parent].lead == (int)i
			     ? s->nodes[n->parent].tie
			     : -1;
		if (node_targets(v, s, n, &o->names) || node_sites(v, n))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The names of the comparisons and nodes as text and HTML print them: every
 * function they name gathered (the targets' already are), the names settled,
 * then the labels made with them.
 */
static int name_all(struct pp_outcome *o, const struct pp_session *s)
{
	struct pp_names *nm = &o->names;
	int err;

	for (size_t i = 0; i < o->ncmp; i++)
		free(pp_quantity_label_named(o->cmp[i].q, nm));
	for (size_t i = 0; i < o->nnodes; i++) {
		free(pp_node_name(s, &s->nodes[i], nm));
		free(node_where(&s->nodes[i], nm));
	}
	if (o->entry)
		pp_fn_name(o->entry->q->fn[PP_CUR], nm);
	err = pp_names_settle(nm);
	for (size_t i = 0; !err && i < o->ncmp; i++) {
		free(o->cmp[i].shown);
		o->cmp[i].shown = pp_quantity_label_named(o->cmp[i].q, nm);
		err = o->cmp[i].shown ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !err && i < o->nnodes; i++) {
		struct pp_outcome_node *v = &o->nodes[i];

		v->name = pp_node_name(s, &s->nodes[i], nm);
		v->where = node_where(&s->nodes[i], nm);
		err = v->name && v->where ? 0 : -ENOMEM;
		for (size_t k = 0; k < v->ntargets; k++)
			v->targets[k].shown = pp_names_get(nm, v->targets[k].key);
	}
	if (o->entry)
		o->entry_name = pp_fn_name(o->entry->q->fn[PP_CUR], nm);
	return err;
}

/* The chain from the entry to its end, the contributors by rank, the improvements. */
static int make_lists(struct pp_outcome *o)
{
	size_t n = o->nnodes ? o->nnodes : 1;

	o->chain = calloc(n, sizeof(int));
	o->contrib = calloc(n, sizeof(int));
	o->improved = calloc(n, sizeof(int));
	if (!o->chain || !o->contrib || !o->improved)
		return -ENOMEM;
	for (size_t i = 0; i < o->nnodes; i++) {
		const struct pp_outcome_node *v = &o->nodes[i];

		if (v->chain)
			o->chain[o->nchain++] = (int)i;
		if (v->sign < 0 && v->kind != PP_NODE_REST)
			o->improved[o->nimproved++] = (int)i;
	}
	for (unsigned r = 1;; r++) {
		int k = -1;

		for (size_t i = 0; i < o->nnodes; i++)
			if (o->nodes[i].rank == r)
				k = (int)i;
		if (k < 0)
			break;
		o->contrib[o->ncontrib++] = k;
	}
	for (size_t i = o->nchain; i-- > 1;)
		if (o->nodes[o->chain[i]].cmp) {
			o->chain_call = o->nodes[o->chain[i]].cmp;
			break;
		}
	return 0;
}

static void make_noise(struct pp_outcome *o, const struct pp_session *s)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;

	for (int r = 0; r < 2; r++)
		o->cov[r] = e ? pp_series_cov(&e->series[r]) : NAN;
	for (size_t i = 0; i < s->nq; i++)
		if (s->q[i]->decided)
			s->q[i]->verdict == PP_V_UNDECIDED ? o->nundecided++
			: s->q[i]->verdict == PP_V_BOUNDED ? o->nleft++
							   : o->ndecided++;
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].lost) {
			o->lost += s->runs[i].lost;
			o->lost_runs++;
		}
	pp_time_use(s, &o->time);
	pp_runs_sentence(s, o->runs_sentence, sizeof(o->runs_sentence));
	pp_layouts_sentence(s, o->layouts_sentence, sizeof(o->layouts_sentence));
	o->layouts_varied = pp_layouts_varied(s);
	o->has_spread = pp_layouts_spread(s, o->spread_sentence, sizeof(o->spread_sentence));
}

/*
 * The exit status: the failure's (@failed: usage, measurement, interrupted),
 * else the entry's verdict: a regression, none, or undecided.
 */
static int status_of(const struct pp_session *s, int failed)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;

	if (failed)
		return failed;
	if (!e || !e->decided || e->verdict == PP_V_UNDECIDED)
		return PP_EXIT_UNDECIDED;
	return e->verdict == PP_V_SLOWER ? PP_EXIT_REGRESSION : PP_EXIT_NO_REGRESSION;
}

const char *pp_status_name(int status)
{
	switch (status) {
	case PP_EXIT_REGRESSION:
		return "regression";
	case PP_EXIT_NO_REGRESSION:
		return "no-regression";
	case PP_EXIT_MEASUREMENT:
		return "measurement-failed";
	case PP_EXIT_UNDECIDED:
		return "undecided";
	default:
		return "error";
	}
}

int pp_outcome_build(struct pp_outcome *o, const struct pp_session *s, int failed)
{
	int err = 0;

	memset(o, 0, sizeof(*o));
	pp_names_init(&o->names);
	o->s = s;
	o->opt = s->opt;
	o->dir[PP_PREV] = s->rev[PP_PREV].dir;
	o->dir[PP_CUR] = s->rev[PP_CUR].dir;
	o->status = status_of(s, failed);
	o->interrupted = s->interrupted;
	o->failure = o->status == PP_EXIT_MEASUREMENT ? s->failure : NULL;
	o->budget_cut = s->budget_cut;
	o->cmp = calloc(s->nq ? s->nq : 1, sizeof(*o->cmp));
	if (!o->cmp) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < s->nq && !err; i++) {
		err = pp_outcome_cmp_make(s, s->q[i], &o->cmp[i], NULL);
		o->ncmp = i + 1;
	}
	o->entry = o->ncmp ? &o->cmp[0] : NULL;
	if (!err)
		err = make_nodes(o, s);
	if (!err)
		err = name_all(o, s);
	if (!err)
		err = make_lists(o);
	if (err)
		goto out;
	o->decided = o->entry && o->entry->decided;
	o->verdict = o->entry ? o->entry->verdict : PP_V_UNDECIDED;
	o->verdict_name = o->decided ? o->entry->verdict_name : "none";
	o->tree = s->nnodes >= 2 && s->opt->search == PP_SEARCH_ATTRIB;
	make_noise(o, s);
	pp_platform_read(&o->platform, s);
out:
	if (err)
		pp_outcome_free(o);
	return err;
}

void pp_outcome_free(struct pp_outcome *o)
{
	for (size_t i = 0; o->cmp && i < o->ncmp; i++)
		pp_outcome_cmp_clear(&o->cmp[i]);
	for (size_t i = 0; o->nodes && i < o->nnodes; i++) {
		free(o->nodes[i].name);
		free(o->nodes[i].where);
		free(o->nodes[i].targets);
		free(o->nodes[i].sites);
	}
	free(o->cmp);
	free(o->nodes);
	free(o->chain);
	free(o->contrib);
	free(o->improved);
	pp_names_free(&o->names);
	memset(o, 0, sizeof(*o));
}
