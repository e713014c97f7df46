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
 */
#ifndef PINPOINT_SCHEDULE_H
#define PINPOINT_SCHEDULE_H

#include "pinpoint/session.h"

/*
 * Fill @order[0 .. 2 * (@warmups + @runs)) with the revision of each run in
 * turn: the warm-ups first, alternating (previous, current, current,
 * previous, ...), then @runs measured runs of each revision in an order
 * drawn uniformly from the C(2 @runs, @runs) possible ones, from the
 * session's generator (made and seeded on first use: --seed, else from the
 * system's entropy; s->seed records the seed).  Returns 0 or -ENOMEM.
 */
int pp_schedule(struct pp_session *s, int warmups, int runs, enum pp_rev_id *order);

#endif /* PINPOINT_SCHEDULE_H */
