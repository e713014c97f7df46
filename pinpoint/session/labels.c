// SPDX-License-Identifier: MIT
/*
 * labels.c - how the outcome names what a session measured (labels.h): its
 * functions, comparisons and tree nodes, the call a node names, source
 * locations.  Computed once in outcome.c; the writers print the strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "pinpoint/session/labels.h"

const char *pp_fn_name(const struct pp_prog_fn *fn, struct pp_names *nm)
{
	return pp_names_get(nm, fn->name);
}

char *pp_quantity_label(const struct pp_quantity *q)
{
	return pp_quantity_label_named(q, NULL);
}

char *pp_quantity_label_named(const struct pp_quantity *q, struct pp_names *nm)
{
	const struct pp_prog_fn *fn = q->fn[PP_CUR];
	char *l = NULL;
	int r = -1;

	switch (q->kind) {
	case PP_Q_ENTRY:
		r = asprintf(&l, "%s (entry)", pp_fn_name(fn, nm));
		break;
	case PP_Q_SELF:
		r = asprintf(&l, "%s: own body", pp_fn_name(fn, nm));
		break;
	case PP_Q_TOTAL:
		r = asprintf(&l, "%s: whole", pp_fn_name(fn, nm));
		break;
	case PP_Q_RANGE:
	case PP_Q_COUNT: {
		const char *counted = q->kind == PP_Q_COUNT ? ", counted" : "";
		char *a, *b;

		if (q->absent[PP_CUR] || q->absent[PP_PREV]) {
			int rev = q->absent[PP_CUR] ? PP_PREV : PP_CUR;
			unsigned k = rev == PP_CUR ? q->first : q->prev_first;

			fn = q->fn[rev];
			a = pp_prog_call_label_named(fn, k, nm);
			r = asprintf(&l, "%s: call %u %s (measured in the %s revision only)%s",
				     pp_fn_name(fn, nm), k, a ? a : "?",
				     rev == PP_CUR ? "current" : "previous", counted);
			free(a);
			break;
		}
		a = pp_prog_call_label_named(fn, q->first, nm);
		b = pp_prog_call_label_named(fn, q->last, nm);
		if (q->first == q->last)
			r = asprintf(&l, "%s: call %u %s%s", pp_fn_name(fn, nm), q->first,
				     a ? a : "?", counted);
		else
			r = asprintf(&l, "%s: calls %u-%u (%s .. %s)%s", pp_fn_name(fn, nm),
				     q->first, q->last, a ? a : "?", b ? b : "?", counted);
		free(a);
		free(b);
		break;
	}
	case PP_Q_GROUP:
		r = asprintf(&l, "%s: %zu calls of %s (calls %u-%u)", pp_fn_name(fn, nm), q->nterms,
			     pp_names_get(nm, q->callee), q->first, q->last);
		break;
	case PP_Q_CHANGED:
		r = asprintf(&l, "%s: the %zu calls only one revision makes", pp_fn_name(fn, nm),
			     q->nterms);
		break;
	case PP_Q_TARGET: {
		char *a = pp_prog_call_label_named(fn, q->first, nm);

		r = asprintf(&l, "%s: call %u %s, its target %s", pp_fn_name(fn, nm), q->first,
			     a ? a : "?", pp_names_get(nm, q->target));
		free(a);
		break;
	}
	case PP_Q_CONFIRM:
		r = asprintf(&l, "%s (entry), the previous revision with %s delayed",
			     pp_fn_name(fn, nm), q->delay_what ? q->delay_what : "?");
		break;
	}
	return r < 0 ? NULL : l;
}

void pp_print_loc(FILE *f, const char *file, unsigned line, unsigned col)
{
	if (!file || !file[0])
		fprintf(f, "(no debug info)");
	else if (col)
		fprintf(f, "%s:%u:%u", file, line, col);
	else
		fprintf(f, "%s:%u", file, line);
}

/* The call a node names, in the revision that has it. */
const struct pp_prog_call *pp_node_call(const struct pp_node *n, int *rev)
{
	int r = n->first[PP_CUR] <= n->last[PP_CUR] ? PP_CUR : PP_PREV;

	if (rev)
		*rev = r;
	if (!n->fn[r] || n->first[r] > n->last[r] || n->first[r] >= n->fn[r]->ncalls)
		return NULL;
	return &n->fn[r]->calls[n->first[r]];
}

/* The function a node names: the callee of a call, else the function it is in. */
const char *pp_node_function(const struct pp_node *n)
{
	const struct pp_prog_call *c = pp_node_call(n, NULL);
	const struct pp_prog_fn *fn = n->fn[PP_CUR] ? n->fn[PP_CUR] : n->fn[PP_PREV];

	if (n->kind == PP_NODE_CALL && n->into[PP_CUR]) /* an indirect call dug into */
		return n->into[PP_CUR]->name;
	if (n->kind == PP_NODE_GROUP)
		return n->q->callee;
	if (n->kind == PP_NODE_SHARED)
		return n->into[PP_CUR]->name;
	if (c &&
	    (n->kind == PP_NODE_CALL || n->kind == PP_NODE_ADDED || n->kind == PP_NODE_REMOVED))
		return pp_prog_call_name(c);
	return fn->name;
}

/* The call a node names with the calls it was inlined through, malloc'ed. */
static char *node_call_label(const struct pp_node *n, struct pp_names *nm)
{
	int r;

	if (!pp_node_call(n, &r))
		return strdup("?");
	return pp_prog_call_label_named(n->fn[r], n->first[r], nm);
}

char *pp_node_name(const struct pp_node *n, struct pp_names *nm)
{
	const struct pp_prog_fn *fn = n->fn[PP_CUR] ? n->fn[PP_CUR] : n->fn[PP_PREV];
	char *l = NULL, *c = NULL;
	int r = -1;

	if (n->kind == PP_NODE_CALL || n->kind == PP_NODE_ADDED || n->kind == PP_NODE_REMOVED) {
		c = node_call_label(n, nm);
		if (!c)
			return NULL;
	}
	switch (n->kind) {
	case PP_NODE_ENTRY:
		r = asprintf(&l, "%s", pp_fn_name(fn, nm));
		break;
	case PP_NODE_CALL: /* an indirect call dug into: by its target */
		r = asprintf(&l, "%s", n->into[PP_CUR] ? pp_fn_name(n->into[PP_CUR], nm) : c);
		break;
	case PP_NODE_RANGE:
		r = asprintf(&l, "calls %u-%u of %s", n->first[PP_CUR], n->last[PP_CUR],
			     pp_fn_name(fn, nm));
		break;
	case PP_NODE_GROUP:
		r = asprintf(&l, "%zu calls of %s", n->q->nterms, pp_names_get(nm, n->q->callee));
		break;
	case PP_NODE_SHARED:
		r = asprintf(&l, "%s", pp_fn_name(n->into[PP_CUR], nm));
		break;
	case PP_NODE_SELF:
		r = asprintf(&l, "own body of %s", pp_fn_name(fn, nm));
		break;
	case PP_NODE_STRUCTURAL:
		r = asprintf(&l, "changed code of %s", pp_fn_name(fn, nm));
		break;
	case PP_NODE_ADDED:
		r = asprintf(&l, "added call %s", c);
		break;
	case PP_NODE_REMOVED:
		r = asprintf(&l, "removed call %s", c);
		break;
	case PP_NODE_REST:
		r = asprintf(&l, "unexplained remainder of %s", pp_fn_name(fn, nm));
		break;
	}
	free(c);
	return r < 0 ? NULL : l;
}
