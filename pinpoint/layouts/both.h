/* SPDX-License-Identifier: MIT */
/*
 * both.h - both revisions' code layouts for a session (both.c).
 */
#ifndef PINPOINT_LAYOUTS_BOTH_H
#define PINPOINT_LAYOUTS_BOTH_H

#include "pinpoint/session/session.h"

/*
 * Each revision's layouts cache opened and its lock taken, before anything
 * runs in it (with --layouts above 1; else opened without a lock), in one
 * order for every session (device, inode).  A cache that cannot be used
 * leaves its revision as built, with a warning.  0, -EINTR or -ENOMEM.
 */
int pp_layouts_open_both(struct pp_session *s);

/*
 * Each revision's --layouts, from the modules its discovery runs named (or
 * the backend's), both varied or neither; the session's layout cap.  0,
 * -EINTR or -ENOMEM.
 */
int pp_layouts_make_both(struct pp_session *s);

/*
 * The layouts' schedule (ahead.c): s->layout_every fixed, once, from
 * --pairs-per-layout, else from what linking a layout costs against a pair
 * of runs (at least 1; 1 for a fixed set, --max-layouts at --layouts);
 * where every layout was reused from the cache, one more of each is linked
 * to time it.  0, -EINTR or -ENOMEM.
 */
int pp_layouts_fix_every(struct pp_session *s);

/*
 * Whether layout k of @b is the very file layout k of @a is, for every
 * module and every layout both have (two or more), @b's seeds @a's: the
 * same code in the same order, so that what a layout moves a run by, it
 * moves both revisions' runs of a pair by (the paired design's unit,
 * both.c).  Every module must be linked again in both, and named alike.
 */
bool pp_layouts_same_code(const struct pp_layouts *a, const struct pp_layouts *b);

/*
 * The layouts a revision needs for the schedule's units of the next @runs
 * measured runs of each revision, at most the session's cap (ahead.c).
 */
unsigned pp_layouts_needed(const struct pp_session *s, int runs);

/*
 * The layouts both revisions have without a link: those the cache held when
 * the first were made (s->layouts_cached), or made since.
 */
unsigned pp_layouts_reusable_both(const struct pp_session *s);

/*
 * Seconds linking the layouts a round of @runs measured runs of each
 * revision would add takes, at what linking one of both took so far: those
 * past what both revisions have or find in the cache (ahead.c).  0 where the
 * layouts are not varied or cost nothing to make.
 */
double pp_layouts_ahead_s(const struct pp_session *s, int runs);

/*
 * Before a round of @runs measured runs of each revision: both revisions'
 * layouts made up to what the schedule's units of those runs need, within
 * the session's cap (ahead.c).  0, -EINTR or -ENOMEM.
 */
int pp_layouts_ahead(struct pp_session *s, int runs);

#endif /* PINPOINT_LAYOUTS_BOTH_H */
