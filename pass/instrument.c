/* SPDX-License-Identifier: MIT */
/*
 * instrument.c - pp_instrument_module(), the whole pass on one module.
 *
 * Collect first (functions, call lists, strings, the table blob), then
 * inject (table, flags and records, probes, module constructor), so nothing
 * is mutated while it is being walked and a failure while collecting leaves
 * the module untouched.  A module that already has a table is left alone.
 * Used as clang -fpass-plugin=pinpoint-pass.so (at the start of the
 * default pipelines, every -O level) or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm/Config/llvm-config.h>

#include "pass.h"

#define PP_PRODUCER "pinpoint " PP_VERSION " llvm " LLVM_VERSION_STRING

static uint8_t linkage_of(LLVMValueRef fn)
{
	switch (LLVMGetLinkage(fn)) {
	case LLVMInternalLinkage:
	case LLVMPrivateLinkage:
		return PP_LINK_INTERNAL;
	case LLVMLinkOnceAnyLinkage:
	case LLVMLinkOnceODRLinkage:
		return PP_LINK_LINKONCE;
	case LLVMWeakAnyLinkage:
	case LLVMWeakODRLinkage:
		return PP_LINK_WEAK;
	default:
		return PP_LINK_EXTERNAL;
	}
}

static int add_func(struct pp_module *m, LLVMValueRef fn)
{
	struct pp_func *f;
	const char *name;
	size_t len;
	int err;

	if (m->nfuncs == m->funcs_cap) {
		uint32_t cap = m->funcs_cap ? m->funcs_cap * 2 : 64;
		struct pp_func *funcs = realloc(m->funcs, cap * sizeof(*funcs));

		if (!funcs)
			return -ENOMEM;
		m->funcs = funcs;
		m->funcs_cap = cap;
	}
	f = memset(&m->funcs[m->nfuncs++], 0, sizeof(*f));
	f->fn = fn;
	f->linkage = linkage_of(fn);
	name = LLVMGetValueName2(fn, &len);
	err = pp_strtab_add(&m->strtab, name, len, &f->name);
	if (!err)
		err = pp_func_srcloc(m, fn, &f->file, &f->line);
	if (!err)
		err = pp_collect_calls(m, f);
	return err;
}

static int collect(struct pp_module *m)
{
	const char *s;
	size_t len;
	int err;

	s = LLVMGetSourceFileName(m->mod, &len);
	err = pp_strtab_add(&m->strtab, s, len, &m->module_name);
	if (!err)
		err = pp_strtab_add(&m->strtab, PP_PRODUCER, strlen(PP_PRODUCER), &m->producer);
	for (LLVMValueRef fn = LLVMGetFirstFunction(m->mod); fn && !err;
	     fn = LLVMGetNextFunction(fn))
		if (pp_want_function(fn))
			err = add_func(m, fn);
	return err;
}

/* Probes move instructions between blocks one by one; with LLVM 19's debug
 * records that would pile the records up at the split points, while debug
 * intrinsics move with their neighbours.  Returns the format to restore. */
static bool use_debug_intrinsics(LLVMModuleRef mod)
{
#if LLVM_VERSION_MAJOR >= 19
	bool records = LLVMIsNewDbgInfoFormat(mod);

	if (records)
		LLVMSetIsNewDbgInfoFormat(mod, 0);
	return records;
#else
	(void)mod;
	return false;
#endif
}

static void restore_debug_format(LLVMModuleRef mod, bool records)
{
#if LLVM_VERSION_MAJOR >= 19
	if (records)
		LLVMSetIsNewDbgInfoFormat(mod, 1);
#else
	(void)mod;
	(void)records;
#endif
}

static int inject(struct pp_module *m, LLVMValueRef *records)
{
	bool dbg_records;
	int err = 0;

	pp_declare_runtime(m);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		pp_emit_records(m, &m->funcs[i]);
		records[i] = m->funcs[i].record;
	}
	pp_append_used(m->mod, records, m->nfuncs);
	dbg_records = use_debug_intrinsics(m->mod);
	for (uint32_t i = 0; i < m->nfuncs && !err; i++)
		err = pp_probe_function(m, &m->funcs[i]);
	restore_debug_format(m->mod, dbg_records);
	pp_emit_module_ctor(m);
	return err;
}

bool pp_instrument_module(LLVMModuleRef mod)
{
	struct pp_module m = {.mod = mod, .ctx = LLVMGetModuleContext(mod)};
	LLVMValueRef *records = NULL;
	bool changed = false;
	size_t len;
	int err;

	if (LLVMGetNamedGlobal(mod, PP_TABLE_GLOBAL))
		return false;
	err = pp_strtab_init(&m.strtab);
	if (err)
		goto out;
	err = collect(&m);
	if (err || !m.nfuncs)
		goto out;
	records = malloc(m.nfuncs * sizeof(*records));
	if (!records) {
		err = -ENOMEM;
		goto out;
	}
	err = pp_emit_table(&m);
	if (err)
		goto out;
	/* From here on the module changes; nothing below can fail halfway
	 * through a function except by leaving it without probes. */
	changed = true;
	err = inject(&m, records);
out:
	if (err)
		fprintf(stderr, "pinpoint: %s: module not%s instrumented: %s\n",
			LLVMGetSourceFileName(mod, &len), changed ? " fully" : "", strerror(-err));
	free(records);
	free(m.funcs);
	free(m.calls);
	pp_strtab_free(&m.strtab);
	return changed;
}
