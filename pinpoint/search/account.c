// SPDX-License-Identifier: MIT
/*
 * account.c - the numbers of a function's parts, from the runs that
 * measured the function's whole time and all its parts together.
 *
 * The search measures a function F's own body, calls and F's whole time in
 * the same runs until the last of them is settled (search_attrib.c).  From
 * those runs, per revision and run: each part's value, F's whole time, and
 * the remainder (the whole less the parts the tree names).  Differences of
 * means add up, so a part's difference is the difference of its means over
 * those runs (Welch's interval), the remainder likewise, and a part's share
 * is the ratio of its difference to the whole's with Fieller's interval
 * (core/stats_ratio.c), which accounts for the part and the whole being
 * measured in the same runs.  Each comparison's own verdict stands as its
 * looks decided it; these numbers only describe, rank and share: the parts
 * are ranked by them, on the same final runs, not by estimates taken when
 * each comparison happened to stop (which optional stopping biases away
 * from 0).  doc/statistics.md, "Numbers that add up".
 *
 * The runtime takes out of each value what the probes armed inside it cost,
 * as it calibrated them in a loop at start-up; in real code the processor
 * overlaps a probe's work with the program's, so the calibrated cost is off
 * by a share that depends on the code (some 25 % too high around a chain of
 * dependent multiplications).  F's whole, measured with its parts armed,
 * and F measured with nothing armed inside it (its comparison in its
 * caller's runs, the entry's own runs) are the same time: the share of the
 * removed cost that makes them agree, over both revisions, is applied to
 * every value of F's parts (probe_scale).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "pinpoint/search/tree.h"

/* The columns of values: [k][i] is quantity k's value in run i of one revision. */
struct table {
	size_t nq, n[2];
	const struct pp_quantity **q;
	double *v[2];  /* nq columns of n[r] values, column-major */
	double *rm[2]; /* the probes' cost taken out of each, the same layout */
};

static double *col(const struct table *t, int r, size_t k)
{
	return t->v[r] + k * (t->n[0] > t->n[1] ? t->n[0] : t->n[1]);
}

static double *rmcol(const struct table *t, int r, size_t k)
{
	return t->rm[r] + k * (t->n[0] > t->n[1] ? t->n[0] : t->n[1]);
}

/* The value of each of @t's quantities in run @rec, or false when one was not measured. */
static bool run_values(const struct pp_session *s, const struct pp_run_record *rec,
		       const struct table *t, double *out, double *rm)
{
	const struct pp_batch *b;

	if (rec->warmup || !rec->batch || rec->batch > s->nbatches || !rec->values)
		return false;
	b = &s->batches[rec->batch - 1];
	for (size_t k = 0; k < t->nq; k++) {
		size_t j;

		for (j = 0; j < b->nq && b->qids[j] != t->q[k]->id; j++)
			;
		if (j == b->nq || j >= rec->nvalues)
			return false;
		out[k] = rec->values[j];
		rm[k] = rec->removed ? rec->removed[j] : 0;
	}
	return true;
}

/* Fill @t from every run that measured all of its quantities.  0 or -ENOMEM. */
static int fill(const struct pp_session *s, struct table *t)
{
	size_t cap = s->nruns ? s->nruns : 1, len;
	double *row = calloc(2 * t->nq, sizeof(*row));

	for (int r = 0; r < 2; r++) {
		t->v[r] = calloc(t->nq * cap, sizeof(double));
		t->rm[r] = calloc(t->nq * cap, sizeof(double));
	}
	if (!row || !t->v[0] || !t->v[1] || !t->rm[0] || !t->rm[1]) {
		free(row);
		return -ENOMEM;
	}
	/* columns are cap long while filling: place values by run within their revision */
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *rec = &s->runs[i];
		int r = rec->rev;

		if (!run_values(s, rec, t, row, row + t->nq))
			continue;
		for (size_t k = 0; k < t->nq; k++) {
			t->v[r][k * cap + t->n[r]] = row[k];
			t->rm[r][k * cap + t->n[r]] = row[t->nq + k];
		}
		t->n[r]++;
	}
	free(row);
	/* then as long as the longer revision's, which col() assumes */
	len = t->n[0] > t->n[1] ? t->n[0] : t->n[1];
	for (int r = 0; r < 2; r++)
		for (size_t k = 1; k < t->nq; k++)
			for (size_t i = 0; i < t->n[r]; i++) {
				t->v[r][k * len + i] = t->v[r][k * cap + i];
				t->rm[r][k * len + i] = t->rm[r][k * cap + i];
			}
	return 0;
}

/* Whether @q times something inside function @fn (of the current revision). */
static bool inside(const struct pp_quantity *q, const struct pp_prog_fn *fn)
{
	return q->fn[PP_CUR] == fn && q->kind != PP_Q_ENTRY;
}

/*
 * The mean of @clean per revision over the runs that armed nothing inside
 * @fn, into @m (NaN where fewer than two).
 */
static void clean_means(const struct pp_session *s, const struct pp_quantity *clean,
			const struct pp_prog_fn *fn, double m[2])
{
	double sum[2] = {0, 0};
	size_t n[2] = {0, 0};

	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *rec = &s->runs[i];
		const struct pp_batch *b;
		bool ok = true;
		size_t at = 0;

		if (rec->warmup || !rec->batch || rec->batch > s->nbatches || !rec->values)
			continue;
		b = &s->batches[rec->batch - 1];
		at = b->nq;
		for (size_t j = 0; j < b->nq && ok; j++) {
			const struct pp_quantity *q = s->q[b->qids[j]];

			if (q == clean)
				at = j;
			else if (inside(q, fn))
				ok = false;
		}
		if (!ok || at == b->nq || at >= rec->nvalues)
			continue;
		sum[rec->rev] += rec->values[at];
		n[rec->rev]++;
	}
	for (int r = 0; r < 2; r++)
		m[r] = n[r] >= 2 ? sum[r] / (double)n[r] : NAN;
}

/*
 * The share of the calibrated probe cost that makes @f's whole, measured
 * with its parts (column 0 of @t), agree with @f measured clean, in each
 * revision; every value of @t then keeps (1 - scale) of what was taken out
 * of it.  1 (nothing changes) without clean runs or where too little was
 * taken out to be told from noise.  Each revision has its own: the probes
 * armed inside F run as many times as F's calls do, which a regression
 * changes, and the clean runs of a revision are that revision's.
 */
static void scale_probes(const struct pp_session *s, struct pp_node *f, struct table *t)
{
	const struct pp_quantity *clean = f->q;
	double over = 0, removed = 0;

	if (!clean)
		return;
	clean_means(s, clean, f->total->fn[PP_CUR], f->clean);
	if (!isfinite(f->clean[0]) || !isfinite(f->clean[1]))
		return;
	for (int r = 0; r < 2; r++) {
		double v = 0, rm = 0, scale;

		for (size_t i = 0; i < t->n[r]; i++) {
			v += col(t, r, 0)[i];
			rm += rmcol(t, r, 0)[i];
		}
		v /= (double)t->n[r];
		rm /= (double)t->n[r];
		f->scales[r] = 1;
		if (rm < 0.01 * (v + rm))
			continue;
		scale = (v + rm - f->clean[r]) / rm;
		scale = scale < 0 ? 0 : scale > 2 ? 2 : scale;
		f->scales[r] = scale;
		over += scale * rm;
		removed += rm;
		for (size_t k = 0; k < t->nq; k++)
			for (size_t i = 0; i < t->n[r]; i++)
				col(t, r, k)[i] += (1 - scale) * rmcol(t, r, k)[i];
	}
	f->probe_scale = removed > 0 ? over / removed : 1;
}

/* A part: the child node and the columns of @t it sums (a structural group sums several). */
struct part {
	int node;
	size_t first, n; /* columns first..first+n-1 of the table */
};

/* Per run of revision @r, the sum of @p's columns into @out. */
static void part_values(const struct table *t, int r, const struct part *p, double *out)
{
	for (size_t i = 0; i < t->n[r]; i++) {
		out[i] = 0;
		for (size_t k = p->first; k < p->first + p->n; k++)
			out[i] += col(t, r, k)[i];
	}
}

struct sums {
	double *v[2]; /* one value per run of each revision */
};

/* The difference of means of @v over the runs, Welch's interval, and its share of @whole. */
static void number(const struct pp_session *s, const struct table *t, const struct sums *v,
		   struct pp_node *n)
{
	const double conf = s->opt->confidence;
	struct pp_comparison c;
	struct pp_interval sh;

	if (!pp_compare(PP_TEST_WELCH, v->v[0], t->n[0], v->v[1], t->n[1], conf, &c))
		n->diff = c.diff;
	for (int r = 0; r < 2; r++) {
		double m = 0;

		for (size_t i = 0; i < t->n[r]; i++)
			m += v->v[r][i];
		n->mean[r] = m / (double)t->n[r];
	}
	if (!pp_ratio_interval(v->v[0], col(t, 0, 0), t->n[0], v->v[1], col(t, 1, 0), t->n[1], conf,
			       &sh)) {
		n->share = sh.centre;
		n->share_ci = sh;
	}
}

/* The part that leads @f's children in @dir, and a runner-up the runs do not tell from it. */
static void lead_and_tie(const struct pp_session *s, const struct table *t, struct pp_node *f,
			 const struct part *parts, size_t np, struct sums *v, int dir)
{
	const struct part *a = NULL, *b = NULL;
	struct sums z = {{v->v[0], v->v[1]}};
	struct pp_comparison c;
	double *vb[2];

	for (size_t i = 0; i < np; i++) {
		const struct pp_node *x = &s->nodes[parts[i].node];

		if (x->sign != dir || x->kind == PP_NODE_STRUCTURAL)
			continue;
		if (!a || dir * x->diff.centre > dir * s->nodes[a->node].diff.centre) {
			b = a;
			a = &parts[i];
		} else if (!b || dir * x->diff.centre > dir * s->nodes[b->node].diff.centre) {
			b = &parts[i];
		}
	}
	if (!a)
		return;
	f->lead = a->node;
	if (!b)
		return;
	vb[0] = malloc((t->n[0] ? t->n[0] : 1) * sizeof(double));
	vb[1] = malloc((t->n[1] ? t->n[1] : 1) * sizeof(double));
	if (vb[0] && vb[1]) {
		/* per run, a less b: the difference of their differences */
		for (int r = 0; r < 2; r++) {
			part_values(t, r, a, z.v[r]);
			part_values(t, r, b, vb[r]);
			for (size_t i = 0; i < t->n[r]; i++)
				z.v[r][i] -= vb[r][i];
		}
		if (!pp_compare(PP_TEST_WELCH, z.v[0], t->n[0], z.v[1], t->n[1], s->opt->confidence,
				&c) &&
		    !(dir * c.diff.low > 0 && dir * c.diff.high > 0))
			f->tie = b->node;
	}
	free(vb[0]);
	free(vb[1]);
}

/* The children of @node that are parts (not the remainder), in @parts; the remainder's index. */
static size_t list_parts(const struct pp_session *s, int node, struct part *parts, int *rest)
{
	size_t np = 0;

	*rest = -1;
	for (size_t i = 0; i < s->nnodes; i++) {
		if (s->nodes[i].parent != node)
			continue;
		if (s->nodes[i].kind == PP_NODE_REST)
			*rest = (int)i;
		else if (s->nodes[i].q || s->nodes[i].kind == PP_NODE_STRUCTURAL)
			parts[np++].node = (int)i;
	}
	return np;
}

/* The quantities of @t: the whole, then each part's (a group's children's), in order. */
static int columns(const struct pp_session *s, struct pp_node *f, struct part *parts, size_t np,
		   struct table *t)
{
	t->q = calloc(s->nnodes + 1, sizeof(*t->q));
	if (!t->q)
		return -ENOMEM;
	t->q[t->nq++] = f->total;
	for (size_t i = 0; i < np; i++) {
		const struct pp_node *x = &s->nodes[parts[i].node];

		parts[i].first = t->nq;
		if (x->q) {
			t->q[t->nq++] = x->q;
		} else {
			for (size_t k = 0; k < s->nnodes; k++)
				if (s->nodes[k].parent == parts[i].node && s->nodes[k].q)
					t->q[t->nq++] = s->nodes[k].q;
		}
		parts[i].n = t->nq - parts[i].first;
	}
	return 0;
}

/* The numbers of a structural group's calls, each a share of F's whole. */
static void group_calls(struct pp_session *s, const struct table *t, const struct part *p,
			struct sums *v)
{
	size_t k = p->first;

	for (size_t i = 0; i < s->nnodes && k < p->first + p->n; i++) {
		struct part one = {(int)i, k, 1};

		if (s->nodes[i].parent != p->node || !s->nodes[i].q)
			continue;
		for (int r = 0; r < 2; r++)
			part_values(t, r, &one, v->v[r]);
		number(s, t, v, &s->nodes[i]);
		k++;
	}
}

int pp_tree_account(struct pp_session *s, int node)
{
	struct pp_node *f = &s->nodes[node];
	struct part *parts = calloc(s->nnodes + 1, sizeof(*parts));
	struct table t = {0};
	struct sums v = {{NULL, NULL}}, sum = {{NULL, NULL}};
	int rest, err = 0, dir = f->sign < 0 ? -1 : 1;
	size_t np;

	if (!parts)
		return -ENOMEM;
	np = list_parts(s, node, parts, &rest);
	if (!f->total || !np)
		goto out;
	err = columns(s, f, parts, np, &t);
	if (!err)
		err = fill(s, &t);
	if (err || t.n[0] < 2 || t.n[1] < 2)
		goto out;
	for (int r = 0; r < 2; r++) {
		v.v[r] = calloc(t.n[r], sizeof(double));
		sum.v[r] = calloc(t.n[r], sizeof(double));
		if (!v.v[r] || !sum.v[r]) {
			err = -ENOMEM;
			goto out;
		}
	}
	f->runs[0] = t.n[0];
	f->runs[1] = t.n[1];
	scale_probes(s, f, &t);
	{
		struct pp_comparison c;

		if (!pp_compare(PP_TEST_WELCH, col(&t, 0, 0), t.n[0], col(&t, 1, 0), t.n[1],
				s->opt->confidence, &c))
			f->whole = c.diff;
	}
	for (size_t i = 0; i < np; i++) {
		struct pp_node *x = &s->nodes[parts[i].node];

		for (int r = 0; r < 2; r++) {
			part_values(&t, r, &parts[i], v.v[r]);
			for (size_t k = 0; k < t.n[r]; k++)
				sum.v[r][k] += v.v[r][k];
		}
		number(s, &t, &v, x);
		if (x->kind == PP_NODE_STRUCTURAL) {
			double thr = s->threshold_ns;

			x->sign = x->diff.low > 0 && x->diff.centre >= thr     ? 1
				  : x->diff.high < 0 && -x->diff.centre >= thr ? -1
									       : 0;
			group_calls(s, &t, &parts[i], &v);
		}
	}
	{
		struct pp_comparison c;

		if (!pp_compare(PP_TEST_WELCH, sum.v[0], t.n[0], sum.v[1], t.n[1],
				s->opt->confidence, &c))
			f->parts = c.diff;
	}
	if (rest >= 0) {
		/* per run, the whole less the parts named */
		for (int r = 0; r < 2; r++)
			for (size_t k = 0; k < t.n[r]; k++)
				sum.v[r][k] = col(&t, r, 0)[k] - sum.v[r][k];
		number(s, &t, &sum, &s->nodes[rest]);
	}
	lead_and_tie(s, &t, f, parts, np, &v, dir);
out:
	for (int r = 0; r < 2; r++) {
		free(v.v[r]);
		free(sum.v[r]);
		free(t.v[r]);
		free(t.rm[r]);
	}
	free(t.q);
	free(parts);
	return err;
}
