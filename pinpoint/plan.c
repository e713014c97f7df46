// SPDX-License-Identifier: MIT
/*
 * plan.c - the plan stage: DiggingFind with BinaryFind or LinearFind, on
 * LLVM call lists.  It picks the quantities to compare, has them measured
 * (measure.c) and reads their decisions (decide.c); it asks for more runs
 * while a decision is too wide.
 *
 * The entry is compared as a whole first.  If it got slower, DiggingFind
 * inspects it: its call list must be the same in both revisions (otherwise
 * the change is structural and the function itself is named); BinaryFind
 * (Algorithm 4.3) or LinearFind (4.2) narrows the list to a call or a range;
 * a single call whose callee has a table is inspected in turn, one layer
 * deeper.  Digging stops at the depth, at an excluded function, at a callee
 * without a table (external code), at a function already inspected
 * (recursion) and at an indirect call (section 4.3).  When nothing inside a
 * slower function is slower, its own body is named: loops in a body make the
 * enclosing function the bottleneck.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/decide.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"
#include "pinpoint/plan.h"
#include "pinpoint/settle.h"

struct found {
	bool yes;
	unsigned first, last;
};

static bool same_call(const struct pp_prog_call *a, const struct pp_prog_call *b)
{
	bool ia = a->kind == PP_CALL_INDIRECT || a->kind == PP_CALL_INVOKE_INDIRECT;
	bool ib = b->kind == PP_CALL_INDIRECT || b->kind == PP_CALL_INVOKE_INDIRECT;

	return ia == ib && !strcmp(a->callee, b->callee);
}

bool pp_same_call_list(const struct pp_prog_fn *a, const struct pp_prog_fn *b, char **why)
{
	unsigned k, n = a->ncalls < b->ncalls ? a->ncalls : b->ncalls;
	const struct pp_prog_call *ca, *cb;
	int r;

	*why = NULL;
	for (k = 0; k < n; k++)
		if (!same_call(&a->calls[k], &b->calls[k]))
			break;
	if (k == n && a->ncalls == b->ncalls)
		return true;
	if (k < n) {
		ca = &a->calls[k];
		cb = &b->calls[k];
		r = asprintf(why,
			     "its call list changed: %u calls before, %u now; call %u was %s "
			     "(%s:%u), is %s (%s:%u)",
			     a->ncalls, b->ncalls, k, pp_demangle(pp_prog_call_name(ca)), ca->file,
			     ca->line, pp_demangle(pp_prog_call_name(cb)), cb->file, cb->line);
	} else {
		bool gone = a->ncalls > b->ncalls; /* the longer list has the extra calls */
		const struct pp_prog_call *c = gone ? &a->calls[k] : &b->calls[k];

		r = asprintf(why,
			     "its call list changed: %u calls before, %u now; call %u to %s "
			     "(%s:%u) and after are %s",
			     a->ncalls, b->ncalls, k, pp_demangle(pp_prog_call_name(c)), c->file,
			     c->line, gone ? "gone" : "new");
	}
	if (r < 0)
		*why = NULL;
	return false;
}

static int add_step(struct pp_session *s, enum pp_step_kind kind,
		    const struct pp_prog_fn *const fn[2], unsigned first, unsigned last,
		    const struct pp_quantity *q, const char *stop)
{
	struct pp_chain_step *n = realloc(s->steps, (s->nsteps + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->steps = n;
	n = &s->steps[s->nsteps++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->fn[0] = fn[0];
	n->fn[1] = fn[1];
	n->first = first;
	n->last = last;
	n->q = q;
	n->stop = stop;
	return 0;
}

/* Where BinaryFind splits calls first..last: the first half ends here. */
static unsigned split_point(unsigned first, unsigned last)
{
	return first + (last - first + 1) / 2 - 1;
}

/*
 * Add range first..last of @fn to @batch, with its two halves when BinaryFind
 * will need them: they ride along in the same runs.  Returns -ENOMEM or 0.
 */
static int add_range(struct pp_session *s, const struct pp_prog_fn *const fn[2], unsigned first,
		     unsigned last, struct pp_quantity **batch, size_t *n)
{
	batch[(*n)++] = pp_quantity_get(s, PP_Q_RANGE, fn, first, last);
	if (last > first && s->opt->search == PP_SEARCH_BINARY) {
		unsigned mid = split_point(first, last);

		batch[(*n)++] = pp_quantity_get(s, PP_Q_RANGE, fn, first, mid);
		batch[(*n)++] = pp_quantity_get(s, PP_Q_RANGE, fn, mid + 1, last);
	}
	for (size_t i = 0; i < *n; i++)
		if (!batch[i])
			return -ENOMEM;
	return 0;
}

/* Measure @q, with the halves of its range when it has some, then decide it. */
static int compare(struct pp_session *s, struct pp_quantity *q)
{
	struct pp_quantity *batch[3] = {q};
	size_t n = 1;
	int err = 0;

	if (q->kind == PP_Q_RANGE) {
		n = 0;
		err = add_range(s, q->fn, q->first, q->last, batch, &n);
	}
	if (!err && !q->batch)
		err = pp_measure(s, batch, n, s->opt->measurements, false);
	return err ? err : pp_settle(s, q);
}

/* Algorithm 4.3. */
static int binary_find(struct pp_session *s, const struct pp_prog_fn *const fn[2], unsigned first,
		       unsigned last, struct found *f)
{
	struct pp_quantity *q = pp_quantity_get(s, PP_Q_RANGE, fn, first, last);
	unsigned mid;
	int err;

	f->yes = false;
	if (!q)
		return -ENOMEM;
	err = compare(s, q);
	if (err)
		return err;
	if (q->verdict != PP_V_SLOWER)
		return 0;
	if (first == last) {
		*f = (struct found){true, first, last};
		return 0;
	}
	mid = split_point(first, last);
	err = binary_find(s, fn, first, mid, f);
	if (err || f->yes)
		return err;
	err = binary_find(s, fn, mid + 1, last, f);
	if (err || f->yes)
		return err;
	/* Slower as a whole, but neither half alone: the whole range is the bottleneck. */
	*f = (struct found){true, first, last};
	return 0;
}

/* Algorithm 4.2: the first call of the list that got slower. */
static int linear_find(struct pp_session *s, const struct pp_prog_fn *const fn[2], unsigned ncalls,
		       struct found *f)
{
	struct pp_quantity **qs = calloc(ncalls ? ncalls : 1, sizeof(*qs));
	int err = 0;

	f->yes = false;
	if (!qs)
		return -ENOMEM;
	for (unsigned k = 0; k < ncalls; k++) {
		qs[k] = pp_quantity_get(s, PP_Q_RANGE, fn, k, k);
		if (!qs[k]) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (unsigned k = 0; k < ncalls; k++) {
		if (!qs[k]->batch) {
			unsigned n =
			    ncalls - k < PP_BATCH_MAX_SLOTS ? ncalls - k : PP_BATCH_MAX_SLOTS;

			err = pp_measure(s, &qs[k], n, s->opt->measurements, false);
			if (err)
				goto out;
		}
		err = pp_settle(s, qs[k]);
		if (err)
			goto out;
		if (qs[k]->verdict == PP_V_SLOWER) {
			*f = (struct found){true, k, k};
			break;
		}
	}
out:
	free(qs);
	return err;
}

struct visit {
	size_t n;
	const struct pp_prog_fn *fn[64];
};

static bool visited(const struct visit *v, const struct pp_prog_fn *fn)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->fn[i] == fn)
			return true;
	return false;
}

/* Algorithm 4.1, for a function known to be slower, at layer @layer. */
static int digging_find(struct pp_session *s, const struct pp_prog_fn *const fn[2], int layer,
			struct visit *v)
{
	const struct pp_options *opt = s->opt;
	struct pp_quantity *self;
	const struct pp_prog_fn *callee[2];
	const struct pp_prog_call *call;
	struct found f = {0};
	char *why = NULL;
	const char *stop = NULL;
	int err;

	if (v->n < 64)
		v->fn[v->n++] = fn[PP_CUR];
	if (!pp_same_call_list(fn[PP_PREV], fn[PP_CUR], &why)) {
		err = add_step(s, PP_STEP_STRUCTURAL, fn, 0, 0, NULL, "structural change");
		if (!err)
			s->steps[s->nsteps - 1].detail = why;
		else
			free(why);
		return err;
	}
	if (fn[PP_CUR]->ncalls) {
		if (opt->search == PP_SEARCH_BINARY)
			err = binary_find(s, fn, 0, fn[PP_CUR]->ncalls - 1, &f);
		else
			err = linear_find(s, fn, fn[PP_CUR]->ncalls, &f);
		if (err)
			return err;
	}
	if (!f.yes) {
		self = pp_quantity_get(s, PP_Q_SELF, fn, 0, 0);
		if (!self)
			return -ENOMEM;
		err = compare(s, self);
		if (err)
			return err;
		return add_step(s, PP_STEP_SELF, fn, 0, 0, self,
				self->verdict == PP_V_SLOWER
				    ? NULL
				    : "spread: neither its calls nor its own body alone is "
				      "significantly slower");
	}
	if (f.first != f.last)
		return add_step(s, PP_STEP_RANGE, fn, f.first, f.last,
				pp_quantity_get(s, PP_Q_RANGE, fn, f.first, f.last),
				"slower only as a range");

	call = &fn[PP_CUR]->calls[f.first];
	callee[PP_PREV] = NULL;
	callee[PP_CUR] = NULL;
	if (call->kind == PP_CALL_INDIRECT || call->kind == PP_CALL_INVOKE_INDIRECT) {
		stop = "indirect call";
	} else {
		callee[PP_PREV] = pp_program_resolve(&s->rev[PP_PREV].prog, fn[PP_PREV],
						     &fn[PP_PREV]->calls[f.first]);
		callee[PP_CUR] = pp_program_resolve(&s->rev[PP_CUR].prog, fn[PP_CUR], call);
		if (!callee[PP_PREV] || !callee[PP_CUR])
			stop = "external: no pinpoint table for the callee";
		else if (layer + 1 >= opt->depth)
			stop = "depth reached";
		else if (pp_excluded(opt->exclude, opt->nexclude, call->callee))
			stop = "excluded";
		else if (visited(v, callee[PP_CUR]))
			stop = "recursion: already inspected";
	}
	err = add_step(s, PP_STEP_CALL, fn, f.first, f.first,
		       pp_quantity_get(s, PP_Q_RANGE, fn, f.first, f.first), stop);
	if (err || stop)
		return err;
	return digging_find(s, callee, layer + 1, v);
}

int pp_plan(struct pp_session *s)
{
	const struct pp_prog_fn *entry[2] = {s->rev[PP_PREV].entry, s->rev[PP_CUR].entry};
	struct pp_quantity *batch[5], *e;
	struct visit v = {0};
	char *why = NULL;
	bool same;
	size_t n = 0;
	int err;

	/* The entry first; its whole call list, halves and body ride along in the same runs. */
	e = pp_quantity_get(s, PP_Q_ENTRY, entry, 0, 0);
	if (!e)
		return -ENOMEM;
	batch[n++] = e;
	same = pp_same_call_list(entry[0], entry[1], &why);
	free(why);
	if (s->opt->depth > 0 && same && entry[PP_CUR]->ncalls) {
		if (add_range(s, entry, 0, entry[PP_CUR]->ncalls - 1, batch, &n))
			return -ENOMEM;
		batch[n] = pp_quantity_get(s, PP_Q_SELF, entry, 0, 0);
		if (!batch[n++])
			return -ENOMEM;
	}
	err = pp_measure(s, batch, n, s->opt->measurements, false);
	if (!err)
		err = pp_settle(s, e);
	if (err)
		return err;
	if (e->verdict != PP_V_SLOWER) {
		s->outcome = PP_EXIT_NO_REGRESSION;
		return 0;
	}
	s->outcome = PP_EXIT_REGRESSION;
	err =
	    add_step(s, PP_STEP_ENTRY, entry, 0, 0, e, s->opt->depth == 0 ? "depth reached" : NULL);
	if (err || s->opt->depth == 0)
		return err;
	return digging_find(s, entry, 0, &v);
}
