// SPDX-License-Identifier: MIT
/*
 * attrib_parts.c - the parts of a function F in the attribution search: the
 * quantities that show places of its aligned call list (every call of a
 * short list, with its halves derived from them; the halves and quarters of
 * a long one), its own body derived from its whole less its calls, and the
 * alpha the parts measured together share.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/stats_seq.h"
#include "pinpoint/search/attrib_priv.h"

bool pp_attrib_probed_in(const struct pp_fnview *v, int k, int r)
{
	int at = v->u[k].at[r];

	return at >= 0 && pp_call_timed(&v->fn[r]->calls[at]);
}

bool pp_attrib_probed(const struct pp_fnview *v, int k)
{
	return pp_attrib_probed_in(v, k, PP_PREV) || pp_attrib_probed_in(v, k, PP_CUR);
}

bool pp_attrib_timed_in(const struct pp_fnview *v, int k, int r)
{
	return pp_attrib_probed_in(v, k, r) && pp_attrib_ran(v, k) && !pp_attrib_untimed(v, k);
}

/* The quantity of place @k alone, or NULL when it cannot be timed in either revision. */
struct pp_quantity *pp_attrib_unit_q(struct pp_session *s, const struct pp_fnview *v, int k,
				     bool *oom)
{
	return pp_attrib_unit_q_as(s, v, k, false, oom);
}

/* The same, with @untimed: also where the arming plan left it untimed. */
struct pp_quantity *pp_attrib_unit_q_as(struct pp_session *s, const struct pp_fnview *v, int k,
					bool untimed, bool *oom)
{
	unsigned first[2] = {0, 0}, last[2] = {0, 0};
	bool absent[2];
	struct pp_quantity *q;

	for (int r = 0; r < 2; r++) {
		absent[r] = untimed ? !pp_attrib_probed_in(v, k, r) || !pp_attrib_ran(v, k)
				    : !pp_attrib_timed_in(v, k, r);
		if (!absent[r])
			first[r] = last[r] = (unsigned)v->u[k].at[r];
	}
	if (absent[0] && absent[1])
		return NULL;
	q = pp_quantity_range(s, v->fn, first, last, absent);
	if (!q)
		*oom = true;
	return q;
}

/*
 * The calls of places @u0..@u1, whatever they hold: the range armed over
 * them (PP_Q_RANGE), or counted (PP_Q_COUNT, attrib_count.c).
 */
struct pp_quantity *pp_attrib_span_q(struct pp_session *s, const struct pp_fnview *v,
				     enum pp_qkind kind, int u0, int u1)
{
	unsigned first[2] = {0, 0}, last[2] = {0, 0};
	bool absent[2] = {true, true};

	for (int k = u0; k <= u1; k++)
		for (int r = 0; r < 2; r++) {
			int at = v->u[k].at[r];

			if (at < 0)
				continue;
			if (absent[r] || (unsigned)at < first[r])
				first[r] = (unsigned)at;
			if (absent[r] || (unsigned)at > last[r])
				last[r] = (unsigned)at;
			absent[r] = false;
		}
	return kind == PP_Q_COUNT ? pp_quantity_count(s, v->fn, first, last, absent)
				  : pp_quantity_range(s, v->fn, first, last, absent);
}

static struct pp_quantity *plain_range_q(struct pp_session *s, const struct pp_fnview *v, int u0,
					 int u1)
{
	return pp_attrib_span_q(s, v, PP_Q_RANGE, u0, u1);
}

/* @q, the range of places @u0..@u1, is their calls' ranges added up in the same run. */
static int derive_from_units(struct pp_session *s, const struct pp_fnview *v, struct pp_quantity *q,
			     int u0, int u1)
{
	struct pp_quantity **terms = calloc((size_t)(u1 - u0 + 1), sizeof(*terms));
	signed char *signs = calloc((size_t)(u1 - u0 + 1), sizeof(*signs));
	size_t n = 0;
	int err = 0;

	if (!terms || !signs) {
		err = -ENOMEM;
		goto out;
	}
	for (int k = u0; k <= u1; k++) {
		bool oom = false;
		struct pp_quantity *t = pp_attrib_unit_q(s, v, k, &oom);

		if (oom) {
			err = -ENOMEM;
			goto out;
		}
		if (t) {
			terms[n] = t;
			signs[n++] = 1;
		}
	}
	err = n ? pp_quantity_derive(q, terms, signs, n) : 0;
out:
	free(terms);
	free(signs);
	return err;
}

/*
 * The quantity of places @u0..@u1 together: their range, or, where the
 * arming plan left places of it untimed (attrib_budget.c), the ranges of the
 * timed stretches between them added up in the same runs, so that no probe
 * of an untimed call is armed; none at all (absent in both revisions, 0)
 * when nothing in it is timed.
 */
struct pp_quantity *pp_attrib_range_q(struct pp_session *s, const struct pp_fnview *v, int u0,
				      int u1)
{
	struct pp_quantity *q, **terms;
	signed char *signs;
	size_t n = 0;
	int err = 0, holes = 0;

	for (int k = u0; k <= u1; k++)
		holes += pp_attrib_untimed(v, k);
	if (!holes)
		return plain_range_q(s, v, u0, u1);
	q = plain_range_q(s, v, u0, u1);
	if (q && !q->nterms && q->batch) { /* armed before the plan: kept as it was */
		q->retired = true;
		q = plain_range_q(s, v, u0, u1);
	}
	if (!q || q->nterms)
		return q;
	/* a short list has its calls armed: a range of it is theirs added up */
	if (pp_attrib_timed_places(v, 0, v->nu - 1) <= PP_ATTRIB_SHORT)
		return derive_from_units(s, v, q, u0, u1) ? NULL : q;
	terms = calloc((size_t)holes + 1, sizeof(*terms));
	signs = calloc((size_t)holes + 1, sizeof(*signs));
	if (!terms || !signs) {
		q = NULL;
		goto out;
	}
	for (int k = u0; k <= u1;) {
		int a = k;

		if (pp_attrib_untimed(v, k)) {
			k++;
			continue;
		}
		while (k <= u1 && !pp_attrib_untimed(v, k))
			k++;
		if (!pp_attrib_timed_places(v, a, k - 1))
			continue;
		terms[n] = plain_range_q(s, v, a, k - 1);
		signs[n++] = 1;
		if (!terms[n - 1]) {
			q = NULL;
			goto out;
		}
	}
	if (!n) { /* nothing timed in it: nothing armed, 0 */
		const unsigned none[2] = {0, 0};
		const bool absent[2] = {true, true};

		q = pp_quantity_range(s, v->fn, none, none, absent);
		goto out;
	}
	err = pp_quantity_derive(q, terms, signs, n);
	if (err)
		q = NULL;
out:
	free(terms);
	free(signs);
	return q;
}

int pp_attrib_push(struct pp_quantity **batch, size_t *n, size_t max, struct pp_quantity *q)
{
	if (!q)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++)
		if (batch[i] == q)
			return 0;
	if (*n < max)
		batch[(*n)++] = q;
	return 0;
}

/* Places of @u0..@u1 with a timed call in either revision: what measuring them costs. */
int pp_attrib_timed_places(const struct pp_fnview *v, int u0, int u1)
{
	int t = 0;

	for (int k = u0; k <= u1; k++)
		t += pp_attrib_timed_in(v, k, PP_PREV) || pp_attrib_timed_in(v, k, PP_CUR);
	return t;
}

/*
 * Where places @u0..@u1 are halved: the first half ends at the place that
 * holds half of their timed places (calls of inlined code make long lists of
 * places of which few may be timed).
 */
int pp_attrib_split(const struct pp_fnview *v, int u0, int u1)
{
	int t = pp_attrib_timed_places(v, u0, u1), want = t / 2, seen = 0;

	if (want < 1)
		return u0 + (u1 - u0 + 1) / 2 - 1;
	for (int k = u0; k <= u1; k++) {
		seen += pp_attrib_timed_in(v, k, PP_PREV) || pp_attrib_timed_in(v, k, PP_CUR);
		if (seen == want)
			return k;
	}
	return u1;
}

/*
 * Whether @fn may call itself, in either revision: through direct calls
 * that have tables, searched breadth first (calls through pointers are not
 * followed: doc/semantics.md says what that misses).
 */
bool pp_attrib_may_recurse(const struct pp_session *s, const struct pp_prog_fn *const fn[2])
{
	for (int r = 0; r < 2; r++) {
		const struct pp_program *prog = &s->rev[r].prog;
		const struct pp_prog_fn *queue[256];
		size_t head = 0, tail = 0;

		queue[tail++] = fn[r];
		while (head < tail) {
			const struct pp_prog_fn *f = queue[head++];

			for (uint32_t k = 0; k < f->ncalls; k++) {
				const struct pp_prog_fn *c;
				bool known = false;

				if (!pp_call_timed(&f->calls[k]))
					continue;
				c = pp_program_resolve(prog, f, &f->calls[k]);
				if (!c)
					continue;
				if (c == fn[r])
					return true;
				for (size_t i = 0; i < tail && !known; i++)
					known = queue[i] == c;
				if (known)
					continue;
				if (tail == 256)
					return true; /* too many to follow: assume it may */
				queue[tail++] = c;
			}
		}
	}
	return false;
}

/*
 * The quantities that show places @u0..@u1: every call, or halves and
 * quarters; no callee group of a callee of @except[0..@nexcept).
 */
int pp_attrib_parts(struct pp_session *s, const struct pp_fnview *v, int u0, int u1,
		    struct pp_quantity *const *except, int nexcept, struct pp_quantity **batch,
		    size_t *n, size_t max)
{
	int len = pp_attrib_timed_places(v, u0, u1), mid = pp_attrib_split(v, u0, u1);
	bool oom = false;
	int err = 0;

	if (u1 < u0)
		return 0;
	if (len <= PP_ATTRIB_SHORT) {
		for (int k = u0; k <= u1 && !err; k++) {
			struct pp_quantity *q = pp_attrib_unit_q(s, v, k, &oom);

			if (q)
				err = pp_attrib_push(batch, n, max, q);
		}
		/* the halves are their calls added up in the same runs */
		for (int h = 0; h < 2 && len >= 3 && !err; h++) {
			struct pp_quantity *half =
			    pp_attrib_range_q(s, v, h ? mid + 1 : u0, h ? u1 : mid);

			err = half ? derive_from_units(s, v, half, h ? mid + 1 : u0, h ? u1 : mid)
				   : -ENOMEM;
			if (!err)
				err = pp_attrib_push(batch, n, max, half);
		}
		/* and so is each callee's group of calls */
		if (!err && !oom) {
			struct pp_quantity *g[PP_ATTRIB_SHORT];
			int ng =
			    pp_attrib_groups_of(s, v, u0, u1, g, PP_ATTRIB_SHORT, except, nexcept);

			err = ng < 0 ? ng : 0;
			for (int i = 0; i < ng && !err; i++)
				err = pp_attrib_push(batch, n, max, g[i]);
		}
		/* and the calls only one revision makes, the structural change */
		if (!err && !oom) {
			struct pp_quantity *c = pp_attrib_changed_of(s, v, u0, u1, &oom);

			if (c)
				err = pp_attrib_push(batch, n, max, c);
		}
		return oom ? -ENOMEM : err;
	}
	/* the quarters are armed, the halves are their quarters added up */
	for (int h = 0; h < 2 && !err; h++) {
		int a = h ? mid + 1 : u0, b = h ? u1 : mid, m = pp_attrib_split(v, a, b);
		struct pp_quantity *q[2] = {pp_attrib_range_q(s, v, a, m),
					    pp_attrib_range_q(s, v, m + 1, b)};
		struct pp_quantity *half = pp_attrib_range_q(s, v, a, b);
		const signed char plus[2] = {1, 1};

		if (!q[0] || !q[1] || !half)
			return -ENOMEM;
		err = pp_quantity_derive(half, q, plus, 2);
		if (!err)
			err = pp_attrib_push(batch, n, max, half);
		if (!err)
			err = pp_attrib_push(batch, n, max, q[0]);
		if (!err)
			err = pp_attrib_push(batch, n, max, q[1]);
	}
	return err;
}

/*
 * A function's own body is its whole less its calls, measured in the same
 * runs: @self from @total and the quantities that show places 0..nu-1 (each
 * call of a short list, the quarters of a long one), unless the function
 * may call itself, where a call's range would hold its nested calls' ranges
 * too and only the runtime's fn= item tells them apart.
 */
int pp_attrib_derive_self(struct pp_session *s, const struct pp_fnview *v, struct pp_quantity *self,
			  struct pp_quantity *total)
{
	struct pp_quantity **terms;
	signed char *signs;
	size_t n = 0;
	int err = 0, len = pp_attrib_timed_places(v, 0, v->nu - 1);

	if (self->nterms || (!v->no_fn && !v->nuntimed && pp_attrib_may_recurse(s, v->fn)))
		return 0;
	terms = calloc((size_t)v->nu + 5, sizeof(*terms));
	signs = calloc((size_t)v->nu + 5, sizeof(*signs));
	if (!terms || !signs) {
		err = -ENOMEM;
		goto out;
	}
	terms[n] = total;
	signs[n++] = 1;
	if (len <= PP_ATTRIB_SHORT) {
		for (int k = 0; k < v->nu; k++) {
			bool oom = false;
			struct pp_quantity *q = pp_attrib_unit_q(s, v, k, &oom);

			if (oom) {
				err = -ENOMEM;
				goto out;
			}
			if (q) {
				terms[n] = q;
				signs[n++] = -1;
			}
		}
	} else {
		int mid = pp_attrib_split(v, 0, v->nu - 1);

		for (int h = 0; h < 2; h++) {
			int a = h ? mid + 1 : 0, b = h ? v->nu - 1 : mid,
			    m = pp_attrib_split(v, a, b);

			terms[n] = pp_attrib_range_q(s, v, a, m);
			signs[n++] = -1;
			terms[n] = pp_attrib_range_q(s, v, m + 1, b);
			signs[n++] = -1;
		}
	}
	err = pp_quantity_derive(self, terms, signs, n);
out:
	free(terms);
	free(signs);
	return err;
}

/*
 * The parts @batch[from..n) measured under a comparison of @alpha share it
 * with the others of the @k comparisons made under it.
 */
void pp_attrib_share_alpha(struct pp_quantity **batch, size_t from, size_t n, size_t k,
			   double alpha)
{
	for (size_t i = from; i < n; i++)
		if (!batch[i]->alpha && alpha > 0)
			batch[i]->alpha = pp_seq_child_alpha(alpha, k);
}

int pp_attrib_view(struct pp_fnview *v, const struct pp_prog_fn *const fn[2])
{
	*v = (struct pp_fnview){0};
	v->fn[0] = fn[0];
	v->fn[1] = fn[1];
	v->nu = pp_align(fn[PP_PREV], fn[PP_CUR], &v->u);
	return v->nu < 0 ? v->nu : 0;
}
