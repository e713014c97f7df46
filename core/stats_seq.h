/* SPDX-License-Identifier: MIT */
/*
 * stats_seq.h - the sequential decision of one comparison: measure in rounds
 * until the interval of the difference settles the question, with error rates
 * that hold however many times the growing series are looked at.
 *
 * Procedure (doc/statistics.md has the argument):
 *
 *   looks at sizes fixed in advance, growing geometrically from the first
 *   (pp_seq_look_size: first, first * growth, ..., the budget), and the
 *   comparison's alpha spent by the look's index over that finite schedule
 *   (alpha_k = alpha * w_k, w_k proportional to k^rho, summing to 1 over the
 *   schedule's looks), with per-look two-sided intervals at level
 *   1 - alpha_k joined by the union bound (Bonferroni): the probability that
 *   any interval at any look misses the true difference is at most
 *   sum(alpha_k) <= alpha, whatever the dependence between looks and
 *   whenever the comparison stops.  This needs each look's interval to hold
 *   its own level, nothing else (no joint normality of the looks as exact
 *   group-sequential boundaries need).
 *
 * Each look's interval [L, H] with centre c (Hodges-Lehmann for
 * Mann-Whitney, difference of means for welch, computed by pp_compare() at
 * level 1 - alpha_k) against the threshold T >= 0, the first row that holds:
 *
 *   H < T, L > -T    shown within the threshold: SAME if L <= 0 <= H,
 *                    SLOWER_BELOW if L > 0, FASTER_BELOW if H < 0
 *   c >= T, L > T/2  SLOWER
 *   c <= -T, H < -T/2  FASTER
 *   otherwise        CONTINUE, or UNDECIDED once the budget is spent
 *
 * A one-sided design (the question is only "slower?", as at the entry):
 * FASTER at H < -T; NOT_SLOWER at H < T with L <= 0, SLOWER_BELOW at H < T
 * with L > 0; SLOWER as above; otherwise CONTINUE.
 *
 * SLOWER means a regression of at least T: its point estimate is T or more,
 * and a true difference of T/2 or less is called SLOWER only through an
 * interval that misses it (L > T/2 >= difference), probability <= alpha / 2;
 * a true difference of T or more is shown within the threshold only through a
 * miss too (H < T <= difference).  Once the interval is narrower than T/2
 * only a centre within half its width below T (or above -T) continues.
 *
 * A look whose sample sizes cannot give an interval at its
 * level (Mann-Whitney with 3 and 3 values cannot reach 95%) computes none: it
 * spends nothing, answers CONTINUE (UNDECIDED at the budget), and its alpha
 * stays for later looks.  Nothing is ever computed at a lower confidence than
 * its look's.
 */
#ifndef PINPOINT_STATS_SEQ_H
#define PINPOINT_STATS_SEQ_H

#include <stdbool.h>
#include <stddef.h>

#include "core/stats.h"

enum pp_seq_verdict {
	PP_SEQ_CONTINUE,     /* measure another round */
	PP_SEQ_SLOWER,	     /* centre >= threshold, interval above threshold / 2 */
	PP_SEQ_FASTER,	     /* centre <= -threshold, interval below -threshold / 2 */
	PP_SEQ_SAME,	     /* interval inside (-threshold, +threshold), across 0 */
	PP_SEQ_NOT_SLOWER,   /* one-sided designs: interval below +threshold, across 0 or below */
	PP_SEQ_SLOWER_BELOW, /* interval inside (0, +threshold): slower by less than it */
	PP_SEQ_FASTER_BELOW, /* interval inside (-threshold, 0): faster by less than it */
	PP_SEQ_UNDECIDED,    /* budget spent without any of the above: never "same" */
};

/*
 * The driver's schedule and spending (pinpoint/measure/decide.c; doc/statistics.md
 * has the simulations that chose them): looks at --measurements values per
 * revision times PP_SEQ_GROWTH^(k - 1), weights k^PP_SEQ_RHO for the
 * comparisons of the search and k^PP_SEQ_ENTRY_RHO for the entry.  The entry
 * alone decides whether a session claims a regression; its first look gets a
 * small share, so that it needs stronger evidence than a short burst of load
 * on one revision's runs gives.
 */
#define PP_SEQ_GROWTH 1.4
#define PP_SEQ_RHO 0.0
#define PP_SEQ_ENTRY_RHO 1.0

/* The power the minimum detectable effect refers to. */
#define PP_SEQ_MDE_POWER 0.80

/* What is fixed before a comparison's first look. */
struct pp_seq_design {
	enum pp_test test;
	double alpha;	  /* this comparison's error budget, 0 < alpha < 1 */
	double threshold; /* ns, >= 0: differences within +-threshold are below it */
	size_t budget;	  /* runs of both series together at the last look, >= 4 */
	size_t first;	  /* values per series at the first look, >= 2 */
	double growth;	  /* a look's size over the one before, 1 < growth <= 100 */
	double rho;	  /* look k's share of alpha is proportional to k^rho, |rho| <= 10 */
	bool one_sided;	  /* only "slower?" is asked: NOT_SLOWER ends it too */
	/*
	 * x[i] and y[i] were measured side by side, a pair: the interval is
	 * the paired test's (pp_compare_paired), and looks need nx == ny.
	 */
	bool paired;
};

/* What one comparison carries from look to look; zero it before the first. */
struct pp_seq_state {
	unsigned looks; /* looks taken */
	double spent;	/* alpha used by intervals so far */
	size_t runs;	/* runs (nx + ny) at the last look */
	bool finished;	/* a verdict other than CONTINUE was given */
};

struct pp_seq_result {
	enum pp_seq_verdict verdict;
	unsigned look;		 /* 1-based */
	size_t runs;		 /* nx + ny */
	double alpha_look;	 /* alpha of this look's interval; 0 when none was computed */
	double confidence;	 /* 1 - alpha_look: the interval's level; 0 when none */
	struct pp_interval diff; /* y - x; [-inf, +inf] when none was computed */
	double spent;		 /* alpha used so far, this look included */
	/*
	 * Minimum detectable effect: the true |difference| this look would
	 * have called SLOWER (or FASTER) with probability PP_SEQ_MDE_POWER
	 * (pp_seq_mde: normal approximation, standard error implied by the
	 * interval's width); +inf when no interval was computed.
	 */
	double mde;
};

/*
 * The schedule: the values per series of look @k (1-based).  Look 1 has
 * d->first, look k + 1 ceil(growth * size of look k) (at least one more),
 * and the look whose size would come within a factor sqrt(growth) of
 * d->budget / 2, or pass it, is the last: d->budget / 2 values.  Looks after
 * the last keep its size.  0 for a bad design or @k 0.
 */
size_t pp_seq_look_size(const struct pp_seq_design *d, unsigned k);

/* How many looks the schedule has (the last at the budget); 0 for a bad design. */
unsigned pp_seq_looks(const struct pp_seq_design *d);

/*
 * The cumulative alpha after look @k: alpha * sum_{j <= k} j^rho / sum_{j <= K}
 * j^rho over the schedule's K looks, alpha from the last on.  NaN for a bad
 * design or @k 0.
 */
double pp_seq_spent_after(const struct pp_seq_design *d, unsigned k);

/*
 * One look at a comparison: @x previous, @y current, the whole series so far
 * (each look's series extend the last one's).  Updates @st and fills @out.
 * Look k's interval gets pp_seq_spent_after(k) minus what earlier intervals
 * used.  The design and the sizes of the looks must not depend on this
 * comparison's values: take them from pp_seq_look_size (other sizes fixed in
 * advance, unequal series included, keep the guarantee but not the
 * schedule's spending); stopping early for any reason never hurts the
 * guarantee.  A look with nx + ny >= budget is the last: it gets all that is
 * left and its verdict is never CONTINUE.
 *
 * Returns 0; -EINVAL for a bad design, nx or ny < 2, a non-finite value,
 * fewer runs than at the last look, or a look after a verdict; -ENOMEM; -EDOM
 * when GSL fails.
 */
int pp_seq_look(const struct pp_seq_design *d, struct pp_seq_state *st, const double *x, size_t nx,
		const double *y, size_t ny, struct pp_seq_result *out);

/*
 * pp_seq_look for runs nested in code layouts, @lx[i] the layout of @x[i]
 * and @ly[j] of @y[j] (NULL: the runs of that side are in one layout).
 * Once both sides' runs are in two layouts or more, the look's interval is
 * the union of the runs' and the layouts' at the look's level, and the
 * verdict is taken on it: the layouts drawn are a sample, which no number
 * of runs in them makes larger (doc/statistics.md, "Code layouts").  The
 * layouts' interval is Welch's on each revision's layout locations
 * (pp_layout_diff), or, for a paired design whose pairs share their layout
 * index (@lx[i] == @ly[i] for all i: layout k of each revision make a
 * unit), Student's on the units' locations of the differences
 * (pp_layout_paired).
 */
int pp_seq_look_in(const struct pp_seq_design *d, struct pp_seq_state *st, const double *x,
		   const unsigned *lx, size_t nx, const double *y, const unsigned *ly, size_t ny,
		   struct pp_seq_result *out);

/*
 * The interval one look of pp_seq_look_in takes, at a fixed @confidence:
 * the runs' (@paired: through the differences y[i] - x[i], else the two
 * samples'), by @test, and its union with the layouts' when both sides'
 * runs are in two layouts or more (@lx, @ly NULL: one layout).  What the
 * verdicts are taken on, for the figures that describe the same runs
 * (the attribution tree's).  Returns 0, -EINVAL, -ERANGE (no interval at
 * that level for so few values), -ENOMEM, -EDOM.
 */
int pp_seq_interval(enum pp_test test, bool paired, const double *x, const unsigned *lx, size_t nx,
		    const double *y, const unsigned *ly, size_t ny, double confidence,
		    struct pp_interval *out);

/*
 * Whether a two-sided interval at level 1 - @alpha exists for samples of
 * @nx and @ny values: always for welch (n >= 2), for Mann-Whitney when the
 * most extreme of the C(nx + ny, nx) orderings is rarer than alpha / 2.
 */
bool pp_seq_attainable(enum pp_test test, size_t nx, size_t ny, double alpha);

/*
 * The smallest first look, at least @d->first values per series, whose
 * interval is attainable at the level the schedule gives look 1 (a look
 * that cannot have one spends nothing and decides nothing: its runs wait
 * for the next): for the paired signed-rank design 2^-n < alpha_1 / 2, for
 * Mann-Whitney 1 / C(2n, n) < alpha_1 / 2, @d->first for welch.  @d->first
 * when no look short of the budget is; 0 for a bad design.
 */
size_t pp_seq_first_attainable(const struct pp_seq_design *d);

/*
 * Minimum detectable effect: max(threshold / 2 + z(1 - alpha/2) * se,
 * threshold) + z(power) * se, the true shift at which a normal estimate with
 * standard error @se, and its interval at level 1 - @alpha, meet SLOWER's
 * two conditions (centre >= threshold, low end > threshold / 2) with
 * probability @power.  NaN for bad arguments.
 */
double pp_seq_mde(double alpha, double power, double se, double threshold);

/*
 * The fixed-sample minimum: values per series for an interval of level
 * 1 - alpha of a difference of means with known sd @sigma to lie above
 * @threshold with probability @power when the true difference is @effect:
 * ceil(2 sigma^2 (z(1 - alpha/2) + z(power))^2 / (effect - threshold)^2).
 * With @threshold 0 (the boundary of a plain significance test) this is
 * the yardstick of the runs-used figures.  0 for bad arguments (effect <=
 * threshold included).
 */
size_t pp_seq_fixed_n(double alpha, double power, double sigma, double effect, double threshold);

/*
 * Runs per series that would bring an interval of half-width @half, from @n
 * values per series, to a verdict if its centre stayed at @centre: the
 * half-width shrinks as 1/sqrt(n), and a verdict needs it below the distance
 * from @centre to the boundary it settles on (a centre beyond +-@threshold:
 * +-@threshold / 2, SLOWER or FASTER; one within: +-@threshold, within the
 * threshold; with @one_sided only +@threshold counts).  An estimate at the
 * noise and difference measured so far, for the undecided message, and a
 * lower bound: later looks of the sequential rule are wider than a fixed
 * sample's.  At least @n; INFINITY only with @threshold 0 and @centre 0,
 * NaN for bad arguments.
 */
double pp_seq_runs_to_decide(double centre, double half, double threshold, bool one_sided,
			     size_t n);

/*
 * Sharing alpha in the search (doc/statistics.md): a comparison made only
 * after its parent's verdict was SLOWER gets its parent's alpha divided
 * equally among the @nsiblings comparisons made under that parent
 * (Bonferroni among siblings).  The entry gets the session's 1 - confidence.
 * Returns NaN for a bad alpha or nsiblings 0.
 */
double pp_seq_child_alpha(double parent_alpha, size_t nsiblings);

/*
 * The verdict an interval @iv gives against threshold @thr (the rule of
 * doc/statistics.md): shown within the threshold, then a difference of at
 * least it (centre at @thr or beyond, interval clear of @thr / 2), else
 * PP_SEQ_CONTINUE.  With @one_sided only "slower?" is asked.
 */
enum pp_seq_verdict pp_seq_verdict_of(const struct pp_interval *iv, double thr, bool one_sided);

const char *pp_seq_verdict_name(enum pp_seq_verdict v);

#endif /* PINPOINT_STATS_SEQ_H */
