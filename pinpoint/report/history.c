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
#include <limits.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/json.h"
#include "core/util.h"
#include "pinpoint/log.h"
#include "pinpoint/report/history.h"
#include "pinpoint/report/report.h"
#include "pinpoint/session/options.h"

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

/* A revision's commit, or null. */
static json_t *commit_json(const struct pp_outcome_rev *rev)
{
	return rev->commit ? pp_json_str(rev->commit) : json_null();
}

/* The directory the user named for @rev (not its instrumented copy). */
static const char *named_dir(const struct pp_outcome_rev *rev)
{
	return rev->built_from ? rev->built_from : rev->dir;
}

/* What --investigate runs --commits with: the session's command line and where it ran. */
static json_t *rerun_json(const struct pp_outcome *oc)
{
	struct pp_argv a = {0};
	char cwd[PATH_MAX];
	json_t *argv;

	if (oc->opt.model || oc->opt.replay || !getcwd(cwd, sizeof(cwd)) ||
	    pp_options_argv(&oc->opt, &a))
		goto none;
	argv = json_array();
	for (size_t i = 0; i < a.n; i++)
		argv = pp_json_push(argv, pp_json_str(a.v[i]));
	pp_argv_free(&a);
	return pp_json_object("cwd", pp_json_str(cwd), "argv", argv, NULL);
none:
	pp_argv_free(&a);
	return json_null();
}

/* The session's history line (history.h). */
static json_t *line_json(const struct pp_outcome *oc)
{
	const struct pp_outcome_rev *prev = &oc->rev[PP_PREV], *cur = &oc->rev[PP_CUR];
	struct pp_history_entry e;
	json_t *o;

	pp_history_entry_of(oc, &e);
	o = pp_json_object("time", pp_json_real(round(e.time * 1000) / 1000), "entry",
			   pp_json_str(oc->opt.entry), "previous", pp_json_str(named_dir(prev)),
			   "current", pp_json_str(named_dir(cur)), "machine",
			   *e.machine ? pp_json_str(e.machine) : json_null(), "previous_commit",
			   commit_json(prev), "current_commit", commit_json(cur), "verdict",
			   pp_json_str(e.verdict), "status", pp_json_int(e.status), NULL);
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
	o = pp_json_set(o, "label", pp_json_str(oc->opt.label));
	o = pp_json_set(o, "baseline", pp_json_bool(oc->opt.baseline));
	return pp_json_set(o, "rerun", rerun_json(oc));
}

void pp_history_entry_of(const struct pp_outcome *o, struct pp_history_entry *e)
{
	const struct pp_outcome_cmp *c = o->entry;
	struct utsname u;

	memset(e, 0, sizeof(*e));
	e->time = o->started_wall;
	snprintf(e->verdict, sizeof(e->verdict), "%s", o->verdict_name);
	e->status = o->status;
	e->prev_ns = e->prev_low = e->prev_high = NAN;
	e->cur_ns = e->cur_low = e->cur_high = NAN;
	e->diff_ns = e->diff_low = e->diff_high = e->threshold_ns = NAN;
	/* as the line is read back (parse_line()) */
	if (!uname(&u))
		snprintf(e->machine, sizeof(e->machine), "%s", u.nodename);
	for (int r = 0; r < 2; r++)
		if (o->rev[r].commit)
			snprintf(e->commit[r], sizeof(e->commit[r]), "%s", o->rev[r].commit);
	e->previous_hash = pp_str_hash(named_dir(&o->rev[PP_PREV]));
	if (o->opt.label)
		snprintf(e->label, sizeof(e->label), "%s", o->opt.label);
	e->baseline = o->opt.baseline;
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

/*
 * @line and a newline appended to @path in one write(), under a write lock
 * of the whole file (released when the descriptor closes).  0 or -errno.
 */
static int append_line(const char *path, json_t *line)
{
	struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	char *buf = line ? json_dumps(line, JSON_COMPACT | PP_JSON_REALS) : NULL;
	size_t len;
	int fd, err = 0;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	len = strlen(buf);
	buf[len] = '\n'; /* in place of the NUL: one write() of the whole line */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	/* a file system without locks still gets the line: O_APPEND writes it whole */
	while (fcntl(fd, F_SETLKW, &lk) && errno == EINTR)
		;
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

int pp_history_append(const struct pp_outcome *o, const char *path)
{
	json_t *line = line_json(o);
	int err = append_line(path, line);

	json_decref(line);
	return err;
}

void pp_history_inv_free(struct pp_history_inv *inv)
{
	free(inv->call);
	free(inv->why);
	inv->call = inv->why = NULL;
}

/* A commit, or null when "". */
static json_t *hash_json(const char *hash)
{
	return *hash ? pp_json_str(hash) : json_null();
}

int pp_history_append_inv(const char *path, const char *entry, const struct pp_history_inv *inv)
{
	json_t *line = pp_json_object(
	    "time", pp_json_real(round(inv->time * 1000) / 1000), "entry", pp_json_str(entry),
	    "machine", *inv->machine ? pp_json_str(inv->machine) : json_null(), "investigation",
	    pp_json_object("before_time", pp_json_real(inv->before_time), "after_time",
			   pp_json_real(inv->after_time), "last_time",
			   isfinite(inv->last_time) ? pp_json_real(inv->last_time) : json_null(),
			   "from", hash_json(inv->from), "to", hash_json(inv->to), "status",
			   pp_json_int(inv->status), "first_slower", hash_json(inv->first_slower),
			   "call", pp_json_str(inv->call), "why", pp_json_str(inv->why), NULL),
	    NULL);
	int err = append_line(path, line);

	json_decref(line);
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

/* The string at @key of @o, malloc'ed, or NULL (*@err -ENOMEM when out of memory). */
static char *dup_str(const json_t *o, const char *key, int *err)
{
	const json_t *v = json_object_get(o, key);
	char *d = json_is_string(v) ? strdup(json_string_value(v)) : NULL;

	if (json_is_string(v) && !d)
		*err = -ENOMEM;
	return d;
}

/* An --investigate line's figures into @inv: 0, or -ENOMEM. */
static int parse_inv(const json_t *o, const json_t *v, struct pp_history_inv *inv)
{
	int err = 0;

	memset(inv, 0, sizeof(*inv));
	inv->time = get_num(o, "time");
	get_str(o, "machine", inv->machine, sizeof(inv->machine));
	inv->before_time = get_num(v, "before_time");
	inv->after_time = get_num(v, "after_time");
	inv->last_time = get_num(v, "last_time");
	get_commit(v, "from", inv->from);
	get_commit(v, "to", inv->to);
	get_commit(v, "first_slower", inv->first_slower);
	inv->status = json_is_integer(json_object_get(v, "status"))
			  ? (int)json_integer_value(json_object_get(v, "status"))
			  : -1;
	inv->call = dup_str(v, "call", &err);
	inv->why = dup_str(v, "why", &err);
	return err;
}

/* Whether @o is an --investigate line: "investigation" an object, with "entry" and "time". */
static bool is_inv(const json_t *o)
{
	return json_is_object(json_object_get(o, "investigation")) &&
	       json_is_string(json_object_get(o, "entry")) && isfinite(get_num(o, "time"));
}

/*
 * @line read into @e when it is a session of @entry (any entry when NULL,
 * its name in *@name then): 1; 2 for an --investigate line (into @inv,
 * with *@name, and only when @entry is NULL); 0 when it is one of another
 * entry (or an --investigate line read for one entry); or -EINVAL with
 * what is wrong with it in @why.
 */
static int parse_line(const char *line, const json_t *entry, struct pp_history_entry *e,
		      struct pp_history_inv *inv, const char **name, char *why, size_t len)
{
	json_error_t jerr;
	json_t *o = json_loads(line, 0, &jerr);
	const json_t *verdict = json_object_get(o, "verdict");
	const json_t *ent = json_object_get(o, "entry");
	const json_t *machine = json_object_get(o, "machine");
	const json_t *prev = json_object_get(o, "previous");
	const json_t *rerun = json_object_get(o, "rerun");
	int ret = -EINVAL;

	if (!o)
		snprintf(why, len, "%s", jerr.text);
	else if (!json_is_object(o))
		snprintf(why, len, "not a JSON object");
	else if (json_is_string(machine) && json_string_length(machine) >= sizeof(e->machine))
		snprintf(why, len, "\"machine\" longer than a host name");
	else if (is_inv(o) && entry)
		ret = 0;
	else if (is_inv(o)) {
		ret = parse_inv(o, json_object_get(o, "investigation"), inv) ?: 2;
		if (ret == 2 && !(*name = strdup(json_string_value(ent))))
			ret = -ENOMEM;
		if (ret < 0)
			pp_history_inv_free(inv);
	} else if (!json_is_string(verdict) || json_string_length(verdict) >= sizeof(e->verdict))
		snprintf(why, len, "no \"verdict\"");
	else if (!isfinite(e->time = get_num(o, "time")))
		snprintf(why, len, "no \"time\"");
	else if (!entry && !json_is_string(ent))
		snprintf(why, len, "no \"entry\"");
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
		get_str(o, "label", e->label, sizeof(e->label));
		e->baseline = json_is_true(json_object_get(o, "baseline"));
		/* only a whole read keeps it: --investigate runs from it */
		e->rerun = name && json_is_object(rerun) ? json_incref((json_t *)rerun) : NULL;
		if (name)
			*name = strdup(json_string_value(ent));
		ret = name && !*name ? -ENOMEM : 1;
		if (ret < 0) {
			json_decref(e->rerun);
			e->rerun = NULL;
		}
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

/* @inv, of entry @k, added to h->inv (taken either way).  0 or -ENOMEM. */
static int push_inv(struct pp_history *h, struct pp_history_inv *inv, size_t k)
{
	struct pp_history_inv *nv = realloc(h->inv, (h->ninv + 1) * sizeof(*nv));

	if (!nv) {
		pp_history_inv_free(inv);
		return -ENOMEM;
	}
	h->inv = nv;
	inv->entry_no = k;
	h->inv[h->ninv++] = *inv;
	return 0;
}

/* The sessions of @path into @h: those of @entry, or of every entry when NULL.  0 or -errno. */
static int load(const char *path, const char *entry, struct pp_history *h)
{
	struct flock rd = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
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
	/* no line half written: appenders hold the write lock (append_line()) */
	while (fcntl(fileno(f), F_SETLKW, &rd) && errno == EINTR)
		;
	errno = 0;
	while ((len = getline(&line, &lcap, f)) > 0) {
		struct pp_history_entry e = {0};
		struct pp_history_inv inv;
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
			got = parse_line(line, want, &e, &inv, entry ? NULL : (const char **)&name,
					 w, sizeof(w));
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
			if (got == 2)
				pp_history_inv_free(&inv);
			json_decref(e.rerun);
			err = (int)k;
			goto out;
		}
		if (got == 2) {
			err = push_inv(h, &inv, (size_t)k);
			if (err)
				goto out;
			continue;
		}
		e.entry_no = (size_t)k;
		if (h->n == cap) {
			struct pp_history_entry *nv =
			    realloc(h->e, (cap = cap ? 2 * cap : 16) * sizeof(*nv));

			if (!nv) {
				json_decref(e.rerun);
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
	for (size_t i = 0; i < h->n; i++)
		json_decref(h->e[i].rerun);
	for (size_t i = 0; i < h->ninv; i++)
		pp_history_inv_free(&h->inv[i]);
	free(h->inv);
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
