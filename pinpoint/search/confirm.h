/* SPDX-License-Identifier: MIT */
/*
 * confirm.h - the chain's claim checked by a what-if (confirm.c).
 */
#ifndef PINPOINT_CONFIRM_H
#define PINPOINT_CONFIRM_H

#include "pinpoint/session/session.h"

/*
 * With --confirm on and the entry slower: the previous revision with the
 * chain's last part delayed by its difference, against the current
 * revision at the entry, into s->confirm.  0, or what pp_settle() returns.
 */
int pp_confirm(struct pp_session *s);

#endif /* PINPOINT_CONFIRM_H */
