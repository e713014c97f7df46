// SPDX-License-Identifier: MIT
/*
 * outcome.c - what a session established, made once for every writer
 * (outcome.h): the comparisons as decided, the tree's nodes with their
 * names and places, the targets the search found, the chain and where it
 * ends, the contributors and improvements, the exit status, the noise and
 * the time; the runs, revisions and layouts are copied by outcome_runs.c.
 * Everything is copied into the outcome's arena: nothing points back into
 * the session.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats_seq.h"
#include "pinpoint/measure/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/session/labels.h"
#include "pinpoint/session/outcome_priv.h"
#include "pinpoint/session/summary.h"
#include "pinpoint/session/targets.h"

/* Revision @r's values of @q, with their layouts. */
static struct pp_outcome_series copy_series(struct pp_copy *m, const struct pp_series *v)
{
	return (struct pp_outcome_series){
	    .n = v->n,
	    .v = pp_copy_mem(m, v->v, v->n * sizeof(*v->v)),
	    .layout = v->layout ? pp_copy_mem(m, v->layout, v->n * sizeof(*v->layout)) : NULL,
	};
}

/* @q as decided so far, its shown label naming functions as @nm does (NULL: whole). */
static void cmp_make(struct pp_copy *m, const struct pp_session *s, const struct pp_quantity *q,
		     struct pp_outcome_cmp *c, struct pp_names *nm)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;
	double base =
	    e && e->sum[PP_PREV].n ? pp_summary_centre(&e->sum[PP_PREV], s->opt->test) : 0;

	*c = (struct pp_outcome_cmp){
	    .id = q->id,
	    .kind = q->kind,
	    .fn = pp_copy_fn(m, q->fn[PP_CUR]),
	    .first = q->first,
	    .last = q->last,
	    .callee = pp_copy_str(m, q->callee),
	    .nterms = q->nterms,
	    .label = pp_copy_take(m, pp_quantity_label(q)),
	    .shown = pp_copy_take(m, pp_quantity_label_named(q, nm)),
	    .batch = q->batch,
	    .rounds = q->rounds,
	    .series = {copy_series(m, &q->series[PP_PREV]), copy_series(m, &q->series[PP_CUR])},
	    .verdict = q->verdict,
	    .verdict_name = pp_verdict_name(q->verdict),
	    .verdict_word = pp_verdict_word(q->verdict),
	    .decided = q->decided,
	    .order = q->order,
	    .sum = {q->sum[PP_PREV], q->sum[PP_CUR]},
	    .ci = {q->ci[PP_PREV], q->ci[PP_CUR]},
	    .cmp = q->cmp,
	    .look = q->final_look,
	    .threshold_ns = q->threshold_ns,
	    .truncated = q->truncated,
	    .spent_option = pp_spent_option(q->truncated, q->kind),
	    .left = pp_copy_str(m, q->left),
	    .share_of_entry = base > 0 ? q->cmp.diff.centre / base : 0,
	    .runs_per_revision = q->final_look.runs / 2,
	    .has_layout = q->has_layout,
	    .layout = {q->layout[PP_PREV], q->layout[PP_CUR]},
	    .layout_sensitive = q->has_layout && q->layout_sensitive,
	    .layout_sd = q->layout_sd,
	    .layout_floor = q->layout_floor,
	    .cpu_term_ns = q->cpu_term_ns,
	};
	for (int r = 0; r < 2; r++)
		pp_series_box(&q->series[r], pp_copy_mem(m, NULL, q->series[r].n * sizeof(double)),
			      &c->box[r]);
}

int pp_outcome_live(const struct pp_session *s, const struct pp_quantity *q,
		    struct pp_outcome_cmp *c, struct pp_arena *mem)
{
	struct pp_copy m = {mem, 0};
	struct pp_names nm;
	int err;

	if (s->opt->quiet)
		return 1;
	pp_names_init(&nm);
	for (size_t i = 0; i < s->nq; i++)
		free(pp_quantity_label_named(s->q[i], &nm));
	free(pp_quantity_label_named(q, &nm));
	err = pp_names_settle(&nm);
	cmp_make(&m, s, q, c, err ? NULL : &nm);
	pp_names_free(&nm);
	return m.err;
}

/* The comparison of @q in @o, or NULL. */
static const struct pp_outcome_cmp *cmp_of(const struct pp_outcome *o, const struct pp_quantity *q)
{
	if (!q || q->id >= o->ncmp)
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

/* "a.c:12:3" or "(no debug info)", in the arena. */
static const char *loc_str(struct pp_copy *m, const char *file, unsigned line, unsigned col)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		m->err = -ENOMEM;
		return NULL;
	}
	pp_print_loc(f, file, line, col);
	if (fclose(f)) {
		free(buf);
		buf = NULL;
	}
	return pp_copy_take(m, buf);
}

/*
 * The targets of indirect call @n: as the search found them when it
 * decided where to dig (n->targets), with the comparisons it made; where
 * it did not look, their shares in the runs alone, compared by nobody.
 * Their names are gathered into @nm.
 */
static int node_targets(struct pp_copy *m, struct pp_outcome_node *v, const struct pp_session *s,
			const struct pp_node *n, struct pp_names *nm)
{
	const struct pp_prog_call *c;
	struct pp_targets own = {0};
	const struct pp_targets *t = n->targets;
	struct pp_outcome_target *out;
	int r, err = 0;

	c = n->kind == PP_NODE_CALL && n->q ? pp_node_call(n, &r) : NULL;
	if (!c || (c->kind != PP_CALL_INDIRECT && c->kind != PP_CALL_INVOKE_INDIRECT))
		return 0;
	if (!t) {
		err = pp_targets_of(s, n->q, &own);
		t = &own;
	}
	out = err ? NULL : pp_copy_mem(m, NULL, t->n * sizeof(*out));
	for (size_t i = 0; out && i < t->n; i++) {
		if (!t->t[i].mean[PP_CUR])
			continue; /* a target of the previous revision only */
		out[v->ntargets++] = (struct pp_outcome_target){
		    .key = pp_copy_str(m, t->t[i].key),
		    .name = pp_copy_str(m, pp_names_get(nm, t->t[i].key)),
		    .share = t->t[i].share,
		    .diff_share = t->t[i].diff_share,
		    .compared = t->t[i].compared,
		    .diff = t->t[i].diff,
		    .verdict_name = t->t[i].q ? pp_verdict_name(t->t[i].q->verdict)
					      : pp_verdict_name(pp_verdict_of(t->t[i].verdict)),
		    .comparison = t->t[i].q ? (int)t->t[i].q->id : -1};
	}
	v->targets = out;
	pp_targets_free(&own);
	return err ? err : m->err;
}

/* The calls of callee group @n, each with its own comparison's difference. */
static void node_sites(struct pp_copy *m, struct pp_outcome_node *v, const struct pp_node *n)
{
	const struct pp_quantity *g = n->q;
	struct pp_outcome_site *sites;

	if (n->kind != PP_NODE_GROUP || !g || !g->nterms)
		return;
	sites = pp_copy_mem(m, NULL, g->nterms * sizeof(*sites));
	for (size_t t = 0; sites && t < g->nterms; t++) {
		const struct pp_quantity *q = g->terms[t];
		const struct pp_prog_call *c = &g->fn[PP_CUR]->calls[q->first];
		struct pp_outcome_site *x = &sites[v->nsites++];

		x->call = q->first;
		x->file = pp_copy_str(m, c->file);
		x->line = c->line;
		x->col = c->col;
		x->where = loc_str(m, c->file, c->line, c->col);
		x->diff = q->decided ? q->cmp.diff : (struct pp_interval){NAN, NAN, NAN};
		x->share = q->decided && g->cmp.diff.centre != 0
			       ? q->cmp.diff.centre / g->cmp.diff.centre
			       : NAN;
		x->sign = !q->decided		      ? 0
			  : q->verdict == PP_V_SLOWER ? 1
			  : q->verdict == PP_V_FASTER ? -1
						      : 0;
	}
	v->sites = sites;
}

static struct pp_outcome_call copy_call(struct pp_copy *m, const struct pp_prog_call *c,
					unsigned index)
{
	return (struct pp_outcome_call){
	    .index = index,
	    .callee = pp_copy_str(m, c->callee),
	    .callee_demangled = c->callee ? pp_copy_str(m, pp_demangle(c->callee)) : NULL,
	    .file = pp_copy_str(m, c->file),
	    .line = c->line,
	    .col = c->col,
	};
}

/*
 * What node @n names, as JSON has it: the function it is in (in the
 * revision that has its call), the call with its label and the inlined
 * calls it came through, a group's callee, the function dug into.
 */
static void node_identity(struct pp_copy *m, struct pp_outcome_node *v, const struct pp_node *n)
{
	int r;
	const struct pp_prog_call *c = pp_node_call(n, &r);
	const struct pp_prog_fn *fn = n->fn[r] ? n->fn[r] : n->fn[1 - r];

	v->fn = pp_copy_fn(m, fn);
	v->function = pp_copy_str(m, pp_node_function(n));
	if (c && (n->kind == PP_NODE_CALL || n->kind == PP_NODE_RANGE || n->kind == PP_NODE_ADDED ||
		  n->kind == PP_NODE_REMOVED)) {
		uint32_t k = n->first[r], nc = pp_prog_call_chain(fn, k, NULL, 0);
		uint32_t *chain = calloc(nc + 1, sizeof(*chain));
		struct pp_outcome_call *in = pp_copy_mem(m, NULL, nc * sizeof(*in));

		v->has_call = true;
		v->first_call = n->first[r];
		v->last_call = n->last[r];
		v->call = copy_call(m, c, k);
		v->call_label = pp_copy_take(m, pp_prog_call_label(fn, k));
		if (!chain)
			m->err = -ENOMEM;
		else
			pp_prog_call_chain(fn, k, chain, nc);
		for (uint32_t i = 0; chain && in && i < nc; i++)
			in[i] = copy_call(m, &fn->calls[chain[i]], chain[i]);
		v->inlined = in;
		v->ninlined = in ? nc : 0;
		free(chain);
	}
	if (n->kind == PP_NODE_GROUP)
		v->callee = pp_copy_str(m, n->q->callee);
	v->into = pp_copy_fn(m, n->into[PP_CUR]);
	v->comparison = n->q ? (int)n->q->id : -1;
}

/* A function's whole, its parts and what the probes cost, from the same runs (account.c). */
static void node_accounting(struct pp_outcome_node *v, const struct pp_node *n)
{
	v->runs[PP_PREV] = n->runs[PP_PREV];
	v->runs[PP_CUR] = n->runs[PP_CUR];
	v->whole_measured = n->runs[0] >= 2 && n->runs[1] >= 2;
	v->paired = n->paired;
	v->whole = n->whole;
	v->parts = n->parts;
	for (int r = 0; r < 2; r++) {
		v->whole_mean[r] = n->whole_mean[r];
		v->removed[r] = n->removed[r];
		v->left_in[r] = n->left_in[r];
		v->clean[r] = n->clean[r];
		v->mean[r] = n->mean[r];
		v->part_removed[r] = n->part_removed[r];
	}
	v->lead = n->lead;
	v->lead_tie = n->tie;
	v->calls_listed = n->calls_listed;
	v->untimed = n->untimed;
	v->armed_share = n->armed_share;
	v->probes_share = n->probes_share;
	v->calls_ran = n->calls_ran;
	v->count_rounds = n->count_rounds;
}

/* The nodes, all but their names (name_all()). */
static int make_nodes(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s,
		      struct pp_names *nm)
{
	o->nodes = pp_copy_mem(m, NULL, (s->nnodes ? s->nnodes : 1) * sizeof(*o->nodes));
	if (!o->nodes)
		return -ENOMEM;
	o->nnodes = s->nnodes;
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct pp_node *n = &s->nodes[i];
		struct pp_outcome_node *v = &o->nodes[i];

		v->kind = n->kind;
		v->parent = n->parent;
		v->child = n->child;
		v->next = n->next;
		v->depth = n->depth;
		v->cmp = cmp_of(o, n->q);
		v->diff = n->diff;
		v->level = n->level;
		v->share = n->share;
		v->share_ci = n->share_ci;
		v->entry_share = n->entry_share;
		v->entry_share_level = 1 - n->entry_alpha;
		v->entry_share_ci = n->entry_share_ci;
		if (!(v->entry_share_level > 0) || !isfinite(n->entry_share_ci.low)) {
			v->entry_share_ci = (struct pp_interval){NAN, NAN, NAN};
			v->entry_share_level = NAN;
		}
		v->at_most = (struct pp_interval){NAN, NAN, NAN};
		v->others = n->share > 1 ? n->others : (struct pp_interval){NAN, NAN, NAN};
		v->whole_of = pp_node_whole(s, n);
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
		v->alone = n->alone;
		v->rank = n->rank;
		v->stop = pp_copy_str(m, n->stop);
		v->detail = pp_copy_str(m, n->detail);
		v->tie = n->parent >= 0 && s->nodes[n->parent].tie >= 0 &&
				 s->nodes[n->parent].lead == (int)i
			     ? s->nodes[n->parent].tie
			     : -1;
		node_identity(m, v, n);
		node_accounting(v, n);
		node_sites(m, v, n);
		if (node_targets(m, v, s, n, nm))
			return -ENOMEM;
	}
	return m->err;
}

/*
 * The names of the comparisons and nodes as text and HTML print them: every
 * function they name gathered (the targets' already are), the names settled,
 * then the labels made with them.
 */
static int name_all(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s,
		    struct pp_names *nm)
{
	const struct pp_prog_fn *entry = s->nq ? s->q[0]->fn[PP_CUR] : NULL;
	int err;

	for (size_t i = 0; i < o->ncmp; i++)
		free(pp_quantity_label_named(s->q[i], nm));
	for (size_t i = 0; i < o->nnodes; i++) {
		free(pp_node_name(&s->nodes[i], nm));
		free(node_where(&s->nodes[i], nm));
	}
	if (entry)
		pp_fn_name(entry, nm);
	err = pp_names_settle(nm);
	if (err)
		return err;
	for (size_t i = 0; i < o->ncmp; i++)
		o->cmp[i].shown = pp_copy_take(m, pp_quantity_label_named(s->q[i], nm));
	for (size_t i = 0; i < o->nnodes; i++) {
		struct pp_outcome_node *v = &o->nodes[i];
		struct pp_outcome_target *t = v->targets;

		v->name = pp_copy_take(m, pp_node_name(&s->nodes[i], nm));
		v->where = pp_copy_take(m, node_where(&s->nodes[i], nm));
		for (size_t k = 0; k < v->ntargets; k++)
			t[k].shown = pp_copy_str(m, pp_names_get(nm, t[k].key));
	}
	if (entry)
		o->entry_name = pp_copy_str(m, pp_fn_name(entry, nm));
	return m->err;
}

/*
 * Whether node @i is an own body on the chain whose next step is a call
 * measured alone under it: the chain names the call as a step of the
 * function, its line saying it is part of the own body, so that it reads
 * the same whether the arming plan timed the call with the function's other
 * parts or left it to runs of its own (a call near the budget can go
 * either way from one session to the next).
 */
static bool own_body_of_alone(const struct pp_outcome *o, size_t i)
{
	for (size_t k = 0; k < o->nnodes; k++)
		if (o->nodes[k].parent == (int)i && o->nodes[k].chain &&
		    pp_outcome_alone_step(o, (int)k))
			return true;
	return false;
}

/* The chain from the entry to its end, the contributors by rank, the improvements. */
static int make_lists(struct pp_copy *m, struct pp_outcome *o)
{
	size_t n = (o->nnodes ? o->nnodes : 1) * sizeof(int);

	o->chain = pp_copy_mem(m, NULL, n);
	o->contrib = pp_copy_mem(m, NULL, n);
	o->improved = pp_copy_mem(m, NULL, n);
	if (!o->chain || !o->contrib || !o->improved)
		return -ENOMEM;
	for (size_t i = 0; i < o->nnodes; i++) {
		const struct pp_outcome_node *v = &o->nodes[i];

		if (v->chain && !own_body_of_alone(o, i))
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

/* The end of the Competing load sentence when the spoiled rounds stopped the measuring. */
static const char load_stopped[] = "; then, with spoiled rounds " PP_STR(
    PP_SPOILED_RATIO) " times the rest, the session stopped measuring: a machine this busy decides "
		      "nothing.";

static void make_noise(struct pp_outcome *o, const struct pp_session *s)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;
	double waited = 0, wall = 0;

	for (int r = 0; r < 2; r++)
		o->cov[r] = e ? pp_series_cov(&e->series[r]) : NAN;
	for (size_t i = 0; i < s->nq; i++)
		if (s->q[i]->decided)
			s->q[i]->verdict == PP_V_UNDECIDED ? o->nundecided++
			: s->q[i]->verdict == PP_V_BOUNDED ? o->nleft++
							   : o->ndecided++;
	for (size_t i = 0; i < s->nruns; i++) {
		if (s->runs[i].lost) {
			o->lost += s->runs[i].lost;
			o->lost_runs++;
		}
		o->switches += s->runs[i].st.nivcsw;
		if (s->runs[i].st.waited_s >= 0 && s->runs[i].st.wall_s > 0) {
			waited += s->runs[i].st.waited_s;
			wall += s->runs[i].st.wall_s;
			o->preempted_runs += pp_run_waited_long(&s->runs[i]);
		}
	}
	o->waited_share = wall > 0 ? waited / wall : NAN;
	o->rounds_spoiled = s->rounds_spoiled;
	o->rounds_kept = s->rounds_kept;
	o->load_spent = s->load_spent;
	/* a competing load: a round it spoiled, or one run in ten or more of ten
	 * or more kept from its CPU a fifth of its time (PP_WAITED_SPOILS) */
	if (s->rounds_spoiled || (s->nruns >= 10 && o->preempted_runs * 10 >= s->nruns)) {
		int n = snprintf(
		    o->preempted_sentence, sizeof(o->preempted_sentence),
		    "Competing load: %zu of %zu runs (%.0f%%) waited for their CPU a fifth of "
		    "their time or more while other work had it (%.0f%% of all the runs' time, "
		    "%lld involuntary context switches): the machine was not quiet",
		    o->preempted_runs, s->nruns,
		    100.0 * (double)o->preempted_runs / (double)s->nruns, 100.0 * o->waited_share,
		    o->switches);
		size_t at = n > 0 && (size_t)n < sizeof(o->preempted_sentence) ? (size_t)n : 0;

		if (!s->rounds_spoiled)
			snprintf(o->preempted_sentence + at, sizeof(o->preempted_sentence) - at,
				 ", and their times hold some of that work.");
		else
			snprintf(o->preempted_sentence + at, sizeof(o->preempted_sentence) - at,
				 ". The %zu measured rounds such runs were in (of %zu) were "
				 "measured again, and no comparison holds their values%s",
				 s->rounds_spoiled, s->rounds_spoiled + s->rounds_kept,
				 s->load_spent ? load_stopped : ".");
	}
	pp_time_use(s, &o->time);
	pp_runs_sentence(s, o->runs_sentence, sizeof(o->runs_sentence));
	pp_layouts_sentence(s, o->layouts_sentence, sizeof(o->layouts_sentence));
	o->layouts_varied = pp_layouts_varied(s);
	o->has_spread = pp_layouts_spread(s, o->spread_sentence, sizeof(o->spread_sentence));
}

/* What the entry's undecided interval would need, at the noise measured (NaN: nothing). */
static double runs_needed(const struct pp_outcome_cmp *e)
{
	if (!e || !e->decided || e->verdict != PP_V_UNDECIDED || !e->look.looks)
		return NAN;
	return pp_seq_runs_to_decide(e->cmp.diff.centre, (e->cmp.diff.high - e->cmp.diff.low) / 2.0,
				     e->threshold_ns, true, e->runs_per_revision);
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
	struct pp_copy m = {&o->mem, 0};
	struct pp_names nm;
	int err = 0;

	memset(o, 0, sizeof(*o));
	pp_arena_init(&o->mem);
	pp_names_init(&nm);
	o->opt = *s->opt;
	o->status = status_of(s, failed);
	o->interrupted = s->interrupted;
	o->failure = o->status == PP_EXIT_MEASUREMENT ? pp_copy_str(&m, s->failure) : NULL;
	o->budget_cut = s->budget_cut;
	o->cmp = pp_copy_mem(&m, NULL, (s->nq ? s->nq : 1) * sizeof(*o->cmp));
	if (!o->cmp) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < s->nq; i++)
		cmp_make(&m, s, s->q[i], &o->cmp[i], NULL);
	o->ncmp = s->nq;
	o->entry = o->ncmp ? &o->cmp[0] : NULL;
	err = m.err;
	if (!err)
		err = make_nodes(&m, o, s, &nm);
	if (!err)
		err = name_all(&m, o, s, &nm);
	if (!err) {
		pp_outcome_counts(&m, o, s);
		err = m.err;
	}
	if (!err)
		err = make_lists(&m, o);
	if (!err) {
		/* the counts of comparisons left open, which the what-if's sentence names */
		make_noise(o, s);
		pp_outcome_confirm(&m, o, s);
		pp_outcome_inflated(&m, o);
		err = m.err;
	}
	if (!err) {
		pp_outcome_runs(&m, o, s);
		pp_outcome_cpus(&m, o);
		err = m.err;
	}
	if (err)
		goto out;
	o->decided = o->entry && o->entry->decided;
	o->verdict = o->entry ? o->entry->verdict : PP_V_UNDECIDED;
	o->verdict_name = o->decided ? o->entry->verdict_name : "none";
	o->tree = s->nnodes >= 2 && s->opt->search == PP_SEARCH_ATTRIB;
	o->runs_needed = runs_needed(o->entry);
	pp_platform_read(&o->platform, s);
out:
	pp_names_free(&nm);
	if (err)
		pp_outcome_free(o);
	return err;
}

void pp_outcome_free(struct pp_outcome *o)
{
	pp_arena_free(&o->mem);
	memset(o, 0, sizeof(*o));
}
