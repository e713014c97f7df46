/* SPDX-License-Identifier: MIT */
/*
 * schedule.h - the order in which a batch runs the two revisions.
 *
 * The measured runs of a round are put in an order drawn at random from all
 * orders with as many runs of each revision (a completely randomized design,
 * R. A. Fisher, The Design of Experiments, 1935, chapter II): when the
 * revisions are identical, which run carries which revision is then a fair
 * draw, independent of anything the machine does, and the rank test of a
 * round holds its level whatever the machine's drift, bursts or periods.  A
 * fixed order (ABBA) holds it only if nothing on the machine keeps step with
 * the order.  doc/statistics.md, "The order of the runs".
 *
 * By default (--runs duet or paired) the measured runs come in pairs instead,
 * one run of each revision side by side (at the same time, the first on one
 * CPU and the second on the other, in a duet: duet.h), which one first
 * drawn at random with as many pairs of each order (a randomized block
 * design, blocks of two): when
 * the revisions are identical, the sign of each pair's difference is a fair
 * draw whatever the machine does, so the signed-rank test on the
 * differences holds its level, and what the machine does at the scale of
 * a pair (a drift over minutes, a burst spanning both runs) cancels in the
 * difference instead of widening both revisions' spread.
 */
#ifndef PINPOINT_SCHEDULE_H
#define PINPOINT_SCHEDULE_H

#include "pinpoint/session/session.h"

/*
 * The layouts of a revision's runs (layouts.h) follow the layouts'
 * schedule (pinpoint/layouts/ahead.c), fixed before any value is seen: the
 * session's measured runs of a revision, in the order they run, are in
 * units of s->layout_every, unit u in layout u (round the layouts the
 * revision has, once --max-layouts is reached).  Which revision runs first
 * in a pair, and the order of a shuffled round, stay random: a layout is
 * never tied to one revision's position.
 */

/* The session's generator, made and seeded on first use (--seed, else the
 * system's entropy; s->seed records the seed).  0 or -ENOMEM. */
int pp_session_rng(struct pp_session *s);

/*
 * The generator the layouts draw their seeds from, made on first use from
 * the session's seed: apart from the runs' (pp_session_rng()), so that the
 * runs' order and environments are the seed's whatever layouts the cache
 * held.  NULL: out of memory.
 */
gsl_rng *pp_session_layout_rng(struct pp_session *s);

/*
 * Fill @order[0 .. 2 * (@warmups + @runs)) with the revision of each run in
 * turn: the warm-ups first, alternating (previous, current, current,
 * previous, ...), then @runs measured runs of each revision: paired, @runs
 * pairs (previous, current) or (current, previous), as many of each as @runs
 * allows, in a random order; --runs shuffled, in an order drawn uniformly
 * from the C(2 @runs, @runs) possible ones; from the session's generator.
 * With @layout (NULL: not wanted), each run's layout there: -1 for a
 * revision measured as built (lay.n == 0), a measured run's by the
 * schedule (above; s->layout_runs counts them), a warm-up's that of its
 * revision's next measured run; paired, with as many layouts on both
 * sides, both runs of a pair in the layout of the same index.  Returns 0
 * or -ENOMEM.
 */
int pp_schedule(struct pp_session *s, int warmups, int runs, enum pp_rev_id *order, int *layout);

/*
 * How one run is made (struct pp_run_setup): in @layout, with an
 * environment variable of 0 to PP_ENV_PAD_MAX bytes and the heap moved by 0
 * to PP_HEAP_SHIFT_MAX bytes (a multiple of 16), both drawn from the
 * session's generator.  0 or -ENOMEM.
 */
int pp_schedule_setup(struct pp_session *s, int layout, struct pp_run_setup *setup);

#endif /* PINPOINT_SCHEDULE_H */
