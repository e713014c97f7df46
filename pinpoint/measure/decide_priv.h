/* SPDX-License-Identifier: MIT */
/*
 * decide_priv.h - the decide stage's own state of a comparison: its
 * sequential design, what its looks have spent and seen, and the size of
 * its next look.  Only decide.c and decide_layout.c (and their tests) read
 * it; the rest of the driver sees what a decision concluded (struct
 * pp_last_look in session.h) and asks decide.h for the rest.
 */
#ifndef PINPOINT_DECIDE_PRIV_H
#define PINPOINT_DECIDE_PRIV_H

#include "pinpoint/measure/decide.h"

struct pp_decision {
	struct pp_seq_design design; /* fixed at the first look */
	struct pp_seq_state seq;
	struct pp_seq_result look; /* the last look taken */
	size_t next_look;	   /* values per revision the next look takes */
};

/*
 * Whether @q's code layouts, not its runs, keep it from a verdict after
 * look @d->look at @n runs a revision that decided nothing, even in the
 * @later new layouts the rest of its budget brings (at most @cap in all):
 * decide_layout.c.  Sets q->layout_floor.
 */
bool pp_decide_layouts_block(struct pp_quantity *q, const struct pp_decision *d, size_t n,
			     unsigned later, unsigned cap);

/*
 * The current revision's first @n values of @q with the duet's CPUs taken
 * out of each pair (decide_cpu.c), malloc'ed into *@out, and what a run on
 * the second CPU took more than on the first in *@c; *@out NULL (and *@c
 * NaN) where the term does not apply (--cpu-term off, no duet, too few
 * pairs of an order).  0 or -ENOMEM.
 */
int pp_decide_cpu_values(const struct pp_session *s, const struct pp_quantity *q, size_t n,
			 double **out, double *c);

/*
 * Fix s->comparison_runs, the runs per revision at every comparison's last
 * look, once, when the first comparison's first look is due with @have
 * values a revision (decide_budget.c).
 */
void pp_decide_fix_budget(struct pp_session *s, size_t have);

/* s->comparison_runs once fixed; before, --max-runs-per-comparison or its most. */
size_t pp_decide_budget(const struct pp_session *s);

/*
 * The budget a comparison's first look is sized at: --max-runs-per-comparison,
 * or where auto, its most (the first look comes before it is fixed).
 */
size_t pp_decide_first_budget(const struct pp_session *s);

#endif /* PINPOINT_DECIDE_PRIV_H */
