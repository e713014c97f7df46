// SPDX-License-Identifier: MIT
/*
 * attrib_groups.c - callee groups in the attribution search: a callee
 * called from two places of F or more has its calls measured together, as
 * one part derived from each call's in the same runs, and shown as a part
 * of F when found slower or faster but for one call alone.
 */
#include <stdlib.h>
#include <string.h>

#include "pinpoint/search/attrib_priv.h"

/*
 * The callee of place @k when the place is a direct call timed in both
 * revisions to the same function, by name (its call list entries); NULL
 * otherwise: only such calls form callee groups.
 */
static const char *group_callee(const struct pp_fnview *v, int k)
{
	const struct pp_prog_call *c[2];

	for (int r = 0; r < 2; r++) {
		if (!pp_attrib_timed_in(v, k, r))
			return NULL;
		c[r] = &v->fn[r]->calls[v->u[k].at[r]];
		if (pp_call_indirect(c[r]) || !c[r]->callee[0])
			return NULL;
	}
	return strcmp(c[0]->callee, c[1]->callee) ? NULL : c[PP_CUR]->callee;
}

/*
 * The group of @callee's calls among places @u0..@u1 (two or more), derived
 * from each call's quantity: NULL with *@oom false when there are fewer
 * than two.
 */
static struct pp_quantity *group_q(struct pp_session *s, const struct pp_fnview *v, int u0, int u1,
				   const char *callee, bool *oom)
{
	struct pp_quantity **terms = calloc((size_t)(u1 - u0 + 1), sizeof(*terms)), *q = NULL;
	signed char *signs = calloc((size_t)(u1 - u0 + 1), sizeof(*signs));
	unsigned first[2] = {0, 0}, last[2] = {0, 0};
	const struct pp_prog_fn *cfn[2] = {NULL, NULL};
	size_t n = 0;

	if (!terms || !signs) {
		*oom = true;
		goto out;
	}
	for (int k = u0; k <= u1 && !*oom; k++) {
		const char *c = group_callee(v, k);

		if (!c || strcmp(c, callee))
			continue;
		terms[n] = pp_attrib_unit_q(s, v, k, oom);
		if (!terms[n])
			continue;
		signs[n] = 1;
		for (int r = 0; r < 2; r++) {
			unsigned at = (unsigned)v->u[k].at[r];

			if (!n) {
				first[r] = at;
				cfn[r] = pp_program_resolve(&s->rev[r].prog, v->fn[r],
							    &v->fn[r]->calls[at]);
			}
			last[r] = at;
		}
		n++;
	}
	if (*oom || n < 2)
		goto out;
	q = pp_quantity_group(s, v->fn, callee, cfn, first, last);
	if (!q || pp_quantity_derive(q, terms, signs, n)) {
		*oom = true;
		q = NULL;
	}
out:
	free(terms);
	free(signs);
	return q;
}

/*
 * The callee groups of places @u0..@u1: for each callee called from two
 * places or more, but those of the groups @except[0..@nexcept) (grouped
 * over a longer list already), the group of its calls, in @out (at most
 * @max); how many, or -ENOMEM.
 */
int pp_attrib_groups_of(struct pp_session *s, const struct pp_fnview *v, int u0, int u1,
			struct pp_quantity **out, int max, struct pp_quantity *const *except,
			int nexcept)
{
	int n = 0;

	if (!s->opt->groups)
		return 0;
	for (int k = u0; k <= u1 && n < max; k++) {
		const char *c = group_callee(v, k);
		bool oom = false, known = false;
		struct pp_quantity *q;

		if (!c)
			continue;
		for (int i = 0; i < n && !known; i++)
			known = !strcmp(out[i]->callee, c);
		for (int i = 0; i < nexcept && !known; i++)
			known = !strcmp(except[i]->callee, c);
		if (known)
			continue;
		q = group_q(s, v, k, u1, c, &oom);
		if (oom)
			return -ENOMEM;
		if (q)
			out[n++] = q;
	}
	return n;
}

/*
 * The callee groups over the whole of a list too long to measure call by
 * call, whose calls were counted (attrib_count.c): each callee called from
 * two of its places or more that ran, its calls armed one by one in the
 * list's first batch, so that a callee whose calls are spread over the list
 * is compared as one part however the list is halved.  Those whose calls
 * moved most in the counting runs in direction @dir come first (in list
 * order where the counts say nothing), as many as fit in @max groups and
 * @max_calls calls.  How many in @out, or -ENOMEM.
 */
int pp_attrib_list_groups(struct pp_session *s, const struct pp_fnview *v, int dir,
			  struct pp_quantity **out, int max, int max_calls)
{
	const char **callee = calloc((size_t)v->nu, sizeof(*callee));
	double *moved = calloc((size_t)v->nu, sizeof(*moved));
	int *calls = calloc((size_t)v->nu, sizeof(*calls)), nc = 0, n = 0, used = 0, err = 0;

	if (!callee || !moved || !calls) {
		err = -ENOMEM;
		goto out;
	}
	if (!s->opt->groups || !v->ran)
		goto out;
	for (int k = 0; k < v->nu; k++) {
		const char *c = group_callee(v, k);
		int i = 0;

		if (!c)
			continue;
		while (i < nc && strcmp(callee[i], c))
			i++;
		if (i == nc)
			callee[nc++] = c;
		calls[i]++;
		if (v->count_diff)
			moved[i] += dir * v->count_diff[k];
	}
	while (n < max) {
		int best = -1;
		bool oom = false;
		struct pp_quantity *q;

		for (int i = 0; i < nc; i++)
			if (calls[i] >= 2 && used + calls[i] <= max_calls &&
			    (best < 0 || moved[i] > moved[best]))
				best = i;
		if (best < 0)
			break;
		q = group_q(s, v, 0, v->nu - 1, callee[best], &oom);
		if (oom) {
			err = -ENOMEM;
			goto out;
		}
		used += calls[best];
		calls[best] = 0;
		if (q)
			out[n++] = q;
	}
out:
	free(callee);
	free(moved);
	free(calls);
	return err ? err : n;
}

/*
 * Whether place @k is a call only one revision makes (not one that the
 * revisions inlined differently), timed there: a call of F's structural
 * change.
 */
static bool changed_call(const struct pp_fnview *v, int k)
{
	int r = v->u[k].at[PP_CUR] >= 0 ? PP_CUR : PP_PREV;

	return (v->u[k].at[PP_CUR] < 0) != (v->u[k].at[PP_PREV] < 0) &&
	       pp_attrib_timed_in(v, k, r) && !pp_attrib_inlined_in_one(v, k, r);
}

/*
 * The calls of places @u0..@u1 that one revision makes and the other does
 * not, added up in the same runs: an added call's value is its time in the
 * current revision and 0 in the previous, a removed one's the other way
 * round, so their sum's difference is the change's.  One such call is its
 * own comparison; NULL with *@oom false when there is none.
 */
struct pp_quantity *pp_attrib_changed_of(struct pp_session *s, const struct pp_fnview *v, int u0,
					 int u1, bool *oom)
{
	struct pp_quantity **terms = calloc((size_t)(u1 - u0 + 1), sizeof(*terms)), *q = NULL;
	signed char *signs = calloc((size_t)(u1 - u0 + 1), sizeof(*signs));
	unsigned first[2] = {1, 1}, last[2] = {0, 0};
	size_t n = 0;

	if (!terms || !signs) {
		*oom = true;
		goto out;
	}
	for (int k = u0; k <= u1 && !*oom; k++) {
		int r = v->u[k].at[PP_CUR] >= 0 ? PP_CUR : PP_PREV;
		unsigned at = (unsigned)v->u[k].at[r];

		if (!changed_call(v, k))
			continue;
		terms[n] = pp_attrib_unit_q(s, v, k, oom);
		if (!terms[n])
			continue;
		signs[n++] = 1;
		if (first[r] > last[r])
			first[r] = at;
		last[r] = at;
	}
	if (*oom || !n)
		goto out;
	if (n == 1) {
		q = terms[0];
		goto out;
	}
	q = pp_quantity_changed(s, v->fn, first, last);
	if (!q || (!q->nterms && pp_quantity_derive(q, terms, signs, n))) {
		*oom = true;
		q = NULL;
	}
out:
	free(terms);
	free(signs);
	return q;
}

/* The callee groups among @qs[0..@n) (a batch of F's parts), in @out; how many. */
int pp_attrib_groups_in(struct pp_quantity *const *qs, size_t n, struct pp_quantity **out, int max)
{
	int ng = 0;

	for (size_t i = 0; i < n && ng < max; i++)
		if (qs[i]->kind == PP_Q_GROUP)
			out[ng++] = qs[i];
	return ng;
}

/* Whether place @k is one of group @g's calls. */
bool pp_attrib_in_group(const struct pp_quantity *g, const struct pp_fnview *v, int k)
{
	for (size_t t = 0; t < g->nterms; t++)
		if (!g->terms[t]->absent[PP_CUR] && v->u[k].at[PP_CUR] >= 0 &&
		    g->terms[t]->first == (unsigned)v->u[k].at[PP_CUR])
			return true;
	return false;
}

/*
 * Whether callee group @g is shown as one part of F: found slower or
 * faster, unless one of its calls alone is so in its direction and no other
 * is (that call then names the change, and its callee is dug into the same).
 */
bool pp_attrib_group_shown(const struct pp_quantity *g)
{
	int alone = 0;

	if (!pp_attrib_beyond(g))
		return false;
	for (size_t t = 0; t < g->nterms; t++)
		alone += pp_attrib_beyond(g->terms[t]) == pp_attrib_beyond(g);
	return alone != 1;
}
