/* SPDX-License-Identifier: MIT */
/*
 * instrument.c - the two phases of the pass on one module.
 *
 * pp_record_module(), the early phase (start of the pipeline, before any
 * optimisation): collects the functions, call lists and strings, then tags
 * every listed call (sites.c) and stores the table blob, fates not yet
 * known, as !pinpoint.table = !{!{!"<blob>"}}.  Only metadata changes, so
 * the optimiser sees the code of the plain build.  A failure while
 * collecting leaves the module untouched.
 *
 * pp_probe_module(), the late phase (end of the optimisation pipeline):
 * reads each blob back, finds which functions are still emitted, lists in
 * each the calls that came into it by inlining (inlined.c), emits the
 * table, flags and records, probes the bodies and the surviving calls,
 * records the fates, removes the tags and the named metadata and adds the
 * module constructor.
 *
 * A module that already has a table, or (early phase) call lists, is left
 * alone.  Used as clang -fpass-plugin=pinpoint-pass.so (plugin.cpp puts the
 * phases into the default pipelines, every -O level) or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint (both phases).
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

static void init_module(struct pp_module *m, LLVMModuleRef mod)
{
	memset(m, 0, sizeof(*m));
	m->mod = mod;
	m->ctx = LLVMGetModuleContext(mod);
	m->site_kind = LLVMGetMDKindIDInContext(m->ctx, PP_SITE_MD, strlen(PP_SITE_MD));
}

static void free_module(struct pp_module *m)
{
	pp_free_expansion(m);
	free(m->funcs);
	free(m->calls);
	pp_strtab_free(&m->strtab);
}

static bool has_table(LLVMModuleRef mod)
{
	return LLVMGetNamedGlobal(mod, PP_TABLE_GLOBAL) != NULL;
}

static void report(LLVMModuleRef mod, const char *what, int err)
{
	size_t len;

	fprintf(stderr, "pinpoint: %s: module not%s instrumented: %s\n",
		LLVMGetSourceFileName(mod, &len), what, strerror(-err));
}

bool pp_record_module(LLVMModuleRef mod)
{
	struct pp_module m;
	LLVMMetadataRef md;
	uint8_t *blob = NULL;
	uint32_t size;
	int err;

	if (has_table(mod) || LLVMGetNamedMetadataNumOperands(mod, PP_TABLE_MD))
		return false;
	init_module(&m, mod);
	err = pp_strtab_init(&m.strtab);
	if (!err)
		err = collect(&m);
	if (!err && m.nfuncs)
		err = pp_encode_table(&m, &blob, &size);
	if (err || !m.nfuncs)
		goto out;
	for (uint32_t i = 0; i < m.nfuncs; i++) {
		const struct pp_func *f = &m.funcs[i];

		for (uint32_t k = 0; k < f->ncalls; k++)
			pp_tag_site(&m, m.calls[f->first_call + k].inst, f->fn, k);
	}
	md = LLVMMDStringInContext2(m.ctx, (const char *)blob, size);
	md = LLVMMDNodeInContext2(m.ctx, &md, 1);
	LLVMAddNamedMetadataOperand(mod, PP_TABLE_MD, LLVMMetadataAsValue(m.ctx, md));
out:
	if (err)
		report(mod, "", err);
	free(blob);
	free_module(&m);
	return !err && m.nfuncs;
}

/* The late phase for one blob; *changed once the module changed. */
static int probe_blob(struct pp_module *m, LLVMValueRef node, bool *changed)
{
	LLVMValueRef ops[1], *records = NULL;
	const char *blob;
	unsigned size;
	uint32_t n = 0;
	bool dbg_records;
	int err = 0;

	if (LLVMGetMDNodeNumOperands(node) != 1)
		return -EPROTO;
	LLVMGetMDNodeOperands(node, ops);
	blob = ops[0] ? LLVMGetMDString(ops[0], &size) : NULL;
	if (!blob)
		return -EPROTO;
	err = pp_decode_table(m, (const uint8_t *)blob, size);
	if (err)
		return err;
	records = malloc((m->nfuncs + 1) * sizeof(*records));
	if (!records)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		struct pp_func *f = &m->funcs[i];
		LLVMValueRef fn = LLVMGetNamedFunction(m->mod, m->strtab.buf + f->name);

		f->fn = fn && pp_want_function(fn) ? fn : NULL;
		f->fflags = f->fn ? PP_FUNC_EMITTED : 0;
	}
	err = pp_expand_calls(m);
	if (err)
		goto out;

	pp_declare_runtime(m);
	err = pp_emit_table(m);
	if (err)
		goto out;
	/* From here on the module changes; nothing below can fail halfway
	 * through a function except by leaving it without probes. */
	*changed = true;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		if (!m->funcs[i].fn)
			continue;
		pp_emit_records(m, &m->funcs[i]);
		records[n++] = m->funcs[i].record;
	}
	pp_append_used(m->mod, records, n);
	n = 0; /* the functions' addresses, kept as the entries are */
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].fn && m->funcs[i].addr)
			records[n++] = m->funcs[i].addr;
	pp_append_compiler_used(m->mod, records, n);
	dbg_records = use_debug_intrinsics(m->mod);
	n = 0; /* records[] now holds the entries' targets (entry.c) */
	for (uint32_t i = 0; i < m->nfuncs && !err; i++) {
		bool done = false;

		if (m->funcs[i].fn)
			err = pp_probe_via_entry(m, &m->funcs[i], &done, &records[n]);
		if (done)
			n++;
		if (m->funcs[i].fn && !err && !done)
			err = pp_probe_via_clone(m, &m->funcs[i], &done);
		if (m->funcs[i].fn && !err && !done)
			err = pp_probe_via_stub(m, &m->funcs[i], &done);
		if (m->funcs[i].fn && !err && !done)
			err = pp_probe_function(m, &m->funcs[i]);
		if (!err)
			err = pp_call_fates(m, &m->funcs[i]);
	}
	restore_debug_format(m->mod, dbg_records);
	pp_append_compiler_used(m->mod, records, n);
	if (!err)
		err = pp_finish_table(m);
out:
	free(records);
	return err;
}

/* Tags of calls inlined into functions without a list stay otherwise. */
static void untag_all(struct pp_module *m)
{
	for (LLVMValueRef fn = LLVMGetFirstFunction(m->mod); fn; fn = LLVMGetNextFunction(fn))
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
			     inst = LLVMGetNextInstruction(inst))
				if (LLVMIsACallInst(inst) || LLVMIsAInvokeInst(inst))
					pp_untag_site(m, inst);
}

bool pp_probe_module(LLVMModuleRef mod)
{
	unsigned n = LLVMGetNamedMetadataNumOperands(mod, PP_TABLE_MD);
	LLVMValueRef *nodes;
	bool changed = false;
	struct pp_module m;
	int err = 0;

	if (!n)
		return false;
	nodes = malloc(n * sizeof(*nodes));
	if (!nodes) {
		report(mod, "", -ENOMEM);
		return false;
	}
	LLVMGetNamedMetadataOperands(mod, PP_TABLE_MD, nodes);
	/* Several blobs when modules were linked together between the phases. */
	for (unsigned i = 0; i < n && !err; i++) {
		init_module(&m, mod);
		err = probe_blob(&m, nodes[i], &changed);
		free_module(&m);
	}
	free(nodes);
	if (err)
		report(mod, changed ? " fully" : "", err);
	init_module(&m, mod);
	untag_all(&m);
	pp_erase_named_metadata(mod, PP_TABLE_MD);
	if (changed) {
		pp_declare_runtime(&m);
		pp_emit_module_ctor(&m);
	}
	return true;
}

bool pp_instrument_module(LLVMModuleRef mod)
{
	bool changed = pp_record_module(mod);

	return pp_probe_module(mod) || changed;
}
