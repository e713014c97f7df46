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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json_string.h"
#include "pinpoint/decide.h"
#include "pinpoint/history.h"
#include "pinpoint/outcome.h"
#include "pinpoint/report/report.h"

static void put_num(FILE *f, const char *key, double v)
{
	if (isfinite(v))
		fprintf(f, ",\"%s\":%.17g", key, v);
	else
		fprintf(f, ",\"%s\":null", key);
}

static void put_line(FILE *f, const struct pp_outcome *o)
{
	const struct pp_outcome_cmp *e = o->entry;

	fprintf(f, "{\"time\":%.3f,\"entry\":", o->s->started_wall);
	pp_json_put_string(f, o->opt->entry);
	fputs(",\"previous\":", f);
	pp_json_put_string(f, o->dir[PP_PREV]);
	fputs(",\"current\":", f);
	pp_json_put_string(f, o->dir[PP_CUR]);
	fprintf(f, ",\"verdict\":\"%s\",\"status\":%d", o->verdict_name, o->status);
	if (o->decided) {
		for (int r = 0; r < 2; r++) {
			struct pp_interval iv = e->ci[r];
			char key[32];

			snprintf(key, sizeof(key), "%s_ns", r ? "current" : "previous");
			put_num(f, key, iv.centre);
			snprintf(key, sizeof(key), "%s_low_ns", r ? "current" : "previous");
			put_num(f, key, iv.low);
			snprintf(key, sizeof(key), "%s_high_ns", r ? "current" : "previous");
			put_num(f, key, iv.high);
		}
		put_num(f, "diff_ns", e->cmp.diff.centre);
		put_num(f, "diff_low_ns", e->cmp.diff.low);
		put_num(f, "diff_high_ns", e->cmp.diff.high);
		put_num(f, "threshold_ns", e->threshold_ns);
		fprintf(f, ",\"runs\":[%zu,%zu]", e->q->series[PP_PREV].n, e->q->series[PP_CUR].n);
	}
	if (o->chain_call) {
		fputs(",\"call\":", f);
		pp_json_put_string(f, o->chain_call->label);
	}
	fputs("}\n", f);
}

int pp_history_append(const struct pp_outcome *o, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int fd, err = 0;
	ssize_t n;

	if (!m)
		return -ENOMEM;
	put_line(m, o);
	if (fclose(m)) {
		free(buf);
		return -ENOMEM;
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	n = write(fd, buf, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
out:
	free(buf);
	return err;
}

/* The number after "key": in @line; NAN when missing or null. */
static double get_num(const char *line, const char *key)
{
	char pat[48];
	const char *p;
	char *end;
	double v;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(line, pat);
	if (!p)
		return NAN;
	p += strlen(pat);
	v = strtod(p, &end);
	return end == p ? NAN : v;
}

/* The string after "key": in @line, when it has no escapes, in @buf. */
static int get_str(const char *line, const char *key, char *buf, size_t size)
{
	char pat[48];
	const char *p, *q;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(line, pat);
	if (!p)
		return -ENOENT;
	p += strlen(pat);
	for (q = p; *q && *q != '"'; q++)
		if (*q == '\\')
			return -EINVAL;
	if (*q != '"' || (size_t)(q - p) >= size)
		return -EINVAL;
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = 0;
	return 0;
}

/* Whether the "entry" of @line is @entry (compared as the JSON writer spells it). */
static bool same_entry(const char *line, const char *entry)
{
	char *want = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&want, &len);
	bool same;

	if (!m)
		return false;
	fputs("\"entry\":", m);
	pp_json_put_string(m, entry);
	fputc(',', m);
	fclose(m);
	same = want && strstr(line, want);
	free(want);
	return same;
}

void pp_history_entry_of(const struct pp_outcome *o, struct pp_history_entry *e)
{
	const struct pp_outcome_cmp *c = o->entry;

	memset(e, 0, sizeof(*e));
	e->time = o->s->started_wall;
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

long pp_history_load(const char *path, const char *entry, struct pp_history_entry **out,
		     size_t *bad)
{
	struct pp_history_entry *v = NULL;
	size_t n = 0, cap = 0;
	char *line = NULL;
	size_t lcap = 0;
	FILE *f;

	*out = NULL;
	*bad = 0;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &lcap, f) > 0) {
		struct pp_history_entry e = {0};

		if (line[0] != '{' || get_str(line, "verdict", e.verdict, sizeof(e.verdict)) ||
		    !isfinite(e.time = get_num(line, "time"))) {
			(*bad)++;
			continue;
		}
		if (!same_entry(line, entry))
			continue;
		e.status = (int)get_num(line, "status");
		e.prev_ns = get_num(line, "previous_ns");
		e.prev_low = get_num(line, "previous_low_ns");
		e.prev_high = get_num(line, "previous_high_ns");
		e.cur_ns = get_num(line, "current_ns");
		e.cur_low = get_num(line, "current_low_ns");
		e.cur_high = get_num(line, "current_high_ns");
		e.diff_ns = get_num(line, "diff_ns");
		e.diff_low = get_num(line, "diff_low_ns");
		e.diff_high = get_num(line, "diff_high_ns");
		e.threshold_ns = get_num(line, "threshold_ns");
		if (n == cap) {
			struct pp_history_entry *nv =
			    realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!nv) {
				free(v);
				free(line);
				fclose(f);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = e;
	}
	free(line);
	fclose(f);
	*out = v;
	return (long)n;
}
