// SPDX-License-Identifier: MIT
/*
 * changes.c - pinpoint --changes FILE: the --history file read whole, its
 * sessions made into series per entry and machine (nights.c), each
 * series' change points found (edivisive.c), then one line per change
 * point on stdout and --json.  Nothing is built or run.
 *
 *   run on nightly-1: SLOWER by +3.02% [+2.41%, +3.63%] (+1.51 ms [+1.2 ms, +1.81 ms]),
 *   p 3.1e-12: from night 30 (2025-01-30 02:00 UTC) on, after night 29 (...) of 60;
 *   commits 1a2b3c4d5e6f..7f8e9d0c1b2a
 *
 * (one line).  Nights are numbered from 0, oldest first, as in the JSON.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "core/util.h"
#include "pinpoint/changes/changes.h"
#include "pinpoint/log.h"
#include "pinpoint/report/report.h"

void pp_change_pct(const struct pp_change *c, double pct[3])
{
	double base = c->cp.mean[0];

	pct[0] = 100 * c->cp.diff / base;
	pct[1] = 100 * c->cp.low / base;
	pct[2] = 100 * c->cp.high / base;
}

void pp_change_commits(const struct pp_change *c, const char **from, const char **to)
{
	const struct pp_history_entry *before = c->s->night[c->cp.index - 1];
	const struct pp_history_entry *after = c->s->night[c->cp.index];

	*from = before->commit[PP_CUR];
	/* against the night before, the first night after compared with the last before */
	if (!**from && c->s->kind == PP_NIGHTS_CURRENT)
		*from = after->commit[PP_PREV];
	*to = after->commit[PP_CUR];
}

/* A night's time, "2025-01-30 02:00 UTC". */
static const char *fmt_time(double t, char *buf, size_t len)
{
	time_t sec = (time_t)floor(t);
	struct tm tm;

	if (!isfinite(t) || !gmtime_r(&sec, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, len, "?");
	return buf;
}

/* A signed time, "+1.51 ms". */
static const char *fmt_signed(double ns, char *buf, size_t len)
{
	char t[32];

	pp_fmt_ns(ns, t, sizeof(t));
	snprintf(buf, len, "%s%s", ns > 0 && isfinite(ns) ? "+" : "", t);
	return buf;
}

/* @c's line on stdout. */
static void print_change(const struct pp_change *c)
{
	const struct pp_nights *s = c->s;
	const struct pp_cp *cp = &c->cp;
	char d[48], lo[48], hi[48], before[48], after[48], p[32];
	const char *from, *to;
	double pct[3];

	pp_change_pct(c, pct);
	pp_change_commits(c, &from, &to);
	if (cp->p >= 1e-4)
		snprintf(p, sizeof(p), "%.4f", cp->p);
	else
		snprintf(p, sizeof(p), "%.2g", cp->p);
	printf("%s %s%s%s: %s by %+.2f%% [%+.2f%%, %+.2f%%] (%s [%s, %s]), p %s: from night %zu "
	       "(%s) on, after night %zu (%s) of %zu",
	       s->entry, *s->machine ? "on " : "(machine not recorded)", s->machine,
	       s->kind == PP_NIGHTS_RATIO ? ", against one baseline" : "",
	       cp->diff > 0 ? "SLOWER" : "faster", pct[0], pct[1], pct[2],
	       fmt_signed(cp->diff, d, sizeof(d)), fmt_signed(cp->low, lo, sizeof(lo)),
	       fmt_signed(cp->high, hi, sizeof(hi)), p, cp->index,
	       fmt_time(s->night[cp->index]->time, after, sizeof(after)), cp->index - 1,
	       fmt_time(s->night[cp->index - 1]->time, before, sizeof(before)), s->n);
	if (*from || *to)
		printf("; commits %.12s..%.12s", *from ? from : "?", *to ? to : "?");
	putchar('\n');
}

/*
 * Whether @inv is of @c: the same entry and machine, and the nights either
 * side of @c within those the investigation's range ran over (from the last
 * night before its change to the last of the new level then), so that a
 * change point that moves by a night as nights are added is still the one
 * investigated.
 */
static bool inv_of(const struct pp_changes *ch, const struct pp_history_inv *inv,
		   const struct pp_change *c)
{
	double before = c->s->night[c->cp.index - 1]->time, after = c->s->night[c->cp.index]->time;
	double last =
	    isfinite(inv->last_time) ? fmax(inv->last_time, inv->after_time) : inv->after_time;

	return !strcmp(ch->h->entry[inv->entry_no], c->s->entry) &&
	       !strcmp(inv->machine, c->s->machine) && inv->before_time < after && before < last;
}

/* Each slower change point's latest investigation in the history, if any. */
static void match_investigations(struct pp_changes *ch)
{
	for (size_t i = 0; i < ch->nc; i++)
		for (size_t k = 0; ch->c[i].cp.diff > 0 && k < ch->h->ninv; k++)
			if (inv_of(ch, &ch->h->inv[k], &ch->c[i]))
				ch->c[i].inv = &ch->h->inv[k];
}

/* What @c's investigation found, one line after the change point's. */
static void print_inv(const struct pp_change *c)
{
	const struct pp_history_inv *v = c->inv;
	char when[48];

	if (c->new_inv)
		printf("  investigated now: ");
	else
		printf("  investigated %s: ", fmt_time(v->time, when, sizeof(when)));
	if (v->status == PP_EXIT_REGRESSION)
		printf("first slower commit %.12s%s%s\n", *v->first_slower ? v->first_slower : "?",
		       v->call ? ", the call: " : "", v->call ? v->call : "");
	else if (v->status == PP_EXIT_NO_REGRESSION)
		printf("%.12s is not slower than %.12s: the change is not in the code between "
		       "them\n",
		       v->to, v->from);
	else if (v->why)
		printf("not run: %s\n", v->why);
	else if (v->status == PP_EXIT_USAGE)
		printf("--commits %.12s..%.12s could not start (a usage error, or the first commit "
		       "does not build)\n",
		       v->from, v->to);
	else
		printf("--commits %.12s..%.12s ended with exit status %d\n", v->from, v->to,
		       v->status);
}

/*
 * --investigate: every slower change point without an investigation run
 * through --commits (investigate.c), what it found appended to the
 * history.  Its exit status (changes.h).
 */
static int investigate(struct pp_changes *ch, const struct pp_options *opt)
{
	bool failed = false, undecided = false, found = false;
	struct utsname u;

	ch->ran = calloc(ch->nc ? ch->nc : 1, sizeof(*ch->ran));
	if (!ch->ran)
		return PP_EXIT_MEASUREMENT;
	if (uname(&u))
		u.nodename[0] = 0;
	for (size_t i = 0; i < ch->nc; i++) {
		struct pp_change *c = &ch->c[i];
		struct pp_history_inv *v = &ch->ran[ch->nran];
		int err;

		if (c->cp.diff <= 0 || c->inv)
			continue;
		/* another machine's nights: its own runner investigates them, there */
		if (*c->s->machine && strcmp(c->s->machine, u.nodename)) {
			printf("%s on %s: slower from night %zu on, not investigated here (%s): "
			       "--investigate on %s runs it\n",
			       c->s->entry, c->s->machine, c->cp.index, u.nodename, c->s->machine);
			continue;
		}
		err = pp_investigate(opt, c, v);
		if (err) {
			pp_history_inv_free(v);
			pr_err("cannot investigate %s: %s", c->s->entry, strerror(-err));
			failed = true;
			continue;
		}
		ch->nran++;
		c->inv = v;
		c->new_inv = true;
		print_change(c);
		print_inv(c);
		if (v->status == PP_EXIT_INTERRUPTED)
			return PP_EXIT_INTERRUPTED;
		if (v->status == PP_EXIT_UNDECIDED || v->status == PP_EXIT_MEASUREMENT ||
		    v->status > PP_EXIT_UNDECIDED) {
			printf("  not recorded: the next --investigate runs it again\n");
			failed |= v->status != PP_EXIT_UNDECIDED;
			undecided |= v->status == PP_EXIT_UNDECIDED;
			continue;
		}
		found = true;
		err = pp_history_append_inv(ch->history, c->s->entry, v);
		if (err) {
			pr_err("cannot append to the history %s: %s", ch->history, strerror(-err));
			failed = true;
		}
	}
	return failed	   ? PP_EXIT_MEASUREMENT
	       : found	   ? PP_EXIT_REGRESSION
	       : undecided ? PP_EXIT_UNDECIDED
			   : PP_EXIT_NO_REGRESSION;
}

/* The change points of every series long enough into ch->c. */
static int find(struct pp_changes *ch)
{
	for (size_t i = 0; i < ch->ns; i++) {
		const struct pp_nights *s = &ch->s[i];
		struct pp_change *nc;
		struct pp_cp *cp;
		long k = pp_edivisive(s->x, s->n, &ch->par, &cp);

		if (k < 0)
			return (int)k;
		nc = k ? realloc(ch->c, (ch->nc + (size_t)k) * sizeof(*nc)) : ch->c;
		if (k && !nc) {
			free(cp);
			return -ENOMEM;
		}
		ch->c = nc;
		for (long j = 0; j < k; j++)
			ch->c[ch->nc++] = (struct pp_change){.s = s, .cp = cp[j]};
		free(cp);
	}
	return 0;
}

/* Nights a series needs for a change point: min_seg on either side. */
static size_t min_nights(const struct pp_changes *ch)
{
	return 2 * ch->par.min_seg;
}

/* The summary line, or the line of a history too short to tell: exit status 4 then, else 0. */
static int summary(const struct pp_changes *ch)
{
	size_t nights = 0, longest = 0, usable = 0, slower = 0;
	const struct pp_nights *best = NULL;

	for (size_t i = 0; i < ch->ns; i++) {
		nights += ch->s[i].n;
		usable += ch->s[i].n >= min_nights(ch);
		if (!best || ch->s[i].n > longest) {
			best = &ch->s[i];
			longest = best->n;
		}
	}
	for (size_t i = 0; i < ch->nc; i++)
		slower += ch->c[i].cp.diff > 0;
	if (!usable) {
		printf("Undecided: no series of %s has the %zu nights a change point needs (the "
		       "longest: %zu of %s%s%s).\n",
		       ch->history, min_nights(ch), longest, best->entry,
		       *best->machine ? " on " : "", best->machine);
		return PP_EXIT_UNDECIDED;
	}
	if (ch->nc)
		printf("Change points: %zu (%zu slower) in %zu series of %zu nights", ch->nc,
		       slower, usable, nights);
	else
		printf("No change point in %zu series of %zu nights", usable, nights);
	if (usable < ch->ns)
		printf("; %zu series shorter than %zu nights left out", ch->ns - usable,
		       min_nights(ch));
	printf(" (E-Divisive means, p <= %g).\n", ch->par.p_max);
	return 0;
}

/*
 * Why @ch has no series at all: one error line and exit status 2, or, for
 * a history with no line yet, undecided (4).
 */
static int no_series(const struct pp_changes *ch, const struct pp_history *h)
{
	if (ch->entry && h->n) {
		pr_err("%s: no session of entry %s (%zu entr%s: %s%s)", ch->history, ch->entry,
		       h->nentry, h->nentry == 1 ? "y" : "ies", h->entry[0],
		       h->nentry > 1 ? ", ..." : "");
		return PP_EXIT_USAGE;
	}
	if (h->bad) {
		pr_err("%s: not a pinpoint history: none of its %zu lines is a session's",
		       ch->history, h->bad);
		return PP_EXIT_USAGE;
	}
	printf("Undecided: no session in %s yet.\n", ch->history);
	return PP_EXIT_UNDECIDED;
}

int pp_changes_run(const struct pp_options *opt)
{
	struct pp_changes ch = {
	    .history = opt->changes, .entry = opt->entry, .par = PP_CPD_DEFAULTS};
	struct pp_history h;
	char msg[PATH_MAX + 64];
	int err, code;

	if (opt->investigate && pp_investigate_check_owner(opt->changes))
		return PP_EXIT_USAGE;
	err = pp_history_read(opt->changes, &h);
	ch.h = &h;
	if (err) {
		pr_err("cannot read the history %s: %s", opt->changes, strerror(-err));
		code = PP_EXIT_USAGE;
		goto out;
	}
	ch.bad = h.bad;
	err = pp_nights_make(&h, opt->entry, &ch.s, &ch.ns);
	if (!err)
		err = find(&ch);
	if (err) {
		pr_err("%s: %s", opt->changes, strerror(-err));
		code = err == -ENOMEM ? PP_EXIT_MEASUREMENT : PP_EXIT_USAGE;
		goto out;
	}
	if (!ch.ns) {
		code = no_series(&ch, &h);
		goto out;
	}
	match_investigations(&ch);
	for (size_t i = 0; i < ch.nc; i++) {
		print_change(&ch.c[i]);
		if (ch.c[i].inv)
			print_inv(&ch.c[i]);
	}
	code = summary(&ch);
	if (!code)
		for (size_t i = 0; i < ch.nc && !code; i++)
			code = ch.c[i].cp.diff > 0 ? PP_EXIT_REGRESSION : 0;
	if (opt->investigate) {
		int inv = investigate(&ch, opt);

		code = inv == PP_EXIT_NO_REGRESSION && code == PP_EXIT_UNDECIDED ? code : inv;
	}
	if (opt->json && (err = pp_changes_json_write(&ch, opt->json))) {
		pr_err("%s", pp_write_failure(err, opt->json, msg, sizeof(msg)));
		code = PP_EXIT_MEASUREMENT;
	}
out:
	pp_nights_free(ch.s, ch.ns);
	free(ch.c);
	for (size_t i = 0; i < ch.nran; i++)
		pp_history_inv_free(&ch.ran[i]);
	free(ch.ran);
	pp_history_free(&h);
	return code;
}
