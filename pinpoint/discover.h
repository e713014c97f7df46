/* SPDX-License-Identifier: MIT */
/*
 * discover.h - the discover stage: tables, entry, time limit.
 */
#ifndef PINPOINT_DISCOVER_H
#define PINPOINT_DISCOVER_H

#include "pinpoint/session.h"

/*
 * The first run of each revision: arm only the entry, learn which
 * instrumented binaries the benchmark loads and read their tables into
 * rev->prog, find rev->entry and rev->entry_spec, set s->timeout_s.
 * Returns 0, -EIO after recording a failed run, -ENOENT / -EINVAL after
 * reporting an entry problem (usage error), -EINTR when interrupted.
 */
int pp_discover(struct pp_session *s);

#endif /* PINPOINT_DISCOVER_H */
