/* SPDX-License-Identifier: MIT */
/*
 * counts.h - how often a comparison's calls ran beside their time
 * (counts.c): the search asks it before digging into a call, the outcome
 * for every comparison.
 */
#ifndef PINPOINT_COUNTS_H
#define PINPOINT_COUNTS_H

#include <stdbool.h>

#include "core/stats.h"
#include "pinpoint/session/options.h"

struct pp_quantity;

struct pp_counts {
	/* executions per execution of the entry, each revision's median (NaN: not counted) */
	double execs[2];
	bool execs_changed;
	/* its time per execution, current - previous (NaN: none), and whether
	 * that adds half the threshold or more at the current count */
	struct pp_interval per_exec;
	bool per_exec_changed;
	/* "more calls", "fewer calls", "slower calls", "faster calls" or
	 * "both" for a difference the comparison shows; NULL: none */
	const char *cause;
};

/* @q's counts, compared at its comparison's level, into @out: 0 or -ENOMEM. */
int pp_counts_of(const struct pp_quantity *q, const struct pp_options *opt, struct pp_counts *out);

/* Whether @c says its difference, in direction @sign, is its count's alone. */
static inline bool pp_counts_only(const struct pp_counts *c, int sign)
{
	return c->cause && (sign > 0 ? !__builtin_strcmp(c->cause, "more calls")
				     : !__builtin_strcmp(c->cause, "fewer calls"));
}

#endif /* PINPOINT_COUNTS_H */
