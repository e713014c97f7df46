/* SPDX-License-Identifier: MIT */
/*
 * revisions.h - the two revisions' directories (revisions.c).
 */
#ifndef PINPOINT_REVISIONS_H
#define PINPOINT_REVISIONS_H

#include "pinpoint/session/session.h"

/*
 * --previous and --current as absolute paths in @s: 0, or -EINVAL after
 * one line (missing, not a directory, unreadable, the same directory).
 */
int pp_revisions_open(struct pp_session *s);

#endif /* PINPOINT_REVISIONS_H */
