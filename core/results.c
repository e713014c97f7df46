/* SPDX-License-Identifier: MIT */
/*
 * results.c - parse the results file the runtime writes at exit
 * (doc/formats.md, 3).  The text is untrusted: every line is checked, every
 * number range-checked, and nothing is allocated from a count before the
 * text has shown it can hold that many records.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strtod_l */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pinpoint/protocol.h"
#include "core/results.h"

#define MAX_FILE_SIZE (256u << 20)

struct text {
	const char *p, *end;
	int line;
};

/* A field of a line: a run of non-spaces; fields are separated by one space. */
struct field {
	const char *s;
	size_t len;
};

struct line {
	const char *p, *end;
};

/* The next line (without its '\n'), or 0 at the end of the text. */
static int next_line(struct text *t, struct line *l)
{
	const char *nl;

	if (t->p >= t->end)
		return 0;
	nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
	l->p = t->p;
	l->end = nl ? nl : t->end;
	t->p = nl ? nl + 1 : t->end;
	t->line++;
	return 1;
}

/* 1 and the next field, 0 at the end of the line, -1 for an empty field. */
static int next_field(struct line *l, struct field *f)
{
	const char *sp;

	if (l->p >= l->end)
		return 0;
	sp = memchr(l->p, ' ', (size_t)(l->end - l->p));
	f->s = l->p;
	f->len = (size_t)((sp ? sp : l->end) - l->p);
	l->p = sp ? sp + 1 : l->end;
	if (!f->len || (sp && l->p == l->end))
		return -1; /* double, leading or trailing space */
	return 1;
}

static int is(const struct field *f, const char *word)
{
	return f->len == strlen(word) && !memcmp(f->s, word, f->len);
}

static int parse_u64(const struct field *f, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!f->len)
		return -1;
	for (i = 0; i < f->len; i++) {
		unsigned d = (unsigned char)f->s[i] - '0';

		if (d > 9 || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static size_t digits(const char *s, size_t i, size_t len)
{
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* A finite decimal at least 0, "2.994301" or "3e+09", read in the C locale
 * whatever the caller's locale is. */
static int parse_decimal(const struct field *f, double *out)
{
	size_t i = 0, j;
	char buf[64];
	locale_t c;
	double v;

	if (f->len >= sizeof(buf))
		return -1;
	j = digits(f->s, 0, f->len);
	if (j == 0)
		return -1;
	i = j;
	if (i < f->len && f->s[i] == '.') {
		j = digits(f->s, i + 1, f->len);
		if (j == i + 1)
			return -1;
		i = j;
	}
	if (i < f->len && (f->s[i] == 'e' || f->s[i] == 'E')) {
		i++;
		if (i < f->len && (f->s[i] == '+' || f->s[i] == '-'))
			i++;
		j = digits(f->s, i, f->len);
		if (j == i)
			return -1;
		i = j;
	}
	if (i != f->len)
		return -1;
	memcpy(buf, f->s, f->len);
	buf[f->len] = '\0';
	c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!c)
		return -1;
	v = strtod_l(buf, NULL, c);
	freelocale(c);
	if (!isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* A positive finite decimal. */
static int parse_positive(const struct field *f, double *out)
{
	double v;

	if (parse_decimal(f, &v) || v <= 0)
		return -1;
	*out = v;
	return 0;
}

/* A record or key name: [a-z][a-z0-9_]*. */
static int is_word(const char *s, size_t len)
{
	size_t i;

	if (!len || s[0] < 'a' || s[0] > 'z')
		return 0;
	for (i = 1; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* KEY=VALUE: the key in @key, the value in @val; 0, or -1 when @f is not
 * such a pair. */
static int split_pair(const struct field *f, struct field *key, struct field *val)
{
	const char *eq = memchr(f->s, '=', f->len), *s = f->s, *end = f->s + f->len;

	if (!eq || !is_word(s, (size_t)(eq - s)))
		return -1;
	key->s = s; /* @key may be @f */
	key->len = (size_t)(eq - s);
	val->s = eq + 1;
	val->len = (size_t)(end - val->s);
	return 0;
}

static char *dup_field(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

static int grow(void **arr, size_t n, size_t elem)
{
	void *a;

	/* Grow at powers of two. */
	if (n & (n - 1) || n > SIZE_MAX / 2 / elem)
		return n > SIZE_MAX / 2 / elem ? -ENOMEM : 0;
	a = realloc(*arr, (n ? n * 2 : 1) * elem);
	if (!a)
		return -ENOMEM;
	*arr = a;
	return 0;
}

static int parse_header(struct line *l)
{
	struct field magic, version, extra;
	uint64_t v;

	if (next_field(l, &magic) != 1 || !is(&magic, PP_RESULTS_MAGIC) ||
	    next_field(l, &version) != 1 || parse_u64(&version, INT_MAX, &v) ||
	    next_field(l, &extra) != 0)
		return -EBADMSG;
	return v == PP_RESULTS_VERSION ? 0 : -EPROTO;
}

static int parse_pid(struct pp_results *res, struct line *l, int *seen)
{
	struct field f, extra;
	uint64_t v;

	if (*seen || next_field(l, &f) != 1 || parse_u64(&f, LONG_MAX, &v) || !v ||
	    next_field(l, &extra) != 0)
		return -EBADMSG;
	res->pid = (long)v;
	*seen = 1;
	return 0;
}

static int parse_clock(struct pp_results *res, struct line *l)
{
	struct field name, ticks, extra;

	if (res->clock || next_field(l, &name) != 1 || !is_word(name.s, name.len) ||
	    next_field(l, &ticks) != 1 || parse_positive(&ticks, &res->ticks_per_ns) ||
	    next_field(l, &extra) != 0)
		return -EBADMSG;
	res->clock = dup_field(name.s, name.len);
	return res->clock ? 0 : -ENOMEM;
}

/* overhead plain_ns=X clock_ns=Y bias_ns=Z (and keys of newer writers) */
static int parse_overhead(struct pp_results *res, struct line *l)
{
	static const char *const keys[] = {PP_RES_PLAIN_NS, PP_RES_CLOCK_NS, PP_RES_BIAS_NS};
	double *vals[] = {&res->plain_ns, &res->clock_ns, &res->bias_ns};
	struct field f, key, val;
	unsigned seen = 0;
	int r;

	if (res->has_overhead)
		return -EBADMSG;
	while ((r = next_field(l, &f)) == 1) {
		unsigned i;

		if (split_pair(&f, &key, &val))
			return -EBADMSG;
		for (i = 0; i < 3 && !is(&key, keys[i]); i++)
			;
		if (i == 3)
			continue;
		if ((seen & 1u << i) || parse_decimal(&val, vals[i]))
			return -EBADMSG;
		seen |= 1u << i;
	}
	if (r < 0)
		return -EBADMSG;
	res->has_overhead = 1;
	return 0;
}

/* skipped K */
static int parse_skipped(struct pp_results *res, struct line *l)
{
	struct field f, extra;
	uint64_t v;

	if (res->skipped || next_field(l, &f) != 1 || parse_u64(&f, UINT64_MAX, &v) || !v ||
	    next_field(l, &extra) != 0)
		return -EBADMSG;
	res->skipped = v;
	return 0;
}

/* delayed COUNT NS */
static int parse_delayed(struct pp_results *res, struct line *l)
{
	struct field count, ns, extra;
	uint64_t n, v;

	if (res->delay_ns || next_field(l, &count) != 1 || parse_u64(&count, UINT64_MAX, &n) ||
	    next_field(l, &ns) != 1 || parse_u64(&ns, UINT64_MAX, &v) || !v ||
	    next_field(l, &extra) != 0)
		return -EBADMSG;
	res->delayed_count = n;
	res->delay_ns = v;
	return 0;
}

static int parse_module(struct pp_results *res, struct line *l)
{
	char *path;

	/* The path is the rest of the line: it may hold spaces. */
	if (l->p >= l->end)
		return -EBADMSG;
	if (grow((void **)&res->modules, res->nmodules, sizeof(*res->modules)))
		return -ENOMEM;
	path = dup_field(l->p, (size_t)(l->end - l->p));
	if (!path)
		return -ENOMEM;
	res->modules[res->nmodules++] = path;
	return 0;
}

static int parse_slot(struct pp_results *res, struct line *l)
{
	struct pp_slot_result s = {0};
	struct field f, spec;
	uint64_t v;
	unsigned seen = 0;
	int r;

	if (next_field(l, &f) != 1 || parse_u64(&f, UINT_MAX, &v) || v != res->nslots)
		return -EBADMSG; /* slots come in order, from 0 */
	s.index = (unsigned)v;
	if (next_field(l, &f) != 1)
		return -EBADMSG;
	if (is(&f, PP_SPEC_KEY_ENTRY))
		s.kind = PP_SLOT_ENTRY;
	else if (is(&f, PP_SPEC_KEY_FN))
		s.kind = PP_SLOT_FN;
	else if (is(&f, PP_SPEC_KEY_RANGE))
		s.kind = PP_SLOT_RANGE;
	else if (is(&f, PP_SPEC_KEY_WHOLE))
		s.kind = PP_SLOT_WHOLE;
	else
		return -EBADMSG;
	if (next_field(l, &spec) != 1)
		return -EBADMSG;
	while ((r = next_field(l, &f)) == 1) {
		struct field val;
		unsigned bit;

		if (split_pair(&f, &f, &val))
			return -EBADMSG;
		if (is(&f, PP_RES_FOUND))
			bit = 1;
		else if (is(&f, PP_RES_TOTAL_NS))
			bit = 2;
		else if (is(&f, PP_RES_COUNT))
			bit = 4;
		else if (is(&f, PP_RES_CALLS_NS))
			bit = 8;
		else if (is(&f, PP_RES_LOST))
			bit = 16;
		else if (is(&f, PP_RES_TIMED))
			bit = 32;
		else if (is(&f, PP_RES_PROBES_NS))
			bit = 64;
		else if (is(&f, PP_RES_CALLS_PROBES_NS))
			bit = 128;
		else
			continue; /* unknown keys are for newer readers */
		if ((seen & bit) || parse_u64(&val, bit == 1 ? UINT_MAX : UINT64_MAX, &v))
			return -EBADMSG;
		seen |= bit;
		if (bit == 1)
			s.found = (unsigned)v;
		else if (bit == 2)
			s.total_ns = v;
		else if (bit == 4)
			s.count = v;
		else if (bit == 8)
			s.calls_ns = v;
		else if (bit == 16)
			s.lost = v;
		else if (bit == 32)
			s.timed = v;
		else if (bit == 64)
			s.probes_ns = v;
		else
			s.calls_probes_ns = v;
	}
	s.has_calls = (seen & 8) != 0;
	if (r < 0)
		return -EBADMSG;
	if (!(seen & 32))
		s.timed = s.count; /* every execution was timed */
	else if (s.timed > s.count)
		return -EBADMSG;
	if (grow((void **)&res->slots, res->nslots, sizeof(*res->slots)))
		return -ENOMEM;
	s.spec = dup_field(spec.s, spec.len);
	if (!s.spec)
		return -ENOMEM;
	res->slots[res->nslots] = s;
	res->nslots++;
	return 0;
}

static const char *const target_kinds[] = {
    [PP_TGT_FN] = PP_RES_TARGET_FN,
    [PP_TGT_SYM] = PP_RES_TARGET_SYM,
    [PP_TGT_EXT] = PP_RES_TARGET_EXT,
    [PP_TGT_OTHER] = PP_RES_TARGET_OTHER,
};

const char *pp_target_kind_name(enum pp_target_kind k)
{
	return (unsigned)k < sizeof(target_kinds) / sizeof(target_kinds[0]) ? target_kinds[k] : "?";
}

/* "0x" and 1 to 16 hexadecimal digits. */
static int parse_hex(const struct field *f, uint64_t *out)
{
	uint64_t v = 0;

	if (f->len < 3 || f->len > 18 || f->s[0] != '0' || f->s[1] != 'x')
		return -1;
	for (size_t i = 2; i < f->len; i++) {
		int d = pp_spec_hex(f->s[i]);

		if (d < 0)
			return -1;
		v = v << 4 | (unsigned)d;
	}
	*out = v;
	return 0;
}

/* A percent-encoded value (protocol.h), decoded into a new string. */
static int decode_field(const struct field *f, char **out)
{
	char *s;

	if (*out)
		return -EBADMSG; /* given twice */
	s = malloc(f->len + 1);
	if (!s)
		return -ENOMEM;
	if (pp_spec_decode(f->s, f->len, s, f->len + 1) <= 0) {
		free(s);
		return -EBADMSG;
	}
	*out = s;
	return 0;
}

static void free_target(struct pp_target_result *t)
{
	free(t->name);
	free(t->file);
	free(t->module);
}

/* target SLOT KIND ADDR [name=N] [file=F] [module=M] count=C total_ns=T ... */
static int parse_target_fields(struct pp_results *res, struct line *l, struct pp_target_result *t,
			       struct pp_slot_result **slot)
{
	struct field f;
	unsigned seen = 0;
	uint64_t v;
	int r;

	if (next_field(l, &f) != 1 || parse_u64(&f, UINT_MAX, &v) || !res->nslots ||
	    v != res->nslots - 1)
		return -EBADMSG; /* after its slot's record */
	*slot = &res->slots[v];
	if (next_field(l, &f) != 1)
		return -EBADMSG;
	for (t->kind = 0; t->kind <= PP_TGT_OTHER && !is(&f, target_kinds[t->kind]); t->kind++)
		;
	if (t->kind > PP_TGT_OTHER || next_field(l, &f) != 1 || parse_hex(&f, &t->addr) ||
	    (t->kind == PP_TGT_OTHER) != (t->addr == 0))
		return -EBADMSG;
	while ((r = next_field(l, &f)) == 1) {
		struct field val;
		uint64_t *num = NULL;
		char **str = NULL;
		unsigned bit = 0;

		if (split_pair(&f, &f, &val))
			return -EBADMSG;
		if (is(&f, PP_RES_NAME))
			str = &t->name;
		else if (is(&f, PP_RES_FILE))
			str = &t->file;
		else if (is(&f, PP_RES_MODULE_KEY))
			str = &t->module;
		else if (is(&f, PP_RES_COUNT))
			num = &t->count, bit = 1;
		else if (is(&f, PP_RES_TOTAL_NS))
			num = &t->total_ns, bit = 2;
		else if (is(&f, PP_RES_PROBES_NS))
			num = &t->probes_ns, bit = 4;
		else if (is(&f, PP_RES_LOST))
			num = &t->lost, bit = 8;
		else if (is(&f, PP_RES_TIMED))
			num = &t->timed, bit = 16;
		else
			continue; /* unknown keys are for newer readers */
		if (str) {
			r = decode_field(&val, str);
			if (r)
				return r;
			continue;
		}
		if ((seen & bit) || parse_u64(&val, UINT64_MAX, num))
			return -EBADMSG;
		seen |= bit;
	}
	if (r < 0 || !(seen & 1) || !(seen & 2))
		return -EBADMSG;
	if (!(seen & 16))
		t->timed = t->count;
	else if (t->timed > t->count)
		return -EBADMSG;
	/* a function's record has a name; others past those kept have none */
	if ((t->kind == PP_TGT_FN && !t->name) || (t->kind != PP_TGT_FN && t->file) ||
	    (t->kind == PP_TGT_OTHER && (t->name || t->module)))
		return -EBADMSG;
	return 0;
}

static int parse_target(struct pp_results *res, struct line *l)
{
	struct pp_target_result t = {0};
	struct pp_slot_result *slot = NULL;
	int r = parse_target_fields(res, l, &t, &slot);

	if (!r && grow((void **)&slot->targets, slot->ntargets, sizeof(*slot->targets)))
		r = -ENOMEM;
	if (r) {
		free_target(&t);
		return r;
	}
	slot->targets[slot->ntargets++] = t;
	return 0;
}

static int parse_samples(struct pp_results *res, struct text *t, struct line *l)
{
	struct field n, dropped, extra;
	uint64_t count, v, i;
	struct line sl;

	if (res->samples || next_field(l, &n) != 1 || parse_u64(&n, PP_MAX_SAMPLES, &count) ||
	    next_field(l, &dropped) != 1 || parse_u64(&dropped, UINT64_MAX, &res->dropped) ||
	    next_field(l, &extra) != 0)
		return -EBADMSG;
	/* Each sample takes at least two bytes: do not trust the count alone. */
	if (count > (uint64_t)(t->end - t->p) / 2)
		return -EBADMSG;
	res->samples = malloc((count ? count : 1) * sizeof(*res->samples));
	if (!res->samples)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		struct field f, extra2;

		if (!next_line(t, &sl) || next_field(&sl, &f) != 1 ||
		    parse_u64(&f, UINT64_MAX, &v) || next_field(&sl, &extra2) != 0)
			return -EBADMSG;
		res->samples[res->nsamples++] = v;
	}
	return 0;
}

int pp_results_parse(struct pp_results *res, const char *text, size_t len, int *errline)
{
	struct text t = {text, text + len, 0};
	struct line l;
	int ret, pid_seen = 0;

	memset(res, 0, sizeof(*res));
	if (errline)
		*errline = 0;
	if (len && memchr(text, '\0', len)) {
		/* Find the line for the message. */
		const char *z = memchr(text, '\0', len), *p;

		t.line = 1;
		for (p = text; p < z; p++)
			t.line += *p == '\n';
		ret = -EBADMSG;
		goto out;
	}
	if (!next_line(&t, &l)) {
		t.line = 1;
		ret = -EBADMSG;
		goto out;
	}
	ret = parse_header(&l);
	if (ret)
		goto out;
	res->version = PP_RESULTS_VERSION;
	while (next_line(&t, &l)) {
		struct field rec;
		struct line rest;

		if (res->complete) {
			ret = -EBADMSG; /* nothing may follow "end" */
			goto out;
		}
		if (next_field(&l, &rec) != 1) {
			ret = -EBADMSG;
			goto out;
		}
		rest = l;
		if (is(&rec, PP_RES_PID))
			ret = parse_pid(res, &rest, &pid_seen);
		else if (is(&rec, PP_RES_CLOCK))
			ret = parse_clock(res, &rest);
		else if (is(&rec, PP_RES_MODULE))
			ret = parse_module(res, &rest);
		else if (is(&rec, PP_RES_OVERHEAD))
			ret = parse_overhead(res, &rest);
		else if (is(&rec, PP_RES_SKIPPED))
			ret = parse_skipped(res, &rest);
		else if (is(&rec, PP_RES_DELAYED))
			ret = parse_delayed(res, &rest);
		else if (is(&rec, PP_RES_SLOT))
			ret = parse_slot(res, &rest);
		else if (is(&rec, PP_RES_TARGET))
			ret = parse_target(res, &rest);
		else if (is(&rec, PP_RES_SAMPLES))
			ret = parse_samples(res, &t, &rest);
		else if (is(&rec, PP_RES_END))
			ret = rest.p < rest.end ? -EBADMSG : (res->complete = 1, 0);
		else
			ret = is_word(rec.s, rec.len) ? 0 : -EBADMSG; /* newer records */
		if (ret)
			goto out;
	}
	if (!res->complete) {
		t.line++; /* the missing "end" */
		ret = -EBADMSG;
	}
out:
	if (ret) {
		res->complete = 0;
		if (errline)
			*errline = t.line;
	}
	return ret;
}

int pp_results_read(struct pp_results *res, const char *path, int *errline)
{
	size_t len = 0, cap;
	struct stat stbuf;
	char *buf = NULL;
	int fd, ret;

	memset(res, 0, sizeof(*res));
	if (errline)
		*errline = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block */
	if (fd < 0)
		return -errno;
	if (fstat(fd, &stbuf)) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(stbuf.st_mode)) {
		ret = S_ISDIR(stbuf.st_mode) ? -EISDIR : -EINVAL;
		goto out;
	}
	if ((uint64_t)stbuf.st_size > MAX_FILE_SIZE) {
		ret = -EFBIG;
		goto out;
	}
	/* The size is a hint: read to the end, in case the file grew. */
	cap = (size_t)stbuf.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t got;

		if (len == cap) {
			char *b;

			if (cap > MAX_FILE_SIZE) {
				ret = -EFBIG;
				goto out;
			}
			b = realloc(buf, cap * 2);
			if (!b) {
				ret = -ENOMEM;
				goto out;
			}
			buf = b;
			cap *= 2;
		}
		got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			goto out;
		}
		if (!got)
			break;
		len += (size_t)got;
	}
	ret = pp_results_parse(res, buf, len, errline);
out:
	free(buf);
	close(fd);
	return ret;
}

void pp_results_free(struct pp_results *res)
{
	size_t i;

	free(res->clock);
	for (i = 0; i < res->nmodules; i++)
		free(res->modules[i]);
	free(res->modules);
	for (i = 0; i < res->nslots; i++) {
		free(res->slots[i].spec);
		for (size_t k = 0; k < res->slots[i].ntargets; k++)
			free_target(&res->slots[i].targets[k]);
		free(res->slots[i].targets);
	}
	free(res->slots);
	free(res->samples);
	memset(res, 0, sizeof(*res));
}

int pp_results_others(const char *out, long *pids, size_t max, int remove)
{
	const char *slash = strrchr(out, '/'), *base = slash ? slash + 1 : out;
	size_t blen = strlen(base), dlen = slash ? (size_t)(slash - out) : 0;
	char dir[PATH_MAX];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (dlen + 2 > sizeof(dir))
		return -ENAMETOOLONG;
	if (slash) {
		memcpy(dir, out, dlen ? dlen : 1);
		dir[dlen ? dlen : 1] = '\0';
	} else {
		strcpy(dir, ".");
	}
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		struct field f = {e->d_name + blen + 1, 0};
		uint64_t pid;

		if (strncmp(e->d_name, base, blen) || e->d_name[blen] != '.')
			continue;
		f.len = strlen(f.s);
		if (remove && f.len > 4 && !memcmp(f.s, "tmp.", 4)) {
			/* a temporary file of a killed writer */
			struct field t = {f.s + 4, f.len - 4};

			if (!parse_u64(&t, LONG_MAX, &pid))
				unlinkat(dirfd(d), e->d_name, 0);
			continue;
		}
		if (parse_u64(&f, LONG_MAX, &pid) || !pid)
			continue;
		if (pids && (size_t)n < max)
			pids[n] = (long)pid;
		if (remove)
			unlinkat(dirfd(d), e->d_name, 0);
		n++;
	}
	closedir(d);
	return n;
}
