// SPDX-License-Identifier: MIT
/*
 * align.c - align two revisions' call lists of a function.
 *
 * A weighted longest common subsequence: each pair of calls to the same
 * callee that is kept scores more than all position bonuses together, so
 * the most calls are matched first; among alignments that match as many,
 * the one whose matched calls keep their column and their line relative to
 * the function's first line wins (a call added above does not move its
 * neighbours' columns, and an unchanged neighbour keeps its offset).  A call
 * that came into the function with inlined code matches only a call reached
 * through inlined calls of the same callees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/search/align.h"

bool pp_same_callee(const struct pp_prog_call *a, const struct pp_prog_call *b)
{
	bool ia = a->kind == PP_CALL_INDIRECT || a->kind == PP_CALL_INVOKE_INDIRECT;
	bool ib = b->kind == PP_CALL_INDIRECT || b->kind == PP_CALL_INVOKE_INDIRECT;

	return ia == ib && !strcmp(a->callee, b->callee);
}

/*
 * Whether call @i of @fa and call @j of @fb can be matched: the same callee,
 * reached through inlined calls of the same callees (none for F's own).
 */
static bool same_place(const struct pp_prog_fn *fa, size_t i, const struct pp_prog_fn *fb, size_t j)
{
	uint32_t va, vb;

	if (!pp_same_callee(&fa->calls[i], &fb->calls[j]))
		return false;
	for (va = fa->calls[i].via, vb = fb->calls[j].via; va && vb;
	     va = fa->calls[va - 1].via, vb = fb->calls[vb - 1].via)
		if (!pp_same_callee(&fa->calls[va - 1], &fb->calls[vb - 1]))
			return false;
	return !va && !vb;
}

/* 0, 1 or 2: how well two calls to the same callee keep their place. */
static unsigned position_bonus(const struct pp_prog_fn *fa, const struct pp_prog_call *a,
			       const struct pp_prog_fn *fb, const struct pp_prog_call *b)
{
	unsigned bonus = 0;

	if (a->col == b->col)
		bonus++;
	if ((long)a->line - (long)fa->line == (long)b->line - (long)fb->line)
		bonus++;
	return bonus;
}

int pp_align(const struct pp_prog_fn *prev, const struct pp_prog_fn *cur, struct pp_unit **units)
{
	size_t na = prev->ncalls, nb = cur->ncalls, w = nb + 1;
	/* Each match scores more than every bonus of the longer list together. */
	unsigned long match = 2 * (unsigned long)(na > nb ? na : nb) + 1;
	unsigned long *score = calloc((na + 1) * w, sizeof(*score));
	struct pp_unit *u = calloc(na + nb + 1, sizeof(*u));
	size_t i, j, n = 0;

	if (!score || !u) {
		free(score);
		free(u);
		return -ENOMEM;
	}
	/* score[i][j]: best alignment of prev calls i.. and cur calls j.. */
	for (i = na + 1; i-- > 0;)
		for (j = nb + 1; j-- > 0;) {
			unsigned long best = 0;

			if (i < na && j < nb) {
				best = i + 1 <= na && j + 1 <= nb ? score[(i + 1) * w + j + 1] : 0;
				if (same_place(prev, i, cur, j))
					best += match + position_bonus(prev, &prev->calls[i], cur,
								       &cur->calls[j]);
				else
					best = 0;
			}
			if (i < na && score[(i + 1) * w + j] > best)
				best = score[(i + 1) * w + j];
			if (j < nb && score[i * w + j + 1] > best)
				best = score[i * w + j + 1];
			score[i * w + j] = best;
		}
	/* Walk the best alignment; a removed call is listed before an added one. */
	i = 0;
	j = 0;
	while (i < na || j < nb) {
		if (i < na && j < nb && same_place(prev, i, cur, j) &&
		    score[i * w + j] ==
			score[(i + 1) * w + j + 1] + match +
			    position_bonus(prev, &prev->calls[i], cur, &cur->calls[j])) {
			u[n++] = (struct pp_unit){{(int)i, (int)j}};
			i++;
			j++;
		} else if (i < na && score[i * w + j] == score[(i + 1) * w + j]) {
			u[n++] = (struct pp_unit){{(int)i, -1}};
			i++;
		} else {
			u[n++] = (struct pp_unit){{-1, (int)j}};
			j++;
		}
	}
	free(score);
	*units = u;
	return (int)n;
}
