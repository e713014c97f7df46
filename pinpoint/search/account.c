// SPDX-License-Identifier: MIT
/*
 * account.c - the numbers of a function's parts, from the runs that
 * measured the function's whole time and all its parts together.
 *
 * The search measures a function F's own body, calls and F's whole time in
 * the same runs until the last of them is settled (search_attrib.c).  From
 * those runs: each part's difference, F's whole's, the remainder's (the
 * whole less the parts the tree names), each taken the way the verdicts are
 * (core/stats_seq.h, pp_seq_interval): in the paired design through the
 * differences of the pairs (a previous and a current run of one batch and
 * turn), by the session's test, and as the union with the code layouts'
 * interval when the runs are in several layouts.  A part's share of F is
 * the ratio of its mean difference to the whole's in the same pairs, with
 * Fieller's interval (pp_ratio_paired; the units' too with layouts).  Each
 * comparison's own verdict stands as its looks decided it; these numbers
 * describe, rank and share: the parts are ranked by them, on the same
 * final runs, not by estimates taken when each comparison happened to stop
 * (which optional stopping biases away from 0).  doc/statistics.md,
 * "Numbers from the same runs".
 *
 * The runtime takes out of each value what the probes armed inside it cost,
 * as it calibrated them at start-up.  Nothing here rescales that: how much
 * of the probes' cost is left in (or taken out too much) is measured, per
 * revision, as F's whole with its parts armed less F with nothing armed
 * inside it (its comparison in its caller's runs, the entry's own runs),
 * with Welch's interval, and reported beside the numbers.  A part whose
 * difference could move by T/2 or more by that error, relative to what was
 * taken out, in the probes taken out of it is marked
 * (probe_cost_uncertainty).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_statistics_double.h>

#include "core/stats.h"
#include "core/stats_seq.h"
#include "pinpoint/measure/decide.h"
#include "pinpoint/search/tree.h"

/* A share from which a part is said to be above all of its function's: above 100 % as printed. */
#define PP_SHARE_ABOVE 1.0005

/*
 * The columns of values: column k holds quantity k's value in each run of
 * each revision; paired, row i of both revisions is pair i.
 */
struct table {
	size_t nq, n[2], len; /* len: the column stride */
	bool paired;
	const struct pp_quantity **q;
	double *v[2];	      /* nq columns, column-major */
	double *rm[2];	      /* the probes' cost taken out of each, the same layout */
	unsigned *lay[2];     /* each row's code layout (0: the only one) */
	signed char *side[2]; /* each row's duet side, -1: none (decide_cpu.c) */
	bool units_paired;    /* paired rows whose layouts are paired too */
};

static double *col(const struct table *t, int r, size_t k)
{
	return t->v[r] + k * t->len;
}

static double *rmcol(const struct table *t, int r, size_t k)
{
	return t->rm[r] + k * t->len;
}

/* Whether run @rec measured every quantity of @t; where in its values into @at. */
static bool measured_all(const struct pp_session *s, const struct pp_run_record *rec,
			 const struct table *t, size_t *at)
{
	if (rec->warmup)
		return false;
	for (size_t k = 0; k < t->nq; k++) {
		int j = pp_run_value_at(s, rec, t->q[k]);

		if (j < 0)
			return false;
		at[k] = (size_t)j;
	}
	return true;
}

/* Row @i of revision @r from run @rec, whose values are at @at. */
static void put_row(struct table *t, int r, size_t i, const struct pp_run_record *rec,
		    const size_t *at)
{
	for (size_t k = 0; k < t->nq; k++) {
		col(t, r, k)[i] = rec->values[at[k]];
		rmcol(t, r, k)[i] = rec->removed ? rec->removed[at[k]] : 0;
	}
	t->lay[r][i] = pp_setup_layout(&rec->setup);
	t->side[r][i] = (signed char)(rec->side == 0 || rec->side == 1 ? rec->side : -1);
}

/*
 * Fill @t from every run (unpaired) or every pair of runs (paired) that
 * measured all of its quantities.  0 or -ENOMEM.
 */
static int fill(const struct pp_session *s, struct table *t)
{
	size_t cap = s->nruns ? s->nruns : 1;
	size_t *at = calloc(2 * t->nq, sizeof(*at));
	int err = 0;

	t->len = cap;
	for (int r = 0; r < 2; r++) {
		t->v[r] = calloc(t->nq * cap, sizeof(double));
		t->rm[r] = calloc(t->nq * cap, sizeof(double));
		t->lay[r] = calloc(cap, sizeof(unsigned));
		t->side[r] = calloc(cap, sizeof(signed char));
		if (!t->v[r] || !t->rm[r] || !t->lay[r] || !t->side[r])
			err = -ENOMEM;
	}
	if (!at || err) {
		free(at);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *rec = &s->runs[i];
		long j;

		if (!measured_all(s, rec, t, at))
			continue;
		if (!t->paired) {
			put_row(t, rec->rev, t->n[rec->rev]++, rec, at);
			continue;
		}
		if (rec->rev != PP_PREV || (j = pp_run_pair(s, i)) < 0 ||
		    !measured_all(s, &s->runs[j], t, at + t->nq))
			continue;
		put_row(t, PP_PREV, t->n[PP_PREV]++, rec, at);
		put_row(t, PP_CUR, t->n[PP_CUR]++, &s->runs[j], at + t->nq);
	}
	free(at);
	t->units_paired = t->paired;
	for (size_t i = 0; t->paired && i < t->n[0]; i++)
		if (t->lay[0][i] != t->lay[1][i])
			t->units_paired = false;
	return 0;
}

/*
 * The difference of @v (per row of each revision) as the verdicts take it,
 * into @out: in duets with --cpu-term on, the two CPUs taken out of the
 * pairs as each look takes them (decide_cpu.c).
 */
static int estimate(const struct pp_session *s, const struct table *t, double *const v[2],
		    double conf, struct pp_interval *out)
{
	double *cur = NULL, c;
	int err =
	    t->paired ? pp_cpu_term(s, v[0], t->side[0], v[1], t->side[1], t->n[0], &cur, &c) : 0;

	if (err)
		return err;
	err = pp_seq_interval(s->opt->test, t->paired, v[0], t->lay[0], t->n[0], cur ? cur : v[1],
			      t->lay[1], t->n[1], conf, out);
	free(cur);
	return err;
}

/* The share of @a's difference in @b's (per row of each revision), Fieller's interval. */
static int share_of(const struct table *t, double *const a[2], double *const b[2], double conf,
		    struct pp_interval *out)
{
	double *da, *db;
	int err;

	if (!t->paired)
		return pp_ratio_interval(a[0], b[0], t->n[0], a[1], b[1], t->n[1], conf, out);
	da = malloc(t->n[0] * sizeof(*da));
	db = malloc(t->n[0] * sizeof(*db));
	err = da && db ? 0 : -ENOMEM;
	for (size_t i = 0; !err && i < t->n[0]; i++) {
		da[i] = a[1][i] - a[0][i];
		db[i] = b[1][i] - b[0][i];
	}
	if (!err)
		err =
		    pp_ratio_paired(da, db, t->units_paired ? t->lay[0] : NULL, t->n[0], conf, out);
	free(da);
	free(db);
	return err;
}

/* Whether @q times something inside function @fn (of the current revision). */
static bool inside(const struct pp_quantity *q, const struct pp_prog_fn *fn)
{
	return q->fn[PP_CUR] == fn && q->kind != PP_Q_ENTRY;
}

/* Whether revision @r of @t has a run in layout @l. */
static bool has_layout(const struct table *t, int r, unsigned l)
{
	for (size_t i = 0; i < t->n[r]; i++)
		if (t->lay[r][i] == l)
			return true;
	return false;
}

/*
 * @clean's values in revision @r over the runs that armed nothing inside
 * @fn, into @out (room for s->nruns): those of the layouts @t's runs were
 * in when there are any, else all.  Their number.
 */
static size_t clean_values(const struct pp_session *s, const struct pp_quantity *clean,
			   const struct pp_prog_fn *fn, const struct table *t, int r, double *out)
{
	size_t n = 0;

	for (int pass = 0; pass < 2 && !n; pass++)
		for (size_t i = 0; i < s->nruns; i++) {
			const struct pp_run_record *rec = &s->runs[i];
			const struct pp_batch *b;
			bool ok = true;
			size_t at;

			if (rec->warmup || rec->rev != (enum pp_rev_id)r || !rec->batch ||
			    rec->batch > s->nbatches || !rec->values)
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
			if (!pass && !has_layout(t, r, pp_setup_layout(&rec->setup)))
				continue;
			out[n++] = rec->values[at];
		}
	return n;
}

/*
 * What of the probes' cost is left in F's whole measured with its parts,
 * per revision: that whole less F with nothing armed inside (@f->q), means
 * and Welch's interval.  NaN-centred where F has no clean runs.
 */
static int probe_cost_left_in(const struct pp_session *s, struct pp_node *f, const struct table *t)
{
	double *clean = malloc((s->nruns ? s->nruns : 1) * sizeof(*clean));

	if (!clean)
		return -ENOMEM;
	for (int r = 0; r < 2; r++) {
		size_t n = f->q ? clean_values(s, f->q, f->total->fn[PP_CUR], t, r, clean) : 0;
		struct pp_comparison c;

		f->removed[r] = gsl_stats_mean(rmcol(t, r, 0), 1, t->n[r]);
		f->clean[r] = n >= 2 ? gsl_stats_mean(clean, 1, n) : NAN;
		f->left_in[r] = (struct pp_interval){NAN, NAN, NAN};
		if (n >= 2 && !pp_compare(PP_TEST_WELCH, clean, n, col(t, r, 0), t->n[r],
					  s->opt->confidence, &c))
			f->left_in[r] = c.diff;
	}
	free(clean);
	return 0;
}

/*
 * How far a part's difference could move by an error in the probes' cost
 * taken out of it (@rm, per revision): F's cost left in over what was
 * taken out of F's whole is the calibration's relative error e in that
 * revision, its interval clipped to [-1, 1] (wider than all that was taken
 * out, it is the runs' noise, not the probes'; not known, all of it), and
 * the part's error in revision r is e_r rm_r.  The largest |e_c rm_c -
 * e_p rm_p| over both intervals: revisions calibrate apart, so their
 * errors are not assumed to cancel.
 */
static double probe_cost_uncertainty(const struct pp_node *f, const double rm[2])
{
	double lo[2], hi[2];

	for (int r = 0; r < 2; r++) {
		const struct pp_interval *l = &f->left_in[r];
		bool known = isfinite(l->low) && isfinite(l->high) && f->removed[r] > 0;

		lo[r] = known ? fmax(l->low / f->removed[r], -1) : -1;
		hi[r] = known ? fmin(l->high / f->removed[r], 1) : 1;
		if (lo[r] > hi[r]) /* the whole interval beyond +-1 */
			lo[r] = hi[r] = lo[r] > 0 ? 1 : -1;
	}
	return fmax(fabs(hi[PP_CUR] * rm[PP_CUR] - lo[PP_PREV] * rm[PP_PREV]),
		    fabs(lo[PP_CUR] * rm[PP_CUR] - hi[PP_PREV] * rm[PP_PREV]));
}

/*
 * The confidence of @n's numbers: its verdict's, the level of the look
 * that decided it, else that of @f, the function it is a part of (its own
 * verdict's, else the session's): every interval of the tree at the level
 * of the decision it stands for.
 */
static double level_of(const struct pp_session *s, const struct pp_node *n, const struct pp_node *f)
{
	for (int i = 0; i < 2; i++, n = f) {
		const struct pp_quantity *q = n ? n->q : NULL;

		if (q && q->decided && q->cmp.confidence > 0 && q->cmp.confidence < 1)
			return q->cmp.confidence;
	}
	return s->opt->confidence;
}

/* A part: the child node and the columns of @t it sums (a structural group sums several). */
struct part {
	int node;
	size_t first, n; /* columns first..first+n-1 of the table */
};

/* Per row of revision @r, the sum of @p's columns into @out; the mean removed cost into *@rm. */
static void part_values(const struct table *t, int r, const struct part *p, double *out, double *rm)
{
	double sum = 0;

	for (size_t i = 0; i < t->n[r]; i++) {
		out[i] = 0;
		for (size_t k = p->first; k < p->first + p->n; k++) {
			out[i] += col(t, r, k)[i];
			sum += rmcol(t, r, k)[i];
		}
	}
	if (rm)
		*rm = t->n[r] ? sum / (double)t->n[r] : 0;
}

struct sums {
	double *v[2]; /* one value per row of each revision */
};

/*
 * A part's numbers: its difference, its means, its share of @f's whole
 * with the rest of @f beside it where the share is above 1, and what the
 * probes' cost could move it by (@rm: the cost taken out of it).
 */
static void number(const struct pp_session *s, const struct table *t, const struct sums *v,
		   const double rm[2], const struct pp_node *f, struct pp_node *n)
{
	double *whole[2] = {col(t, 0, 0), col(t, 1, 0)};
	double conf = level_of(s, n, f);
	struct pp_interval sh;

	n->level = conf;
	estimate(s, t, v->v, conf, &n->diff);
	for (int r = 0; r < 2; r++)
		n->mean[r] = gsl_stats_mean(v->v[r], 1, t->n[r]);
	if (!share_of(t, v->v, whole, conf, &sh)) {
		n->share = sh.centre;
		n->share_ci = sh;
	}
	n->part_removed[0] = rm ? rm[0] : NAN;
	n->part_removed[1] = rm ? rm[1] : NAN;
	n->probe_unc = rm ? probe_cost_uncertainty(f, rm) : NAN;
	n->probe_uncertain = isfinite(n->probe_unc) && n->probe_unc >= s->threshold_ns / 2;
	n->others = (struct pp_interval){NAN, NAN, NAN};
	if (n->share >= PP_SHARE_ABOVE) {
		/* more than all of it: the rest of F, whole less this part, got faster */
		struct sums rest;
		bool ok = true;

		for (int r = 0; r < 2; r++) {
			rest.v[r] = malloc((t->n[r] ? t->n[r] : 1) * sizeof(double));
			ok = ok && rest.v[r];
			for (size_t i = 0; rest.v[r] && i < t->n[r]; i++)
				rest.v[r][i] = whole[r][i] - v->v[r][i];
		}
		if (ok)
			estimate(s, t, rest.v, conf, &n->others);
		/* the share is a ratio of means, the rest a shift (Hodges-Lehmann): a
		 * share above 1 by noise can meet a rest that did not change the other
		 * way, and then there is nothing above 100 % to explain */
		if (!(n->others.centre * n->diff.centre < 0))
			n->others = (struct pp_interval){NAN, NAN, NAN};
		free(rest.v[0]);
		free(rest.v[1]);
	}
}

/* The part that leads @f's children in @dir, and a runner-up the runs do not tell from it. */
static void lead_and_tie(const struct pp_session *s, const struct table *t, struct pp_node *f,
			 const struct part *parts, size_t np, struct sums *v, int dir)
{
	const struct part *a = NULL, *b = NULL;
	struct pp_interval c;
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
			part_values(t, r, a, v->v[r], NULL);
			part_values(t, r, b, vb[r], NULL);
			for (size_t i = 0; i < t->n[r]; i++)
				v->v[r][i] -= vb[r][i];
		}
		if (!estimate(s, t, v->v, level_of(s, f, NULL), &c) &&
		    !(dir * c.low > 0 && dir * c.high > 0))
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
		else if (s->nodes[i].kind == PP_NODE_SHARED) /* inside some parts: none itself */
			continue;
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
		/* a structural group sums its calls' columns, whatever decided it */
		if (x->q && x->kind != PP_NODE_STRUCTURAL) {
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
			struct pp_node *f, struct sums *v)
{
	size_t k = p->first;

	for (size_t i = 0; i < s->nnodes && k < p->first + p->n; i++) {
		struct part one = {(int)i, k, 1};
		double rm[2];

		if (s->nodes[i].parent != p->node || !s->nodes[i].q)
			continue;
		for (int r = 0; r < 2; r++)
			part_values(t, r, &one, v->v[r], &rm[r]);
		number(s, t, v, rm, f, &s->nodes[i]);
		k++;
	}
}

/*
 * The remainder: per run the whole less the parts named (@sum), zero by
 * construction when F's own body is one of them (it is the whole less its
 * calls in the same run), then not a finding.
 */
static void number_rest(const struct pp_session *s, const struct table *t, struct sums *sum,
			struct pp_node *f, struct pp_node *rest)
{
	bool zero = true;

	for (int r = 0; r < 2; r++)
		for (size_t k = 0; k < t->n[r]; k++) {
			double w = col(t, r, 0)[k];

			sum->v[r][k] = w - sum->v[r][k];
			if (fabs(sum->v[r][k]) > 1e-9 * (fabs(w) + 1))
				zero = false;
		}
	if (zero) {
		rest->level = level_of(s, rest, f);
		rest->diff = (struct pp_interval){0, 0, 0};
		rest->share = 0;
		rest->share_ci = (struct pp_interval){0, 0, 0};
		rest->mean[0] = rest->mean[1] = 0;
		return;
	}
	number(s, t, sum, NULL, f, rest);
}

int pp_tree_account(struct pp_session *s, int node)
{
	struct pp_node *f = &s->nodes[node];
	struct part *parts = calloc(s->nnodes + 1, sizeof(*parts));
	struct table t = {.paired = s->opt->runs != PP_RUNS_SHUFFLED};
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
	f->paired = t.paired;
	{
		double *whole[2] = {col(&t, 0, 0), col(&t, 1, 0)};

		estimate(s, &t, whole, level_of(s, f, NULL), &f->whole);
		for (int r = 0; r < 2; r++)
			f->whole_mean[r] = gsl_stats_mean(whole[r], 1, t.n[r]);
	}
	err = probe_cost_left_in(s, f, &t);
	if (err)
		goto out;
	for (size_t i = 0; i < np; i++) {
		struct pp_node *x = &s->nodes[parts[i].node];
		double rm[2];

		for (int r = 0; r < 2; r++) {
			part_values(&t, r, &parts[i], v.v[r], &rm[r]);
			for (size_t k = 0; k < t.n[r]; k++)
				sum.v[r][k] += v.v[r][k];
		}
		number(s, &t, &v, rm, f, x);
		if (x->kind == PP_NODE_STRUCTURAL) {
			double thr = s->threshold_ns;

			/* with a comparison of its own, its verdict; else its accounting's */
			if (!x->q)
				x->sign = x->diff.low > 0 && x->diff.centre >= thr     ? 1
					  : x->diff.high < 0 && -x->diff.centre >= thr ? -1
										       : 0;
			group_calls(s, &t, &parts[i], f, &v);
		}
	}
	estimate(s, &t, sum.v, level_of(s, f, NULL), &f->parts);
	if (rest >= 0)
		number_rest(s, &t, &sum, f, &s->nodes[rest]);
	lead_and_tie(s, &t, f, parts, np, &v, dir);
out:
	for (int r = 0; r < 2; r++) {
		free(v.v[r]);
		free(sum.v[r]);
		free(t.v[r]);
		free(t.rm[r]);
		free(t.lay[r]);
		free(t.side[r]);
	}
	free(t.q);
	free(parts);
	return err;
}
