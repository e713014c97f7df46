// SPDX-License-Identifier: MIT
/*
 * outcome_confirm.c - the what-if on the chain's claim (search/confirm.c)
 * as the reports give it: its figures, and the one sentence text and HTML
 * print under the chain.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pinpoint/session/outcome_priv.h"

static const char *verdict_name(enum pp_confirm_verdict v)
{
	switch (v) {
	case PP_CONFIRM_NOT_TRIED:
		return "not tried";
	case PP_CONFIRM_CONFIRMED:
		return "confirmed";
	case PP_CONFIRM_EXPLAINS:
		return "explains";
	case PP_CONFIRM_OVERSHOOTS:
		return "overshoots";
	case PP_CONFIRM_OFFSET:
		return "offset";
	case PP_CONFIRM_UNDECIDED:
		return "undecided";
	default:
		return NULL;
	}
}

/* "390 ns at each execution" or "3.9 us at one execution in 10" */
static void how_delayed(const struct pp_outcome_confirm *c, char *buf, size_t len)
{
	char a[32];

	if (c->every > 1)
		snprintf(buf, len, "%s at one execution in %u", pp_fmt_ns(c->delay_ns, a, 32),
			 c->every);
	else
		snprintf(buf, len, "%s at each execution", pp_fmt_ns(c->delay_ns, a, 32));
}

/* "+1.2 us [-0.4 us, 2.9 us]" */
static void interval(const struct pp_interval *i, char *buf, size_t len)
{
	char a[32], b[32], c[32];

	snprintf(buf, len, "%s%s [%s, %s]", i->centre >= 0 ? "+" : "", pp_fmt_ns(i->centre, a, 32),
		 pp_fmt_ns(i->low, b, 32), pp_fmt_ns(i->high, c, 32));
}

/*
 * Where the rest of an "explains" may be: the tree's further contributors
 * (up to three, the largest first: the search measured them beside the
 * chain), or that the search found nothing else slower and what was left
 * open, into @buf.
 */
static void the_rest(const struct pp_outcome *o, char *buf, size_t len)
{
	size_t at;

	if (!o->ncontrib) {
		snprintf(buf, len, "; the search found nothing else slower%s",
			 o->nleft || o->nundecided
			     ? " (the parts it left open are listed below: one may hold it)"
			     : "");
		return;
	}
	at = (size_t)snprintf(buf, len, "; the search's further contributors: ");
	for (size_t k = 0; k < o->ncontrib && k < 3 && at < len; k++) {
		const struct pp_outcome_node *n = &o->nodes[o->contrib[k]];
		char d[32];

		at += (size_t)snprintf(buf + at, len - at, "%s%s +%s", k ? ", " : "", n->name,
				       pp_fmt_ns(n->diff.centre, d, 32));
	}
	if (o->ncontrib > 3 && at < len)
		at += (size_t)snprintf(buf + at, len - at, " and %zu more", o->ncontrib - 3);
	if (o->confirm.continued && at < len)
		snprintf(buf + at, len - at,
			 " (after the what-if, the search went on into %u call%s "
			 "--max-paths had left)",
			 o->confirm.continued, o->confirm.continued == 1 ? "" : "s");
}

static char *sentence(const struct pp_outcome_confirm *c, const struct pp_outcome *o,
		      const struct pp_outcome_cmp *q)
{
	const char *entry = o->entry_name ? o->entry_name : "the entry";
	char how[96], per[512], diff[128], thr[32], share[96], within[160], slow[128], rest[768];
	char *s = NULL;
	int r = -1;

	if (!strcmp(c->verdict_name, "not tried")) {
		r = asprintf(&s, "Not confirmed: %s.", c->why ? c->why : "no what-if was made");
		return r < 0 ? NULL : s;
	}
	how_delayed(c, how, sizeof(how));
	interval(&c->diff, diff, sizeof(diff));
	interval(&c->slowdown, slow, sizeof(slow));
	the_rest(o, rest, sizeof(rest));
	/* "+9.7 ms per execution of run", and where the delay went in place of
	 * the chain's last part, and why */
	{
		char tmp[32];

		if (c->moved && c->claim_node >= 0 && c->claim_node < (int)o->nnodes)
			snprintf(per, sizeof(per), "+%s per execution of %s; in place of %s: %s",
				 pp_fmt_ns(c->claim_ns, tmp, 32), entry,
				 o->nodes[c->claim_node].name, c->moved);
		else
			snprintf(per, sizeof(per), "+%s per execution of %s",
				 pp_fmt_ns(c->claim_ns, tmp, 32), entry);
	}
	pp_fmt_ns(q ? q->threshold_ns : NAN, thr, 32);
	/* the what-if's threshold: the session's, or a fifth of the slowdown (confirm.c) */
	snprintf(within, sizeof(within), "%swithin %s (%s)%s",
		 c->by_estimate ? "its estimate " : "",
		 q && o->entry && q->threshold_ns > o->entry->threshold_ns * (1 + 1e-9)
		     ? "a fifth of the slowdown"
		     : "the threshold",
		 thr, c->by_estimate ? ", its interval no wider than +-half that" : "");
	snprintf(share, sizeof(share), "%.0f %% [%.0f %%, %.0f %%]", 100 * c->explained.centre,
		 100 * c->explained.low, 100 * c->explained.high);
	if (!strcmp(c->verdict_name, "confirmed"))
		r = asprintf(
		    &s,
		    "Confirmed: the previous revision with %s delayed by %s (%s) runs as the "
		    "current one: %s apart, %s; %zu+%zu runs.",
		    c->what, how, per, diff, within, c->runs, c->runs);
	else if (!strcmp(c->verdict_name, "explains"))
		r = asprintf(&s,
			     "Explains %s of the slowdown: with %s delayed by %s (%s), the "
			     "current revision is still slower by %s: something else changed "
			     "too%s; %zu+%zu runs.",
			     share, c->what, how, per, diff, rest, c->runs, c->runs);
	else if (!strcmp(c->verdict_name, "overshoots"))
		r = asprintf(&s,
			     "Overshoots: with %s delayed by %s (%s), the previous revision is "
			     "slower than the current one (%s apart): the chain's figure is more "
			     "than the slowdown, inflated by its measurement (or the slowdown "
			     "moved while it was measured); the part explains at most %s, the "
			     "slowdown these runs show (the delay less the difference); %zu+%zu "
			     "runs.",
			     c->what, how, per, diff, slow, c->runs, c->runs);
	else if (!strcmp(c->verdict_name, "offset"))
		r = asprintf(&s,
			     "Offset: with %s delayed by %s (%s), the previous revision is slower "
			     "than the current one (%s apart), but parts of %s got faster (see "
			     "the improvements below): what they gained stands against the "
			     "claim, which this delay alone cannot tell from a claim too large; "
			     "%zu+%zu runs.",
			     c->what, how, per, diff, entry, c->runs, c->runs);
	else
		r = asprintf(&s,
			     "Not confirmed: with %s delayed by %s (%s), the what-if could not "
			     "decide in its time (as long as the session measured before it, at "
			     "least a tenth of --max-time) or the runs allowed: %s apart, "
			     "explaining %s of the slowdown; %zu+%zu runs.",
			     c->what, how, per, diff, share, c->runs, c->runs);
	return r < 0 ? NULL : s;
}

void pp_outcome_confirm(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s)
{
	struct pp_outcome_confirm *c = &o->confirm;
	const struct pp_confirm *sc = &s->confirm;
	const struct pp_outcome_cmp *q = NULL;

	*c = (struct pp_outcome_confirm){.node = -1,
					 .claim_node = -1,
					 .comparison = -1,
					 .claim_ns = NAN,
					 .execs = NAN,
					 .delay_ns = NAN,
					 .delayed = NAN,
					 .diff = {NAN, NAN, NAN},
					 .explained = {NAN, NAN, NAN},
					 .slowdown = {NAN, NAN, NAN},
					 .sentence = ""};
	c->verdict_name = verdict_name(sc->verdict);
	if (!c->verdict_name)
		return;
	c->why = sc->why;
	c->continued = sc->continued;
	c->node = sc->node;
	c->claim_node = sc->claim_node;
	c->moved = sc->moved;
	c->claim_ns = sc->claim_ns;
	c->execs = sc->execs;
	if (sc->q) {
		q = &o->cmp[sc->q->id];
		c->comparison = (int)sc->q->id;
		c->what = pp_copy_str(m, sc->q->delay_what);
		c->delay_ns = (double)sc->q->delay_ns;
		c->every = sc->q->delay_every ? sc->q->delay_every : 1;
		c->delayed = sc->delayed;
		c->diff = q->cmp.diff;
		c->explained = sc->explained;
		c->runs = q->runs_per_revision;
		c->by_estimate = sc->q->by_estimate;
		/* the delay the runs added, as they counted it (else as asked), and
		 * what the current revision is still slower by: the slowdown */
		{
			double added = isfinite(c->delayed) && c->delayed > 0
					   ? c->delayed * c->delay_ns
					   : c->claim_ns;

			if (isfinite(added) && isfinite(c->diff.centre))
				c->slowdown =
				    (struct pp_interval){added + c->diff.centre,
							 added + c->diff.low, added + c->diff.high};
		}
	}
	c->sentence = pp_copy_take(m, sentence(c, o, q));
	if (!c->sentence)
		c->sentence = "";
}
