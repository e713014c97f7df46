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

#endif /* PINPOINT_LAYOUTS_BOTH_H */
