// SPDX-License-Identifier: MIT
/*
 * session.c - the session's own operations: the quantities (made once), their series,
 * the run records, the first failure, the numbering of comparisons as they
 * are decided, and releasing it all.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/layouts/both.h"
#include "pinpoint/session/session.h"
#include "pinpoint/session/targets.h"

void pp_session_free(struct pp_session *s)
{
	for (size_t i = 0; i < s->nq; i++) {
		for (int r = 0; r < 2; r++) {
			free(s->q[i]->series[r].v);
			free(s->q[i]->series[r].layout);
			free(s->q[i]->series[r].side);
			free(s->q[i]->execs[r].v);
			free(s->q[i]->execs[r].layout);
			free(s->q[i]->execs[r].side);
		}
		free(s->q[i]->left);
		free(s->q[i]->dec);
		free(s->q[i]->terms);
		free(s->q[i]->signs);
		free(s->q[i]->delay);
		free(s->q[i]->delay_what);
		free(s->q[i]->target);
		free(s->q[i]);
	}
	free(s->q);
	for (size_t i = 0; i < s->nbatches; i++) {
		free(s->batches[i].qids);
		free(s->batches[i].arming[0]);
		free(s->batches[i].arming[1]);
	}
	free(s->batches);
	for (size_t i = 0; i < s->nruns; i++)
		pp_run_record_clear(&s->runs[i]);
	free(s->runs);
	for (size_t i = 0; i < s->nnodes; i++) {
		free(s->nodes[i].detail);
		free(s->nodes[i].stop_own);
		pp_targets_drop(&s->nodes[i]);
	}
	free(s->nodes);
	if (s->rng)
		gsl_rng_free(s->rng);
	if (s->layout_rng)
		gsl_rng_free(s->layout_rng);
	for (int r = 0; r < 2; r++) {
		free(s->rev[r].dir);
		free(s->rev[r].built_from);
		free(s->rev[r].entry_spec);
		pp_program_free(&s->rev[r].prog);
	}
	free(s->failure);
}

/* A new quantity of @kind on @fn, added to the session; NULL when out of memory. */
static struct pp_quantity *new_quantity(struct pp_session *s, enum pp_qkind kind,
					const struct pp_prog_fn *const fn[2])
{
	struct pp_quantity *q = calloc(1, sizeof(*q)), **nq;

	nq = realloc(s->q, (s->nq + 1) * sizeof(*nq));
	if (!q || !nq) {
		free(q);
		if (nq)
			s->q = nq;
		return NULL;
	}
	s->q = nq;
	q->id = (unsigned)s->nq;
	q->kind = kind;
	q->fn[0] = fn[0];
	q->fn[1] = fn[1];
	q->cpu_term_ns = NAN;
	s->q[s->nq++] = q;
	return q;
}

/* Target @key's value in run @rec at quantity index @qi: its time there, 0 if not reached. */
static double target_value(const struct pp_run_record *rec, int qi, const char *key)
{
	double v = 0;

	for (size_t k = 0; k < rec->ntargets; k++)
		if (rec->targets[k].qi == (unsigned)qi && !strcmp(rec->targets[k].key, key))
			v += rec->targets[k].v;
	return v;
}

struct pp_quantity *pp_quantity_target(struct pp_session *s, struct pp_quantity *call,
				       const char *key)
{
	struct pp_quantity *q;

	for (size_t i = 0; i < s->nq; i++)
		if (s->q[i]->kind == PP_Q_TARGET && s->q[i]->of == call &&
		    !strcmp(s->q[i]->target, key))
			return s->q[i];
	q = new_quantity(s, PP_Q_TARGET, call->fn);
	if (!q)
		return NULL;
	q->target = strdup(key);
	if (!q->target)
		return NULL;
	q->of = call;
	q->first = call->first;
	q->last = call->last;
	q->prev_first = call->prev_first;
	q->prev_last = call->prev_last;
	q->batch = call->batch;
	/* the call's runs so far, in the order its own series has them */
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *rec = &s->runs[i];
		unsigned layout = pp_setup_layout(&rec->setup);
		int qi;

		if (rec->warmup || !rec->values || (qi = pp_run_value_at(s, rec, call)) < 0)
			continue;
		if (pp_series_push_run(&q->series[rec->rev], target_value(rec, qi, key), layout,
				       rec->side) ||
		    pp_series_push_run(&q->execs[rec->rev], NAN, layout, rec->side))
			return NULL;
	}
	return q;
}

int pp_quantity_push_target(struct pp_quantity *q, const struct pp_run_record *rec, int qi)
{
	unsigned layout = pp_setup_layout(&rec->setup);

	if (rec->warmup)
		return 0;
	if (pp_series_push_run(&q->series[rec->rev], target_value(rec, qi, q->target), layout,
			       rec->side) ||
	    pp_series_push_run(&q->execs[rec->rev], NAN, layout, rec->side))
		return -ENOMEM;
	return 0;
}

static struct pp_quantity *range_of(struct pp_session *s, enum pp_qkind kind,
				    const struct pp_prog_fn *const fn[2], const unsigned first[2],
				    const unsigned last[2], const bool absent[2])
{
	struct pp_quantity *q;

	for (size_t i = 0; i < s->nq; i++) {
		q = s->q[i];
		if (q->kind == kind && !q->retired && q->fn[0] == fn[0] && q->fn[1] == fn[1] &&
		    q->absent[0] == absent[0] && q->absent[1] == absent[1] &&
		    (absent[PP_CUR] || (q->first == first[PP_CUR] && q->last == last[PP_CUR])) &&
		    (absent[PP_PREV] ||
		     (q->prev_first == first[PP_PREV] && q->prev_last == last[PP_PREV])))
			return q;
	}
	q = new_quantity(s, kind, fn);
	if (!q)
		return NULL;
	q->first = first[PP_CUR];
	q->last = last[PP_CUR];
	q->prev_first = first[PP_PREV];
	q->prev_last = last[PP_PREV];
	q->absent[0] = absent[0];
	q->absent[1] = absent[1];
	return q;
}

struct pp_quantity *pp_quantity_range(struct pp_session *s, const struct pp_prog_fn *const fn[2],
				      const unsigned first[2], const unsigned last[2],
				      const bool absent[2])
{
	return range_of(s, PP_Q_RANGE, fn, first, last, absent);
}

struct pp_quantity *pp_quantity_count(struct pp_session *s, const struct pp_prog_fn *const fn[2],
				      const unsigned first[2], const unsigned last[2],
				      const bool absent[2])
{
	return range_of(s, PP_Q_COUNT, fn, first, last, absent);
}

struct pp_quantity *pp_quantity_confirm(struct pp_session *s,
					const struct pp_prog_fn *const entry[2], char *delay,
					unsigned long long ns, unsigned every, char *what)
{
	struct pp_quantity *q = new_quantity(s, PP_Q_CONFIRM, entry);

	if (!q) {
		free(delay);
		free(what);
		return NULL;
	}
	q->delay = delay;
	q->delay_ns = ns;
	q->delay_every = every;
	q->delay_what = what;
	return q;
}

/*
 * The quantity of @kind over calls @first[r]..@last[r] of @fn in revision
 * r (to @callee, where given): the one made before, else a new one.
 */
static struct pp_quantity *calls_q(struct pp_session *s, enum pp_qkind kind,
				   const struct pp_prog_fn *const fn[2], const char *callee,
				   const unsigned first[2], const unsigned last[2])
{
	struct pp_quantity *q;

	for (size_t i = 0; i < s->nq; i++) {
		q = s->q[i];
		if (q->kind == kind && !q->retired && q->fn[0] == fn[0] && q->fn[1] == fn[1] &&
		    (!callee || !strcmp(q->callee, callee)) && q->first == first[PP_CUR] &&
		    q->last == last[PP_CUR] && q->prev_first == first[PP_PREV] &&
		    q->prev_last == last[PP_PREV])
			return q;
	}
	q = new_quantity(s, kind, fn);
	if (!q)
		return NULL;
	q->callee = callee;
	q->first = first[PP_CUR];
	q->last = last[PP_CUR];
	q->prev_first = first[PP_PREV];
	q->prev_last = last[PP_PREV];
	return q;
}

struct pp_quantity *pp_quantity_group(struct pp_session *s, const struct pp_prog_fn *const fn[2],
				      const char *callee,
				      const struct pp_prog_fn *const callee_fn[2],
				      const unsigned first[2], const unsigned last[2])
{
	struct pp_quantity *q = calls_q(s, PP_Q_GROUP, fn, callee, first, last);

	if (q) {
		q->callee_fn[0] = callee_fn[0];
		q->callee_fn[1] = callee_fn[1];
	}
	return q;
}

struct pp_quantity *pp_quantity_changed(struct pp_session *s, const struct pp_prog_fn *const fn[2],
					const unsigned first[2], const unsigned last[2])
{
	return calls_q(s, PP_Q_CHANGED, fn, NULL, first, last);
}

struct pp_quantity *pp_quantity_get(struct pp_session *s, enum pp_qkind kind,
				    const struct pp_prog_fn *const fn[2], unsigned first,
				    unsigned last)
{
	const unsigned f[2] = {first, first}, l[2] = {last, last};
	const bool none[2] = {false, false};
	struct pp_quantity *q;

	if (kind == PP_Q_RANGE)
		return pp_quantity_range(s, fn, f, l, none);
	for (size_t i = 0; i < s->nq; i++) {
		q = s->q[i];
		if (q->kind == kind && !q->retired && q->fn[0] == fn[0] && q->fn[1] == fn[1])
			return q;
	}
	return new_quantity(s, kind, fn);
}

/* Whether @q is @of, or one of @of's terms, at any depth. */
static bool depends_on(const struct pp_quantity *of, const struct pp_quantity *q)
{
	if (of == q)
		return true;
	for (size_t i = 0; i < of->nterms; i++)
		if (depends_on(of->terms[i], q))
			return true;
	return false;
}

int pp_quantity_derive(struct pp_quantity *q, struct pp_quantity *const *terms,
		       const signed char *signs, size_t n)
{
	if (q->nterms || !n || (n == 1 && terms[0] == q && signs[0] == 1))
		return 0; /* nothing to derive: it is its one term */
	for (size_t i = 0; i < n; i++)
		if (!terms[i] || depends_on(terms[i], q))
			return -EINVAL;
	q->terms = calloc(n, sizeof(*q->terms));
	q->signs = calloc(n, sizeof(*q->signs));
	if (!q->terms || !q->signs) {
		free(q->terms);
		free(q->signs);
		q->terms = NULL;
		q->signs = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		q->terms[i] = terms[i];
		q->signs[i] = signs[i];
	}
	q->nterms = n;
	return 0;
}

int pp_qlist_add(struct pp_qlist *l, struct pp_quantity *q)
{
	if (!q)
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++)
		if (l->q[i] == q)
			return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct pp_quantity **n = realloc(l->q, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->q = n;
		l->cap = cap;
	}
	l->q[l->n++] = q;
	return 0;
}

void pp_qlist_free(struct pp_qlist *l)
{
	free(l->q);
	*l = (struct pp_qlist){0};
}

int pp_node_whole(const struct pp_session *s, const struct pp_node *n)
{
	const struct pp_node *p = n->parent >= 0 ? &s->nodes[n->parent] : NULL;

	return p && p->kind == PP_NODE_STRUCTURAL && p->parent >= 0 ? p->parent : n->parent;
}

bool pp_node_accounted(const struct pp_session *s, const struct pp_node *n)
{
	int w = pp_node_whole(s, n);

	return w >= 0 && s->nodes[w].runs[0] >= 2 && s->nodes[w].runs[1] >= 2;
}

/* A batch's pairs are run close together: the search looks near @i first. */
long pp_run_pair(const struct pp_session *s, size_t i)
{
	const struct pp_run_record *p = &s->runs[i];

	for (size_t d = 1; d < s->nruns; d++) {
		size_t at[2] = {i + d, i >= d ? i - d : s->nruns};

		for (int k = 0; k < 2; k++) {
			const struct pp_run_record *c = at[k] < s->nruns ? &s->runs[at[k]] : NULL;

			if (c && c->rev == PP_CUR && c->batch == p->batch && c->index == p->index &&
			    !c->warmup)
				return (long)at[k];
		}
		if (i + d >= s->nruns && i < d)
			break;
	}
	return -1;
}

int pp_run_value_at(const struct pp_session *s, const struct pp_run_record *rec,
		    const struct pp_quantity *q)
{
	const struct pp_batch *b;

	if (!rec->batch || rec->batch > s->nbatches || !rec->values)
		return -1;
	b = &s->batches[rec->batch - 1];
	for (size_t j = 0; j < b->nq && j < rec->nvalues; j++)
		if (b->qids[j] == q->id)
			return (int)j;
	return -1;
}

int pp_node_add(struct pp_session *s, enum pp_node_kind kind, int parent,
		const struct pp_prog_fn *const fn[2], const struct pp_quantity *q)
{
	struct pp_node *n = realloc(s->nodes, (s->nnodes + 1) * sizeof(*n));

	if (!n)
		return -1;
	s->nodes = n;
	n = &s->nodes[s->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->fn[0] = fn[0];
	n->fn[1] = fn[1];
	n->q = q;
	n->parent = parent;
	n->child = n->next = -1;
	n->lead = n->tie = -1;
	n->clean[0] = n->clean[1] = NAN;
	n->mean[0] = n->mean[1] = NAN;
	n->part_removed[0] = n->part_removed[1] = NAN;
	n->whole_mean[0] = n->whole_mean[1] = NAN;
	n->left_in[0] = n->left_in[1] = n->others = (struct pp_interval){NAN, NAN, NAN};
	n->probe_unc = NAN;
	n->armed_share = NAN;
	n->probes_share = NAN;
	n->entry_share = NAN;
	n->entry_share_ci = (struct pp_interval){NAN, NAN, NAN};
	n->level = NAN;
	/* The parts of a call that is dug into are one layer deeper. */
	n->depth = parent < 0 ? 0
		   : s->nodes[parent].kind == PP_NODE_CALL ||
			   s->nodes[parent].kind == PP_NODE_GROUP ||
			   s->nodes[parent].kind == PP_NODE_SHARED
		       ? s->nodes[parent].depth + 1
		       : s->nodes[parent].depth;
	if (q && q->decided)
		n->diff = q->cmp.diff;
	return (int)s->nnodes++;
}

/* The session's time a run took so far, on average (duet runs take half their pair's), s. */
static double mean_wall(const struct pp_session *s)
{
	double wall = 0;

	for (size_t i = 0; i < s->nruns; i++)
		wall += s->runs[i].turn_s;
	return s->nruns ? wall / (double)s->nruns : 0.0;
}

enum pp_runs pp_session_runs(const struct pp_session *s)
{
	if (s->duet)
		return PP_RUNS_DUET;
	return s->opt->runs == PP_RUNS_DUET ? PP_RUNS_PAIRED : s->opt->runs;
}

bool pp_session_pairs_share(const struct pp_session *s)
{
	return (!s->opt || s->opt->runs != PP_RUNS_SHUFFLED) && !s->pairs_apart;
}

double pp_session_now(const struct pp_session *s)
{
	return s->virtual_clock ? s->clock_s : pp_now();
}

double pp_session_time_left(const struct pp_session *s)
{
	double from = s->measuring > 0 ? s->measuring : s->started;

	if (!(s->opt->max_time > 0))
		return INFINITY;
	return s->opt->max_time - (pp_session_now(s) - from);
}

enum pp_spent pp_session_can_run(const struct pp_session *s, size_t runs, double deadline)
{
	double need;

	if (s->load_spent)
		return PP_SPENT_LOAD;
	if (s->opt->max_runs && s->runs_used + runs > (size_t)s->opt->max_runs)
		return PP_SPENT_RUNS;
	/* and the layouts the round's pairs need linked first (ahead.c) */
	need = (double)runs * mean_wall(s) + pp_layouts_ahead_s(s, (int)(runs / 2));
	if (need > pp_session_time_left(s))
		return PP_SPENT_TIME;
	if (deadline > 0 && pp_session_now(s) + need > deadline)
		return PP_SPENT_PLAN;
	return PP_SPENT_NONE;
}

const char *pp_spent_option(enum pp_spent why, enum pp_qkind kind)
{
	/* the what-if's deadline is its own cap, not a share of --max-time (confirm.c) */
	if (why == PP_SPENT_PLAN && kind == PP_Q_CONFIRM)
		return "the what-if's time (as long as the session measured before it, at least a "
		       "tenth of --max-time)";
	return why == PP_SPENT_TIME	 ? "--max-time"
	       : why == PP_SPENT_PLAN	 ? "the time plan's share of --max-time"
	       : why == PP_SPENT_LAYOUTS ? "what runs in the layouts --max-layouts allows can tell"
	       : why == PP_SPENT_LOAD	 ? "the machine's quiet (other work spoiled most rounds)"
					 : "--max-runs";
}

void pp_run_record_clear(struct pp_run_record *r)
{
	free(r->values);
	free(r->removed);
	free(r->execs);
	for (size_t t = 0; t < r->ntargets; t++)
		free(r->targets[t].key);
	free(r->targets);
	memset(r, 0, sizeof(*r));
}

struct pp_run_record *pp_session_add_run(struct pp_session *s)
{
	struct pp_run_record *n = realloc(s->runs, (s->nruns + 1) * sizeof(*n));

	if (!n)
		return NULL;
	s->runs = n;
	memset(&s->runs[s->nruns], 0, sizeof(s->runs[0]));
	return &s->runs[s->nruns++];
}

void pp_session_fail(struct pp_session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->failure)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s->failure, fmt, ap) < 0)
		s->failure = NULL;
	va_end(ap);
}

void pp_session_decided(struct pp_session *s, struct pp_quantity *q)
{
	q->order = ++s->ndecided;
	if (s->on_decided)
		s->on_decided(s, q);
}

int pp_series_push_run(struct pp_series *s, double v, unsigned layout, int side)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 32;
		double *n = realloc(s->v, cap * sizeof(*n));
		unsigned *l;
		signed char *d;

		if (!n)
			return -ENOMEM;
		s->v = n;
		l = realloc(s->layout, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		s->layout = l;
		d = realloc(s->side, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		s->side = d;
		s->cap = cap;
	}
	s->layout[s->n] = layout;
	s->side[s->n] = (signed char)(side == 0 || side == 1 ? side : -1);
	s->v[s->n++] = v;
	return 0;
}

int pp_series_push_in(struct pp_series *s, double v, unsigned layout)
{
	return pp_series_push_run(s, v, layout, -1);
}

int pp_series_push(struct pp_series *s, double v)
{
	return pp_series_push_in(s, v, 0);
}

void pp_session_results_path(const struct pp_session *s, enum pp_rev_id r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/results-%s", s->workdir, s->rev[r].label);
}

/* Each verdict as the JSON report spells it, and as the text report prints it. */
static const struct {
	const char *name, *word;
} verdicts[] = {
    [PP_V_SAME] = {"same", "same"},
    [PP_V_SLOWER] = {"slower", "SLOWER"},
    [PP_V_FASTER] = {"faster", "faster"},
    [PP_V_UNDECIDED] = {"undecided", "UNDECIDED"},
    [PP_V_NOT_SLOWER] = {"not-slower", "not slower"},
    [PP_V_SLOWER_BELOW] = {"slower-below-threshold", "slower, below threshold"},
    [PP_V_FASTER_BELOW] = {"faster-below-threshold", "faster, below threshold"},
    [PP_V_BOUNDED] = {"bounded", "left open"},
};

enum pp_verdict pp_verdict_of(enum pp_seq_verdict v)
{
	switch (v) {
	case PP_SEQ_SLOWER:
		return PP_V_SLOWER;
	case PP_SEQ_FASTER:
		return PP_V_FASTER;
	case PP_SEQ_SLOWER_BELOW:
		return PP_V_SLOWER_BELOW;
	case PP_SEQ_FASTER_BELOW:
		return PP_V_FASTER_BELOW;
	case PP_SEQ_SAME:
		return PP_V_SAME;
	case PP_SEQ_NOT_SLOWER:
		return PP_V_NOT_SLOWER;
	default:
		return PP_V_UNDECIDED;
	}
}

const char *pp_verdict_name(enum pp_verdict v)
{
	return (unsigned)v < sizeof(verdicts) / sizeof(verdicts[0]) ? verdicts[v].name : "same";
}

const char *pp_verdict_word(enum pp_verdict v)
{
	return (unsigned)v < sizeof(verdicts) / sizeof(verdicts[0]) ? verdicts[v].word : "same";
}
