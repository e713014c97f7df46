/* SPDX-License-Identifier: MIT */
/*
 * table.c - the module's pinpoint table: one blob in section pinpoint_table.
 *
 * Layout (abi.h, doc/formats.md): header, function records, call records,
 * string table, zero padding to PP_TABLE_ALIGN, all little-endian.  The
 * early phase encodes the blob (fates all zero) into the module's named
 * metadata; the late phase decodes it, fills in the fates and emits it as a
 * private constant [N x i8] aligned to 8 and kept by llvm.used, so it gets
 * SHF_GNU_RETAIN and survives -O2 and --gc-sections; the linker then
 * concatenates the blobs of all objects.  The late phase also adds the calls
 * that came into a function by inlining (inlined.c), so its blob is laid out
 * anew before it is emitted.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blob.h"
#include "pass.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

#define PUT(base, type, field, v) put32((base) + offsetof(type, field), (v))

static void put_header(uint8_t *b, struct pp_module *m, uint32_t size, uint32_t calls_off)
{
	const struct pp_table_header *h = NULL;

	memcpy(b + offsetof(struct pp_table_header, magic), PP_TABLE_MAGIC, sizeof(h->magic));
	PUT(b, struct pp_table_header, version, PP_TABLE_VERSION);
	PUT(b, struct pp_table_header, size, size);
	PUT(b, struct pp_table_header, nfuncs, m->nfuncs);
	PUT(b, struct pp_table_header, ncalls, m->ncalls);
	PUT(b, struct pp_table_header, funcs_off, sizeof(*h));
	PUT(b, struct pp_table_header, calls_off, calls_off);
	PUT(b, struct pp_table_header, strtab_off, m->strtab_off);
	PUT(b, struct pp_table_header, strtab_size, m->strtab.len);
	PUT(b, struct pp_table_header, module, m->module_name);
	PUT(b, struct pp_table_header, producer, m->producer);
}

static void put_func(uint8_t *b, const struct pp_func *f)
{
	PUT(b, struct pp_table_func, name, f->name);
	PUT(b, struct pp_table_func, file, f->file);
	PUT(b, struct pp_table_func, line, f->line);
	PUT(b, struct pp_table_func, first_call, f->first_call);
	PUT(b, struct pp_table_func, ncalls, f->ncalls);
	b[offsetof(struct pp_table_func, linkage)] = f->linkage;
	b[offsetof(struct pp_table_func, flags)] = f->fflags;
}

static void put_call(uint8_t *b, const struct pp_call *c)
{
	PUT(b, struct pp_table_call, callee, c->callee);
	PUT(b, struct pp_table_call, file, c->file);
	PUT(b, struct pp_table_call, line, c->line);
	PUT(b, struct pp_table_call, col, c->col);
	b[offsetof(struct pp_table_call, kind)] = c->kind;
	b[offsetof(struct pp_table_call, fate)] = c->fate;
	PUT(b, struct pp_table_call, via, c->via);
	PUT(b, struct pp_table_call, callback, c->callback);
}

int pp_encode_table(struct pp_module *m, uint8_t **out, uint32_t *out_size)
{
	uint64_t calls_off, strtab_off, size;
	uint8_t *blob;

	calls_off =
	    sizeof(struct pp_table_header) + (uint64_t)m->nfuncs * sizeof(struct pp_table_func);
	strtab_off = calls_off + (uint64_t)m->ncalls * sizeof(struct pp_table_call);
	size = strtab_off + m->strtab.len;
	size = (size + PP_TABLE_ALIGN - 1) / PP_TABLE_ALIGN * PP_TABLE_ALIGN;
	if (size > UINT32_MAX)
		return -E2BIG;
	blob = calloc(1, size);
	if (!blob)
		return -ENOMEM;
	m->strtab_off = strtab_off;

	put_header(blob, m, size, calls_off);
	for (uint32_t i = 0; i < m->nfuncs; i++)
		put_func(blob + sizeof(struct pp_table_header) + i * sizeof(struct pp_table_func),
			 &m->funcs[i]);
	for (uint32_t i = 0; i < m->ncalls; i++)
		put_call(blob + calls_off + i * sizeof(struct pp_table_call), &m->calls[i]);
	memcpy(blob + strtab_off, m->strtab.buf, m->strtab.len);
	*out = blob;
	*out_size = size;
	return 0;
}

/*
 * The blob is the early phase's own output, but a module can be edited by
 * hand between the phases: it is read with the readers' decoder
 * (core/blob.c), every record checked.
 */
int pp_decode_table(struct pp_module *m, const uint8_t *b, size_t size)
{
	struct pp_blob h;

	if (pp_blob_open(&h, b, size, NULL, 0) || h.version != PP_TABLE_VERSION)
		return -EPROTO;
	m->nfuncs = h.nfuncs;
	m->ncalls = h.ncalls;
	m->strtab_off = h.strtab_off;
	m->strtab.len = h.strtab_size;
	m->module_name = h.module;
	m->producer = h.producer;
	m->funcs = calloc(m->nfuncs + 1, sizeof(*m->funcs));
	m->calls = calloc(m->ncalls + 1, sizeof(*m->calls));
	m->strtab.buf = malloc(m->strtab.len);
	if (!m->funcs || !m->calls || !m->strtab.buf)
		return -ENOMEM;
	m->funcs_cap = m->nfuncs;
	m->calls_cap = m->ncalls;
	m->strtab.cap = m->strtab.len;
	memcpy(m->strtab.buf, b + h.strtab_off, m->strtab.len);
	m->strtab.buf[m->strtab.len - 1] = '\0';

	for (uint32_t i = 0; i < m->nfuncs; i++) {
		struct pp_func *f = &m->funcs[i];
		struct pp_blob_func r;

		if (pp_blob_func(&h, i, &r, NULL, 0))
			return -EPROTO;
		f->name = r.name;
		f->file = r.file;
		f->line = r.line;
		f->first_call = r.first_call;
		f->ncalls = r.ncalls;
		f->linkage = r.linkage;
	}
	for (uint32_t i = 0; i < m->ncalls; i++) {
		struct pp_call *c = &m->calls[i];
		struct pp_blob_call r;

		if (pp_blob_call(&h, i, &r, NULL, 0))
			return -EPROTO;
		c->callee = r.callee;
		c->file = r.file;
		c->line = r.line;
		c->col = r.col;
		c->kind = r.kind;
		c->via = r.via;
		c->callback = r.callback;
	}
	/* The late phase adds the strings of the calls of inlined code. */
	return pp_strtab_index(&m->strtab);
}

/*
 * Function @i of the encoded blob @h against the readers' rules
 * (core/blob.c), as they will read it.  A call whose `via` breaks them (code
 * inlined at a call of the source the optimiser made direct: a call through
 * a pointer it resolved) keeps its entry and loses its via in m->calls;
 * *@dropped counts them.  Anything else wrong is the pass's own error: one
 * line on stderr, and the readers will skip the function (its vias are left
 * as they are).
 */
static int check_func(struct pp_module *m, const struct pp_blob *h, uint32_t i,
		      struct pp_blob_call *rc, uint32_t *dropped)
{
	const struct pp_func *f = &m->funcs[i];
	struct pp_blob_func rf;
	char why[240];
	size_t len;

	if (!pp_blob_func(h, i, &rf, why, sizeof(why)) &&
	    !pp_blob_calls(h, &rf, rc, dropped, why, sizeof(why))) {
		for (uint32_t k = 0; *dropped && k < rf.ncalls; k++)
			m->calls[f->first_call + k].via = rc[k].via;
		return 0;
	}
	*dropped = 0;
	fprintf(stderr, "pinpoint: %s: function %s: the table's record is unreadable (%s)\n",
		LLVMGetSourceFileName(m->mod, &len), m->strtab.buf + f->name, why);
	return -ENOEXEC;
}

/*
 * The blob checked function by function as the readers will read it; the
 * vias dropped are reported as a remark of each function (clang
 * -Rpass=pinpoint).  *@again when the blob must be encoded again.
 */
static void check_table(struct pp_module *m, const uint8_t *blob, uint32_t size, bool *again)
{
	struct pp_blob_call *rc = calloc(m->ncalls + 1, sizeof(*rc));
	struct pp_blob h;

	*again = false;
	if (!rc || pp_blob_open(&h, blob, size, NULL, 0)) {
		free(rc);
		return;
	}
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		uint32_t dropped = 0;
		char msg[200];

		check_func(m, &h, i, rc, &dropped);
		if (!dropped)
			continue;
		*again = true;
		snprintf(msg, sizeof(msg),
			 "%u call%s of inlined code listed without the call %s came through: "
			 "inlined at a call through a pointer",
			 dropped, dropped == 1 ? "" : "s", dropped == 1 ? "it" : "they");
		if (m->funcs[i].fn)
			pp_remark(m->funcs[i].fn, "ViaDropped", msg);
	}
	free(rc);
}

int pp_emit_table(struct pp_module *m)
{
	LLVMValueRef init, g;
	uint8_t *blob;
	uint32_t size;
	int err;

	err = pp_encode_table(m, &blob, &size);
	if (err)
		return err;
	init = LLVMConstStringInContext(m->ctx, (const char *)blob, size, 1);
	free(blob);
	g = LLVMAddGlobal(m->mod, LLVMTypeOf(init), PP_TABLE_GLOBAL);
	LLVMSetInitializer(g, init);
	LLVMSetGlobalConstant(g, 1);
	LLVMSetLinkage(g, LLVMPrivateLinkage);
	LLVMSetSection(g, PP_TABLE_SECTION);
	LLVMSetAlignment(g, PP_TABLE_ALIGN);
	pp_append_used(m->mod, &g, 1);
	m->table = g;
	return 0;
}

LLVMValueRef pp_table_string(struct pp_module *m, uint32_t off)
{
	LLVMValueRef idx[2] = {
	    LLVMConstInt(m->i32, 0, 0),
	    LLVMConstInt(m->i32, m->strtab_off + off, 0),
	};

	return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(m->table), m->table, idx, 2);
}

int pp_finish_table(struct pp_module *m)
{
	LLVMValueRef init;
	uint8_t *blob;
	uint32_t size;
	bool again;
	int err;

	err = pp_encode_table(m, &blob, &size);
	if (err)
		return err;
	check_table(m, blob, size, &again);
	if (again) {
		free(blob);
		err = pp_encode_table(m, &blob, &size);
		if (err)
			return err;
	}
	init = LLVMConstStringInContext(m->ctx, (const char *)blob, size, 1);
	free(blob);
	/* The same size: only fates and flags changed. */
	LLVMSetInitializer(m->table, init);
	return 0;
}
