/* SPDX-License-Identifier: MIT */
/*
 * table.c - parse the table blobs of a PP_TABLE_SECTION (doc/formats.md, 1)
 * into a pp_program, deduplicated and sorted.
 *
 * The section is untrusted input: every count, offset and string is checked
 * against the blob before use, so corrupt or truncated data yields an error,
 * never a crash.  A section is added completely or not at all.
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/table_priv.h"

_Static_assert(sizeof(struct pp_table_header) == 48, "table header layout");
_Static_assert(sizeof(struct pp_table_func) == 24, "table function layout");
_Static_assert(sizeof(struct pp_table_call) == 24, "table call layout");
_Static_assert(offsetof(struct pp_table_call, via) == PP_TABLE_CALL_V2_SIZE,
	       "a version 2 call record is the head of a version 3 one");

#define MAGIC_LEN 8

/* One blob being parsed: where it is and what its header says. */
struct blob {
	const unsigned char *p;
	size_t at; /* offset in the section, for messages */
	const char *object;
	uint32_t version, call_size; /* a call record's size in this version */
	uint32_t size, nfuncs, ncalls, funcs_off, calls_off, strtab_off, strtab_size;
	const char *module;
};

#define HDR(field) offsetof(struct pp_table_header, field)
#define FUNC(field) offsetof(struct pp_table_func, field)
#define CALL(field) offsetof(struct pp_table_call, field)

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

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

/* A string of the blob's strtab: in range and NUL-terminated inside it. */
static int blob_str(struct pp_program *prog, const struct blob *b, uint32_t off, const char *what,
		    const char **out)
{
	struct pp_store *st = pp_store(prog);
	const char *s = (const char *)b->p + b->strtab_off;
	const char *nul;

	if (off >= b->strtab_size) {
		pp_program_set_error(prog,
				     "%s: corrupt pinpoint table at offset %zu: %s string %u is "
				     "outside the string table (%u bytes)",
				     b->object, b->at, what, off, b->strtab_size);
		return -ENOEXEC;
	}
	nul = memchr(s + off, '\0', b->strtab_size - off);
	if (!nul) {
		pp_program_set_error(prog,
				     "%s: corrupt pinpoint table at offset %zu: %s string %u is "
				     "not terminated",
				     b->object, b->at, what, off);
		return -ENOEXEC;
	}
	*out = pp_arena_intern(&st->arena, s + off, (size_t)(nul - (s + off)));
	return *out ? 0 : -ENOMEM;
}

__attribute__((format(printf, 3, 4))) static int corrupt(struct pp_program *prog,
							 const struct blob *b, const char *fmt, ...)
{
	char reason[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	pp_program_set_error(prog, "%s: corrupt pinpoint table at offset %zu: %s", b->object, b->at,
			     reason);
	return -ENOEXEC;
}

/* Check that [off, off + n * elem) lies in [lo, b->size); returns its end. */
static int region(struct pp_program *prog, const struct blob *b, const char *what, uint64_t lo,
		  uint32_t off, uint64_t n, uint64_t elem, uint64_t *end)
{
	uint64_t e = (uint64_t)off + n * elem; /* n, elem < 2^32: no overflow */

	if (off < lo || e > b->size)
		return corrupt(prog, b,
			       "%s (%llu bytes at offset %u) do not fit in the blob (%u bytes)",
			       what, (unsigned long long)(n * elem), off, b->size);
	*end = e;
	return 0;
}

static int read_header(struct pp_program *prog, struct blob *b, size_t avail)
{
	uint32_t version = rd32(b->p + HDR(version));
	uint64_t end = 0;
	const char *producer;
	int ret;

	if (version < PP_TABLE_VERSION_MIN || version > PP_TABLE_VERSION) {
		pp_program_set_error(prog,
				     "%s: pinpoint table version %u at offset %zu, this "
				     "pinpoint reads versions %u to %u: rebuild with the matching "
				     "plugin",
				     b->object, version, b->at, PP_TABLE_VERSION_MIN,
				     PP_TABLE_VERSION);
		return -EPROTO;
	}
	b->version = version;
	b->call_size = version < 3 ? PP_TABLE_CALL_V2_SIZE : sizeof(struct pp_table_call);
	b->size = rd32(b->p + HDR(size));
	b->nfuncs = rd32(b->p + HDR(nfuncs));
	b->ncalls = rd32(b->p + HDR(ncalls));
	b->funcs_off = rd32(b->p + HDR(funcs_off));
	b->calls_off = rd32(b->p + HDR(calls_off));
	b->strtab_off = rd32(b->p + HDR(strtab_off));
	b->strtab_size = rd32(b->p + HDR(strtab_size));
	if (b->size < sizeof(struct pp_table_header) || b->size % PP_TABLE_ALIGN)
		return corrupt(prog, b,
			       "blob size %u is less than a header or not a multiple of %u",
			       b->size, PP_TABLE_ALIGN);
	if (b->size > avail)
		return corrupt(prog, b, "blob of %u bytes is truncated to %zu", b->size, avail);
	/* The regions come in the order of abi.h, gaps allowed. */
	ret = region(prog, b, "function records", sizeof(struct pp_table_header), b->funcs_off,
		     b->nfuncs, sizeof(struct pp_table_func), &end);
	if (!ret)
		ret = region(prog, b, "call records", end, b->calls_off, b->ncalls, b->call_size,
			     &end);
	if (!ret)
		ret = region(prog, b, "string table", end, b->strtab_off, b->strtab_size, 1, &end);
	if (ret)
		return ret;
	if (b->strtab_size == 0 || b->p[b->strtab_off] != '\0')
		return corrupt(prog, b,
			       "string table (%u bytes at %u) does not start with the empty "
			       "string",
			       b->strtab_size, b->strtab_off);
	ret = blob_str(prog, b, rd32(b->p + HDR(module)), "module", &b->module);
	if (!ret)
		ret = blob_str(prog, b, rd32(b->p + HDR(producer)), "producer", &producer);
	return ret;
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

/* Call @i of the blob, call @k of its function, whose calls @calls are read up to @k. */
static int read_call(struct pp_program *prog, const struct blob *b, uint32_t i, uint32_t k,
		     struct pp_prog_call *calls)
{
	const unsigned char *r = b->p + b->calls_off + (size_t)i * b->call_size;
	struct pp_prog_call *c = &calls[k];
	int ret;

	c->kind = r[CALL(kind)];
	c->fate = r[CALL(fate)];
	c->line = rd32(r + CALL(line));
	c->col = rd32(r + CALL(col));
	c->via = b->version < 3 ? 0 : rd32(r + CALL(via));
	/* What a call came through is an inlined call before it. */
	if (c->via && (c->via > k || calls[c->via - 1].kind == PP_CALL_INDIRECT ||
		       calls[c->via - 1].kind == PP_CALL_INVOKE_INDIRECT))
		return corrupt(prog, b,
			       "call %u came through call %u, which is not a direct call "
			       "before it",
			       i, c->via - 1);
	if (c->kind > PP_CALL_INVOKE_INDIRECT)
		return corrupt(prog, b, "call %u has unknown kind %u", i, c->kind);
	if (c->fate > PP_FATE_UNKNOWN)
		return corrupt(prog, b, "call %u has unknown fate %u", i, c->fate);
	ret = blob_str(prog, b, rd32(r + CALL(callee)), "callee", &c->callee);
	if (!ret)
		ret = blob_str(prog, b, rd32(r + CALL(file)), "call file", &c->file);
	if (ret)
		return ret;
	if (c->kind == PP_CALL_INDIRECT || c->kind == PP_CALL_INVOKE_INDIRECT)
		c->callee = "";
	else if (!c->callee[0])
		return corrupt(prog, b, "direct call %u has no callee", i);
	return 0;
}

/* @claimed: calls claimed by the blob's earlier functions. */
static int read_func(struct pp_program *prog, const struct blob *b, uint32_t i, uint64_t *claimed)
{
	const unsigned char *r = b->p + b->funcs_off + (size_t)i * sizeof(struct pp_table_func);
	struct pp_store *st = pp_store(prog);
	struct pp_prog_fn f = {0};
	uint32_t first, k;
	int ret;

	ret = blob_str(prog, b, rd32(r + FUNC(name)), "function name", &f.name);
	if (!ret)
		ret = blob_str(prog, b, rd32(r + FUNC(file)), "function file", &f.file);
	if (ret)
		return ret;
	if (!f.name[0])
		return corrupt(prog, b, "function %u has no name", i);
	f.line = rd32(r + FUNC(line));
	f.linkage = r[FUNC(linkage)];
	if (f.linkage > PP_LINK_WEAK)
		return corrupt(prog, b, "function %u has unknown linkage %u", i, f.linkage);
	f.flags = r[FUNC(flags)];
	if (f.flags & ~PP_FUNC_EMITTED)
		return corrupt(prog, b, "function %u has unknown flags 0x%x", i, f.flags);
	first = rd32(r + FUNC(first_call));
	f.ncalls = rd32(r + FUNC(ncalls));
	if (first > b->ncalls || f.ncalls > b->ncalls - first)
		return corrupt(prog, b, "calls of function %u end past the blob's %u calls", i,
			       b->ncalls);
	/* Each call belongs to one function: a table cannot make the reader
	 * copy more calls than it holds. */
	*claimed += f.ncalls;
	if (*claimed > b->ncalls)
		return corrupt(prog, b, "functions up to %u claim more calls than the blob's %u", i,
			       b->ncalls);
	f.object = b->object;
	f.module = b->module;
	if (f.ncalls) {
		f.calls = pp_arena_alloc(&st->arena, (size_t)f.ncalls * sizeof(*f.calls));
		if (!f.calls)
			return -ENOMEM;
	}
	for (k = 0; k < f.ncalls; k++) {
		ret = read_call(prog, b, first + k, k, f.calls);
		if (ret)
			return ret;
		if (f.calls[k].fate == PP_FATE_TIMED && !(f.flags & PP_FUNC_EMITTED))
			return corrupt(prog, b,
				       "call %u of function %u is timed, the function not "
				       "emitted",
				       k, i);
	}
	return add_rec(prog, &f);
}

static int read_blob(struct pp_program *prog, struct blob *b, size_t avail)
{
	uint64_t claimed = 0;
	uint32_t i;
	int ret;

	ret = read_header(prog, b, avail);
	for (i = 0; !ret && i < b->nfuncs; i++)
		ret = read_func(prog, b, i, &claimed);
	return ret;
}

static int cmp_rec(const void *pa, const void *pb)
{
	const struct pp_rec *a = pa, *b = pb;
	int c = strcmp(a->f.name, b->f.name);

	if (!c)
		c = strcmp(a->f.file, b->f.file);
	if (!c)
		c = a->seq < b->seq ? -1 : a->seq > b->seq;
	return c;
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
 * it while another kept it) wins over one without.  Interned strings compare
 * by address.
 */
static void dedup(struct pp_store *st)
{
	size_t i = 0, j, k, e, n = 0;

	while (i < st->nrecs) {
		const char *name = st->recs[i].f.name;
		uint64_t first_repl = UINT64_MAX;
		int has_ext = 0, repl_emitted = 0;

		for (j = i; j < st->nrecs && st->recs[j].f.name == name; j++) {
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
			const char *file = st->recs[k].f.file;
			size_t keep_other;

			for (e = k; e < j && st->recs[e].f.file == file; e++)
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
 * array is allocated, so a failure leaves the records untouched. */
static int publish(struct pp_program *prog)
{
	struct pp_store *st = pp_store(prog);
	struct pp_prog_fn *funcs;
	size_t i;

	funcs = realloc(prog->funcs, (st->nrecs ? st->nrecs : 1) * sizeof(*funcs));
	if (!funcs)
		return -ENOMEM;
	prog->funcs = funcs;
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
	static const unsigned char zero[MAGIC_LEN];
	const unsigned char *p = data;
	struct pp_store *st = get_store(prog);
	size_t at = 0, old_nrecs, nblobs = 0;
	const char *obj;
	int ret = 0;

	if (!st)
		return -ENOMEM;
	st->err[0] = '\0';
	obj = pp_arena_intern(&st->arena, object ? object : "", object ? strlen(object) : 0);
	if (!obj)
		return -ENOMEM;
	old_nrecs = st->nrecs;
	while (at < size) {
		size_t avail = size - at;
		struct blob b = {.p = p + at, .at = at, .object = obj};

		if (avail >= MAGIC_LEN && !memcmp(b.p, zero, MAGIC_LEN)) {
			at += MAGIC_LEN; /* padding between blobs */
			continue;
		}
		if (avail < MAGIC_LEN || memcmp(b.p, PP_TABLE_MAGIC, MAGIC_LEN)) {
			if (avail < MAGIC_LEN && !memcmp(b.p, zero, avail))
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
		at += b.size;
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
		st->nrecs = old_nrecs; /* all or nothing; the arena keeps the strings */
		if (ret == -ENOMEM)
			pp_program_set_error(prog, "%s: out of memory", obj);
	}
	return ret;
}
