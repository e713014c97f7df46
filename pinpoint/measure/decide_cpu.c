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
 * So each look takes c out (core/stats.h, pp_paired_order_term()): half the
 * shift between the two orders' differences by the comparison's own test,
 * subtracted from the current value of every pair whose current run had the
 * second CPU and added to the others.  With the orders as many (a round
 * draws as many of each) the mean of the differences is unchanged; what
 * goes is the c² in their spread.  Without a duet, with a pair whose runs
 * did not have one CPU each, or with fewer than PP_ORDER_TERM_MIN pairs of
 * an order, nothing is taken out.  The attribution tree takes its figures
 * the same way (search/account.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "pinpoint/measure/decide_priv.h"
#include "pinpoint/session/session.h"

int pp_cpu_term(const struct pp_session *s, const double *x, const signed char *xside,
		const double *y, const signed char *yside, size_t n, double **out, double *c)
{
	*out = NULL;
	*c = NAN;
	if (!s->opt->cpu_term || s->opt->runs != PP_RUNS_DUET || !s->duet || !xside || !yside)
		return 0;
	/* each pair's runs had one CPU each */
	for (size_t i = 0; i < n; i++)
		if (xside[i] != 1 - yside[i])
			return 0;
	return pp_paired_order_term(s->opt->test, x, y, yside, n, out, c, NULL);
}

int pp_decide_cpu_values(const struct pp_session *s, const struct pp_quantity *q, size_t n,
			 double **out, double *c)
{
	const struct pp_series *x = &q->series[PP_PREV], *y = &q->series[PP_CUR];

	*out = NULL;
	*c = NAN;
	if (x->n < n || y->n < n)
		return 0;
	return pp_cpu_term(s, x->v, x->side, y->v, y->side, n, out, c);
}
