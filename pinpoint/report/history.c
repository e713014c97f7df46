// SPDX-License-Identifier: MIT
/*
 * history.c - --history FILE: the entry's figures of each session appended as
 * one JSON line (history.h), and read back for the trend of the HTML report.
 * A line is written with one write() on a file opened O_APPEND, so sessions
 * that finish at the same time do not interleave their lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
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

/* The session's history line (history.h). */
static json_t *line_json(const struct pp_outcome *oc)
{
	struct pp_history_entry e;
	json_t *o;

	pp_history_entry_of(oc, &e);
	o = pp_json_object("time", pp_json_real(round(e.time * 1000) / 1000), "entry",
			   pp_json_str(oc->opt.entry), "previous",
			   pp_json_str(oc->rev[PP_PREV].dir), "current",
			   pp_json_str(oc->rev[PP_CUR].dir), "verdict", pp_json_str(e.verdict),
			   "status", pp_json_int(e.status), NULL);
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

/*
 * @line read into @e when it is a session of @entry: 1, 0 when it is one of
 * another entry, or -EINVAL with what is wrong with it in @why.
 */
static int parse_line(const char *line, const json_t *entry, struct pp_history_entry *e, char *why,
		      size_t len)
{
	json_error_t jerr;
	json_t *o = json_loads(line, 0, &jerr);
	const json_t *verdict = json_object_get(o, "verdict");
	int ret = -EINVAL;

	if (!o)
		snprintf(why, len, "%s", jerr.text);
	else if (!json_is_object(o))
		snprintf(why, len, "not a JSON object");
	else if (!json_is_string(verdict) || json_string_length(verdict) >= sizeof(e->verdict))
		snprintf(why, len, "no \"verdict\"");
	else if (!isfinite(e->time = get_num(o, "time")))
		snprintf(why, len, "no \"time\"");
	else if (!json_equal(json_object_get(o, "entry"), entry))
		ret = 0;
	else {
		snprintf(e->verdict, sizeof(e->verdict), "%s", json_string_value(verdict));
		e->status = json_is_integer(json_object_get(o, "status"))
				? (int)json_integer_value(json_object_get(o, "status"))
				: -1;
		for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
			*figure(e, i) = get_num(o, figures[i].key);
		ret = 1;
	}
	json_decref(o);
	return ret;
}

static bool blank(const char *s)
{
	return !s[strspn(s, " \t\r\n")];
}

long pp_history_load(const char *path, const char *entry, struct pp_history_entry **out,
		     size_t *bad)
{
	struct pp_history_entry *v = NULL;
	size_t n = 0, cap = 0, lineno = 0, first_bad = 0, lcap = 0;
	char *line = NULL, why[JSON_ERROR_TEXT_LENGTH + 32] = "";
	json_t *want = pp_json_str(entry);
	long ret;
	FILE *f;

	*out = NULL;
	*bad = 0;
	if (!want)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		json_decref(want);
		return -errno;
	}
	while (getline(&line, &lcap, f) > 0) {
		struct pp_history_entry e = {0};
		char w[sizeof(why)];
		int got;

		lineno++;
		if (blank(line))
			continue;
		got = parse_line(line, want, &e, w, sizeof(w));
		if (got < 0 && !(*bad)++) {
			first_bad = lineno;
			memcpy(why, w, sizeof(why));
		}
		if (got <= 0)
			continue;
		if (n == cap) {
			struct pp_history_entry *nv =
			    realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!nv) {
				ret = -ENOMEM;
				goto out;
			}
			v = nv;
		}
		v[n++] = e;
	}
	if (*bad)
		pr_warn("%s:%zu: not a pinpoint history line (%s); %zu such line%s skipped", path,
			first_bad, why, *bad, *bad == 1 ? "" : "s");
	*out = v;
	v = NULL;
	ret = (long)n;
out:
	free(v);
	free(line);
	fclose(f);
	json_decref(want);
	return ret;
}
