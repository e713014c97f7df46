/* SPDX-License-Identifier: MIT */
/*
 * calls.c - which functions are instrumented, and their call lists.
 *
 * A call list is the function's call sites in program order (basic-block
 * list order, then instruction order) with callee, kind and file:line:col.
 * Intrinsics, inline asm and pinpoint's own runtime calls are left out; a
 * C++ invoke is a call.  The early phase runs at the start of the pipeline,
 * so the list is the same at every -O level; each listed call is tagged
 * with its owner and index (sites.c) for the late phase.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

static bool has_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static bool has_fn_attr(LLVMValueRef fn, const char *attr)
{
	unsigned kind = LLVMGetEnumAttributeKindForName(attr, strlen(attr));

	return kind && LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind);
}

bool pp_want_function(LLVMValueRef fn)
{
	size_t len;
	const char *name = LLVMGetValueName2(fn, &len);

	if (LLVMIsDeclaration(fn) || LLVMGetIntrinsicID(fn))
		return false;
	/* The real body is elsewhere; this copy only feeds the inliner. */
	if (LLVMGetLinkage(fn) == LLVMAvailableExternallyLinkage)
		return false;
	if (has_prefix(name, len, PP_PREFIX))
		return false;
	/* No prologue to put a probe in. */
	return !has_fn_attr(fn, "naked");
}

LLVMValueRef pp_direct_callee(LLVMValueRef call)
{
	LLVMValueRef v = LLVMGetCalledValue(call);

	/* Typed pointers: "call bitcast (@f to ...)" is still a call of f. */
	while (LLVMIsAConstantExpr(v)) {
		LLVMOpcode op = LLVMGetConstOpcode(v);

		if (op != LLVMBitCast && op != LLVMAddrSpaceCast)
			break;
		v = LLVMGetOperand(v, 0);
	}
	if (LLVMIsAGlobalValue(v) && !LLVMIsAGlobalVariable(v))
		return v;
	return NULL;
}

int pp_call_callback(struct pp_module *m, LLVMValueRef call, uint32_t *off)
{
	unsigned n = (unsigned)LLVMGetNumArgOperands(call);

	*off = 0;
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef v = LLVMGetOperand(call, i);
		const char *name;
		size_t len;

		while (LLVMIsAConstantExpr(v)) {
			LLVMOpcode op = LLVMGetConstOpcode(v);

			if (op != LLVMBitCast && op != LLVMAddrSpaceCast)
				break;
			v = LLVMGetOperand(v, 0);
		}
		if (!LLVMIsAFunction(v) || LLVMGetIntrinsicID(v))
			continue;
		name = LLVMGetValueName2(v, &len);
		if (!len || has_prefix(name, len, PP_PREFIX))
			continue;
		return pp_strtab_add(&m->strtab, name, len, off);
	}
	return 0;
}

/* Whether the call belongs in the call list; its callee name if direct. */
static bool listed(LLVMValueRef inst, const char **name, size_t *len)
{
	LLVMValueRef callee;

	*name = NULL;
	*len = 0;
	if (!LLVMIsACallInst(inst) && !LLVMIsAInvokeInst(inst))
		return false;
	if (LLVMIsAInlineAsm(LLVMGetCalledValue(inst)))
		return false;
	callee = pp_direct_callee(inst);
	if (!callee)
		return true;
	if (LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee))
		return false;
	*name = LLVMGetValueName2(callee, len);
	return !has_prefix(*name, *len, "llvm.") && !has_prefix(*name, *len, PP_PREFIX);
}

bool pp_is_listed_call(LLVMValueRef inst)
{
	const char *name;
	size_t len;

	return listed(inst, &name, &len);
}

static struct pp_call *new_call(struct pp_module *m)
{
	if (m->ncalls == m->calls_cap) {
		uint32_t cap = m->calls_cap ? m->calls_cap * 2 : 256;
		struct pp_call *calls = realloc(m->calls, cap * sizeof(*calls));

		if (!calls)
			return NULL;
		m->calls = calls;
		m->calls_cap = cap;
	}
	return memset(&m->calls[m->ncalls++], 0, sizeof(struct pp_call));
}

static int add_call(struct pp_module *m, LLVMValueRef inst, const char *name, size_t len)
{
	bool invoke = LLVMIsAInvokeInst(inst) != NULL;
	LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
	struct pp_call *c = new_call(m);
	int err;

	if (!c)
		return -ENOMEM;
	c->inst = inst;
	if (name)
		c->kind = invoke ? PP_CALL_INVOKE : PP_CALL_DIRECT;
	else
		c->kind = invoke ? PP_CALL_INVOKE_INDIRECT : PP_CALL_INDIRECT;
	if (name) {
		err = pp_strtab_add(&m->strtab, name, len, &c->callee);
		if (err)
			return err;
	}
	err = pp_call_callback(m, inst, &c->callback);
	if (err)
		return err;
	if (loc) {
		c->line = LLVMDILocationGetLine(loc);
		c->col = LLVMDILocationGetColumn(loc);
		return pp_file_of_scope(m, LLVMDILocationGetScope(loc), &c->file);
	}
	return 0;
}

int pp_collect_calls(struct pp_module *m, struct pp_func *f)
{
	LLVMBasicBlockRef bb;
	LLVMValueRef inst;
	const char *name;
	size_t len;
	int err;

	f->first_call = m->ncalls;
	for (bb = LLVMGetFirstBasicBlock(f->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
		for (inst = LLVMGetFirstInstruction(bb); inst;
		     inst = LLVMGetNextInstruction(inst)) {
			if (!listed(inst, &name, &len))
				continue;
			err = add_call(m, inst, name, len);
			if (err)
				return err;
		}
	}
	f->ncalls = m->ncalls - f->first_call;
	return 0;
}
