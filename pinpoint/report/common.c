// SPDX-License-Identifier: MIT
/*
 * common.c - what every report format says the same way: the names of
 * functions, comparisons and tree nodes, the call a node names, verdict
 * words, times with open ends, source locations, a series' spread.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/util.h"
#include "pinpoint/report/report.h"

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
	case PP_Q_RANGE: {
		char *a, *b;

		if (q->absent[PP_CUR] || q->absent[PP_PREV]) {
			int rev = q->absent[PP_CUR] ? PP_PREV : PP_CUR;
			unsigned k = rev == PP_CUR ? q->first : q->prev_first;

			fn = q->fn[rev];
			a = pp_prog_call_label_named(fn, k, nm);
			r = asprintf(&l, "%s: call %u %s (measured in the %s revision only)",
				     pp_fn_name(fn, nm), k, a ? a : "?",
				     rev == PP_CUR ? "current" : "previous");
			free(a);
			break;
		}
		a = pp_prog_call_label_named(fn, q->first, nm);
		b = pp_prog_call_label_named(fn, q->last, nm);
		if (q->first == q->last)
			r = asprintf(&l, "%s: call %u %s", pp_fn_name(fn, nm), q->first,
				     a ? a : "?");
		else
			r = asprintf(&l, "%s: calls %u-%u (%s .. %s)", pp_fn_name(fn, nm), q->first,
				     q->last, a ? a : "?", b ? b : "?");
		free(a);
		free(b);
		break;
	}
	case PP_Q_GROUP:
		r = asprintf(&l, "%s: %zu calls of %s (calls %u-%u)", pp_fn_name(fn, nm), q->nterms,
			     pp_names_get(nm, q->callee), q->first, q->last);
		break;
	}
	return r < 0 ? NULL : l;
}

/* A time, or "-inf"/"+inf" for the open end of an interval. */
const char *pp_fmt_end(double ns, char *buf, unsigned len)
{
	if (isinf(ns)) {
		snprintf(buf, len, "%sinf", ns < 0 ? "-" : "+");
		return buf;
	}
	return pp_fmt_ns(ns, buf, len);
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

char *pp_node_name(const struct pp_session *s, const struct pp_node *n, struct pp_names *nm)
{
	const struct pp_prog_fn *fn = n->fn[PP_CUR] ? n->fn[PP_CUR] : n->fn[PP_PREV];
	char *l = NULL, *c = NULL;
	int r = -1;

	(void)s;
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

void pp_time_use(const struct pp_session *s, struct pp_time_use *u)
{
	double runs_s = 0;

	memset(u, 0, sizeof(*u));
	u->total_s = (s->finished > 0 ? s->finished : pp_session_now(s)) - s->started;
	u->builds_s = s->measuring > 0 ? s->measuring - s->started : 0;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *r = &s->runs[i];
		int l;

		runs_s += r->turn_s;
		if (!r->batch || r->batch > s->nbatches) {
			u->discovery_s += r->turn_s;
			u->discovery_runs++;
			continue;
		}
		l = s->batches[r->batch - 1].layer;
		l = l < 0 ? 0 : l >= PP_TIME_LAYERS ? PP_TIME_LAYERS - 1 : l;
		u->layer_s[l] += r->turn_s;
		u->layer_runs[l]++;
		if ((unsigned)l + 1 > u->nlayers)
			u->nlayers = (unsigned)l + 1;
	}
	u->layouts_s =
	    pp_layouts_relink_s(&s->rev[PP_PREV].lay) + pp_layouts_relink_s(&s->rev[PP_CUR].lay);
	/* measuring's start moved past the layouts' making (main.c): not a build */
	u->builds_s = u->builds_s > u->layouts_s ? u->builds_s - u->layouts_s : 0;
	u->other_s = u->total_s - u->builds_s - runs_s - u->layouts_s;
	if (u->other_s < 0)
		u->other_s = 0;
}

double pp_series_cov(const struct pp_series *v)
{
	double mean = 0, ss = 0;

	if (v->n < 2)
		return NAN;
	for (size_t i = 0; i < v->n; i++)
		mean += v->v[i];
	mean /= (double)v->n;
	for (size_t i = 0; i < v->n; i++)
		ss += (v->v[i] - mean) * (v->v[i] - mean);
	return mean > 0 ? sqrt(ss / (double)(v->n - 1)) / mean : NAN;
}

/* Modules of @l linked again in its layouts. */
static size_t relinked(const struct pp_layouts *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nmodules; i++)
		n += !l->modules[i].why;
	return n;
}

bool pp_layouts_varied(const struct pp_session *s)
{
	return s->rev[PP_PREV].lay.n > 1 && s->rev[PP_CUR].lay.n > 1;
}

const char *pp_runs_sentence(const struct pp_session *s, char *buf, size_t len)
{
	switch (pp_session_runs(s)) {
	case PP_RUNS_DUET:
		if (s->duet_cpu[0] >= 0 && s->duet_cpu[1] >= 0)
			snprintf(buf, len,
				 "Each pair's two runs ran at the same time, one on CPU %d and "
				 "one on CPU %d (duet).",
				 s->duet_cpu[0], s->duet_cpu[1]);
		else
			snprintf(buf, len,
				 "Each pair's two runs ran at the same time, on %d and %d CPUs of "
				 "their own (duet).",
				 CPU_COUNT(&s->duet_cpus[0]), CPU_COUNT(&s->duet_cpus[1]));
		break;
	case PP_RUNS_PAIRED:
		snprintf(buf, len, "Each pair's two runs ran one after the other (paired).");
		break;
	default:
		snprintf(buf, len, "The runs ran one at a time in a random order (shuffled).");
	}
	return buf;
}

void pp_layouts_sentence(const struct pp_session *s, char *buf, size_t len)
{
	const struct pp_layouts *p = &s->rev[PP_PREV].lay, *c = &s->rev[PP_CUR].lay;
	double t = pp_layouts_relink_s(p) + pp_layouts_relink_s(c);
	const struct pp_revision *flat =
	    p->n > 1 || p->as_other ? &s->rev[PP_CUR] : &s->rev[PP_PREV];

	if (pp_layouts_varied(s) && !p->nmodules && !c->nmodules) {
		/* a program model's layouts (pinpoint/model/): nothing was linked */
		snprintf(
		    buf, len,
		    "each revision ran in %u code layouts of the program model (%u first), the "
		    "runs spread over them evenly.",
		    p->n, s->layouts_first ? s->layouts_first : p->n);
	} else if (pp_layouts_varied(s) && s->layouts_first && p->n > s->layouts_first) {
		char *label = s->layouts_why ? pp_quantity_label(s->layouts_why) : NULL;

		snprintf(
		    buf, len,
		    "each revision ran in %u code layouts (its modules linked again with their "
		    "functions in random orders: previous %zu of %zu, current %zu of %zu): %u "
		    "first, then %u more, made in %.1f s, when no number of runs in the first "
		    "could decide %s; each round's runs went to the layouts used least; linking "
		    "took %.1f s%s.",
		    p->n, relinked(p), p->nmodules, relinked(c), c->nmodules, s->layouts_first,
		    p->n - s->layouts_first, s->layouts_more_s, label ? label : "a comparison", t,
		    t > 0 ? "" : " (all reused from an earlier session)");
		free(label);
	} else if (pp_layouts_varied(s)) {
		snprintf(
		    buf, len,
		    "each revision ran in %u code layouts (its modules linked again with their "
		    "functions in random orders: previous %zu of %zu, current %zu of %zu), "
		    "the runs spread over them evenly; linking took %.1f s%s.",
		    p->n, relinked(p), p->nmodules, relinked(c), c->nmodules, t,
		    t > 0 ? "" : " (all reused from an earlier session)");
	} else if (s->opt->layouts <= 1) {
		snprintf(
		    buf, len,
		    "not varied (--layouts 1): each revision ran as built, in one code layout, "
		    "so the verdict can include the effect of where the linker put the code.");
	} else if (p->as_other || c->as_other) {
		snprintf(
		    buf, len,
		    "not varied: the %s revision could not be (%s), so both revisions ran as "
		    "built, in one code layout each, and the verdict can include the effect of "
		    "where the linker put the code.",
		    flat->label,
		    flat->lay.not_varied ? flat->lay.not_varied : "it was not measured");
	} else {
		snprintf(
		    buf, len,
		    "not varied: the %s revision ran as built (%s), so the verdict can include "
		    "the effect of where the linker put the code.",
		    flat->label,
		    flat->lay.not_varied ? flat->lay.not_varied : "it was not measured");
	}
}
bool pp_layouts_spread(const struct pp_session *s, char *buf, size_t len)
{
	const struct pp_quantity *e = s->nq ? s->q[0] : NULL;
	char a[32];

	if (!e || !e->has_layout)
		return false;
	snprintf(buf, len,
		 "layout made %.0f%% of the entry's run-to-run variance in the previous revision "
		 "and %.0f%% in the current; two single layouts can differ by %s (2 sd) with "
		 "nothing changed.",
		 100 * e->layout[PP_PREV].share, 100 * e->layout[PP_CUR].share,
		 pp_fmt_ns(2 * e->layout_sd, a, sizeof(a)));
	return true;
}
