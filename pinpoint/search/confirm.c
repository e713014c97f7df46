// SPDX-License-Identifier: MIT
/*
 * confirm.c - the chain's claim checked by experiment.  The chain ends at a
 * part it says got slower by C per execution of the entry.  The previous
 * revision is run again with that part delayed by C (the runtime's delay=:
 * C over the part's executions at each of them), and compared with the
 * current revision at the entry, nothing else armed, by the session's
 * sequential test at its threshold or a fifth of the entry's difference,
 * whichever is more, in at most the time the session measured for before
 * it, or a tenth of --max-time where that is more (the what-if at most
 * doubles a session's runs' time, but for a quick search's):
 *
 *   - within the threshold: confirmed, the claim is the size of the
 *     entry's slowdown and slowing the part by it slows the entry by as
 *     much;
 *   - the current revision still slower: the claim explains a share of the
 *     slowdown, and something else changed too;
 *   - the delayed previous revision slower: the claim overshoots, its
 *     figure is inflated (a probe around every short call serialises the
 *     core), and the part explains at most the entry's difference; but
 *     where the search decided a part faster, that part may be why (the
 *     what-if's difference is the entry's less the claim, whatever the
 *     claim's own part did): offset, and the size is not judged.
 *
 * What it cannot tell: the named part from another change of the same
 * size on the entry's path.  That is the search's work; the what-if checks
 * the size the search gave and that the part is on the entry's critical
 * path (a delay off it, in a thread the entry does not wait for, would not
 * show).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/arming.h"
#include "pinpoint/protocol.h"
#include "pinpoint/measure/settle.h"
#include "pinpoint/search/confirm.h"
#include "pinpoint/session/counts.h"
#include "pinpoint/session/labels.h"

/*
 * Each delayed execution waits this long at least: the runtime's wait ends
 * at the first clock read past it, so a short wait is longer than asked by
 * up to a clock read (tens of ns in a VM).  A part slower by less per
 * execution is delayed at one execution in K by K times that.
 */
#define PP_CONFIRM_MIN_WAIT_NS 2000.0
/* The most one delayed execution may wait (the runtime's limit). */
#define PP_CONFIRM_MAX_WAIT_NS ((double)PP_MAX_DELAY_NS)
/*
 * The what-if's threshold: the session's, or this share of the entry's
 * difference where that is more.  It asks whether the claim is the
 * slowdown's size, not for the session's precision (a claim five times
 * the slowdown, or a half of it, is what it is there to catch): a fifth of
 * it is told apart in a few dozen runs where the threshold would take
 * hundreds.
 */
#define PP_CONFIRM_TOLERANCE 0.2
/* Delayed executions a run makes at least, for the one-in-K delay to be the mean's. */
#define PP_CONFIRM_MIN_DELAYED 32.0
/*
 * What an armed probe pair that reads no clock costs in place, at most
 * (runtime/README.md, "The probes' cost": 4.7-8.4 ns a probe measured):
 * a part delayed where it runs this many times an execution of the entry
 * adds that much besides the delay.
 */
#define PP_CONFIRM_PROBE_NS 20.0

/* The chain's last node: from the entry's, down its chain children; -1: no chain. */
static int chain_end(const struct pp_session *s)
{
	int end = s->nnodes && s->nodes[0].chain ? 0 : -1;

	for (bool down = end >= 0; down;) {
		down = false;
		for (size_t i = 0; i < s->nnodes; i++)
			if (s->nodes[i].chain && s->nodes[i].parent == end) {
				end = (int)i;
				down = true;
				break;
			}
	}
	return end;
}

static int not_tried(struct pp_session *s, const char *why)
{
	s->confirm.verdict = PP_CONFIRM_NOT_TRIED;
	s->confirm.why = why;
	return 0;
}

/*
 * Where node @n's part is delayed in the previous revision (the arming's
 * delay= value, encoded) into *@delay and how the reports name it into
 * *@what; NULL into *@delay with *@why set when it cannot be.  0 or -ENOMEM.
 */
static int delay_site(const struct pp_session *s, const struct pp_node *n, char **delay,
		      char **what, const char **why)
{
	const struct pp_program *prog = &s->rev[PP_PREV].prog;
	const struct pp_quantity *q = n->q;
	const struct pp_prog_fn *fn = NULL;
	char *spec = NULL;
	int r = 0;

	*delay = *what = NULL;
	*why = NULL;
	switch (n->kind) {
	case PP_NODE_CALL:
	case PP_NODE_RANGE:
		if (!q || q->kind != PP_Q_RANGE) {
			*why = "it is not a range of calls";
			return 0;
		}
		if (q->absent[PP_PREV]) {
			*why = "a call the previous revision does not make";
			return 0;
		}
		fn = q->fn[PP_PREV];
		spec = pp_arming_fn(prog, fn);
		if (!spec)
			return -ENOMEM;
		r = asprintf(delay, "%s:%u-%u", spec, q->prev_first, q->prev_last);
		if (r >= 0 && q->prev_first == q->prev_last) {
			char *l = pp_prog_call_label(fn, q->prev_first);

			r = asprintf(what, "%s (call %u of %s)", l ? l : "?", q->prev_first,
				     pp_fn_name(fn, NULL));
			free(l);
		} else if (r >= 0) {
			r = asprintf(what, "calls %u-%u of %s", q->prev_first, q->prev_last,
				     pp_fn_name(fn, NULL));
		}
		break;
	case PP_NODE_SELF:
	case PP_NODE_SHARED:
		fn = n->kind == PP_NODE_SELF ? (q ? q->fn[PP_PREV] : NULL) : n->into[PP_PREV];
		if (!fn) {
			*why = "it is not in the previous revision";
			return 0;
		}
		*delay = pp_arming_fn(prog, fn);
		if (!*delay)
			return -ENOMEM;
		r = n->kind == PP_NODE_SELF
			? asprintf(what, "the own body of %s", pp_fn_name(fn, NULL))
			: asprintf(what, "%s", pp_fn_name(fn, NULL));
		break;
	case PP_NODE_ENTRY: /* its body: the slot that measures it waits too */
		fn = s->rev[PP_PREV].entry;
		*delay = pp_arming_fn(prog, fn);
		if (!*delay)
			return -ENOMEM;
		r = asprintf(what, "%s (the entry)", pp_fn_name(fn, NULL));
		break;
	default:
		*why =
		    n->kind == PP_NODE_GROUP
			? "calls to one callee from several places, which one delay cannot stand "
			  "for"
			: "a change no delay can stand for (calls added or removed, or what "
			  "nothing measured explains)";
		return 0;
	}
	free(spec);
	if (r < 0 || !*delay || !*what) {
		free(*delay);
		free(*what);
		*delay = *what = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The entry's executions a run measures after its skip (the discover stage's rule). */
static double entry_execs(const struct pp_session *s)
{
	unsigned long long n = s->entry_stop ? s->entry_stop : s->entry_count;

	return n > s->entry_skip ? (double)(n - s->entry_skip) : 1.0;
}

/*
 * Whether a node of the tree was decided in the other direction than the
 * entry (an improvement): the what-if's difference is the entry's less the
 * claim, so parts that got faster make it negative as an inflated claim
 * would (a slower part masked by a faster one: models/masked.json).
 */
static bool tree_has_faster(const struct pp_session *s)
{
	for (size_t i = 1; i < s->nnodes; i++)
		if (s->nodes[i].kind != PP_NODE_REST && s->nodes[i].sign == -s->nodes[0].sign)
			return true;
	return false;
}

/*
 * The verdict from @q's decision, and the share of the entry's difference
 * it explains: 0 or -ENOMEM.
 */
static int conclude(struct pp_session *s, struct pp_quantity *q)
{
	struct pp_confirm *c = &s->confirm;
	double d = s->q[0]->cmp.diff.centre;
	struct pp_interval left = q->cmp.diff;
	struct pp_counts k;
	int err;

	/* the previous revision's executions of @q are the delayed ones (measure.c) */
	err = pp_counts_of(q, s->opt, &k);
	if (err)
		return err;
	c->delayed = k.execs[PP_PREV];
	if (c->delayed == 0) {
		c->verdict = PP_CONFIRM_NOT_TRIED;
		c->why = "the delayed part did not run in the previous revision's runs";
		return 0;
	}
	if (d > 0 && isfinite(left.centre))
		c->explained = (struct pp_interval){.centre = (d - left.centre) / d,
						    .low = (d - left.high) / d,
						    .high = (d - left.low) / d};
	switch (q->verdict) {
	case PP_V_SAME:
	case PP_V_SLOWER_BELOW:
	case PP_V_FASTER_BELOW:
	case PP_V_NOT_SLOWER:
		c->verdict = PP_CONFIRM_CONFIRMED;
		break;
	case PP_V_SLOWER:
		c->verdict = PP_CONFIRM_EXPLAINS;
		break;
	case PP_V_FASTER:
		c->verdict = tree_has_faster(s) ? PP_CONFIRM_OFFSET : PP_CONFIRM_OVERSHOOTS;
		break;
	default:
		c->verdict = PP_CONFIRM_UNDECIDED;
		break;
	}
	return 0;
}

/*
 * Where the claim is delayed: the chain's last node @end or, where that
 * cannot be delayed or runs too often for its probes' own cost to stay
 * within half the what-if's threshold @tol, the nearest chain node above
 * it that can (the entry last: a delay anywhere on the entry's path tests
 * the claim's size alike).  Its index, the arming's delay= value and name
 * into *@delay and *@what, its executions into *@execs, and in *@why why
 * not @end (NULL: it is @end); -1 with *@why when none can; -ENOMEM.
 */
static int delay_place(struct pp_session *s, int end, double tol, char **delay, char **what,
		       double *execs, const char **why)
{
	const char *first_why = NULL;

	for (int at = end; at >= 0; at = s->nodes[at].parent) {
		struct pp_node *n = &s->nodes[at];
		struct pp_counts k;
		int err;

		if (at != end && !n->chain)
			continue;
		err = delay_site(s, n, delay, what, why);
		if (err)
			return err;
		if (!*delay) {
			first_why = first_why ? first_why : *why;
			continue;
		}
		err = n->q ? pp_counts_of(n->q, s->opt, &k) : 0;
		if (err) {
			free(*delay);
			free(*what);
			return err;
		}
		*execs = n->q ? k.execs[PP_PREV] : NAN;
		if (*execs > 0 && *execs * PP_CONFIRM_PROBE_NS <= tol / 2) {
			*why = first_why;
			return at;
		}
		first_why = first_why	    ? first_why
			    : !(*execs > 0) ? "the previous revision's runs did not count "
					      "its executions"
					    : "it runs too often for its probes' own cost "
					      "to stay below half what the what-if can tell";
		free(*delay);
		free(*what);
		*delay = *what = NULL;
	}
	*why = first_why;
	return -1;
}

int pp_confirm(struct pp_session *s)
{
	struct pp_confirm *c = &s->confirm;
	const struct pp_prog_fn *entry[2] = {s->rev[PP_PREV].entry, s->rev[PP_CUR].entry};
	struct pp_quantity *q;
	char *delay, *what;
	const char *why = NULL;
	double wait, every = 1, total, tol;
	int end, at;

	*c = (struct pp_confirm){
	    .node = -1, .claim_node = -1, .explained = {NAN, NAN, NAN}, .delayed = NAN};
	if (!s->opt->confirm || !s->nq || s->q[0]->verdict != PP_V_SLOWER)
		return 0;
	end = chain_end(s);
	if (end <= 0)
		return not_tried(s, "the chain names no part below the entry");
	c->claim_node = end;
	c->claim_ns = s->nodes[end].diff.centre;
	if (!(c->claim_ns > 0))
		return not_tried(s, "the chain's last part is not shown slower");
	tol = fmax(s->threshold_ns, PP_CONFIRM_TOLERANCE * s->q[0]->cmp.diff.centre);
	at = delay_place(s, end, tol, &delay, &what, &c->execs, &why);
	if (at == -ENOMEM)
		return -ENOMEM;
	if (at < 0)
		return not_tried(s, why);
	c->node = at;
	c->moved = why;
	wait = c->claim_ns / c->execs;
	total = c->execs * entry_execs(s);
	if (wait < PP_CONFIRM_MIN_WAIT_NS) {
		every = ceil(PP_CONFIRM_MIN_WAIT_NS / wait);
		/* enough delayed executions in a run for their mean to be the claim */
		if (every > total / PP_CONFIRM_MIN_DELAYED)
			every = floor(total / PP_CONFIRM_MIN_DELAYED);
		if (every < 1)
			every = 1;
	}
	if (wait * every > PP_CONFIRM_MAX_WAIT_NS) {
		free(delay);
		free(what);
		return not_tried(s,
				 "its slowdown per execution is more than a delay may add (1 s)");
	}
	if (wait * every < 1) {
		free(delay);
		free(what);
		return not_tried(s, "its slowdown per execution is below a nanosecond, and it runs "
				    "too few times per run to delay one execution in many");
	}
	q = pp_quantity_confirm(s, entry, delay, (unsigned long long)llround(wait * every),
				(unsigned)every, what);
	if (!q)
		return -ENOMEM;
	q->alpha = 1 - s->opt->confidence;
	q->threshold_ns = tol;
	c->q = q;
	{
		/*
		 * Its time: as long as the session measured before it, or a
		 * tenth of --max-time where that is more (a quick search's
		 * claim still needs the runs of one comparison within a
		 * fifth of the slowdown), or a second without --max-time.
		 */
		double now = pp_session_now(s);
		double spent = now - (s->measuring > 0 ? s->measuring : s->started);
		double least = s->opt->max_time > 0 ? s->opt->max_time / 10 : 1;
		const struct pp_settle_how how = {
		    .layer = PP_LAYER_CONFIRM, .deadline = now + (spent > least ? spent : least)};
		int err = pp_settle(s, &q, 1, &how);

		if (err)
			return err;
	}
	return conclude(s, q);
}
