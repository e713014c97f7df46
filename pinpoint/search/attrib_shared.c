// SPDX-License-Identifier: MIT
/*
 * attrib_shared.c - shared callees in the attribution search: when F
 * differs but none of its parts does by the threshold, a function that
 * several of its calls' callees call, one layer down, measured whole and
 * dug into when found slower (faster).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/measure/settle.h"
#include "pinpoint/search/attrib_priv.h"

/* Functions shared by F's calls measured at once, at most. */
#define PP_SHARED_MAX 4

/* A function that several of F's callees call: in each revision, and from which. */
struct shared {
	const struct pp_prog_fn *h[2];
	const struct pp_prog_fn *from[PP_ATTRIB_SHORT]; /* F's callees (current) that call it */
	int nfrom;
};

/*
 * Whether F has a part found slower or faster in @dir that names it: not a
 * range, which is slower only as the calls in it together are.
 */
static bool has_part_in(const struct pp_session *s, int node, int dir)
{
	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].parent == node && s->nodes[i].kind != PP_NODE_REST &&
		    s->nodes[i].kind != PP_NODE_RANGE && s->nodes[i].sign == dir)
			return true;
	return false;
}

/*
 * Whether @q, one call of F in both revisions, points @dir by less than the
 * threshold: its estimate does, it was not found beyond it.  (A weak sign
 * for each call, which picks what is measured; the shared callee's own
 * comparison decides.)
 */
static bool a_little(const struct pp_quantity *q, int dir)
{
	if (q->kind != PP_Q_RANGE || !pp_attrib_single_part(q) || q->absent[0] || q->absent[1] ||
	    !q->decided || pp_attrib_beyond(q))
		return false;
	return dir * q->cmp.diff.centre > 0;
}

/* The callee of the call @q times, in both revisions (false: none with a table). */
static bool callee_of(const struct pp_session *s, const struct pp_quantity *q,
		      const struct pp_prog_fn *c[2])
{
	for (int r = 0; r < 2; r++) {
		unsigned at = r == PP_CUR ? q->first : q->prev_first;
		const struct pp_prog_call *call = &q->fn[r]->calls[at];

		c[r] = pp_call_indirect(call) ? NULL
					      : pp_program_resolve(&s->rev[r].prog, q->fn[r], call);
		if (!c[r])
			return false;
	}
	return true;
}

/* Add the timed direct callees of @c (both revisions) to @sh, as called from @c. */
static void add_callees(const struct pp_session *s, const struct pp_prog_fn *const c[2],
			const struct pp_prog_fn *const fn[2], struct shared *sh, int *nsh, int max)
{
	for (uint32_t k = 0; k < c[PP_CUR]->ncalls; k++) {
		const struct pp_prog_call *call = &c[PP_CUR]->calls[k];
		const struct pp_prog_fn *h[2] = {NULL, NULL};
		int i;

		if (!pp_call_timed(call) || pp_call_indirect(call))
			continue;
		h[PP_CUR] = pp_program_resolve(&s->rev[PP_CUR].prog, c[PP_CUR], call);
		for (uint32_t j = 0; h[PP_CUR] && !h[PP_PREV] && j < c[PP_PREV]->ncalls; j++) {
			const struct pp_prog_call *o = &c[PP_PREV]->calls[j];

			if (pp_call_timed(o) && !pp_call_indirect(o) &&
			    !strcmp(o->callee, call->callee))
				h[PP_PREV] =
				    pp_program_resolve(&s->rev[PP_PREV].prog, c[PP_PREV], o);
		}
		if (!h[PP_CUR] || !h[PP_PREV] || h[PP_CUR] == fn[PP_CUR] || h[PP_CUR] == c[PP_CUR])
			continue;
		for (i = 0; i < *nsh && sh[i].h[PP_CUR] != h[PP_CUR]; i++)
			;
		if (i == *nsh) {
			if (*nsh == max)
				continue;
			sh[i] = (struct shared){.h = {h[PP_PREV], h[PP_CUR]}};
			(*nsh)++;
		}
		if (sh[i].nfrom < PP_ATTRIB_SHORT &&
		    (!sh[i].nfrom || sh[i].from[sh[i].nfrom - 1] != c[PP_CUR]))
			sh[i].from[sh[i].nfrom++] = c[PP_CUR];
	}
}

/* "step1, step2 and step3": the functions @sh is called from, malloc'ed. */
static char *called_from(const struct shared *sh, const struct pp_prog_fn *fn, int dir)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "called from ");
	for (int i = 0; i < sh->nfrom; i++)
		fprintf(f, "%s%s", i ? (i + 1 == sh->nfrom ? " and " : ", ") : "",
			pp_demangle(sh->from[i]->name));
	fprintf(f, ", calls of %s each %s by less than the threshold", pp_demangle(fn->name),
		dir > 0 ? "slower" : "faster");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Whether a shared callee of F may be compared once F's parts are: a
 * function that two or more of F's direct callees call, which both
 * revisions time, within --depth.  Known before F's parts are measured, so
 * that its slice of F's alpha is kept out of their share.
 */
bool pp_attrib_may_share(const struct pp_session *s, const struct pp_fnstate *st)
{
	const struct pp_prog_fn *const *fn = st->v->fn;
	const struct pp_prog_fn *sib[PP_ATTRIB_SHORT];
	struct shared sh[64];
	int nsib = 0, nsh = 0;

	if (!s->opt->groups || st->layer + 2 >= s->opt->depth)
		return false;
	for (int k = 0; k < st->v->nu && nsib < PP_ATTRIB_SHORT; k++) {
		const struct pp_unit *u = &st->v->u[k];
		const struct pp_prog_fn *c[2] = {NULL, NULL};
		bool known = false;

		if (u->at[PP_PREV] < 0 || u->at[PP_CUR] < 0)
			continue;
		for (int r = 0; r < 2; r++) {
			const struct pp_prog_call *call = &fn[r]->calls[u->at[r]];

			if (pp_call_timed(call) && !pp_call_indirect(call))
				c[r] = pp_program_resolve(&s->rev[r].prog, fn[r], call);
		}
		if (!c[PP_PREV] || !c[PP_CUR])
			continue;
		for (int i = 0; i < nsib && !known; i++)
			known = sib[i] == c[PP_CUR];
		if (known)
			continue;
		sib[nsib++] = c[PP_CUR];
		add_callees(s, c, fn, sh, &nsh, (int)(sizeof(sh) / sizeof(sh[0])));
	}
	for (int i = 0; i < nsh; i++) {
		bool is_sib = false;

		for (int k = 0; k < nsib && !is_sib; k++)
			is_sib = sib[k] == sh[i].h[PP_CUR];
		if (!is_sib && sh[i].nfrom >= 2)
			return true;
	}
	return false;
}

/*
 * F differs in its direction but no part of it does by the threshold (but
 * for a range, slower as its calls together), while two of its calls or
 * more point that way by a little: a
 * function they all call, one layer down, may be what changed.  Each
 * function that two or more of those calls' callees call (the most shared
 * first, at most PP_SHARED_MAX) is measured whole, with its time in every
 * execution of the entry, and one found slower (faster) in F's direction
 * is a node beside F's parts (not one of them: it is inside some), dug into
 * like a call.
 */
int pp_attrib_shared_callees(struct pp_attrib *a, struct pp_fnstate *st)
{
	struct pp_session *s = a->s;
	const struct pp_prog_fn *sib[PP_ATTRIB_SHORT];
	struct shared sh[64];
	struct pp_quantity *qs[PP_SHARED_MAX];
	/* the slice of F's alpha kept for them when F's parts were measured */
	double alpha = st->shared_alpha;
	int nsib = 0, nsh = 0, nq = 0, err = 0;
	size_t pick[PP_SHARED_MAX];

	if (!(alpha > 0) || !s->opt->groups || has_part_in(s, st->node, st->dir) ||
	    st->layer + 2 >= s->opt->depth)
		return 0;
	for (size_t i = 0; i < st->parts.n && nsib < PP_ATTRIB_SHORT; i++) {
		const struct pp_prog_fn *c[2];
		bool known = false;

		if (!a_little(st->parts.q[i], st->dir) || !callee_of(s, st->parts.q[i], c))
			continue;
		for (int k = 0; k < nsib && !known; k++)
			known = sib[k] == c[PP_CUR];
		if (known)
			continue;
		sib[nsib++] = c[PP_CUR];
		add_callees(s, c, st->v->fn, sh, &nsh, (int)(sizeof(sh) / sizeof(sh[0])));
	}
	if (nsib < 2)
		return 0;
	/* the most shared first: a plain selection of the PP_SHARED_MAX largest */
	while (nq < PP_SHARED_MAX) {
		int best = -1;

		for (int i = 0; i < nsh; i++) {
			bool taken = false, is_sib = false;

			for (int k = 0; k < nq && !taken; k++)
				taken = pick[k] == (size_t)i;
			for (int k = 0; k < nsib && !is_sib; k++)
				is_sib = sib[k] == sh[i].h[PP_CUR];
			if (taken || is_sib || sh[i].nfrom < 2 ||
			    pp_fnset_has(&a->seen, sh[i].h[PP_CUR]))
				continue;
			if (best < 0 || sh[i].nfrom > sh[best].nfrom)
				best = i;
		}
		if (best < 0)
			break;
		qs[nq] = pp_quantity_get(s, PP_Q_TOTAL, sh[best].h, 0, 0);
		if (!qs[nq])
			return -ENOMEM;
		pick[nq++] = (size_t)best;
	}
	if (!nq)
		return 0;
	pp_attrib_share_alpha(qs, 0, (size_t)nq, (size_t)nq, alpha);
	{
		const struct pp_settle_how how = {.deadline =
						      pp_attrib_plan_time(s, st->layer, st->chain),
						  .layer = st->layer + 2};

		err = pp_settle(s, qs, (size_t)nq, &how);
	}
	for (int i = 0; i < nq && !err; i++) {
		const struct shared *x = &sh[pick[i]];
		int k;

		if (pp_attrib_beyond(qs[i]) != st->dir)
			continue;
		k = pp_node_add(s, PP_NODE_SHARED, st->node, st->v->fn, qs[i]);
		if (k < 0)
			return -ENOMEM;
		s->nodes[k].into[PP_PREV] = x->h[PP_PREV];
		s->nodes[k].into[PP_CUR] = x->h[PP_CUR];
		s->nodes[k].sign = st->dir;
		s->nodes[k].detail = called_from(x, st->v->fn[PP_CUR], st->dir);
		/* a range of F slower as its calls together is that function's doing */
		for (size_t r = 0; r < s->nnodes; r++) {
			struct pp_node *g = &s->nodes[r];
			char *why = NULL;

			if (g->parent != st->node || g->kind != PP_NODE_RANGE ||
			    g->sign != st->dir ||
			    asprintf(&why, "%s only as a range: its calls call %s, found %s",
				     st->dir > 0 ? "slower" : "faster",
				     pp_demangle(x->h[PP_CUR]->name),
				     st->dir > 0 ? "slower" : "faster") < 0)
				continue;
			g->sign = 0;
			free(g->stop_own);
			g->stop_own = why;
			g->stop = why;
		}
	}
	return err;
}
