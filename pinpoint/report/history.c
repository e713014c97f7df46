// SPDX-License-Identifier: MIT
/*
 * history.c - --history FILE: the entry's figures of each session appended as
 * one JSON line (history.h), and read back for the trend of the HTML report.
 * A line is written with one write() on a file opened O_APPEND, so sessions
 * that finish at the same time do not interleave their lines.  It names the
 * machine (uname's node name) and, where a revision directory is in a git
 * work tree, the commit checked out there, so that --changes keeps each
 * machine's nights apart and names the commits around a change; lines
 * written before those keys read back without them.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/json.h"
#include "core/util.h"
#include "pinpoint/log.h"
#include "pinpoint/report/history.h"
#include "pinpoint/report/report.h"

/* The entry's figures in a history line, the same keys written and read back. */
#define FIGURE(key, field)                                                                         \
	{                                                                                          \
		key, offsetof(struct pp_history_entry, field)                                      \
	}
static const struct {
	const char *key;
	size_t off;
} figures[] = {
    FIGURE("previous_ns", prev_ns),
    FIGURE("previous_low_ns", prev_low),
    FIGURE("previous_high_ns", prev_high),
    FIGURE("current_ns", cur_ns),
    FIGURE("current_low_ns", cur_low),
    FIGURE("current_high_ns", cur_high),
    FIGURE("diff_ns", diff_ns),
    FIGURE("diff_low_ns", diff_low),
    FIGURE("diff_high_ns", diff_high),
    FIGURE("threshold_ns", threshold_ns),
};
#undef FIGURE

static double *figure(struct pp_history_entry *e, size_t i)
{
	return (double *)((char *)e + figures[i].off);
}

/* The commit checked out where @dir is, or null. */
static json_t *commit_json(const char *dir)
{
	char hash[PP_GIT_HASH_LEN];

	return dir && !pp_git_head(dir, hash) ? pp_json_str(hash) : json_null();
}

/* The session's history line (history.h). */
static json_t *line_json(const struct pp_outcome *oc)
{
	struct pp_history_entry e;
	struct utsname u;
	json_t *o;

	pp_history_entry_of(oc, &e);
	o = pp_json_object(
	    "time", pp_json_real(round(e.time * 1000) / 1000), "entry", pp_json_str(oc->opt.entry),
	    "previous", pp_json_str(oc->rev[PP_PREV].dir), "current",
	    pp_json_str(oc->rev[PP_CUR].dir), "machine",
	    uname(&u) ? json_null() : pp_json_str(u.nodename), "previous_commit",
	    commit_json(oc->rev[PP_PREV].dir), "current_commit", commit_json(oc->rev[PP_CUR].dir),
	    "verdict", pp_json_str(e.verdict), "status", pp_json_int(e.status), NULL);
	if (oc->decided) {
		const struct pp_outcome_cmp *q = oc->entry;

		for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
			o = pp_json_set(o, figures[i].key, pp_json_real(*figure(&e, i)));
		o = pp_json_set(
		    o, "runs",
		    pp_json_push(
			pp_json_push(json_array(), pp_json_int((long long)q->series[PP_PREV].n)),
			pp_json_int((long long)q->series[PP_CUR].n)));
	}
	if (oc->chain_call)
		o = pp_json_set(o, "call", pp_json_str(oc->chain_call->label));
	return o;
}

void pp_history_entry_of(const struct pp_outcome *o, struct pp_history_entry *e)
{
	const struct pp_outcome_cmp *c = o->entry;

	memset(e, 0, sizeof(*e));
	e->time = o->started_wall;
	snprintf(e->verdict, sizeof(e->verdict), "%s", o->verdict_name);
	e->status = o->status;
	e->prev_ns = e->prev_low = e->prev_high = NAN;
	e->cur_ns = e->cur_low = e->cur_high = NAN;
	e->diff_ns = e->diff_low = e->diff_high = e->threshold_ns = NAN;
	if (!o->decided)
		return;
	e->prev_ns = c->ci[PP_PREV].centre;
	e->prev_low = c->ci[PP_PREV].low;
	e->prev_high = c->ci[PP_PREV].high;
	e->cur_ns = c->ci[PP_CUR].centre;
	e->cur_low = c->ci[PP_CUR].low;
	e->cur_high = c->ci[PP_CUR].high;
	e->diff_ns = c->cmp.diff.centre;
	e->diff_low = c->cmp.diff.low;
	e->diff_high = c->cmp.diff.high;
	e->threshold_ns = c->threshold_ns;
}

int pp_history_append(const struct pp_outcome *o, const char *path)
{
	json_t *line = line_json(o);
	char *buf = line ? json_dumps(line, JSON_COMPACT | PP_JSON_REALS) : NULL;
	size_t len;
	int fd, err = 0;
	ssize_t n;

	json_decref(line);
	if (!buf)
		return -ENOMEM;
	len = strlen(buf);
	buf[len] = '\n'; /* in place of the NUL: one write() of the whole line */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	n = write(fd, buf, len + 1);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len + 1)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
out:
	free(buf);
	return err;
}

/* The number at @key of @o; NAN when it is missing, null or not a number. */
static double get_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The string at @key of @o into @buf when it fits; "" when missing, null or not a string. */
static void get_str(const json_t *o, const char *key, char *buf, size_t len)
{
	const json_t *v = json_object_get(o, key);

	buf[0] = 0;
	if (json_is_string(v) && json_string_length(v) < len)
		memcpy(buf, json_string_value(v), json_string_length(v) + 1);
}

/* A revision's commit at @key of @o into @hash: "" unless a full hexadecimal name. */
static void get_commit(const json_t *o, const char *key, char hash[PP_GIT_HASH_LEN])
{
	get_str(o, key, hash, PP_GIT_HASH_LEN);
	if (!pp_git_full_hash(hash))
		hash[0] = 0;
}

/*
 * @line read into @e when it is a session of @entry (any entry when NULL,
 * its name in *@name then): 1, 0 when it is one of another entry, or
 * -EINVAL with what is wrong with it in @why.
 */
static int parse_line(const char *line, const json_t *entry, struct pp_history_entry *e,
		      const char **name, char *why, size_t len)
{
	json_error_t jerr;
	json_t *o = json_loads(line, 0, &jerr);
	const json_t *verdict = json_object_get(o, "verdict");
	const json_t *ent = json_object_get(o, "entry");
	const json_t *machine = json_object_get(o, "machine");
	const json_t *prev = json_object_get(o, "previous");
	int ret = -EINVAL;

	if (!o)
		snprintf(why, len, "%s", jerr.text);
	else if (!json_is_object(o))
		snprintf(why, len, "not a JSON object");
	else if (!json_is_string(verdict) || json_string_length(verdict) >= sizeof(e->verdict))
		snprintf(why, len, "no \"verdict\"");
	else if (!isfinite(e->time = get_num(o, "time")))
		snprintf(why, len, "no \"time\"");
	else if (!entry && !json_is_string(ent))
		snprintf(why, len, "no \"entry\"");
	else if (json_is_string(machine) && json_string_length(machine) >= sizeof(e->machine))
		snprintf(why, len, "\"machine\" longer than a host name");
	else if (entry && !json_equal(ent, entry))
		ret = 0;
	else {
		snprintf(e->verdict, sizeof(e->verdict), "%s", json_string_value(verdict));
		e->status = json_is_integer(json_object_get(o, "status"))
				? (int)json_integer_value(json_object_get(o, "status"))
				: -1;
		for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
			*figure(e, i) = get_num(o, figures[i].key);
		get_str(o, "machine", e->machine, sizeof(e->machine));
		get_commit(o, "previous_commit", e->commit[PP_PREV]);
		get_commit(o, "current_commit", e->commit[PP_CUR]);
		e->previous_hash = json_is_string(prev) ? pp_str_hash(json_string_value(prev)) : 0;
		if (name)
			*name = strdup(json_string_value(ent));
		ret = name && !*name ? -ENOMEM : 1;
	}
	json_decref(o);
	return ret;
}

static bool blank(const char *s)
{
	return !s[strspn(s, " \t\r\n")];
}

/* @name's index in h->entry, added when new (@name is taken either way); -ENOMEM. */
static long entry_index(struct pp_history *h, char *name)
{
	char **nv;

	for (size_t i = 0; i < h->nentry; i++)
		if (!strcmp(h->entry[i], name)) {
			free(name);
			return (long)i;
		}
	nv = realloc(h->entry, (h->nentry + 1) * sizeof(*nv));
	if (!nv) {
		free(name);
		return -ENOMEM;
	}
	h->entry = nv;
	h->entry[h->nentry] = name;
	return (long)h->nentry++;
}

/* The sessions of @path into @h: those of @entry, or of every entry when NULL.  0 or -errno. */
static int load(const char *path, const char *entry, struct pp_history *h)
{
	size_t cap = 0, lineno = 0, first_bad = 0, lcap = 0;
	char *line = NULL, why[JSON_ERROR_TEXT_LENGTH + 32] = "";
	json_t *want = entry ? pp_json_str(entry) : NULL;
	int err = 0;
	ssize_t len;
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (entry && !want)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		json_decref(want);
		return -errno;
	}
	errno = 0;
	while ((len = getline(&line, &lcap, f)) > 0) {
		struct pp_history_entry e = {0};
		char w[sizeof(why)], *name = NULL;
		long k = 0;
		int got;

		lineno++;
		if (strlen(line) != (size_t)len) {
			snprintf(w, sizeof(w), "a NUL byte");
			got = -EINVAL;
		} else if (blank(line)) {
			continue;
		} else {
			got = parse_line(line, want, &e, entry ? NULL : (const char **)&name, w,
					 sizeof(w));
		}
		if (got == -ENOMEM) {
			err = got;
			goto out;
		}
		if (got < 0 && !h->bad++) {
			first_bad = lineno;
			memcpy(why, w, sizeof(why));
		}
		if (got <= 0)
			continue;
		if (name && (k = entry_index(h, name)) < 0) {
			err = (int)k;
			goto out;
		}
		e.entry_no = (size_t)k;
		if (h->n == cap) {
			struct pp_history_entry *nv =
			    realloc(h->e, (cap = cap ? 2 * cap : 16) * sizeof(*nv));

			if (!nv) {
				err = -ENOMEM;
				goto out;
			}
			h->e = nv;
		}
		h->e[h->n++] = e;
	}
	if (ferror(f))
		err = errno ? -errno : -EIO; /* EISDIR, for one */
	if (h->bad)
		pr_warn("%s:%zu: not a pinpoint history line (%s); %zu such line%s skipped", path,
			first_bad, why, h->bad, h->bad == 1 ? "" : "s");
out:
	free(line);
	fclose(f);
	json_decref(want);
	return err;
}

int pp_history_read(const char *path, struct pp_history *h)
{
	return load(path, NULL, h);
}

void pp_history_free(struct pp_history *h)
{
	for (size_t i = 0; i < h->nentry; i++)
		free(h->entry[i]);
	free(h->entry);
	free(h->e);
	memset(h, 0, sizeof(*h));
}

long pp_history_load(const char *path, const char *entry, struct pp_history_entry **out,
		     size_t *bad)
{
	struct pp_history h;
	int err = load(path, entry, &h);

	*out = NULL;
	*bad = h.bad;
	if (err) {
		pp_history_free(&h);
		return err;
	}
	*out = h.e;
	return (long)h.n;
}
