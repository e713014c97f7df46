// SPDX-License-Identifier: MIT
/*
 * decide_cpu.c - the duet's two CPUs as a term of a comparison's model.
 *
 * In a duet, pair i's two runs run at once, one on each CPU, and which
 * revision has which is drawn with as many of each order in a round
 * (duet.h, schedule.c).  With c what a run on the second CPU takes more
 * than on the first, pair i's difference is D + c where the current run had
 * the second CPU and D - c where it had the first: the balanced draw keeps
 * c out of the estimate of D, but c² is in the differences' variance, and
 * the interval is wider for it (outcome_cpus.c measures by how much).
 *
 * So each look takes c out: half the shift between the two groups'
 * differences (the comparison's own test: Hodges-Lehmann, or the
 * difference of means), subtracted from the current value of every pair
 * whose current run had the second CPU and added to the others.  With the
 * groups as large (a round draws as many of each order) the mean of the
 * differences is unchanged; what goes is the c² in their spread.  Without
 * a duet, with runs of either revision on one side in a pair, or with
 * fewer than PP_CPU_TERM_MIN pairs in a group, nothing is taken out.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "pinpoint/measure/decide_priv.h"
#include "pinpoint/session/session.h"

/* The fewest pairs of each order for which c is estimated. */
#define PP_CPU_TERM_MIN 4

int pp_decide_cpu_values(const struct pp_session *s, const struct pp_quantity *q, size_t n,
			 double **out, double *c)
{
	const struct pp_series *x = &q->series[PP_PREV], *y = &q->series[PP_CUR];
	double *g[2] = {NULL, NULL}, *v = NULL;
	size_t ng[2] = {0, 0};
	struct pp_comparison cmp;
	int err = 0;

	*out = NULL;
	*c = NAN;
	if (!s->opt->cpu_term || s->opt->runs != PP_RUNS_DUET || !s->duet || !x->side || !y->side ||
	    x->n < n || y->n < n || n < 2 * PP_CPU_TERM_MIN)
		return 0;
	g[0] = malloc(n * sizeof(double));
	g[1] = malloc(n * sizeof(double));
	if (!g[0] || !g[1]) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int side = y->side[i];
		double d = y->v[i] - x->v[i];

		/* a pair whose runs did not have one CPU each, or a value that is none */
		if ((side != 0 && side != 1) || x->side[i] != 1 - side || !isfinite(d))
			goto out;
		g[side][ng[side]++] = d;
	}
	if (ng[0] < PP_CPU_TERM_MIN || ng[1] < PP_CPU_TERM_MIN)
		goto out;
	/* current on the second CPU: D + c; on the first: D - c; their shift is 2c */
	if (pp_compare(s->opt->test, g[0], ng[0], g[1], ng[1], 0.95, &cmp) ||
	    !isfinite(cmp.diff.centre))
		goto out;
	v = malloc(n * sizeof(double));
	if (!v) {
		err = -ENOMEM;
		goto out;
	}
	*c = cmp.diff.centre / 2;
	for (size_t i = 0; i < n; i++)
		v[i] = y->v[i] - (y->side[i] ? *c : -*c);
	*out = v;
out:
	free(g[0]);
	free(g[1]);
	return err;
}
