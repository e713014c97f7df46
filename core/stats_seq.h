/* SPDX-License-Identifier: MIT */
/*
 * stats_seq.h - the sequential decision of one comparison: measure in rounds
 * until the interval of the difference settles the question, with error rates
 * that hold however many times the growing series are looked at.
 *
 * Procedure (doc/statistics.md has the argument):
 *
 *   alpha spending (Lan & DeMets, Biometrika 70(3):659-663, 1983) over the
 *   information fraction t = runs / budget (and, for SPLIT, the look's
 *   index), with per-look two-sided intervals
 *   at level 1 - alpha_k, alpha_k = spend(t_k) - (alpha already used), joined
 *   by the union bound (Bonferroni): the probability that any interval at any
 *   look misses the true difference is at most sum(alpha_k) <= alpha, whatever
 *   the dependence between looks and whenever the comparison stops.  This
 *   needs each look's interval to hold its own level, nothing else (no joint
 *   normality of the looks as exact group-sequential boundaries need).
 *
 * Each look's interval [L, H] (Hodges-Lehmann for Mann-Whitney, Welch for
 * welch, computed by pp_compare() at level 1 - alpha_k) against the
 * threshold T >= 0, the first row that holds:
 *
 *   -T < L, H < T    SAME        (shown within the threshold)
 *   L > 0            SLOWER      (shown slower, not shown within T)
 *   H < 0            FASTER
 *   otherwise        CONTINUE, or UNDECIDED once the budget is spent
 *
 * A one-sided design (the question is only "slower?", as at the entry)
 * answers FASTER at H < -T and NOT_SLOWER at H < T (faster or the same, not
 * which) before SLOWER.
 *
 * T is the indifference zone of a test of "no slower" against "slower by T":
 * a wrong SLOWER (true difference <= 0), FASTER (>= 0) or SAME (|difference|
 * >= T) needs an interval that misses the true difference, so each has
 * probability <= alpha / 2 and all of them together <= alpha; a difference
 * in (0, T) may be called either SLOWER or SAME.  A wrong NOT_SLOWER (true
 * difference >= T) likewise needs a missed interval.  An interval narrower
 * than T always settles one of the rows, so with T > 0 no comparison needs
 * more runs than bring its interval's width below T, whatever the true
 * difference (an interval above +T only, as SLOWER once needed, takes
 * unboundedly many near T).
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
	PP_SEQ_CONTINUE,   /* measure another round */
	PP_SEQ_SLOWER,	   /* interval above 0, not inside +-threshold */
	PP_SEQ_FASTER,	   /* interval below 0, not inside +-threshold */
	PP_SEQ_SAME,	   /* interval inside (-threshold, +threshold) */
	PP_SEQ_NOT_SLOWER, /* one-sided designs: interval below +threshold, not inside */
	PP_SEQ_UNDECIDED,  /* budget spent without any of the above: never "same" */
};

/*
 * Lan-DeMets spending functions of the information fraction t in [0, 1]:
 *   POCOCK   alpha * ln(1 + (e - 1) t)                 spends early, stops early
 *   OBRIEN   2 - 2 Phi(z(1 - alpha/2) / sqrt(t))       keeps almost all for the end
 * (Lan & DeMets 1983, section 3; both reach alpha at t = 1.)
 *
 * SPLIT spends half of alpha by look and half by POCOCK: after look k at
 * fraction t, alpha/2 * (6 / pi^2) * sum_{j <= k} 1 / j^2 + POCOCK(alpha/2, t)
 * (pp_seq_spend_at); the look at the budget takes what is left.  The
 * first look gets 0.30 alpha whatever the budget (POCOCK gives it
 * alpha * 1.7 runs / budget), so a clear verdict needs no second round, while
 * the POCOCK half keeps the late looks of a long comparison about as wide as
 * POCOCK's alone.
 */
enum pp_spending { PP_SPEND_POCOCK, PP_SPEND_OBRIEN_FLEMING, PP_SPEND_SPLIT };

/*
 * The driver's spending (pinpoint/decide.c): SPLIT for the comparisons of the
 * search, POCOCK for the entry.  The entry alone decides whether a session
 * claims a regression; POCOCK's first look needs stronger evidence, which
 * a short burst of load on one revision's runs does not give.
 */
#define PP_SEQ_SPENDING PP_SPEND_SPLIT
#define PP_SEQ_ENTRY_SPENDING PP_SPEND_POCOCK

/* The power the minimum detectable effect refers to. */
#define PP_SEQ_MDE_POWER 0.80

/* What is fixed before a comparison's first look. */
struct pp_seq_design {
	enum pp_test test;
	double alpha;	  /* this comparison's error budget, 0 < alpha < 1 */
	double threshold; /* ns, >= 0: differences within +-threshold are "same" */
	size_t budget;	  /* runs of both series together, >= 4 */
	enum pp_spending spending;
	bool one_sided; /* stop at NOT_SLOWER too: only "slower?" is asked */
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
	 * Minimum detectable effect: the true |difference| this look's interval
	 * would have placed clear of 0 with probability
	 * PP_SEQ_MDE_POWER (normal approximation, standard error implied by the
	 * interval's width); +inf when no interval was computed.
	 */
	double mde;
};

/*
 * The spending function at information fraction @t (clamped to [0, 1]).
 * Returns the cumulative alpha, or NaN for alpha outside (0, 1).
 */
double pp_seq_spend(enum pp_spending f, double alpha, double t);

/*
 * The cumulative alpha of a design after look @k (1-based) at information
 * fraction @t: pp_seq_spend's for POCOCK and OBRIEN, SPLIT's (above) for
 * SPLIT, always below alpha for t < 1 (and alpha at t = 1).  NaN for alpha
 * outside (0, 1) or k = 0.
 */
double pp_seq_spend_at(enum pp_spending f, double alpha, unsigned k, double t);

/*
 * One look at a comparison: @x previous, @y current, the whole series so far
 * (each look's series extend the last one's).  Updates @st and fills @out.
 * The design and the sizes of the looks must not depend on this
 * comparison's values (fix them in advance: rounds of --measurements values,
 * a budget set when the comparison starts); unequal rounds or series are
 * fine, and stopping early for any reason never hurts the guarantee.  A look
 * with nx + ny >= budget is the last: its verdict is never CONTINUE.
 *
 * Returns 0; -EINVAL for a bad design, nx or ny < 2, a non-finite value,
 * fewer runs than at the last look, or a look after a verdict; -ENOMEM; -EDOM
 * when GSL fails.
 */
int pp_seq_look(const struct pp_seq_design *d, struct pp_seq_state *st, const double *x, size_t nx,
		const double *y, size_t ny, struct pp_seq_result *out);

/*
 * Whether a two-sided interval at level 1 - @alpha exists for samples of
 * @nx and @ny values: always for welch (n >= 2), for Mann-Whitney when the
 * most extreme of the C(nx + ny, nx) orderings is rarer than alpha / 2.
 */
bool pp_seq_attainable(enum pp_test test, size_t nx, size_t ny, double alpha);

/*
 * Minimum detectable effect: threshold + (z(1 - alpha/2) + z(power)) * se,
 * the true shift a normal estimate with standard error @se exceeds the
 * threshold by its interval's half-width with probability @power.  The
 * sequential rule's SLOWER boundary is 0 (pp_seq_look passes 0).
 * NaN for bad arguments.
 */
double pp_seq_mde(double alpha, double power, double se, double threshold);

/*
 * The fixed-sample minimum: values per series for an interval of level
 * 1 - alpha of a difference of means with known sd @sigma to lie above
 * @threshold with probability @power when the true difference is @effect:
 * ceil(2 sigma^2 (z(1 - alpha/2) + z(power))^2 / (effect - threshold)^2).
 * With @threshold 0 (SLOWER's boundary) this is the yardstick of the
 * runs-used target.  0 for bad arguments
 * (effect <= threshold included).
 */
size_t pp_seq_fixed_n(double alpha, double power, double sigma, double effect, double threshold);

/*
 * Runs per series that would bring an interval of half-width @half, from @n
 * values per series, to a verdict if its centre stayed at @centre: the
 * half-width shrinks as 1/sqrt(n), and a verdict needs it below the
 * larger distance from @centre to a boundary it can settle on (0 for SLOWER
 * or FASTER, +-@threshold for SAME; with @one_sided 0 for SLOWER and
 * +@threshold for NOT_SLOWER).  An estimate at the
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

const char *pp_seq_verdict_name(enum pp_seq_verdict v);

/* "pocock", "obf", "split": the names the fixtures and figures use. */
const char *pp_seq_spending_name(enum pp_spending f);

#endif /* PINPOINT_STATS_SEQ_H */
