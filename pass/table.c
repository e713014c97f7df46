/* SPDX-License-Identifier: MIT */
/*
 * table.c - the module's pinpoint table: one blob in section pinpoint_table.
 *
 * Layout (abi.h, doc/formats.md): header, function records, call records,
 * string table, zero padding to PP_TABLE_ALIGN, all little-endian.  The blob
 * is a private constant [N x i8] aligned to 8 and kept by llvm.used, so it
 * gets SHF_GNU_RETAIN and survives -O2 and --gc-sections; the linker then
 * concatenates the blobs of all objects.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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
}

static void put_call(uint8_t *b, const struct pp_call *c)
{
	PUT(b, struct pp_table_call, callee, c->callee);
	PUT(b, struct pp_table_call, file, c->file);
	PUT(b, struct pp_table_call, line, c->line);
	PUT(b, struct pp_table_call, col, c->col);
	b[offsetof(struct pp_table_call, kind)] = c->kind;
}

int pp_emit_table(struct pp_module *m)
{
	uint64_t calls_off, strtab_off, size;
	LLVMValueRef init, g;
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
