/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c - a function's probes in an armed clone.
 *
 * In the late phase, a function f that can be cloned (pp_can_clone) is
 * copied into "<f>.pinpoint", local, never inlined, in .text.unlikely; the
 * clone gets all of f's probes (probes.c), and f itself only one check
 * after its static allocas:
 *
 *	%a = load i32, ptr getelementptr (record, 0, 4)      ; pp_fn.armed
 *	%c = icmp uge i32 %a, PP_FN_ARMED
 *	br i1 %c, label %armed, label %body, !prof never taken
 *   armed:
 *	%r = musttail call @f.pinpoint(<f's arguments>)
 *	ret %r
 *
 * The runtime sets pp_fn.armed to PP_FN_ARMED or more before it sets any of
 * f's flags (abi.h), so a call of f with any site armed runs the clone,
 * which checks each probe's flag as before; otherwise f runs the body of
 * the plain build, without probes, at the cost of one load and one branch
 * per call.  A function that cannot be cloned keeps its probes in its own
 * body.
 *
 * Small functions (at most PP_CLONE_SMALL IR instructions after
 * optimisation) are always cloned: their two body checks and the frame the
 * probes' calls make them set up cost most relative to their work (the
 * lexer callbacks of tree-sitter), and cloning them adds little code
 * generation.  With the environment variable PP_CLONE_ENV set while
 * compiling, "1" clones every function and "0" none.  On real libraries,
 * every function cloned (bench/README.md,
 * "Real code") that brings tree-sitter-json and brotli to 1.00-1.03x of the
 * plain build's CPU time, but the build to 1.26-1.6x of the plain build's
 * (the clones double code generation), over the 1.3x target.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

#define PP_CLONE_SUFFIX ".pinpoint"
#define PP_CLONE_SMALL 100

static void add_dispatch(struct pp_module *m, struct pp_func *f, LLVMValueRef clone,
			 LLVMValueRef *args)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
	LLVMBuilderRef mover = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef at = pp_entry_insertion_point(mover, f->fn);
	LLVMBasicBlockRef entry = LLVMGetInstructionParent(at);
	LLVMBasicBlockRef body = pp_split_before(mover, at, "pinpoint.body");
	LLVMBasicBlockRef armed = pp_new_block_after(m->ctx, entry, "pinpoint.dispatch");
	LLVMTypeRef fn_ty = LLVMGlobalGetValueType(f->fn);
	unsigned nargs = LLVMCountParams(f->fn);
	LLVMValueRef idx[2], gep, word, cond, br, call;

	LLVMSetCurrentDebugLocation2(b, pp_func_entry_loc(m, f->fn));
	LLVMPositionBuilderAtEnd(b, entry);
	idx[0] = LLVMConstInt(m->i32, 0, 0);
	idx[1] = LLVMConstInt(m->i32, 4, 0); /* pp_fn.armed */
	gep = LLVMConstInBoundsGEP2(m->record_ty, f->record, idx, 2);
	word = LLVMBuildLoad2(b, m->i32, gep, "pinpoint.fn.armed");
	cond = LLVMBuildICmp(b, LLVMIntUGE, word, LLVMConstInt(m->i32, PP_FN_ARMED, 0),
			     "pinpoint.any");
	br = LLVMBuildCondBr(b, cond, armed, body);
	LLVMSetMetadata(br, m->prof_kind, m->never_taken);

	LLVMPositionBuilderAtEnd(b, armed);
	LLVMGetParams(f->fn, args);
	call = LLVMBuildCall2(b, fn_ty, clone, args, nargs, "");
	pp_make_musttail(call, f->fn);
	if (LLVMGetTypeKind(LLVMGetReturnType(fn_ty)) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else
		LLVMBuildRet(b, call);
	LLVMDisposeBuilder(mover);
	LLVMDisposeBuilder(b);
}

/* At most PP_CLONE_SMALL instructions (after optimisation). */
static bool is_small(LLVMValueRef fn)
{
	unsigned n = 0;

	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (++n > PP_CLONE_SMALL)
				return false;
	return true;
}

int pp_probe_via_clone(struct pp_module *m, struct pp_func *f, bool *done)
{
	const char *name = m->strtab.buf + f->name;
	size_t len = strlen(name);
	LLVMValueRef orig = f->fn, clone, *args;
	const char *mode = getenv(PP_CLONE_ENV);
	char *cname;
	int err;

	*done = false;
	if (!(mode ? *mode == '1' : is_small(orig)) || !pp_can_clone(orig))
		return 0;
	args = malloc((LLVMCountParams(orig) + 1) * sizeof(*args));
	cname = malloc(len + sizeof(PP_CLONE_SUFFIX));
	err = -ENOMEM;
	if (!args || !cname)
		goto out;
	memcpy(cname, name, len);
	memcpy(cname + len, PP_CLONE_SUFFIX, sizeof(PP_CLONE_SUFFIX));
	clone = pp_clone_function(orig, cname);
	f->fn = clone;
	err = pp_probe_function(m, f);
	f->fn = orig;
	if (err)
		goto out;
	add_dispatch(m, f, clone, args);
	*done = true;
out:
	free(cname);
	free(args);
	return err;
}
