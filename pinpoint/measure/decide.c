// SPDX-License-Identifier: MIT
/*
 * decide.c - the decide stage: statistics only.  A comparison is decided
 * sequentially (core/stats_seq.h, doc/statistics.md): looks at fixed sizes
 * growing geometrically from --measurements values per revision, each look's
 * interval at the level alpha spending gives it, against the session's fixed
 * threshold.  No measuring and no printing: settle.c measures while a
 * comparison needs runs, the report prints it.
 *
 * The look sizes are pp_seq_look_size's (--measurements, then PP_SEQ_GROWTH
 * times the last, the last one the budget: decide_budget.c), whatever batches
 * the values came in: values a quantity gathered riding along in another
 * comparison's runs are looked at in the same fixed steps, so neither the
 * sizes nor the levels of its looks depend on its own values, nor on any
 * other comparison's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/log.h"
#include "pinpoint/measure/decide_priv.h"

double pp_summary_centre(const struct pp_summary *sum, enum pp_test test)
{
	return test == PP_TEST_WELCH ? sum->mean : sum->median;
}

/* The centre and interval of revision @r's @n first values as the chosen test sees them. */
static struct pp_interval revision_interval(const struct pp_session *s, const struct pp_quantity *q,
					    int r, size_t n)
{
	if (s->opt->test == PP_TEST_WELCH)
		return q->sum[r].ci;
	return pp_median_interval(q->series[r].v, n, s->opt->confidence);
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* Whether @q is decided at a threshold of its own (the what-if's, confirm.c), not the session's. */
static bool own_threshold(const struct pp_quantity *q)
{
	return q->kind == PP_Q_CONFIRM && q->threshold_ns > 0;
}

/*
 * The what-if (confirm.c) asks how large the difference left with the
 * delay in is, against its threshold T: within it (confirmed), beyond it
 * (explains a share, or overshoots).  Where the truth lies near T, an
 * interval takes many runs to fall wholly on one side, so the what-if is
 * decided too once its interval is no wider than +-T/2, by where its centre
 * is.  What that costs: "confirmed" then means within 1.5 T (an interval
 * that misses the truth by T/2 or more is needed to say it of more), and
 * "explains" or "overshoots" beyond T/2; the interval's level is the
 * look's, as for every verdict.  PP_SEQ_CONTINUE where it is wider.
 */
static enum pp_seq_verdict by_estimate(const struct pp_interval *iv, double thr)
{
	double hw = (iv->high - iv->low) / 2.0, c = iv->centre;

	if (!isfinite(hw) || !isfinite(c) || !(thr > 0) || hw > thr / 2.0)
		return PP_SEQ_CONTINUE;
	if (c >= thr)
		return PP_SEQ_SLOWER;
	if (c <= -thr)
		return PP_SEQ_FASTER;
	return iv->low > 0.0	? PP_SEQ_SLOWER_BELOW
	       : iv->high < 0.0 ? PP_SEQ_FASTER_BELOW
				: PP_SEQ_SAME;
}

/* The first look's size: --measurements values per revision, at most the budget. */
static size_t first_look(const struct pp_session *s)
{
	return min_size((size_t)s->opt->measurements, pp_decide_budget(s));
}

/*
 * @q's sequential design: nothing in it depends on its differences.  Its
 * first look is the first at --measurements or more whose interval exists
 * at that look's level (pp_seq_first_attainable): the paired signed-rank
 * interval of the entry at 95 % needs 13 pairs at its first look, not 10.
 * Where the budget is auto, that level is taken at the budget's most
 * (pp_decide_first_budget()), because the first look is due before the
 * budget is fixed: 14 or 15 pairs for the entry.
 */
static struct pp_seq_design design_of(const struct pp_session *s, const struct pp_quantity *q)
{
	const struct pp_options *opt = s->opt;
	struct pp_seq_design d = {
	    .test = opt->test,
	    .alpha = q->alpha > 0.0 && q->alpha < 1.0 ? q->alpha : 1.0 - opt->confidence,
	    .threshold = own_threshold(q) ? q->threshold_ns : s->threshold_ns,
	    .budget = 2 * pp_decide_budget(s),
	    .first = first_look(s),
	    .growth = PP_SEQ_GROWTH,
	    .rho = q->kind == PP_Q_ENTRY ? PP_SEQ_ENTRY_RHO : PP_SEQ_RHO,
	    /* The entry asks only "slower?": below +threshold answers it. */
	    .one_sided = q->kind == PP_Q_ENTRY,
	    /* Value i of each revision came from pair i of the same batch (schedule.h). */
	    .paired = opt->runs != PP_RUNS_SHUFFLED,
	};
	struct pp_seq_design at = d;
	size_t first;

	at.budget = 2 * pp_decide_first_budget(s);
	first = pp_seq_first_attainable(&at);
	if (first)
		d.first = first;
	return d;
}

/*
 * The session's threshold, fixed once: --precision percent of the centre of
 * the entry's previous values at its first look (--measurements of them).
 * It depends on the previous revision's level only, never on a difference,
 * and whatever it is, a wrong verdict against it needs an interval that
 * misses the true difference (doc/statistics.md, "The threshold").
 */
static void fix_threshold(struct pp_session *s)
{
	const struct pp_options *opt = s->opt;
	struct pp_quantity *e = s->nq ? s->q[0] : NULL;
	size_t n = (size_t)opt->measurements;
	struct pp_summary sum;

	if (s->threshold_fixed || !e || e->kind != PP_Q_ENTRY || e->series[PP_PREV].n < n)
		return;
	if (pp_summarize(e->series[PP_PREV].v, n, opt->confidence, &sum))
		return;
	s->threshold_ns = fabs(pp_summary_centre(&sum, opt->test)) * opt->precision / 100.0;
	s->threshold_fixed = true;
}

/* Fix the design at the first look: nothing in it depends on this comparison's differences. */
static int start(struct pp_session *s, struct pp_quantity *q)
{
	const struct pp_options *opt = s->opt;
	struct pp_decision *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	fix_threshold(s);
	pp_decide_fix_budget(s, min_size(q->series[PP_PREV].n, q->series[PP_CUR].n));

	if (!(q->alpha > 0.0 && q->alpha < 1.0))
		q->alpha = 1.0 - opt->confidence;
	d->design = design_of(s, q);
	d->next_look = pp_seq_look_size(&d->design, 1);
	if (!own_threshold(q))
		q->threshold_ns = s->threshold_ns;
	q->dec = d;
	return 0;
}

/* The look's verdict, its interval and the summaries of the values it saw. */
static void conclude(struct pp_session *s, struct pp_quantity *q, size_t n)
{
	const struct pp_options *opt = s->opt;
	const struct pp_decision *d = q->dec;
	const struct pp_seq_result *l = &d->look;
	double *cur = NULL, c;

	if (n >= 2 && d->design.paired && pp_decide_cpu_values(s, q, n, &cur, &c))
		cur = NULL; /* out of memory: the figures of the pairs as they ran */

	q->ci[PP_PREV] = q->ci[PP_CUR] = (struct pp_interval){NAN, NAN, NAN};
	if (n >= 2) {
		for (int r = 0; r < 2; r++) {
			pp_summarize(q->series[r].v, n, opt->confidence, &q->sum[r]);
			q->ci[r] = revision_interval(s, q, r, n);
		}
	}
	/* The test's other figures at the look's level, on the values it took (the
	 * CPUs taken out: decide_cpu.c); the interval is the look's own. */
	if (n < 2 || l->confidence <= 0.0 ||
	    (d->design.paired
		 ? pp_compare_paired(opt->test, q->series[PP_PREV].v,
				     cur ? cur : q->series[PP_CUR].v, n, l->confidence, &q->cmp)
		 : pp_compare(opt->test, q->series[PP_PREV].v, n, q->series[PP_CUR].v, n,
			      l->confidence, &q->cmp))) {
		q->cmp = (struct pp_comparison){.test = opt->test, .p_value = NAN};
		q->cmp.statistic = NAN;
		q->cmp.df = NAN;
	}
	free(cur);
	q->cmp.confidence = l->confidence;
	q->cmp.diff = l->diff;
	if (!isfinite(q->cmp.diff.centre) && q->sum[PP_PREV].n)
		q->cmp.diff.centre = pp_summary_centre(&q->sum[PP_CUR], opt->test) -
				     pp_summary_centre(&q->sum[PP_PREV], opt->test);
	q->cmp.significant = l->verdict == PP_SEQ_SLOWER || l->verdict == PP_SEQ_FASTER ||
			     l->verdict == PP_SEQ_SLOWER_BELOW || l->verdict == PP_SEQ_FASTER_BELOW;
	q->final_look = (struct pp_last_look){
	    .looks = d->seq.looks,
	    .runs = l->runs,
	    .budget = d->design.budget,
	    .alpha = d->design.alpha,
	    .alpha_spent = d->seq.spent,
	    .confidence = l->confidence,
	    .mde = l->mde,
	};
	pp_decide_layout(q, n);
	q->verdict = pp_verdict_of(l->verdict);
	q->decided = true;
}

void pp_decide_resume(struct pp_session *s, struct pp_quantity *q)
{
	(void)s;
	if (!q->decided || q->verdict != PP_V_BOUNDED)
		return;
	free(q->left);
	q->left = NULL;
	q->decided = false;
	q->order = 0;
}

void pp_decide_bound(struct pp_session *s, struct pp_quantity *q, const char *why)
{
	if (q->decided || !q->dec || !q->dec->seq.looks)
		return;
	conclude(s, q, q->dec->look.runs / 2);
	q->verdict = PP_V_BOUNDED;
	q->left = strdup(why);
}

/* New layouts the rest of @d's budget brings a comparison at @n runs: one every m pairs. */
static unsigned later_layouts(const struct pp_session *s, const struct pp_decision *d, size_t n)
{
	size_t left = d->design.budget / 2 > n ? d->design.budget / 2 - n : 0;
	size_t u = left / (s->layout_every ? s->layout_every : 1);

	return u > UINT_MAX ? UINT_MAX : (unsigned)u;
}

int pp_decide(struct pp_session *s, struct pp_quantity *q)
{
	size_t have = min_size(q->series[PP_PREV].n, q->series[PP_CUR].n);
	struct pp_decision *d;
	int err;

	if (q->decided)
		return PP_DECIDED;
	/* The design is fixed when the first look is due, not before: the threshold
	 * comes from the entry's first look. */
	if (!q->dec && have < design_of(s, q).first)
		return PP_NEEDS_RUNS;
	if (!q->dec && (err = start(s, q)))
		return err;
	d = q->dec;
	while (d->next_look <= have) {
		size_t n = d->next_look;
		double *cur = NULL, c = NAN;

		if (d->design.paired && (err = pp_decide_cpu_values(s, q, n, &cur, &c))) {
			pp_session_fail(s, "out of memory");
			return err;
		}
		q->cpu_term_ns = c;
		err = pp_seq_look_in(&d->design, &d->seq, q->series[PP_PREV].v,
				     q->series[PP_PREV].layout, n, cur ? cur : q->series[PP_CUR].v,
				     q->series[PP_CUR].layout, n, &d->look);
		free(cur);
		if (err) {
			pp_session_fail(s, "cannot compare %zu and %zu values: %s", n, n,
					err == -EINVAL ? "too few or not finite"
						       : "statistics failed");
			return -EIO;
		}
		if (q->kind == PP_Q_CONFIRM &&
		    (d->look.verdict == PP_SEQ_CONTINUE || d->look.verdict == PP_SEQ_UNDECIDED)) {
			enum pp_seq_verdict v = by_estimate(&d->look.diff, d->design.threshold);

			if (v != PP_SEQ_CONTINUE) {
				d->look.verdict = v;
				q->by_estimate = true;
			}
		}
		if (d->look.verdict != PP_SEQ_CONTINUE) {
			conclude(s, q, n);
			return PP_DECIDED;
		}
		if (pp_decide_layouts_block(q, d, n, later_layouts(s, d, n), s->layouts_cap)) {
			d->look.verdict = PP_SEQ_UNDECIDED;
			q->truncated = PP_SPENT_LAYOUTS;
			conclude(s, q, n);
			return PP_DECIDED;
		}
		d->next_look = pp_seq_look_size(&d->design, d->seq.looks + 1);
	}
	return PP_NEEDS_RUNS;
}

size_t pp_decide_wanted(const struct pp_session *s, const struct pp_quantity *q)
{
	size_t have = min_size(q->series[PP_PREV].n, q->series[PP_CUR].n);
	size_t next = q->dec ? q->dec->next_look : design_of(s, q).first;

	return q->decided || next <= have ? 0 : next - have;
}

unsigned pp_decide_looks(const struct pp_quantity *q)
{
	return q->dec ? q->dec->seq.looks : 0;
}

struct pp_interval pp_decide_interval(const struct pp_quantity *q)
{
	if (!q->dec || !q->dec->seq.looks)
		return (struct pp_interval){NAN, -INFINITY, INFINITY};
	return q->dec->look.diff;
}

int pp_decide_give_up(struct pp_session *s, struct pp_quantity *q, enum pp_spent why)
{
	struct pp_decision *d;
	size_t n;
	int err;

	if (q->decided)
		return 0;
	if (!q->dec && (err = start(s, q)))
		return err;
	d = q->dec;
	n = d->seq.looks ? d->look.runs / 2 : 0;
	if (!d->seq.looks) {
		d->look = (struct pp_seq_result){
		    .verdict = PP_SEQ_UNDECIDED,
		    .diff = {NAN, -INFINITY, INFINITY},
		    .mde = INFINITY,
		};
		n = min_size(q->series[PP_PREV].n, q->series[PP_CUR].n);
	}
	d->look.verdict = PP_SEQ_UNDECIDED;
	q->truncated = why;
	conclude(s, q, n);
	return 0;
}
