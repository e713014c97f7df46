// SPDX-License-Identifier: MIT
/*
 * search.c - what the searches share: how two revisions' call lists compare,
 * which calls can be timed, where digging stops, and the set of functions
 * already inspected.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/measure/settle.h"
#include "pinpoint/search/align.h"
#include "pinpoint/search/search.h"
#include "pinpoint/session/targets.h"

bool pp_same_call_list(const struct pp_prog_fn *a, const struct pp_prog_fn *b, char **why)
{
	unsigned k, n = a->ncalls < b->ncalls ? a->ncalls : b->ncalls;
	const struct pp_prog_call *ca, *cb;
	char *la = NULL, *lb = NULL;
	int r;

	*why = NULL;
	/* The same callees, through the same inlined calls. */
	for (k = 0; k < n; k++)
		if (!pp_same_callee(&a->calls[k], &b->calls[k]) ||
		    a->calls[k].via != b->calls[k].via)
			break;
	if (k == n && a->ncalls == b->ncalls)
		return true;
	if (k < n) {
		ca = &a->calls[k];
		cb = &b->calls[k];
		la = pp_prog_call_label(a, k);
		lb = pp_prog_call_label(b, k);
		r = asprintf(why,
			     "its call list changed: %u calls before, %u now; call %u was %s "
			     "(%s:%u), is %s (%s:%u)",
			     a->ncalls, b->ncalls, k, la ? la : "?", ca->file, ca->line,
			     lb ? lb : "?", cb->file, cb->line);
	} else {
		bool gone = a->ncalls > b->ncalls; /* the longer list has the extra calls */
		const struct pp_prog_fn *f = gone ? a : b;
		const struct pp_prog_call *c = &f->calls[k];

		la = pp_prog_call_label(f, k);
		r = asprintf(why,
			     "its call list changed: %u calls before, %u now; call %u to %s "
			     "(%s:%u) and after are %s",
			     a->ncalls, b->ncalls, k, la ? la : "?", c->file, c->line,
			     gone ? "gone" : "new");
	}
	free(la);
	free(lb);
	if (r < 0)
		*why = NULL;
	return false;
}

bool pp_call_timed(const struct pp_prog_call *c)
{
	return c->fate == PP_FATE_TIMED;
}

bool pp_call_indirect(const struct pp_prog_call *c)
{
	return c->kind == PP_CALL_INDIRECT || c->kind == PP_CALL_INVOKE_INDIRECT;
}

/* Keep @why (malloc'ed, may be NULL) as @n's stop reason; return it, or @fallback. */
static const char *own_stop(struct pp_node *n, char *why, const char *fallback)
{
	if (!why)
		return fallback;
	free(n->stop_own);
	n->stop_own = why;
	return why;
}

/* Target @key of call @at[r] of @fn[r], resolved in each revision as a direct callee. */
static void resolve_target(const struct pp_session *s, const struct pp_prog_fn *const fn[2],
			   const int at[2], const char *key, const struct pp_prog_fn *callee[2])
{
	for (int r = 0; r < 2; r++) {
		struct pp_prog_call c = fn[r]->calls[at[r]];

		c.callee = key;
		c.kind = PP_CALL_DIRECT;
		callee[r] = pp_program_resolve(&s->rev[r].prog, fn[r], &c);
	}
}

bool pp_callback_of(const struct pp_session *s, const struct pp_prog_fn *const fn[2],
		    const int at[2], const struct pp_prog_fn *callee[2])
{
	const struct pp_prog_call *c[2] = {&fn[PP_PREV]->calls[at[PP_PREV]],
					   &fn[PP_CUR]->calls[at[PP_CUR]]};

	callee[PP_PREV] = callee[PP_CUR] = NULL;
	if (!c[0]->callback || !c[1]->callback || !c[PP_CUR]->callback[0] ||
	    strcmp(c[0]->callback, c[1]->callback))
		return false;
	resolve_target(s, fn, at, c[PP_CUR]->callback, callee);
	if (callee[PP_PREV] && callee[PP_CUR])
		return true;
	callee[PP_PREV] = callee[PP_CUR] = NULL;
	return false;
}

/*
 * Compare each of the targets @t of indirect call @n (found slower or
 * faster) sequentially, as every part is: a PP_Q_TARGET each, at @n's alpha
 * shared among them (doc/statistics.md, "A session"), measured in the
 * call's runs until decided.  The verdicts the reports show are these.
 * 0, -ENOMEM or pp_settle()'s error.
 */
static int settle_targets(struct pp_session *s, const struct pp_node *n, struct pp_targets *t)
{
	struct pp_quantity *call = (struct pp_quantity *)n->q, **qs;
	const struct pp_settle_how how = {.layer = (int)n->depth + 1};
	double alpha = call->alpha;
	int err;

	if (!t->n)
		return 0;
	assert(alpha > 0);
	if (!(alpha > 0))
		alpha = 1 - s->opt->confidence;
	qs = calloc(t->n, sizeof(*qs));
	if (!qs)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		qs[i] = pp_quantity_target(s, call, t->t[i].key);
		if (!qs[i]) {
			free(qs);
			return -ENOMEM;
		}
		if (!qs[i]->alpha)
			qs[i]->alpha = pp_seq_child_alpha(alpha, t->n);
		t->t[i].q = qs[i];
	}
	err = pp_settle(s, qs, t->n, &how);
	pp_targets_from(t);
	free(qs);
	return err;
}

/* Whether the targets @t have been compared by the search (settle_targets()). */
static bool targets_settled(const struct pp_targets *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->t[i].q)
			return true;
	return false;
}

/* pp_slower_targets() on the targets @t of @n's runs, compared (settle_targets()). */
static int slower_in(struct pp_session *s, const struct pp_node *n,
		     const struct pp_prog_fn *const fn[2], const int at[2], struct pp_targets *t,
		     struct pp_dig_target *out, size_t max)
{
	enum pp_seq_verdict want = n->sign < 0 ? PP_SEQ_FASTER : PP_SEQ_SLOWER;
	size_t got = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct pp_target_share *x = &t->t[i];
		struct pp_dig_target d;
		size_t k;

		if (!x->compared || x->verdict != want || !strcmp(x->key, "other") ||
		    !strncmp(x->key, "ext:", 4))
			continue;
		resolve_target(s, fn, at, x->key, d.fn);
		if (!d.fn[PP_PREV] || !d.fn[PP_CUR])
			continue;
		d.diff = x->diff;
		d.q = x->q;
		if (got == max) /* the targets come largest share of the time first */
			break;
		/* largest difference first (in @n's direction) */
		for (k = got++; k > 0 && n->sign * out[k - 1].diff.centre < n->sign * d.diff.centre;
		     k--)
			out[k] = out[k - 1];
		out[k] = d;
	}
	return (int)got;
}

int pp_slower_targets(struct pp_session *s, struct pp_node *n, const struct pp_prog_fn *const fn[2],
		      const int at[2], struct pp_dig_target *out, size_t max)
{
	struct pp_targets t = {0};
	int got = 0;

	if (!n->q)
		return 0;
	/* the comparisons the search made where it decided where to dig, not new ones */
	if (n->targets && targets_settled(n->targets))
		return slower_in(s, n, fn, at, n->targets, out, max);
	got = pp_targets_of(s, n->q, &t);
	if (!got && t.n)
		got = settle_targets(s, n, &t);
	if (!got)
		got = slower_in(s, n, fn, at, &t, out, max);
	if (got >= 0) /* what the search acted on, for the reports */
		return pp_targets_keep(n, &t) ? -ENOMEM : got;
	pp_targets_free(&t);
	return got;
}

const char *pp_dig_limit(const struct pp_session *s, int layer, const struct pp_prog_fn *callee)
{
	if (layer >= s->opt->depth)
		return "depth reached";
	if (pp_excluded(s->opt->exclude, s->opt->nexclude, callee->name))
		return "excluded";
	return NULL;
}

/*
 * At indirect call @n, found slower or faster: the target that holds most
 * of its difference (pp_targets_dominant()), looked up by name in each
 * revision as a direct callee is, into @callee; or why the search stops.
 * Its targets, each compared on its own, are kept on @n (n->targets): the
 * reports show what the search acted on.
 */
static const char *indirect_callee(struct pp_session *s, struct pp_node *n,
				   const struct pp_prog_fn *const fn[2], const int at[2],
				   const struct pp_prog_fn *callee[2], int *err)
{
	const struct pp_target_share *d;
	struct pp_targets t;
	const char *stop = "indirect call";
	char *why = NULL;
	int cmp;

	if (!n || !n->q || pp_targets_of(s, n->q, &t)) {
		if (n && n->q)
			pp_targets_free(&t);
		return stop;
	}
	/*
	 * Each target is compared on its own, at the call's alpha shared among
	 * them, and is dug into only when found slower (faster), at its own
	 * alpha: the one that holds the call's difference (or the only one),
	 * or without one, one found so; the verdicts the reports show are
	 * these.
	 */
	d = pp_targets_dominant(&t);
	cmp = !t.n || !err ? 0 : settle_targets(s, n, &t);
	if (cmp) {
		pp_targets_free(&t);
		*err = cmp;
		return stop;
	}
	if (!t.n) {
		stop = "indirect call: no targets recorded";
	} else if (!d) {
		struct pp_dig_target one[2];
		int k = cmp ? cmp : slower_in(s, n, fn, at, &t, one, 2);

		if (k == 1) { /* one target found slower on its own: into it */
			callee[PP_PREV] = one[0].fn[PP_PREV];
			callee[PP_CUR] = one[0].fn[PP_CUR];
			stop = NULL;
		} else if (k >= 2) { /* the search digs into each (dig_calls) */
			if (asprintf(&why, "indirect call: %zu targets, several %s on their own",
				     t.n, n->sign < 0 ? "faster" : "slower") < 0)
				why = NULL;
		} else if (asprintf(&why,
				    "indirect call: %zu targets, none holds %.0f %% of it or is %s "
				    "by the threshold on its own",
				    t.n, 100 * PP_TARGET_DOMINANT,
				    n->sign < 0 ? "faster" : "slower") < 0) {
			why = NULL;
		}
	} else if (d->q && d->verdict != (n->sign < 0 ? PP_SEQ_FASTER : PP_SEQ_SLOWER)) {
		if (asprintf(&why,
			     "indirect call: %s holds %.0f %% of its difference, but was not "
			     "found %s by the threshold on its own",
			     pp_demangle(d->key), 100 * d->diff_share,
			     n->sign < 0 ? "faster" : "slower") < 0)
			why = NULL;
	} else if (!strcmp(d->key, "other")) {
		stop = "indirect call: its targets were not told apart (\"other\")";
	} else if (!strncmp(d->key, "ext:", 4)) {
		if (asprintf(&why, "indirect call into %s (not instrumented)", d->key + 4) < 0)
			why = NULL;
	} else {
		resolve_target(s, fn, at, d->key, callee);
		if (!callee[PP_PREV] && !callee[PP_CUR]) {
			if (asprintf(&why, "indirect call into %s (not instrumented)",
				     pp_demangle(d->key)) < 0)
				why = NULL;
		} else if (!callee[PP_PREV] || !callee[PP_CUR]) {
			if (asprintf(
				&why, "indirect call into %s, a function only the %s revision has",
				pp_demangle(d->key), callee[PP_CUR] ? "current" : "previous") < 0)
				why = NULL;
			callee[PP_PREV] = callee[PP_CUR] = NULL;
		} else {
			stop = NULL;
		}
	}
	stop = own_stop(n, why, stop);
	/* what the search acted on, for the reports (out of memory: none kept) */
	pp_targets_keep(n, &t);
	return stop;
}

const char *pp_dig_stop(struct pp_session *s, const struct pp_prog_fn *const fn[2], const int at[2],
			int layer, struct pp_node *n, const struct pp_prog_fn *callee[2], int *err)
{
	const struct pp_prog_call *call = &fn[PP_CUR]->calls[at[PP_CUR]];
	const char *stop;

	callee[PP_PREV] = NULL;
	callee[PP_CUR] = NULL;
	if (pp_call_indirect(call)) {
		stop = indirect_callee(s, n, fn, at, callee, err);
		if (stop)
			return stop;
	} else {
		callee[PP_PREV] = pp_program_resolve(&s->rev[PP_PREV].prog, fn[PP_PREV],
						     &fn[PP_PREV]->calls[at[PP_PREV]]);
		callee[PP_CUR] = pp_program_resolve(&s->rev[PP_CUR].prog, fn[PP_CUR], call);
		/* a callee without a table that is handed a function: into that one */
		if (!callee[PP_PREV] && !callee[PP_CUR])
			pp_callback_of(s, fn, at, callee);
	}
	if (!callee[PP_PREV] || !callee[PP_CUR])
		return "external: no pinpoint table for the callee";
	return pp_dig_limit(s, layer + 1, callee[PP_CUR]);
}

int pp_fnset_add(struct pp_fnset *set, const struct pp_prog_fn *fn)
{
	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 16;
		const struct pp_prog_fn **n = realloc(set->fn, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		set->fn = n;
		set->cap = cap;
	}
	set->fn[set->n++] = fn;
	return 0;
}

bool pp_fnset_has(const struct pp_fnset *set, const struct pp_prog_fn *fn)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->fn[i] == fn)
			return true;
	return false;
}

void pp_fnset_free(struct pp_fnset *set)
{
	free(set->fn);
	*set = (struct pp_fnset){0};
}
