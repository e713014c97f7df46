// SPDX-License-Identifier: MIT
/*
 * changes_json.c - --json of --changes, as doc/changes.schema.json
 * describes it: the method's parameters, every series and every change
 * point with its nights, size, interval, p-value and commits.
 */
#include <errno.h>
#include <stdio.h>

#include "core/json.h"
#include "core/util.h"
#include "pinpoint/changes/changes.h"

static const char *kind_name(enum pp_nights_kind k)
{
	return k == PP_NIGHTS_RATIO ? "ratio" : "current";
}

/* A commit, or null when not known. */
static json_t *commit_json(const char *hash)
{
	return *hash ? pp_json_str(hash) : json_null();
}

/* A night's --label, or null. */
static json_t *label_json(const struct pp_history_entry *e)
{
	return *e->label ? pp_json_str(e->label) : json_null();
}

/* One side of a change: its night next to the change, and its segment. */
static json_t *side_json(const struct pp_change *c, int side)
{
	const struct pp_cp *cp = &c->cp;
	size_t i = side ? cp->index : cp->index - 1;

	return pp_json_object(
	    "index", pp_json_int((long long)i), "time", pp_json_real(c->s->night[i]->time),
	    "nights", pp_json_int((long long)(side ? cp->hi - cp->index : cp->index - cp->lo)),
	    "mean_ns", pp_json_real(cp->mean[side]), "sd_ns", pp_json_real(cp->sd[side]), NULL);
}

/* @c's investigation (investigate.c), or null. */
static json_t *inv_json(const struct pp_change *c)
{
	const struct pp_history_inv *v = c->inv;

	if (!v)
		return json_null();
	return pp_json_object("time", pp_json_real(v->time), "new", pp_json_bool(c->new_inv),
			      "from", commit_json(v->from), "to", commit_json(v->to), "status",
			      pp_json_int(v->status), "first_slower", commit_json(v->first_slower),
			      "call", pp_json_str(v->call), "why", pp_json_str(v->why), NULL);
}

/* The baseline of @s's nights, or null when they were not run with --baseline. */
static json_t *baseline_json(const struct pp_nights *s)
{
	if (!s->baseline)
		return json_null();
	return pp_json_object("commit", commit_json(s->first->commit[PP_PREV]), NULL);
}

static json_t *change_json(const struct pp_change *c)
{
	const struct pp_cp *cp = &c->cp;
	const char *from, *to;
	double pct[3];

	pp_change_pct(c, pct);
	pp_change_commits(c, &from, &to);
	return pp_json_object(
	    "entry", pp_json_str(c->s->entry), "machine",
	    *c->s->machine ? pp_json_str(c->s->machine) : json_null(), "series",
	    pp_json_str(kind_name(c->s->kind)), "direction",
	    pp_json_str(cp->diff > 0 ? "slower" : "faster"), "before", side_json(c, 0), "after",
	    side_json(c, 1), "size_ns", pp_json_interval(cp->diff, cp->low, cp->high), "size_pct",
	    pp_json_interval(pct[0], pct[1], pct[2]), "t", pp_json_real(cp->t), "df",
	    pp_json_real(cp->df), "p_value", pp_json_real(cp->p), "q", pp_json_real(cp->q),
	    "commits", pp_json_object("from", commit_json(from), "to", commit_json(to), NULL),
	    "labels",
	    pp_json_object("before", label_json(c->s->night[cp->index - 1]), "after",
			   label_json(c->s->night[cp->index]), NULL),
	    "baseline", baseline_json(c->s), "investigation", inv_json(c), NULL);
}

static json_t *series_json(const struct pp_changes *ch, const struct pp_nights *s)
{
	size_t k = 0;

	for (size_t i = 0; i < ch->nc; i++)
		k += ch->c[i].s == s;
	return pp_json_object("entry", pp_json_str(s->entry), "machine",
			      *s->machine ? pp_json_str(s->machine) : json_null(), "series",
			      pp_json_str(kind_name(s->kind)), "baseline", baseline_json(s),
			      "nights", pp_json_int((long long)s->n), "undecided",
			      pp_json_int((long long)s->undecided), "change_points",
			      pp_json_int((long long)k), NULL);
}

static json_t *changes_json(const struct pp_changes *ch)
{
	json_t *series = json_array(), *points = json_array();

	for (size_t i = 0; i < ch->ns; i++)
		series = pp_json_push(series, series_json(ch, &ch->s[i]));
	for (size_t i = 0; i < ch->nc; i++)
		points = pp_json_push(points, change_json(&ch->c[i]));
	return pp_json_object("format", pp_json_str("pinpoint-changes"), "version", pp_json_int(1),
			      "history", pp_json_str(ch->history), "entry", pp_json_str(ch->entry),
			      "method",
			      pp_json_object("name", pp_json_str("e-divisive-means-t-test"),
					     "p_max", pp_json_real(ch->par.p_max), "confidence",
					     pp_json_real(ch->par.confidence), "min_nights_a_side",
					     pp_json_int((long long)ch->par.min_seg), NULL),
			      "skipped_lines", pp_json_int((long long)ch->bad), "series", series,
			      "change_points", points, NULL);
}

static void write_json(FILE *f, const void *arg)
{
	if (pp_json_dumpf(arg, f, JSON_INDENT(1)) == 0)
		fputc('\n', f);
}

int pp_changes_json_write(const struct pp_changes *ch, const char *path)
{
	json_t *doc = changes_json(ch);
	int err;

	if (!doc)
		return -ENOMEM;
	err = pp_write_atomic(path, write_json, doc);
	json_decref(doc);
	return err;
}
