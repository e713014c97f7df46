/* SPDX-License-Identifier: MIT */
/*
 * table.c - parse the table blobs of a PP_TABLE_SECTION (doc/formats.md, 1)
 * into a pp_program, deduplicated and sorted.
 *
 * The section is untrusted input: every count, offset and string is checked
 * against the blob before use, so corrupt or truncated data yields an error,
 * never a crash.  A section is added completely or not at all.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blob.h"
#include "core/table_priv.h"

/* A name in a warning is cut to this many bytes. */
#define NAME_SHOWN 200

/*
 * One blob being parsed: its decoded header and where it is, and the
 * strings interned from it.  Its records name each string by its offset
 * (its start: the strings do not overlap, blob.h); each is interned once,
 * however many records name it, so that interning costs no more than the
 * string table's size.
 */
struct blob {
	struct pp_blob h;
	size_t at; /* offset in the section, for messages */
	const char *object;
	const char *module;
	/* by string offset: 0, or its index in strs + 1 (4 bytes a byte of
	 * the string table, while the blob is read) */
	uint32_t *ids;
	const char **strs; /* the strings interned, in the order first named */
	uint32_t nstrs, capstrs;
};

void pp_program_init(struct pp_program *prog)
{
	memset(prog, 0, sizeof(*prog));
}

void pp_program_free(struct pp_program *prog)
{
	struct pp_store *st = pp_store(prog);

	if (st) {
		pp_arena_free(&st->arena);
		free(st->recs);
		free(st->warnings);
		free(st);
	}
	free(prog->funcs);
	free(prog->objects);
	memset(prog, 0, sizeof(*prog));
}

static struct pp_store *get_store(struct pp_program *prog)
{
	struct pp_store *st = pp_store(prog);

	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return NULL;
		pp_arena_init(&st->arena);
		prog->priv = st;
	}
	return st;
}

void pp_program_set_error(struct pp_program *prog, const char *fmt, ...)
{
	struct pp_store *st = get_store(prog);
	va_list ap;

	if (!st)
		return;
	va_start(ap, fmt);
	vsnprintf(st->err, sizeof(st->err), fmt, ap);
	va_end(ap);
}

const char *pp_program_error(const struct pp_program *prog)
{
	const struct pp_store *st = pp_store(prog);

	return st ? st->err : "";
}

const char *const *pp_program_warnings(const struct pp_program *prog, size_t *n)
{
	const struct pp_store *st = pp_store(prog);

	*n = st ? st->nwarnings : 0;
	return st ? st->warnings : NULL;
}

size_t pp_program_print_warnings(const struct pp_program *prog, size_t from, const char *who,
				 FILE *out)
{
	size_t n, i;
	const char *const *w = pp_program_warnings(prog, &n);

	for (i = from; i < n && i < from + PP_WARNINGS_SHOWN; i++)
		fprintf(out, "%s: warning: %s\n", who, w[i]);
	if (i < n)
		fprintf(out, "%s: warning: %zu more functions skipped for bad records\n", who,
			n - i);
	return n;
}

const char *pp_table_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -ENOENT:
		return "no pinpoint table: build it with clang "
		       "-fpass-plugin=<path>/pinpoint-pass.so -g "
		       "and link the pinpoint runtime";
	case -EPROTO:
		return "pinpoint table of another version: rebuild it with this pinpoint's plugin";
	case -ENOEXEC:
		return "not an ELF file, or its pinpoint table is corrupt";
	case -ENOMEM:
		return "out of memory";
	default:
		return strerror(err < 0 ? -err : err);
	}
}

/* String @off of the blob, interned (checked by the decoder already). */
static int intern(struct pp_program *prog, struct blob *b, uint32_t off, const char **out)
{
	struct pp_store *st = pp_store(prog);
	const char *s = pp_blob_str(&b->h, off);
	size_t len;

	*out = "";
	if (!s)
		return 0;
	if (b->ids[off]) {
		*out = b->strs[b->ids[off] - 1];
		return 0;
	}
	if (b->nstrs == b->capstrs) {
		/* at most one string per byte of the table */
		uint64_t cap = b->capstrs ? (uint64_t)b->capstrs * 2 : 64;
		const char **v;

		if (cap > b->h.strtab_size)
			cap = b->h.strtab_size;
		v = realloc(b->strs, (size_t)cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		b->strs = v;
		b->capstrs = (uint32_t)cap;
	}
	len = strlen(s);
	st->str_bytes += len + 1;
	*out = pp_arena_intern(&st->arena, s, len);
	if (!*out)
		return -ENOMEM;
	b->strs[b->nstrs++] = *out;
	b->ids[off] = b->nstrs;
	return 0;
}

static int read_header(struct pp_program *prog, struct blob *b, size_t avail)
{
	char why[200];
	int ret;

	ret = pp_blob_open(&b->h, b->h.p, avail, why, sizeof(why));
	if (ret == -EPROTO) {
		pp_program_set_error(prog,
				     "%s: pinpoint table version %u at offset %zu, this pinpoint "
				     "reads versions %u to %u: rebuild with the matching plugin",
				     b->object, b->h.version, b->at, PP_TABLE_VERSION_MIN,
				     PP_TABLE_VERSION);
		return ret;
	}
	if (ret) {
		pp_program_set_error(prog, "%s: corrupt pinpoint table at offset %zu: %s",
				     b->object, b->at, why);
		return ret;
	}
	b->ids = calloc(b->h.strtab_size, sizeof(*b->ids));
	if (!b->ids)
		return -ENOMEM;
	return intern(prog, b, b->h.module, &b->module);
}

static int add_rec(struct pp_program *prog, const struct pp_prog_fn *f)
{
	struct pp_store *st = pp_store(prog);

	if (st->nrecs == st->caprecs) {
		size_t cap = st->caprecs ? st->caprecs * 2 : 256;
		struct pp_rec *recs;

		if (cap > SIZE_MAX / sizeof(*recs))
			return -ENOMEM;
		recs = realloc(st->recs, cap * sizeof(*recs));
		if (!recs)
			return -ENOMEM;
		st->recs = recs;
		st->caprecs = cap;
	}
	st->recs[st->nrecs].f = *f;
	st->recs[st->nrecs].seq = st->seq++;
	st->nrecs++;
	return 0;
}

/* Function @i of the blob skipped for @why: one warning naming it. */
static int skip_func(struct pp_program *prog, const struct blob *b, uint32_t i, const char *name,
		     const char *why)
{
	struct pp_store *st = pp_store(prog);
	const char *shown = NULL;
	char line[600];
	const char *w;

	if (st->nwarnings == st->capwarnings) {
		size_t cap = st->capwarnings ? st->capwarnings * 2 : 8;
		const char **v = realloc(st->warnings, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		st->warnings = v;
		st->capwarnings = cap;
	}
	/* A long name is cut, and not demangled: a table's names are as long
	 * as it likes, and many may be skipped. */
	if (name && *name)
		shown = strnlen(name, NAME_SHOWN + 1) > NAME_SHOWN ? name : pp_demangle(name);
	if (shown)
		snprintf(line, sizeof(line),
			 "%s: pinpoint table at offset %zu: function %.*s%s skipped: %s", b->object,
			 b->at, NAME_SHOWN, shown,
			 strnlen(shown, NAME_SHOWN + 1) > NAME_SHOWN ? "..." : "", why);
	else
		snprintf(line, sizeof(line),
			 "%s: pinpoint table at offset %zu: function record %u skipped: %s",
			 b->object, b->at, i, why);
	w = pp_arena_intern(&st->arena, line, strlen(line));
	if (!w)
		return -ENOMEM;
	st->warnings[st->nwarnings++] = w;
	return 0;
}

/*
 * Function @i of the blob, added unless one of its records is bad: then it
 * is skipped with a warning, and the rest of the blob is read.  @claimed:
 * calls claimed by the blob's earlier functions, skipped ones included
 * (each call belongs to one function).  A function's calls are claimed
 * before they are decoded, so that each call record of the blob is decoded
 * once at most: a table cannot make the reader decode or copy more calls
 * than it holds (functions that each claim all the calls and fail on the
 * last would otherwise cost nfuncs x ncalls).
 */
static int read_func(struct pp_program *prog, struct blob *b, uint32_t i, uint64_t *claimed,
		     struct pp_blob_call **scratch, uint32_t *scratch_cap)
{
	struct pp_store *st = pp_store(prog);
	struct pp_prog_fn f = {0};
	struct pp_blob_func rf;
	struct pp_blob_call *rc;
	char why[240];
	uint32_t k;
	int ret;

	if (pp_blob_func(&b->h, i, &rf, why, sizeof(why)))
		return skip_func(prog, b, i, pp_blob_str(&b->h, rf.name), why);
	if (rf.ncalls > b->h.ncalls - *claimed)
		return skip_func(prog, b, i, pp_blob_str(&b->h, rf.name),
				 "its calls are claimed by another function");
	*claimed += rf.ncalls;
	if (rf.ncalls > *scratch_cap) {
		rc = realloc(*scratch, (size_t)rf.ncalls * sizeof(*rc));
		if (!rc)
			return -ENOMEM;
		*scratch = rc;
		*scratch_cap = rf.ncalls;
	}
	rc = *scratch;
	st->calls_read += rf.ncalls;
	if (pp_blob_calls(&b->h, &rf, rc, NULL, why, sizeof(why)))
		return skip_func(prog, b, i, pp_blob_str(&b->h, rf.name), why);
	ret = intern(prog, b, rf.name, &f.name);
	if (!ret)
		ret = intern(prog, b, rf.file, &f.file);
	if (ret)
		return ret;
	f.line = rf.line;
	f.linkage = rf.linkage;
	f.flags = rf.flags;
	f.ncalls = rf.ncalls;
	f.object = b->object;
	f.module = b->module;
	if (f.ncalls) {
		f.calls = pp_arena_alloc(&st->arena, (size_t)f.ncalls * sizeof(*f.calls));
		if (!f.calls)
			return -ENOMEM;
	}
	for (k = 0; k < f.ncalls; k++) {
		struct pp_prog_call *c = &f.calls[k];

		c->kind = rc[k].kind;
		c->fate = rc[k].fate;
		c->line = rc[k].line;
		c->col = rc[k].col;
		c->via = rc[k].via;
		ret = intern(prog, b, rc[k].callee, &c->callee);
		if (!ret)
			ret = intern(prog, b, rc[k].file, &c->file);
		if (!ret)
			ret = intern(prog, b, rc[k].callback, &c->callback);
		if (ret)
			return ret;
	}
	return add_rec(prog, &f);
}

static int read_blob(struct pp_program *prog, struct blob *b, size_t avail)
{
	struct pp_blob_call *scratch = NULL;
	uint32_t scratch_cap = 0, i;
	uint64_t claimed = 0;
	int ret;

	ret = read_header(prog, b, avail);
	for (i = 0; !ret && i < b->h.nfuncs; i++)
		ret = read_func(prog, b, i, &claimed, &scratch, &scratch_cap);
	free(scratch);
	free(b->ids);
	free(b->strs);
	return ret;
}

static int cmp_ptr(const void *pa, const void *pb)
{
	uintptr_t a = (uintptr_t) * (const char *const *)pa;
	uintptr_t b = (uintptr_t) * (const char *const *)pb;

	return a < b ? -1 : a > b;
}

static int cmp_str(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Where @s is in @v[0..n), sorted by address: it is there. */
static size_t find_ptr(const char *const *v, size_t n, const char *s)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)v[mid] <= (uintptr_t)s)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The records' names and files ranked in strcmp() order, equal strings
 * equal ranks.  Each distinct string is compared in one sort of the
 * distinct strings, not in every comparison of two records: records that
 * all name a few long strings cost no more than the strings' length (times
 * a logarithm).  0, or -ENOMEM with the records untouched.
 */
static int rank_strings(struct pp_store *st)
{
	size_t n = st->nrecs * 2, k = 0, i, r = 0;
	const char **v = NULL, **by = NULL;
	size_t *rank = NULL;
	int ret = -ENOMEM;

	if (!st->nrecs)
		return 0;
	if (n / 2 != st->nrecs || n > SIZE_MAX / sizeof(*v))
		return -ENOMEM;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < st->nrecs; i++) {
		v[2 * i] = st->recs[i].f.name;
		v[2 * i + 1] = st->recs[i].f.file;
	}
	/* The distinct strings by address (interned: one address each) ... */
	qsort(v, n, sizeof(*v), cmp_ptr);
	for (i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	/* ... then by content. */
	by = malloc(k * sizeof(*by));
	rank = malloc(k * sizeof(*rank));
	if (!by || !rank)
		goto out;
	memcpy(by, v, k * sizeof(*by));
	qsort(by, k, sizeof(*by), cmp_str);
	for (i = 0; i < k; i++) {
		if (i && strcmp(by[i - 1], by[i]))
			r++;
		rank[find_ptr(v, k, by[i])] = r;
	}
	for (i = 0; i < st->nrecs; i++) {
		struct pp_rec *rec = &st->recs[i];

		rec->name_rank = rank[find_ptr(v, k, rec->f.name)];
		rec->file_rank = rank[find_ptr(v, k, rec->f.file)];
	}
	ret = 0;
out:
	free(v);
	free(by);
	free(rank);
	return ret;
}

/* By name, then file (their ranks: rank_strings()), then order read. */
static int cmp_rec(const void *pa, const void *pb)
{
	const struct pp_rec *a = pa, *b = pb;

	if (a->name_rank != b->name_rank)
		return a->name_rank < b->name_rank ? -1 : 1;
	if (a->file_rank != b->file_rank)
		return a->file_rank < b->file_rank ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int replaceable(const struct pp_prog_fn *f)
{
	return f->linkage == PP_LINK_LINKONCE || f->linkage == PP_LINK_WEAK;
}

static int emitted(const struct pp_rec *r)
{
	return r->f.flags & PP_FUNC_EMITTED;
}

/*
 * Keep what the linkers keep: of the linkonce and weak copies of a name, the
 * first, unless an external definition of that name exists; of the other
 * definitions, the first for each (name, file).  A copy with a body (one
 * object may have inlined all its calls of an inline function and dropped
 * it while another kept it) wins over one without.  Names and files compare
 * by rank (rank_strings()).
 */
static void dedup(struct pp_store *st)
{
	size_t i = 0, j, k, e, n = 0;

	while (i < st->nrecs) {
		size_t name = st->recs[i].name_rank;
		uint64_t first_repl = UINT64_MAX;
		int has_ext = 0, repl_emitted = 0;

		for (j = i; j < st->nrecs && st->recs[j].name_rank == name; j++) {
			const struct pp_rec *r = &st->recs[j];

			if (r->f.linkage == PP_LINK_EXTERNAL)
				has_ext = 1;
			if (!replaceable(&r->f))
				continue;
			/* The first emitted copy, else the first copy. */
			if (emitted(r) > repl_emitted ||
			    (emitted(r) == repl_emitted && r->seq < first_repl)) {
				first_repl = r->seq;
				repl_emitted = emitted(r);
			}
		}
		/* Within the group, records are sorted by file, then seq. */
		for (k = i; k < j; k = e) {
			size_t file = st->recs[k].file_rank, keep_other;

			for (e = k; e < j && st->recs[e].file_rank == file; e++)
				;
			/* The non-replaceable records of this file. */
			keep_other = SIZE_MAX;
			for (size_t x = k; x < e; x++) {
				if (replaceable(&st->recs[x].f))
					continue;
				if (keep_other == SIZE_MAX ||
				    (emitted(&st->recs[x]) && !emitted(&st->recs[keep_other])))
					keep_other = x;
			}
			for (size_t x = k; x < e; x++) {
				const struct pp_rec *r = &st->recs[x];
				int keep = replaceable(&r->f) ? !has_ext && r->seq == first_repl
							      : x == keep_other;

				if (keep)
					st->recs[n++] = *r;
			}
		}
		i = j;
	}
	st->nrecs = n;
}

/* Sort and deduplicate the records into prog->funcs; cannot fail once the
 * arrays are allocated, so a failure leaves the records untouched. */
static int publish(struct pp_program *prog)
{
	struct pp_store *st = pp_store(prog);
	struct pp_prog_fn *funcs;
	size_t i;

	funcs = realloc(prog->funcs, (st->nrecs ? st->nrecs : 1) * sizeof(*funcs));
	if (!funcs)
		return -ENOMEM;
	prog->funcs = funcs;
	if (rank_strings(st))
		return -ENOMEM;
	if (st->nrecs)
		qsort(st->recs, st->nrecs, sizeof(*st->recs), cmp_rec);
	dedup(st);
	for (i = 0; i < st->nrecs; i++)
		funcs[i] = st->recs[i].f;
	prog->nfuncs = st->nrecs;
	return 0;
}

static int add_object(struct pp_program *prog, const char *object)
{
	struct pp_store *st = pp_store(prog);
	size_t i;

	for (i = 0; i < prog->nobjects; i++)
		if (prog->objects[i] == object)
			return 0;
	if (prog->nobjects == st->capobjects) {
		size_t cap = st->capobjects ? st->capobjects * 2 : 8;
		char **objs = realloc(prog->objects, cap * sizeof(*objs));

		if (!objs)
			return -ENOMEM;
		prog->objects = objs;
		st->capobjects = cap;
	}
	prog->objects[prog->nobjects++] = (char *)object;
	return 0;
}

int pp_program_add_section(struct pp_program *prog, const void *data, size_t size,
			   const char *object)
{
	static const unsigned char zero[PP_TABLE_ALIGN];
	const unsigned char *p = data;
	struct pp_store *st = get_store(prog);
	size_t at = 0, old_nrecs, old_nwarnings, nblobs = 0;
	const char *obj;
	int ret = 0;

	if (!st)
		return -ENOMEM;
	st->err[0] = '\0';
	obj = pp_arena_intern(&st->arena, object ? object : "", object ? strlen(object) : 0);
	if (!obj)
		return -ENOMEM;
	old_nrecs = st->nrecs;
	old_nwarnings = st->nwarnings;
	while (at < size) {
		size_t avail = size - at;
		struct blob b = {.h.p = p + at, .at = at, .object = obj};

		if (avail >= PP_TABLE_ALIGN && !memcmp(b.h.p, zero, PP_TABLE_ALIGN)) {
			at += PP_TABLE_ALIGN; /* padding between blobs */
			continue;
		}
		if (avail < PP_TABLE_ALIGN || memcmp(b.h.p, PP_TABLE_MAGIC, PP_TABLE_ALIGN)) {
			if (avail < PP_TABLE_ALIGN && !memcmp(b.h.p, zero, avail))
				break; /* trailing padding shorter than a step */
			pp_program_set_error(prog,
					     "%s: corrupt pinpoint table: no blob magic \"%s\" "
					     "at offset %zu",
					     obj, PP_TABLE_MAGIC, at);
			ret = -ENOEXEC;
			goto out;
		}
		if (avail < sizeof(struct pp_table_header)) {
			pp_program_set_error(prog,
					     "%s: corrupt pinpoint table: blob header at offset "
					     "%zu is truncated",
					     obj, at);
			ret = -ENOEXEC;
			goto out;
		}
		ret = read_blob(prog, &b, avail);
		if (ret)
			goto out;
		at += b.h.size;
		nblobs++;
	}
	if (!nblobs) {
		pp_program_set_error(prog, "%s: %s", obj, pp_table_strerror(-ENOENT));
		ret = -ENOENT;
		goto out;
	}
	ret = add_object(prog, obj);
	if (!ret)
		ret = publish(prog);
out:
	if (ret) {
		/* All or nothing; the arena keeps the strings. */
		st->nrecs = old_nrecs;
		st->nwarnings = old_nwarnings;
		if (ret == -ENOMEM)
			pp_program_set_error(prog, "%s: out of memory", obj);
	}
	return ret;
}
