/* SPDX-License-Identifier: MIT */
/*
 * blob.c - decode and check one table blob (blob.h): shared by the pass
 * plugin and the readers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/blob.h"

_Static_assert(sizeof(struct pp_table_header) == 48, "table header layout");
_Static_assert(sizeof(struct pp_table_func) == 24, "table function layout");
_Static_assert(sizeof(struct pp_table_call) == 32, "table call layout");
_Static_assert(offsetof(struct pp_table_call, via) == PP_TABLE_CALL_V2_SIZE,
	       "a version 2 call record is the head of a version 3 one");
_Static_assert(offsetof(struct pp_table_call, callback) == PP_TABLE_CALL_V3_SIZE,
	       "a version 3 call record is the head of a version 4 one");

#define MAGIC_LEN 8

#define HDR(field) offsetof(struct pp_table_header, field)
#define FUNC(field) offsetof(struct pp_table_func, field)
#define CALL(field) offsetof(struct pp_table_call, field)

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

__attribute__((format(printf, 3, 4))) static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -ENOEXEC;
}

/* [off, off + n * elem) inside [lo, b->size); its end in *end. */
static int region(const struct pp_blob *b, const char *what, uint64_t lo, uint32_t off, uint64_t n,
		  uint64_t elem, uint64_t *end, char *why, size_t len)
{
	uint64_t e = (uint64_t)off + n * elem; /* n, elem < 2^32: no overflow */

	if (off < lo || e > b->size)
		return bad(why, len,
			   "%s (%llu bytes at offset %u) do not fit in the blob (%u bytes)", what,
			   (unsigned long long)(n * elem), off, b->size);
	*end = e;
	return 0;
}

const char *pp_blob_str(const struct pp_blob *b, uint32_t off)
{
	const char *s = (const char *)b->p + b->strtab_off;

	/* The table ends with a NUL (pp_blob_open()): a string that starts
	 * inside it ends inside it. */
	if (off >= b->strtab_size || (off && s[off - 1]))
		return NULL;
	return s + off;
}

/*
 * A string is named by its start: offset 0 or one after a NUL.  Nothing
 * names a suffix of another string, so the strings a blob names do not
 * overlap and reading each once costs the table's size at most; and no
 * string is scanned to check it.
 */
static int str_ok(const struct pp_blob *b, uint32_t off, const char *what, char *why, size_t len)
{
	if (off >= b->strtab_size)
		return bad(why, len, "%s string %u is outside the string table (%u bytes)", what,
			   off, b->strtab_size);
	if (!pp_blob_str(b, off))
		return bad(why, len, "%s string %u is inside another string", what, off);
	return 0;
}

int pp_blob_open(struct pp_blob *b, const void *p, size_t avail, char *why, size_t len)
{
	const uint8_t *h = p;
	uint64_t end = 0;
	int ret;

	memset(b, 0, sizeof(*b));
	b->p = h;
	if (avail < sizeof(struct pp_table_header))
		return bad(why, len, "blob header is truncated");
	if (memcmp(h, PP_TABLE_MAGIC, MAGIC_LEN))
		return bad(why, len, "no blob magic \"%s\"", PP_TABLE_MAGIC);
	b->version = rd32(h + HDR(version));
	if (b->version < PP_TABLE_VERSION_MIN || b->version > PP_TABLE_VERSION) {
		if (why && len)
			snprintf(why, len,
				 "pinpoint table version %u, this pinpoint reads versions "
				 "%u to %u",
				 b->version, PP_TABLE_VERSION_MIN, PP_TABLE_VERSION);
		return -EPROTO;
	}
	b->call_size = b->version < 3	? PP_TABLE_CALL_V2_SIZE
		       : b->version < 4 ? PP_TABLE_CALL_V3_SIZE
					: sizeof(struct pp_table_call);
	b->size = rd32(h + HDR(size));
	b->nfuncs = rd32(h + HDR(nfuncs));
	b->ncalls = rd32(h + HDR(ncalls));
	b->funcs_off = rd32(h + HDR(funcs_off));
	b->calls_off = rd32(h + HDR(calls_off));
	b->strtab_off = rd32(h + HDR(strtab_off));
	b->strtab_size = rd32(h + HDR(strtab_size));
	b->module = rd32(h + HDR(module));
	b->producer = rd32(h + HDR(producer));
	if (b->size < sizeof(struct pp_table_header) || b->size % PP_TABLE_ALIGN)
		return bad(why, len, "blob size %u is less than a header or not a multiple of %u",
			   b->size, PP_TABLE_ALIGN);
	if (b->size > avail)
		return bad(why, len, "blob of %u bytes is truncated to %zu", b->size, avail);
	/* The regions come in the order of abi.h, gaps allowed. */
	ret = region(b, "function records", sizeof(struct pp_table_header), b->funcs_off, b->nfuncs,
		     sizeof(struct pp_table_func), &end, why, len);
	if (!ret)
		ret = region(b, "call records", end, b->calls_off, b->ncalls, b->call_size, &end,
			     why, len);
	if (!ret)
		ret = region(b, "string table", end, b->strtab_off, b->strtab_size, 1, &end, why,
			     len);
	if (ret)
		return ret;
	if (b->strtab_size == 0 || h[b->strtab_off] != '\0')
		return bad(why, len,
			   "string table (%u bytes at %u) does not start with the empty string",
			   b->strtab_size, b->strtab_off);
	/* Checked once here, so that every string of the table is terminated. */
	if (h[b->strtab_off + b->strtab_size - 1] != '\0')
		return bad(why, len, "string table (%u bytes at %u) is not terminated",
			   b->strtab_size, b->strtab_off);
	ret = str_ok(b, b->module, "module", why, len);
	if (!ret)
		ret = str_ok(b, b->producer, "producer", why, len);
	return ret;
}

int pp_blob_func(const struct pp_blob *b, uint32_t i, struct pp_blob_func *f, char *why, size_t len)
{
	const uint8_t *r = b->p + b->funcs_off + (size_t)i * sizeof(struct pp_table_func);
	int ret;

	f->name = rd32(r + FUNC(name));
	f->file = rd32(r + FUNC(file));
	f->line = rd32(r + FUNC(line));
	f->first_call = rd32(r + FUNC(first_call));
	f->ncalls = rd32(r + FUNC(ncalls));
	f->linkage = r[FUNC(linkage)];
	f->flags = r[FUNC(flags)];
	ret = str_ok(b, f->name, "function name", why, len);
	if (!ret)
		ret = str_ok(b, f->file, "function file", why, len);
	if (ret)
		return ret;
	if (!b->p[b->strtab_off + f->name])
		return bad(why, len, "the function has no name");
	if (f->linkage > PP_LINK_WEAK)
		return bad(why, len, "unknown linkage %u", f->linkage);
	if (f->flags & ~PP_FUNC_EMITTED)
		return bad(why, len, "unknown flags 0x%x", f->flags);
	if (f->first_call > b->ncalls || f->ncalls > b->ncalls - f->first_call)
		return bad(why, len, "its calls end past the blob's %u calls", b->ncalls);
	return 0;
}

int pp_blob_call(const struct pp_blob *b, uint32_t i, struct pp_blob_call *c, char *why, size_t len)
{
	const uint8_t *r = b->p + b->calls_off + (size_t)i * b->call_size;
	int ret;

	c->callee = rd32(r + CALL(callee));
	c->file = rd32(r + CALL(file));
	c->line = rd32(r + CALL(line));
	c->col = rd32(r + CALL(col));
	c->kind = r[CALL(kind)];
	c->fate = r[CALL(fate)];
	c->via = b->version < 3 ? 0 : rd32(r + CALL(via));
	c->callback = b->version < 4 ? 0 : rd32(r + CALL(callback));
	if (c->kind > PP_CALL_INVOKE_INDIRECT)
		return bad(why, len, "unknown kind %u", c->kind);
	if (c->fate > PP_FATE_UNKNOWN)
		return bad(why, len, "unknown fate %u", c->fate);
	ret = str_ok(b, c->callee, "callee", why, len);
	if (!ret)
		ret = str_ok(b, c->file, "call file", why, len);
	if (!ret)
		ret = str_ok(b, c->callback, "callback", why, len);
	if (ret)
		return ret;
	if (!pp_blob_kind_direct(c->kind))
		c->callee = 0;
	else if (!b->p[b->strtab_off + c->callee])
		return bad(why, len, "a direct call has no callee");
	return 0;
}

/*
 * The rule of `via` for call @k, the calls before it already checked: 0, or
 * k' + 1 for a direct call k' before it in the same list.
 */
static bool via_ok(const struct pp_blob_call *calls, uint32_t k)
{
	uint32_t via = calls[k].via;

	return !via || (via <= k && pp_blob_kind_direct(calls[via - 1].kind));
}

/*
 * Call @k of a function whose flags are @fflags, among its calls: the rules
 * that take the calls before it or the function.
 */
static int call_in(const struct pp_blob_call *calls, uint32_t k, uint8_t fflags, char *why,
		   size_t len)
{
	const struct pp_blob_call *c = &calls[k];

	/* What a call came through is an inlined call before it. */
	if (!via_ok(calls, k))
		return bad(why, len,
			   "call %u came through call %u, which is not a direct call "
			   "before it",
			   k, c->via - 1);
	if (c->fate == PP_FATE_TIMED && !(fflags & PP_FUNC_EMITTED))
		return bad(why, len, "call %u is timed, the function not emitted", k);
	return 0;
}

int pp_blob_calls(const struct pp_blob *b, const struct pp_blob_func *f, struct pp_blob_call *calls,
		  uint32_t *dropped, char *why, size_t len)
{
	char inner[200];
	uint32_t k;

	if (dropped)
		*dropped = 0;
	for (k = 0; k < f->ncalls; k++) {
		if (pp_blob_call(b, f->first_call + k, &calls[k], inner, sizeof(inner)))
			return bad(why, len, "call %u: %s", k, inner);
		if (dropped && !via_ok(calls, k)) {
			calls[k].via = 0;
			(*dropped)++;
		}
		if (call_in(calls, k, f->flags, why, len))
			return -ENOEXEC;
	}
	return 0;
}
