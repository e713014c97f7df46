// SPDX-License-Identifier: MIT
/*
 * targets.c - an indirect call's targets from the run records (targets.h).
 * The runtime splits a range of one indirect call by target, each target
 * timed as the call is, so that the targets add up to the call (runtime/
 * target.c): a target's share of the call is its sum over the runs
 * divided by the call's sum over the same runs.  Which target holds the
 * call's difference is told from medians over the runs instead: a run the
 * machine interrupted while in one target puts that time in it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "pinpoint/session/targets.h"

static struct pp_target_share *find(struct pp_targets *t, const char *key)
{
	struct pp_target_share *n;

	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->t[i].key, key))
			return &t->t[i];
	n = realloc(t->t, (t->n + 1) * sizeof(*n));
	if (!n)
		return NULL;
	t->t = n;
	n = &t->t[t->n++];
	memset(n, 0, sizeof(*n));
	n->key = key;
	return n;
}

static int by_share(const void *a, const void *b)
{
	const struct pp_target_share *x = a, *y = b;

	return x->share < y->share ? 1 : x->share > y->share ? -1 : strcmp(x->key, y->key);
}

/* The median of @x[0..@n), which it sorts; 0 when @n is 0. */
static double median(double *x, size_t n)
{
	if (!n)
		return 0;
	gsl_sort(x, 1, n);
	return gsl_stats_median_from_sorted_data(x, 1, n);
}

/*
 * Each target's values, a run it did not reach counting 0 (@v[i][r] for
 * target i, in the order of the runs of revision r), and the call's sums.
 */
static int collect(const struct pp_session *s, const struct pp_quantity *q, struct pp_targets *out,
		   double *(*v)[2], double call_sum[2])
{
	size_t at[2] = {0, 0};

	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *rec = &s->runs[i];
		int qi;

		if (rec->warmup || !rec->values || (qi = pp_run_value_at(s, rec, q)) < 0)
			continue;
		call_sum[rec->rev] += rec->values[qi];
		for (size_t k = 0; k < rec->ntargets; k++) {
			struct pp_target_share *t;

			if (rec->targets[k].qi != (unsigned)qi)
				continue;
			t = find(out, rec->targets[k].key);
			if (!t)
				return -ENOMEM;
			if (v)
				v[t - out->t][rec->rev][at[rec->rev]] = rec->targets[k].v;
			t->mean[rec->rev] += rec->targets[k].v; /* sums until divided */
		}
		at[rec->rev]++;
	}
	out->runs[0] = at[0];
	out->runs[1] = at[1];
	return 0;
}

int pp_targets_of(const struct pp_session *s, const struct pp_quantity *q, struct pp_targets *out)
{
	double call_sum[2] = {0, 0}, diff = 0;
	double *(*v)[2] = NULL;
	size_t n;
	int err;

	memset(out, 0, sizeof(*out));
	/* the targets and the runs first, then their values */
	err = collect(s, q, out, NULL, call_sum);
	if (err || !out->n)
		return err;
	n = out->n;
	v = calloc(n, sizeof(*v));
	for (size_t i = 0; v && i < n; i++)
		for (int r = 0; r < 2; r++) {
			v[i][r] = calloc(out->runs[r] ? out->runs[r] : 1, sizeof(double));
			err = v[i][r] ? err : -ENOMEM;
		}
	if (!v || err) {
		err = -ENOMEM;
		goto out;
	}
	memset(call_sum, 0, sizeof(call_sum));
	for (size_t i = 0; i < n; i++)
		out->t[i].mean[0] = out->t[i].mean[1] = 0;
	err = collect(s, q, out, v, call_sum);
	if (err)
		goto out;
	for (int r = 0; r < 2; r++)
		out->call[r] = out->runs[r] ? call_sum[r] / (double)out->runs[r] : 0;
	for (size_t i = 0; i < n; i++) {
		struct pp_target_share *t = &out->t[i];

		t->share = call_sum[PP_CUR] > 0 ? t->mean[PP_CUR] / call_sum[PP_CUR] : 0;
		for (int r = 0; r < 2; r++) {
			t->mean[r] = out->runs[r] ? t->mean[r] / (double)out->runs[r] : 0;
			t->median[r] = median(v[i][r], out->runs[r]);
		}
		diff += t->median[PP_CUR] - t->median[PP_PREV];
	}
	for (size_t i = 0; i < n; i++)
		out->t[i].diff_share =
		    diff != 0 ? (out->t[i].median[PP_CUR] - out->t[i].median[PP_PREV]) / diff : NAN;
	if (n > 1)
		qsort(out->t, n, sizeof(*out->t), by_share);
out:
	for (size_t i = 0; v && i < n; i++) {
		free(v[i][0]);
		free(v[i][1]);
	}
	free(v);
	return err;
}

const struct pp_target_share *pp_targets_dominant(const struct pp_targets *t)
{
	const struct pp_target_share *best = NULL;

	if (t->n == 1)
		return &t->t[0];
	for (size_t i = 0; i < t->n; i++)
		if (t->t[i].diff_share >= PP_TARGET_DOMINANT &&
		    (!best || t->t[i].diff_share > best->diff_share))
			best = &t->t[i];
	return best;
}

/* Target @key's value in run @rec at quantity index @qi: its time there, 0 if not reached. */
static double value_in(const struct pp_run_record *rec, int qi, const char *key)
{
	for (size_t k = 0; k < rec->ntargets; k++)
		if (rec->targets[k].qi == (unsigned)qi && !strcmp(rec->targets[k].key, key))
			return rec->targets[k].v;
	return 0;
}

/* Target @key's values in the runs that timed @q: paired when @paired, per revision. */
static int target_values(const struct pp_session *s, const struct pp_quantity *q, const char *key,
			 bool paired, double *v[2], unsigned *lay[2], size_t n[2])
{
	n[0] = n[1] = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *rec = &s->runs[i], *o;
		long pi;
		int qi, oq;

		if (rec->warmup || (qi = pp_run_value_at(s, rec, q)) < 0)
			continue;
		if (!paired) {
			v[rec->rev][n[rec->rev]] = value_in(rec, qi, key);
			lay[rec->rev][n[rec->rev]++] = pp_setup_layout(&rec->setup);
			continue;
		}
		/* a pair once, from its previous run */
		if (rec->rev != PP_PREV || (pi = pp_run_pair(s, i)) < 0 ||
		    (oq = pp_run_value_at(s, (o = &s->runs[pi]), q)) < 0)
			continue;
		v[PP_PREV][n[0]] = value_in(rec, qi, key);
		lay[PP_PREV][n[0]++] = pp_setup_layout(&rec->setup);
		v[PP_CUR][n[1]] = value_in(o, oq, key);
		lay[PP_CUR][n[1]++] = pp_setup_layout(&o->setup);
	}
	return 0;
}

int pp_targets_compare(const struct pp_session *s, const struct pp_quantity *q,
		       struct pp_targets *t)
{
	bool paired = s->opt->runs != PP_RUNS_SHUFFLED;
	double *v[2] = {NULL, NULL}, conf;
	unsigned *lay[2] = {NULL, NULL};
	int err = 0;

	if (!t->n)
		return 0;
	conf = 1 - (1 - s->opt->confidence) / (double)t->n;
	for (int r = 0; r < 2; r++) {
		v[r] = calloc(s->nruns ? s->nruns : 1, sizeof(double));
		lay[r] = calloc(s->nruns ? s->nruns : 1, sizeof(unsigned));
		if (!v[r] || !lay[r])
			err = -ENOMEM;
	}
	for (size_t i = 0; i < t->n && !err; i++) {
		struct pp_target_share *x = &t->t[i];
		size_t n[2];
		int e;

		x->compared = false;
		target_values(s, q, x->key, paired, v, lay, n);
		e = pp_seq_interval(s->opt->test, paired, v[PP_PREV], lay[PP_PREV], n[0], v[PP_CUR],
				    lay[PP_CUR], n[1], conf, &x->diff);
		if (e == -ENOMEM)
			err = e;
		if (e)
			continue;
		x->compared = true;
		x->verdict = pp_seq_verdict_of(&x->diff, s->threshold_ns, false);
	}
	for (int r = 0; r < 2; r++) {
		free(v[r]);
		free(lay[r]);
	}
	return err;
}

/* The verdict of the sequential rule that @v is (PP_SEQ_CONTINUE: none). */
static enum pp_seq_verdict seq_verdict(enum pp_verdict v)
{
	switch (v) {
	case PP_V_SAME:
		return PP_SEQ_SAME;
	case PP_V_SLOWER:
		return PP_SEQ_SLOWER;
	case PP_V_FASTER:
		return PP_SEQ_FASTER;
	case PP_V_SLOWER_BELOW:
		return PP_SEQ_SLOWER_BELOW;
	case PP_V_FASTER_BELOW:
		return PP_SEQ_FASTER_BELOW;
	case PP_V_UNDECIDED:
		return PP_SEQ_UNDECIDED;
	default:
		return PP_SEQ_CONTINUE;
	}
}

void pp_targets_from(struct pp_targets *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct pp_target_share *x = &t->t[i];

		if (!x->q)
			continue;
		x->compared = x->q->decided && x->q->final_look.looks > 0;
		x->diff = x->q->cmp.diff;
		x->verdict = seq_verdict(x->q->verdict);
	}
}

void pp_targets_free(struct pp_targets *t)
{
	free(t->t);
	memset(t, 0, sizeof(*t));
}

int pp_targets_keep(struct pp_node *n, struct pp_targets *t)
{
	struct pp_targets *k = n->targets ? n->targets : malloc(sizeof(*k));

	if (!k) {
		pp_targets_free(t);
		return -ENOMEM;
	}
	if (n->targets)
		pp_targets_free(k);
	*k = *t;
	memset(t, 0, sizeof(*t));
	n->targets = k;
	return 0;
}

void pp_targets_drop(struct pp_node *n)
{
	if (!n->targets)
		return;
	pp_targets_free(n->targets);
	free(n->targets);
	n->targets = NULL;
}
