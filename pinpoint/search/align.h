/* SPDX-License-Identifier: MIT */
/*
 * align.h - align a function's call lists of two revisions: the longest
 * common subsequence of callees, ties broken by source position.
 */
#ifndef PINPOINT_ALIGN_H
#define PINPOINT_ALIGN_H

#include <stdbool.h>

#include "core/table.h"

/* One place of the aligned list: a call in both revisions, or in one only. */
struct pp_unit {
	int at[2]; /* index in each revision's call list, -1 = not in that revision */
};

/*
 * Align @prev's and @cur's call lists into @units (allocated, in program
 * order; free() it): a call of both revisions is matched, the others are
 * added (current only) or removed (previous only).  Returns the number of
 * units, or -ENOMEM.
 */
int pp_align(const struct pp_prog_fn *prev, const struct pp_prog_fn *cur, struct pp_unit **units);

/* Whether two calls reach the same callee (both indirect, or the same name). */
bool pp_same_callee(const struct pp_prog_call *a, const struct pp_prog_call *b);

#endif /* PINPOINT_ALIGN_H */
