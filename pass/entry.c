/* SPDX-License-Identifier: MIT */
/*
 * entry.c - a function's entry as a static branch (x86-64).
 *
 * In the late phase, a function f whose entry may carry a no-op
 * (pp_entry_eligible) gets the attribute "patchable-function-entry"="5":
 * the backend puts one 5-byte no-op (0f 1f 44 00 08, PP_JUMP_ENTRY_NOP)
 * ahead of f's prologue, at f's address, and nothing else of f changes.
 * One struct pp_jump (abi.h, 4.) describes that no-op, and the runtime
 * makes it a jump, with f's arguments, return address and stack still as
 * the caller left them, to one of two functions:
 *
 *  - f's armed clone "<f>.pinpoint" (as dispatch.c makes it, with every
 *    probe of f), while any site of f is armed (PP_JUMP_FN, pp_fn.armed):
 *    for a small function with timed calls, whose calls then need no check
 *    in f;
 *  - otherwise "<f>.pinpoint.timed" (as stub.c makes it), while f's body
 *    site is armed (PP_JUMP_FLAG):
 *
 *	call @__pinpoint_enter(record, 0)
 *	%r = call (f + 5)(<f's arguments>)     ; f past its no-op
 *	call @__pinpoint_exit(record, 0)
 *	ret %r
 *
 *    and f keeps the checks of its calls (probes.c).
 *
 * Unarmed, f runs the plain build's code behind one no-op: no stub to jump
 * through (stub.c), no check and musttail call in its body (dispatch.c),
 * whose armed path made LLVM set up a frame when an argument is byval
 * (tree-sitter's ts_node_* take a TSNode by value: 5 instructions a call).
 * The jump lands where the call would have, so a variadic, byval or
 * stack-passed argument needs no forwarding, nor does a body that ends in
 * a musttail call.  The entry of the table is emitted by the target
 * function, as data only:
 *
 *	.pushsection pinpoint_jumps, "ao", @progbits, f   (or f's comdat group)
 *	.long f - . ; .long <target> - . ; .long <key> - . ; .long <kind>
 *	.popsection
 *
 * linked to f's section, so that --gc-sections keeps the entry, and the
 * target it refers to, exactly while f is kept.  With PP_ENTRY_ENV=0 set
 * while compiling, or without static branches (jumps.c), dispatch.c and
 * stub.c do this with checks instead.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

#define PP_ENTRY_ATTR "patchable-function-entry"

static bool use_entry(struct pp_module *m, LLVMValueRef fn)
{
	const char *mode = getenv(PP_ENTRY_ENV);

	if (!m->jumps || (mode && !strcmp(mode, "0")))
		return false;
	return pp_can_clone(fn) && pp_entry_eligible(fn) && pp_jump_group_ok(fn);
}

/* Whether one of the calls of f's list survives in f, to be probed. */
static bool has_timed_calls(struct pp_module *m, struct pp_func *f)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->fn); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if ((LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) &&
			    pp_call_site(m, f, i, false) >= 0)
				return true;
	return false;
}

/* The entry of the table, at the start of @target (after its allocas). */
static int add_entry(struct pp_module *m, struct pp_func *f, LLVMValueRef target, LLVMValueRef key,
		     enum pp_jump_kind kind)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
	LLVMBuilderRef mover = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef at = pp_entry_insertion_point(mover, target);
	int err = 0;

	LLVMPositionBuilderBefore(b, at);
	LLVMSetCurrentDebugLocation2(b, NULL);
	if (!pp_build_entry_jump(m, b, f->fn, target, key, kind))
		err = -ENOMEM;
	LLVMDisposeBuilder(mover);
	LLVMDisposeBuilder(b);
	return err;
}

/* f past its no-op, as a callee of f's type. */
static LLVMValueRef past_entry(struct pp_module *m, LLVMValueRef fn)
{
	LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(m->ctx), PP_JUMP_LEN, 0);
	LLVMValueRef p = LLVMConstGEP2(m->i8, LLVMConstPointerCast(fn, m->ptr), &off, 1);

	return LLVMConstPointerCast(p, LLVMTypeOf(fn));
}

int pp_probe_via_entry(struct pp_module *m, struct pp_func *f, bool *done, LLVMValueRef *kept)
{
	LLVMValueRef orig = f->fn, target, key, *args = NULL;
	const char *name = m->strtab.buf + f->name;
	enum pp_jump_kind kind;
	char *tname = NULL;
	bool clone;
	int err;

	*done = false;
	if (!use_entry(m, orig))
		return 0;
	err = pp_want_clone(m, f, &clone);
	if (err)
		return err;
	clone = clone && (pp_clone_all() || has_timed_calls(m, f));
	err = -ENOMEM;
	args = malloc((LLVMCountParams(orig) + 1) * sizeof(*args));
	tname = pp_suffixed(name, clone ? PP_CLONE_SUFFIX : PP_TIMED_SUFFIX);
	if (!args || !tname)
		goto out;
	/* Both new functions copy f's attributes: made before f gets its
	 * no-op. */
	if (clone) {
		target = pp_clone_function(orig, tname);
		key = pp_armed_ptr(m, f);
		kind = PP_JUMP_FN;
		f->fn = target;
		err = pp_probe_function(m, f);
		f->fn = orig;
	} else {
		target = pp_build_timed(m, f, orig, past_entry(m, orig), tname, args);
		if (!target)
			goto out;
		key = pp_flag_ptr(m, f, PP_SITE_BODY);
		kind = PP_JUMP_FLAG;
		f->stub = true;
		err = pp_probe_function(m, f);
	}
	if (!err)
		err = add_entry(m, f, target, key, kind);
	if (err)
		goto out;
	*kept = target;
	LLVMAddAttributeAtIndex(
	    orig, LLVMAttributeFunctionIndex,
	    LLVMCreateStringAttribute(m->ctx, PP_ENTRY_ATTR, sizeof(PP_ENTRY_ATTR) - 1, "5", 1));
	*done = true;
out:
	free(tname);
	free(args);
	return err;
}
