/* SPDX-License-Identifier: MIT */
/*
 * stub.c - a function's body probes in a stub in front of its body.
 *
 * In the late phase, a function f that neither entry.c nor dispatch.c
 * takes has its blocks moved into a new local function "<f>.pinpoint.body" (never
 * inlined, with f's attributes, personality and debug info), and f becomes
 * a stub that times the body when the body's flag is set:
 *
 *	%a = load i8, ptr getelementptr (flags, 0, 0)      ; the body's site
 *	%c = icmp ne i8 %a, 0
 *	br i1 %c, label %armed, label %plain, !prof never taken
 *   plain:
 *	%r = musttail call @f.pinpoint.body(<f's arguments>)   ; a jump
 *	ret %r
 *   armed:
 *	call @__pinpoint_enter(record, 0)
 *	%r.armed = call @f.pinpoint.body(<f's arguments>)
 *	call @__pinpoint_exit(record, 0)
 *	ret %r.armed
 *
 * The body keeps the probes of its calls (probes.c) but has no body
 * probes.  Those cost a check at the entry and one before every return,
 * and their armed calls made the body keep its arguments and a frame
 * around them; the stub costs one check and a jump.  On real code (the
 * callgrind counts of bench/README.md), the body probes were about half of
 * the instructions the unarmed probes added.  A body that unwinds or
 * longjmps out has no exit, as without the stub (probes.c).
 *
 * Not for what a musttail call cannot forward or a body cannot leave
 * (pp_can_clone: variadic, noreturn, returns_twice, a block whose address
 * is taken), nor for a byval parameter (LLVM 14 to 19 forward it over the
 * return address, dispatch.c), nor for a body that ends in a musttail
 * call of its own (its exit probe goes before that call, probes.c), nor
 * for arguments passed on the stack (args_in_registers); those
 * keep their body probes in their body.  With the environment variable PP_STUB_ENV=0 set
 * while compiling, no function gets a stub.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "pass.h"

#define PP_BODY_SUFFIX ".pinpoint.body"

static bool has_musttail(LLVMValueRef fn)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (LLVMIsACallInst(i) && pp_is_musttail_call(i))
				return true;
	return false;
}

/* Integer argument registers of the module's target; 0: no stubs. */
static unsigned int_registers(LLVMModuleRef mod)
{
	/* Without a triple, the backend compiles for the host: so do we. */
	char *host = *LLVMGetTarget(mod) ? NULL : LLVMGetDefaultTargetTriple();
	const char *triple = host ? host : LLVMGetTarget(mod);
	unsigned n = 0;

	if (!strncmp(triple, "x86_64", 6) && !strstr(triple, "windows") &&
	    !strstr(triple, "mingw") && !strstr(triple, "cygwin"))
		n = 6;
	else if (!strncmp(triple, "aarch64", 7) || !strncmp(triple, "arm64", 5))
		n = 8;
	LLVMDisposeMessage(host);
	return n;
}

/*
 * Are all of @fn's arguments passed in registers?  A stub forwards its
 * arguments with a musttail call, and LLVM 14 to 19 copy every argument
 * passed on the stack to the same slot it came from (a load and a store
 * each, and a frame to hold them): a stub in front of a function of eight
 * arguments cost more than the body probes it replaces
 * (ts_subtree_new_leaf, bench/README.md).  The limits are those of the
 * x86-64 System V and AArch64 calling conventions (6 or 8 integer
 * registers, 8 vector registers); any other target, a parameter of a type
 * that may go on the stack (x87 long double, fp128, a vector wider than
 * 128 bits, an aggregate), or an integer wider than two registers answers
 * no.
 */
static bool args_in_registers(LLVMModuleRef mod, LLVMValueRef fn)
{
	unsigned gprs = int_registers(mod), fprs = 8, ngpr = 0, nfpr = 0;

	if (!gprs)
		return false;
	for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p)) {
		LLVMTypeRef ty = LLVMTypeOf(p);

		switch (LLVMGetTypeKind(ty)) {
		case LLVMIntegerTypeKind:
			if (LLVMGetIntTypeWidth(ty) > 128)
				return false;
			ngpr += LLVMGetIntTypeWidth(ty) > 64 ? 2 : 1;
			break;
		case LLVMPointerTypeKind:
			ngpr++;
			break;
		case LLVMHalfTypeKind:
		case LLVMBFloatTypeKind:
		case LLVMFloatTypeKind:
		case LLVMDoubleTypeKind:
			nfpr++;
			break;
		case LLVMVectorTypeKind:
			if (LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(mod), ty) > 128)
				return false;
			nfpr++;
			break;
		default:
			return false;
		}
	}
	return ngpr <= gprs && nfpr <= fprs;
}

/* Function, return and parameter attributes of @from onto @to. */
static int copy_attributes(LLVMValueRef from, LLVMValueRef to)
{
	unsigned nparams = LLVMCountParams(from);

	for (int64_t idx = -1; idx <= (int64_t)nparams; idx++) {
		LLVMAttributeIndex at = idx < 0 ? (LLVMAttributeIndex)LLVMAttributeFunctionIndex
						: (LLVMAttributeIndex)idx;
		unsigned n = LLVMGetAttributeCountAtIndex(from, at);
		LLVMAttributeRef *attrs;

		if (!n)
			continue;
		attrs = malloc(n * sizeof(*attrs));
		if (!attrs)
			return -ENOMEM;
		LLVMGetAttributesAtIndex(from, at, attrs);
		for (unsigned i = 0; i < n; i++)
			LLVMAddAttributeAtIndex(to, at, attrs[i]);
		free(attrs);
	}
	return 0;
}

static void set_enum_attribute(struct pp_module *m, LLVMValueRef fn, const char *name, bool on)
{
	unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));

	if (on)
		LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
					LLVMCreateEnumAttribute(m->ctx, kind, 0));
	else
		LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind);
}

static void name_params(LLVMValueRef from, LLVMValueRef to)
{
	for (unsigned i = 0, n = LLVMCountParams(from); i < n; i++) {
		size_t len;
		const char *name = LLVMGetValueName2(LLVMGetParam(from, i), &len);

		LLVMSetValueName2(LLVMGetParam(to, i), name, len);
	}
}

/*
 * A new local, never inlined function @name with @fn's type, attributes,
 * calling convention and comdat (it must go wherever @fn's group goes);
 * NULL without memory.
 */
static LLVMValueRef new_local(struct pp_module *m, LLVMValueRef fn, const char *name)
{
	LLVMValueRef g = LLVMAddFunction(m->mod, name, LLVMGlobalGetValueType(fn));

	if (copy_attributes(fn, g)) {
		LLVMDeleteFunction(g);
		return NULL;
	}
	set_enum_attribute(m, g, "alwaysinline", false);
	set_enum_attribute(m, g, "noinline", true);
	LLVMSetLinkage(g, LLVMInternalLinkage);
	LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
	LLVMSetFunctionCallConv(g, LLVMGetFunctionCallConv(fn));
	if (LLVMGetComdat(fn))
		LLVMSetComdat(g, LLVMGetComdat(fn));
	name_params(fn, g);
	return g;
}

/* @fn's blocks into @body (new_local), with its personality, GC, section,
 * alignment and debug info; @fn is left without blocks. */
static void move_body(struct pp_module *m, LLVMValueRef fn, LLVMValueRef body)
{
	unsigned dbg = LLVMGetMDKindIDInContext(m->ctx, "dbg", 3);
	LLVMMetadataRef sp = LLVMGetSubprogram(fn);
	LLVMBasicBlockRef bb, next, last;

	if (LLVMHasPersonalityFn(fn))
		LLVMSetPersonalityFn(body, LLVMGetPersonalityFn(fn));
	if (LLVMGetGC(fn))
		LLVMSetGC(body, LLVMGetGC(fn));
	if (LLVMGetSection(fn))
		LLVMSetSection(body, LLVMGetSection(fn));
	LLVMSetAlignment(body, LLVMGetAlignment(fn));

	/* LLVMMoveBasicBlockAfter moves a block into the function of the
	 * block it goes after: a placeholder holds the first place. */
	last = LLVMAppendBasicBlockInContext(m->ctx, body, "");
	for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = next) {
		next = LLVMGetNextBasicBlock(bb);
		LLVMMoveBasicBlockAfter(bb, last);
		last = bb;
	}
	LLVMDeleteBasicBlock(LLVMGetFirstBasicBlock(body));
	for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++)
		LLVMReplaceAllUsesWith(LLVMGetParam(fn, i), LLVMGetParam(body, i));
	if (sp) {
		LLVMGlobalEraseMetadata(fn, dbg);
		LLVMSetSubprogram(body, sp);
	}
}

/*
 * The body timed: "<f>.pinpoint.timed", local, never inlined, in
 * .text.unlikely, with f's type and attributes.  Kept out of the stub so
 * that the stub's paths are two jumps: an armed path inside it would make
 * the stub keep the arguments across the probe calls, in a frame the plain
 * path would set up too.
 */
LLVMValueRef pp_build_timed(struct pp_module *m, struct pp_func *f, LLVMValueRef stub,
			    LLVMValueRef body, const char *name, LLVMValueRef *args)
{
	LLVMValueRef timed = new_local(m, stub, name);
	LLVMBuilderRef b;
	LLVMValueRef call;

	if (!timed)
		return NULL;
	set_enum_attribute(m, timed, "cold", true);
	LLVMSetSection(timed, ".text.unlikely");
	b = LLVMCreateBuilderInContext(m->ctx);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(m->ctx, timed, "entry"));
	pp_build_probe_call(m, f, b, PP_SITE_BODY, false);
	call = pp_build_forward_call(b, timed, body, args, false);
	pp_build_probe_call(m, f, b, PP_SITE_BODY, true);
	pp_build_ret(b, timed, call);
	LLVMDisposeBuilder(b);
	return timed;
}

/* The stub in @f, which has no blocks left: see the top of the file. */
static void build_stub(struct pp_module *m, struct pp_func *f, LLVMValueRef body,
		       LLVMValueRef timed, LLVMValueRef *args)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef stub = f->fn;
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(m->ctx, stub, "entry");
	LLVMBasicBlockRef plain = LLVMAppendBasicBlockInContext(m->ctx, stub, "pinpoint.plain");
	LLVMBasicBlockRef armed = LLVMAppendBasicBlockInContext(m->ctx, stub, "pinpoint.armed");

	/* No debug locations: the stub has no subprogram of its own. */
	LLVMSetCurrentDebugLocation2(b, NULL);
	pp_build_check(m, f, b, entry, armed, plain, PP_SITE_BODY, NULL);
	LLVMPositionBuilderAtEnd(b, plain);
	pp_build_ret(b, stub, pp_build_forward_call(b, stub, body, args, true));
	LLVMPositionBuilderAtEnd(b, armed);
	pp_build_ret(b, stub, pp_build_forward_call(b, stub, timed, args, true));
	LLVMDisposeBuilder(b);
}

int pp_probe_via_stub(struct pp_module *m, struct pp_func *f, bool *done)
{
	const char *name = m->strtab.buf + f->name;
	const char *mode = getenv(PP_STUB_ENV);
	LLVMValueRef stub = f->fn, body, timed, *args;
	char *bname, *tname;
	int err;

	*done = false;
	if ((mode && *mode == '0') || !pp_can_clone(stub) || pp_has_byval(stub) ||
	    has_musttail(stub) || !args_in_registers(m->mod, stub))
		return 0;
	args = malloc((LLVMCountParams(stub) + 1) * sizeof(*args));
	bname = pp_suffixed(name, PP_BODY_SUFFIX);
	tname = pp_suffixed(name, PP_TIMED_SUFFIX);
	err = -ENOMEM;
	if (!args || !bname || !tname)
		goto out;
	/* Nothing of f changes until both new functions exist. */
	body = new_local(m, stub, bname);
	if (!body)
		goto out;
	timed = pp_build_timed(m, f, stub, body, tname, args);
	if (!timed) {
		LLVMDeleteFunction(body);
		goto out;
	}
	move_body(m, stub, body);
	build_stub(m, f, body, timed, args);
	/* The calls and their fates are the body's from here on. */
	f->fn = body;
	f->stub = true;
	err = pp_probe_function(m, f);
	*done = true;
out:
	free(tname);
	free(bname);
	free(args);
	return err;
}
