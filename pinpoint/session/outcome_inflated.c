// SPDX-License-Identifier: MIT
/*
 * outcome_inflated.c - the figures the reports do not carry into shares of
 * the entry: a part measured as costing more than the whole slowdown.
 *
 * The entry's difference comes from runs that arm nothing inside it; a
 * part's, from runs that time it.  A probe around each execution of a short
 * call does more than cost its own time, which the runtime takes out: its
 * clock reads stall the core, so work that overlapped the call before no
 * longer does, and a difference hidden by that overlap shows (doc/limits.md).
 * A part can then come out at several times what the entry got slower by.
 *
 * Two things mark a figure inflated:
 *   - the what-if overshoots (confirm.c): the previous revision with the
 *     claim's part delayed by its figure runs slower than the current one,
 *     so the figure is more than the part can explain, which is at most the
 *     slowdown the what-if's runs show (the delay they added less what the
 *     current revision is faster by); every chain step whose interval lies
 *     wholly above that slowdown's is refuted alike;
 *   - without that experiment, a part slower by more than
 *     PP_INFLATED_RATIO times the entry's difference, its interval wholly
 *     beyond the entry's, with nothing beside it on its path decided
 *     faster (a faster sibling, or the rest of a function that got faster,
 *     is what lets a part outgrow its whole).
 *
 * An inflated node keeps its measured figure, marked; its share of the
 * entry, and those of the nodes under it, are not given.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/session/outcome_priv.h"

/* How many times the entry's difference a part may seem to cost before it is marked. */
#define PP_INFLATED_RATIO 1.25

/* Whether a node on @i's path below the entry has a sibling the other way, or a rest that is. */
static bool faster_beside(const struct pp_outcome *o, int i, int dir)
{
	for (int j = i; j > 0; j = o->nodes[j].parent) {
		const struct pp_outcome_node *n = &o->nodes[j];

		if (isfinite(n->others.centre) && dir * n->others.high < 0)
			return true;
		for (int k = o->nodes[n->parent].child; k >= 0; k = o->nodes[k].next)
			if (k != j && o->nodes[k].sign == -dir)
				return true;
	}
	return false;
}

/* Whether interval @a lies wholly beyond @b in direction @dir (above it for +1). */
static bool wholly_beyond(const struct pp_interval *a, const struct pp_interval *b, int dir)
{
	return dir > 0 ? a->low > b->high : a->high < b->low;
}

/* Whether an ancestor of @i below the entry is inflated. */
static bool under_inflated(const struct pp_outcome *o, int i)
{
	for (int j = o->nodes[i].parent; j > 0; j = o->nodes[j].parent)
		if (o->nodes[j].inflated)
			return true;
	return false;
}

void pp_outcome_inflated(struct pp_copy *m, struct pp_outcome *o)
{
	const struct pp_outcome_confirm *c = &o->confirm;
	const struct pp_outcome_node *e = o->nnodes ? &o->nodes[0] : NULL;
	bool overshoots = c->verdict_name && !strcmp(c->verdict_name, "overshoots") &&
			  c->claim_node > 0 && c->claim_node < (int)o->nnodes &&
			  isfinite(c->slowdown.centre);
	const char *entry = o->entry_name ? o->entry_name : "the entry";
	int dir;
	char d[32], at[3][32], why[512];

	if (!e || !e->sign || !isfinite(e->diff.centre) || e->diff.centre * e->sign <= 0)
		return;
	dir = e->sign;
	pp_fmt_ns(e->diff.centre, d, sizeof(d));
	for (size_t i = 1; i < o->nnodes; i++) {
		struct pp_outcome_node *n = &o->nodes[i];
		double x = dir * n->diff.centre, whole = dir * e->diff.centre;

		if (n->kind == PP_NODE_REST || n->sign != dir || !isfinite(x))
			continue;
		if (overshoots && n->chain && wholly_beyond(&n->diff, &c->slowdown, dir)) {
			snprintf(why, sizeof(why),
				 "inflated: more than the what-if (below) allows; it explains at "
				 "most +%s [%s, %s], the slowdown the what-if's runs show",
				 pp_fmt_ns(c->slowdown.centre, at[0], 32),
				 pp_fmt_ns(c->slowdown.low, at[1], 32),
				 pp_fmt_ns(c->slowdown.high, at[2], 32));
			n->inflated = pp_copy_str(m, why);
			n->at_most = c->slowdown;
		} else if (x > PP_INFLATED_RATIO * whole &&
			   wholly_beyond(&n->diff, &e->diff, dir) &&
			   !faster_beside(o, (int)i, dir)) {
			snprintf(why, sizeof(why),
				 "inflated: %.1fx %s's %s%s with nothing beside it %s; timing it "
				 "changes what it does (doc/limits.md)",
				 x / whole, entry, dir > 0 ? "+" : "", d,
				 dir > 0 ? "faster" : "slower");
			n->inflated = pp_copy_str(m, why);
		}
	}
	for (size_t i = 1; i < o->nnodes; i++)
		if (o->nodes[i].inflated || under_inflated(o, (int)i)) {
			o->nodes[i].entry_share = NAN;
			o->nodes[i].entry_share_ci = (struct pp_interval){NAN, NAN, NAN};
			o->nodes[i].entry_share_level = NAN;
		}
}
