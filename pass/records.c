/* SPDX-License-Identifier: MIT */
/*
 * records.c - what the runtime sees of an instrumented module.
 *
 * Per function: a zeroed flags array (one byte per probe site: [0] the
 * body, [k+1] call k), a struct pp_fn record in section pinpoint_fns and
 * a struct pp_fn_addr in section pinpoint_addrs (abi.h, 5.).
 * Per module: the runtime declarations (below) and
 * __pinpoint_module_init, which hands [__start_pinpoint_fns,
 * __stop_pinpoint_fns) to __pinpoint_register, the functions' addresses
 * to __pinpoint_register_addrs and the static branches
 * [__start_pinpoint_jumps, __stop_pinpoint_jumps) to
 * __pinpoint_register_jumps before user constructors run, and
 * __pinpoint_module_fini, which hands the same ranges to
 * __pinpoint_unregister_jumps and __pinpoint_unregister after user
 * destructors ran (at exit, or at dlclose of a library: its armed sites go
 * back to the runtime's table).  Each is linkonce_odr hidden in its own
 * comdat, so one of each survives per executable or shared library.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Target.h>

#include "pass.h"

/* Runs before the default-priority constructors of the program (and the
 * destructor after the default-priority destructors). */
#define PP_CTOR_PRIORITY 1

static void add_fn_attr(LLVMContextRef ctx, LLVMValueRef fn, const char *attr)
{
	unsigned kind = LLVMGetEnumAttributeKindForName(attr, strlen(attr));

	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
				LLVMCreateEnumAttribute(ctx, kind, 0));
}

/* The runtime function `name` as a callee of type fnty. */
static LLVMValueRef runtime_fn(struct pp_module *m, const char *name, LLVMTypeRef fnty)
{
	LLVMValueRef fn = LLVMGetNamedFunction(m->mod, name);

	if (!fn)
		fn = LLVMAddFunction(m->mod, name, fnty);
	if (LLVMIsDeclaration(fn))
		add_fn_attr(m->ctx, fn, "nounwind");
	/* A no-op with opaque pointers; a bitcast if a typed declaration differs. */
	return LLVMConstPointerCast(fn, LLVMPointerType(fnty, 0));
}

/*
 * An armed probe calls the runtime with calling convention preserve_most
 * (x86-64): the runtime's entry points (runtime/arch/x86_64/probe_x86_64.S) save the
 * registers they use, so the cold call does not make the probed function
 * save callee-saved registers in its prologue.  Without it, a small leaf
 * function in a hot loop pays pushes and pops on every call although its
 * probes are never armed (measured: LZ4's decompressor 1.37x slower than
 * plain, 1.01x with preserve_most).  They are nonlazybind: a call goes
 * through the GOT, bound at load time, as a lazily bound PLT entry's
 * resolver may clobber r10.
 *
 * The exit probe passes its record PP_EXIT_BIAS bytes too far, and the
 * runtime takes them back.  An armed call is enter(record); call;
 * exit(record): with one address for both, the compiler computes it once
 * and keeps it across the call in a callee-saved register, which the
 * function then saves and restores on every call, armed or not (one more
 * push and pop, and often a stack adjustment, in ts_lexer__do_advance).
 * Two different addresses are each computed right before their probe.
 */
static bool use_preserve_most(LLVMModuleRef mod)
{
	return !strncmp(LLVMGetTarget(mod), "x86_64", 6);
}

static LLVMValueRef fast_fn(struct pp_module *m, const char *name)
{
	LLVMValueRef fn = runtime_fn(m, name, m->probe_fn_ty);
	LLVMValueRef decl = LLVMGetNamedFunction(m->mod, name);

	if (LLVMIsDeclaration(decl)) {
		LLVMSetFunctionCallConv(decl, LLVMPreserveMostCallConv);
		add_fn_attr(m->ctx, decl, "nonlazybind");
		add_fn_attr(m->ctx, decl, "cold");
	}
	return fn;
}

void pp_declare_runtime(struct pp_module *m)
{
	const char *asm_env = getenv(PP_ASM_PROBES_ENV);
	LLVMTypeRef params[2], fields[5];
	LLVMMetadataRef w[3];

	m->i8 = LLVMInt8TypeInContext(m->ctx);
	m->i32 = LLVMInt32TypeInContext(m->ctx);
	m->ptr = LLVMPointerType(m->i8, 0);
	fields[0] = fields[1] = fields[2] = m->ptr; /* flags, name, file */
	fields[3] = fields[4] = m->i32;		    /* ncalls, armed */
	m->record_ty = LLVMStructTypeInContext(m->ctx, fields, 5, 0);
	params[0] = m->ptr;
	params[1] = m->i32;
	m->probe_fn_ty = LLVMFunctionType(LLVMVoidTypeInContext(m->ctx), params, 2, 0);
	{
		LLVMTypeRef tparams[3] = {m->ptr, m->i32, m->ptr};

		m->target_fn_ty = LLVMFunctionType(LLVMVoidTypeInContext(m->ctx), tparams, 3, 0);
	}
	m->target_fn = runtime_fn(m, PP_TARGET_FN, m->target_fn_ty);
	m->jumps = pp_use_jumps(m->mod);
	if (use_preserve_most(m->mod)) {
		m->enter_fn = fast_fn(m, PP_ENTER_FAST_FN);
		m->exit_fn = fast_fn(m, PP_EXIT_FAST_FN);
		m->probe_cc = LLVMPreserveMostCallConv;
		m->asm_probes = !asm_env || strcmp(asm_env, "0");
		m->sleds = m->asm_probes && m->jumps && pp_sleds_ok(m->mod);
	} else {
		m->enter_fn = runtime_fn(m, PP_ENTER_FN, m->probe_fn_ty);
		m->exit_fn = runtime_fn(m, PP_EXIT_FN, m->probe_fn_ty);
		m->probe_cc = LLVMCCallConv;
	}

	m->prof_kind = LLVMGetMDKindIDInContext(m->ctx, "prof", 4);
	w[0] = LLVMMDStringInContext2(m->ctx, "branch_weights", 14);
	w[1] = LLVMValueAsMetadata(LLVMConstInt(m->i32, 1, 0));
	w[2] = LLVMValueAsMetadata(LLVMConstInt(m->i32, (1u << 20) - 1, 0));
	m->never_taken = LLVMMetadataAsValue(m->ctx, LLVMMDNodeInContext2(m->ctx, w, 3));
}

/*
 * Inline and template functions (comdat or *_odr) can be inlined into other
 * functions of any object, and only one copy of the function survives the
 * link.  Their flags and record are then named, linkonce_odr and hidden, in
 * the function's comdat, so every inlined probe binds to the surviving copy
 * instead of a private one the linker may have discarded with its group.
 */
static bool shared_by_objects(LLVMValueRef fn)
{
	LLVMLinkage l = LLVMGetLinkage(fn);

	if (l == LLVMInternalLinkage || l == LLVMPrivateLinkage)
		return false;
	return LLVMGetComdat(fn) || l == LLVMLinkOnceODRLinkage || l == LLVMWeakODRLinkage;
}

static LLVMValueRef add_global(struct pp_module *m, struct pp_func *f, LLVMTypeRef ty,
			       const char *what, bool shared)
{
	size_t len;
	const char *fname = LLVMGetValueName2(f->fn, &len);
	size_t n = strlen(PP_PREFIX) + strlen(what) + len + 2;
	char *name = malloc(n);
	LLVMValueRef g;

	/* Sharing needs the name; a private copy is merely a duplicate. */
	if (name)
		snprintf(name, n, "%s%s_%s", PP_PREFIX, what, fname);
	else
		shared = false;
	g = LLVMAddGlobal(m->mod, ty, name ? name : "");
	free(name);
	if (shared) {
		LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
		LLVMSetVisibility(g, LLVMHiddenVisibility);
		if (LLVMGetComdat(f->fn))
			LLVMSetComdat(g, LLVMGetComdat(f->fn));
	} else {
		LLVMSetLinkage(g, LLVMPrivateLinkage);
	}
	return g;
}

LLVMValueRef pp_flag_ptr(struct pp_module *m, struct pp_func *f, uint32_t site)
{
	LLVMValueRef idx[2] = {LLVMConstInt(m->i32, 0, 0), LLVMConstInt(m->i32, site, 0)};

	return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(f->flags), f->flags, idx, 2);
}

LLVMValueRef pp_armed_ptr(struct pp_module *m, struct pp_func *f)
{
	LLVMValueRef idx[2] = {LLVMConstInt(m->i32, 0, 0), LLVMConstInt(m->i32, 4, 0)};

	return LLVMConstInBoundsGEP2(m->record_ty, f->record, idx, 2);
}

/*
 * {record, &f} in PP_ADDRS_SECTION: what lets the runtime name the target
 * of an indirect call at exit (abi.h, 5.).  The entry goes with f: in its
 * comdat group, or linked to its section (!associated, SHF_LINK_ORDER), so
 * --gc-sections drops it with an unused f rather than keep f for it.  Not
 * for LTO: a reference to every function would keep them all through the
 * link-time optimisation.
 */
static void emit_addr(struct pp_module *m, struct pp_func *f)
{
	LLVMTypeRef fields[2] = {m->ptr, m->ptr};
	LLVMTypeRef ty = LLVMStructTypeInContext(m->ctx, fields, 2, 0);
	LLVMValueRef vals[2], g;
	unsigned kind;

	if (pp_module_for_lto(m->mod))
		return;
	vals[0] = LLVMConstPointerCast(f->record, m->ptr);
	vals[1] = LLVMConstPointerCast(f->fn, m->ptr);
	/* named (llvm.compiler.used), and shared as the record is */
	g = add_global(m, f, ty, "addr", shared_by_objects(f->fn));
	LLVMSetInitializer(g, LLVMConstStructInContext(m->ctx, vals, 2, 0));
	LLVMSetSection(g, PP_ADDRS_SECTION);
	LLVMSetAlignment(g, LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(m->mod), ty));
	if (!LLVMGetComdat(f->fn)) {
		LLVMMetadataRef fn_md = LLVMValueAsMetadata(f->fn);

		kind = LLVMGetMDKindIDInContext(m->ctx, "associated", 10);
		LLVMGlobalSetMetadata(g, kind, LLVMMDNodeInContext2(m->ctx, &fn_md, 1));
	}
	f->addr = g;
}

void pp_emit_records(struct pp_module *m, struct pp_func *f)
{
	bool shared = shared_by_objects(f->fn);
	LLVMTypeRef flags_ty = LLVMArrayType(m->i8, f->ncalls + 1);
	LLVMValueRef zero = LLVMConstInt(m->i32, 0, 0);
	LLVMValueRef fields[5];

	f->flags = add_global(m, f, flags_ty, "flags", shared);
	LLVMSetInitializer(f->flags, LLVMConstNull(flags_ty));

	fields[0] = pp_flag_ptr(m, f, 0);
	fields[1] = pp_table_string(m, f->name);
	fields[2] = pp_table_string(m, f->file);
	fields[3] = LLVMConstInt(m->i32, f->ncalls, 0);
	fields[4] = zero; /* armed: owned by the runtime */
	f->record = add_global(m, f, m->record_ty, "fn", shared);
	LLVMSetInitializer(f->record, LLVMConstStructInContext(m->ctx, fields, 5, 0));
	LLVMSetSection(f->record, PP_FNS_SECTION);
	/* The ABI alignment keeps records of different objects back to back. */
	LLVMSetAlignment(f->record,
			 LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(m->mod), m->record_ty));
	emit_addr(m, f);
}

/*
 * The linker's bound of a section, hidden: each executable or shared library
 * registers its own.  Weak for the static branches: a link unit whose
 * objects have none has no such section, and the bounds are then null.
 */
static LLVMValueRef section_bound(struct pp_module *m, const char *name, bool weak)
{
	LLVMValueRef g = LLVMGetNamedGlobal(m->mod, name);

	if (!g) {
		g = LLVMAddGlobal(m->mod, weak ? m->i8 : m->record_ty, name);
		LLVMSetLinkage(g, weak ? LLVMExternalWeakLinkage : LLVMExternalLinkage);
		LLVMSetVisibility(g, LLVMHiddenVisibility);
	}
	return LLVMConstPointerCast(g, m->ptr);
}

/* At the builder: @callee(__start_@sec, __stop_@sec). */
static void call_with_range(struct pp_module *m, LLVMBuilderRef b, const char *callee,
			    const char *start, const char *stop, bool weak)
{
	LLVMTypeRef params[2] = {m->ptr, m->ptr};
	LLVMTypeRef fn_ty = LLVMFunctionType(LLVMVoidTypeInContext(m->ctx), params, 2, 0);
	LLVMValueRef args[2];

	args[0] = section_bound(m, start, weak);
	args[1] = section_bound(m, stop, weak);
	LLVMBuildCall2(b, fn_ty, runtime_fn(m, callee, fn_ty), args, 2, "");
}

/*
 * A linkonce_odr hidden function in its own comdat handing the runtime the
 * module's records, functions' addresses and static branches: registering
 * (@init) the records first, so that the branches of the sites it arms are
 * patched, or unregistering the branches first.
 */
static LLVMValueRef range_caller(struct pp_module *m, const char *name, bool init)
{
	LLVMTypeRef void_ty = LLVMVoidTypeInContext(m->ctx);
	LLVMValueRef fn;
	LLVMBuilderRef b;

	fn = LLVMAddFunction(m->mod, name, LLVMFunctionType(void_ty, NULL, 0, 0));
	LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
	LLVMSetVisibility(fn, LLVMHiddenVisibility);
	LLVMSetComdat(fn, LLVMGetOrInsertComdat(m->mod, name));
	add_fn_attr(m->ctx, fn, "nounwind");

	b = LLVMCreateBuilderInContext(m->ctx);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));
	if (init)
		call_with_range(m, b, PP_REGISTER_FN, "__start_" PP_FNS_SECTION,
				"__stop_" PP_FNS_SECTION, false);
	/* weak: a link unit built for LTO has none (emit_addr) */
	call_with_range(m, b, init ? PP_REGISTER_ADDRS_FN : PP_UNREGISTER_ADDRS_FN,
			"__start_" PP_ADDRS_SECTION, "__stop_" PP_ADDRS_SECTION, true);
	call_with_range(m, b, init ? PP_REGISTER_JUMPS_FN : PP_UNREGISTER_JUMPS_FN,
			"__start_" PP_JUMPS_SECTION, "__stop_" PP_JUMPS_SECTION, true);
	if (!init)
		call_with_range(m, b, PP_UNREGISTER_FN, "__start_" PP_FNS_SECTION,
				"__stop_" PP_FNS_SECTION, false);
	LLVMBuildRetVoid(b);
	LLVMDisposeBuilder(b);
	return fn;
}

/*
 * Append {priority, @fn, @fn} to llvm.global_dtors, keyed on @fn so the
 * .fini_array entry goes into its comdat.  LLVM-C cannot append to an
 * appending global: the array is rebuilt with the old entries and ours.
 */
static void append_global_dtor(struct pp_module *m, LLVMValueRef fn, int priority)
{
	LLVMValueRef old = LLVMGetNamedGlobal(m->mod, "llvm.global_dtors");
	LLVMValueRef init = old ? LLVMGetInitializer(old) : NULL;
	LLVMTypeRef fields[3], entry_ty;
	LLVMValueRef vals[3], *elems, g;
	unsigned n = 0;

	fields[0] = m->i32;
	fields[1] = LLVMPointerType(LLVMFunctionType(LLVMVoidTypeInContext(m->ctx), NULL, 0, 0), 0);
	fields[2] = m->ptr;
	entry_ty = LLVMStructTypeInContext(m->ctx, fields, 3, 0);
	if (init && LLVMGetTypeKind(LLVMTypeOf(init)) == LLVMArrayTypeKind) {
		entry_ty = LLVMGetElementType(LLVMTypeOf(init));
		n = LLVMGetArrayLength(LLVMTypeOf(init));
	}
	elems = calloc(n + 1, sizeof(*elems));
	if (!elems)
		return;
	for (unsigned i = 0; i < n; i++)
		elems[i] = LLVMGetOperand(init, i);
	vals[0] = LLVMConstInt(m->i32, (unsigned long long)priority, 0);
	vals[1] = LLVMConstPointerCast(fn, LLVMStructGetTypeAtIndex(entry_ty, 1));
	vals[2] = LLVMConstPointerCast(fn, LLVMStructGetTypeAtIndex(entry_ty, 2));
	elems[n] = LLVMConstNamedStruct(entry_ty, vals, 3);
	if (old)
		LLVMDeleteGlobal(old);
	g = LLVMAddGlobal(m->mod, LLVMArrayType(entry_ty, n + 1), "llvm.global_dtors");
	LLVMSetLinkage(g, LLVMAppendingLinkage);
	LLVMSetInitializer(g, LLVMConstArray(entry_ty, elems, n + 1));
	free(elems);
}

void pp_emit_module_ctor(struct pp_module *m)
{
	LLVMValueRef ctor = range_caller(m, PP_MODULE_CTOR, true);
	LLVMValueRef dtor = range_caller(m, PP_MODULE_DTOR, false);

	/* Keyed on the ctor: the .init_array entry goes into its comdat too. */
	pp_append_global_ctor(m->mod, ctor, PP_CTOR_PRIORITY, ctor);
	append_global_dtor(m, dtor, PP_CTOR_PRIORITY);
}
