/* SPDX-License-Identifier: MIT */
/*
 * probes.c - the probes of one function.
 *
 * Runs in the late phase, on optimised code.  Site 0 is the body: enter(0)
 * at the entry (after the static allocas), exit(0) before every ret; paths
 * ending in unreachable or resume get no exit probe.  Call k of the call
 * list is site k+1: enter before every surviving call tagged as f's call k
 * (sites.c), exit after it (for an invoke, on its normal edge).  A call of
 * code inlined into f is the call of f's list at its place in the tree of
 * inlined calls (inlined.c).  A call that lost its tag (merged by CSE,
 * rewritten by instcombine) is taken for the untimed call of the list at
 * the same line:col, if there is one.  A body probe is
 *
 *	%f = load i8, ptr getelementptr (flags, 0, site)
 *	%c = icmp ne i8 %f, 0
 *	br i1 %c, label %armed, label %cont, !prof !{"branch_weights", 1, 1048575}
 *   armed:
 *	call void @__pinpoint_enter(ptr @record, i32 site)   ; or __pinpoint_exit
 *	br label %cont
 *
 * so an unarmed probe costs a byte load and a branch never taken.  In an
 * executable's code on x86-64, a call's probes are two sleds instead
 * (insert_call_sled, jumps.c): no-ops before and after the call that the
 * runtime makes calls of the probes' thunks, with no check, no split block
 * and no copy of the call.  Elsewhere a call
 * gets one such check, whose armed path runs a copy of the call between its
 * enter and exit (insert_call_probe): one check per call instead of two
 * (expat 1.090x -> 1.071x of the plain build's CPU time, brotli 1.036x ->
 * 1.025x, bench/README.md).  An indirect call always gets the check, never
 * sleds: its armed path passes the target to the runtime before the enter
 * probe (build_target_note, abi.h 5.).  An invoke, and a call LLVM must not
 * duplicate, keep an enter before and an exit after.  The
 * points are collected in program order first, then probed from the last
 * to the first: each split then only moves what lies between two points.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

enum point_kind {
	PT_ENTER,
	PT_EXIT,
	PT_CALL, /* the call at `at`: sleds, or a diamond with its armed copy */
};

struct point {
	LLVMValueRef at; /* the probe goes before it; NULL: after invoke */
	LLVMValueRef invoke;
	LLVMMetadataRef loc;
	uint32_t site;
	enum point_kind kind;
};

struct points {
	struct point *v;
	uint32_t n, cap;
};

static int add_point(struct points *p, LLVMValueRef at, LLVMValueRef invoke, LLVMMetadataRef loc,
		     uint32_t site, enum point_kind kind)
{
	if (p->n == p->cap) {
		uint32_t cap = p->cap ? p->cap * 2 : 16;
		struct point *v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = (struct point){at, invoke, loc, site, kind};
	return 0;
}

/* A musttail call must stay right before its ret (and optional bitcast). */
static LLVMValueRef musttail_before(LLVMValueRef ret)
{
	LLVMValueRef prev = LLVMGetPreviousInstruction(ret);

	if (prev && LLVMIsABitCastInst(prev))
		prev = LLVMGetPreviousInstruction(prev);
	if (prev && LLVMIsACallInst(prev) && pp_is_musttail_call(prev))
		return prev;
	return NULL;
}

/* May the call be copied to an armed path?  Not when LLVM forbids it. */
static bool can_duplicate(LLVMValueRef call)
{
	static const char *const forbid[] = {"noduplicate", "convergent", "returns_twice"};
	LLVMValueRef callee = LLVMGetCalledValue(call);

	if (LLVMIsAInlineAsm(callee))
		return false;
	for (size_t i = 0; i < sizeof(forbid) / sizeof(forbid[0]); i++) {
		unsigned kind = LLVMGetEnumAttributeKindForName(forbid[i], strlen(forbid[i]));

		if (LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind))
			return false;
		if (LLVMIsAFunction(callee) &&
		    LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, kind))
			return false;
	}
	return true;
}

static int call_points(struct points *p, LLVMValueRef call, struct pp_call *c, uint32_t k)
{
	LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
	int err;

	/*
	 * A musttail call reuses the caller's frame and must be followed by
	 * the ret: nothing may come after it.  It stays in the call list but
	 * is not probed, and the body's exit probe goes before it.
	 */
	if (LLVMIsACallInst(call) && pp_is_musttail_call(call))
		return 0;
	c->probed++;
	if (LLVMIsACallInst(call) && can_duplicate(call))
		return add_point(p, call, NULL, loc, PP_SITE_CALL(k), PT_CALL);
	err = add_point(p, call, NULL, loc, PP_SITE_CALL(k), PT_ENTER);
	if (err)
		return err;
	if (LLVMIsAInvokeInst(call))
		return add_point(p, NULL, call, loc, PP_SITE_CALL(k), PT_EXIT);
	return add_point(p, LLVMGetNextInstruction(call), NULL, loc, PP_SITE_CALL(k), PT_EXIT);
}

static bool is_call(LLVMValueRef inst)
{
	return LLVMIsACallInst(inst) || LLVMIsAInvokeInst(inst);
}

static int collect_points(struct pp_module *m, struct pp_func *f, LLVMValueRef entry,
			  struct points *p)
{
	LLVMMetadataRef entry_loc = pp_func_entry_loc(m, f->fn);
	struct pp_call *calls = m->calls + f->first_call;
	LLVMBasicBlockRef bb;
	LLVMValueRef inst, mt;
	int64_t k;
	int err;

	/* The tagged copies first, so that a call without its tag is only
	 * taken for a call of the list of which no tagged copy survives. */
	for (bb = LLVMGetFirstBasicBlock(f->fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
			if (is_call(inst) && (k = pp_call_site(m, f, inst, false)) >= 0)
				calls[k].tagged = true;

	/* With a stub (stub.c), the body's probes are the stub's. */
	err = f->stub ? 0 : add_point(p, entry, NULL, entry_loc, PP_SITE_BODY, PT_ENTER);
	for (bb = LLVMGetFirstBasicBlock(f->fn); bb && !err; bb = LLVMGetNextBasicBlock(bb)) {
		for (inst = LLVMGetFirstInstruction(bb); inst && !err;
		     inst = LLVMGetNextInstruction(inst)) {
			if (is_call(inst) && (k = pp_call_site(m, f, inst, true)) >= 0) {
				err = call_points(p, inst, &calls[k], (uint32_t)k);
			} else if (!f->stub && LLVMIsAReturnInst(inst)) {
				LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);

				mt = musttail_before(inst);
				err = add_point(p, mt ? mt : inst, NULL, loc ? loc : entry_loc,
						PP_SITE_BODY, PT_EXIT);
			}
		}
	}
	return err;
}

/* At the end of @bb: the check of @site's flag, to @armed when it is set: a
 * static branch (jumps.c), else a load of the flag and a branch. */
LLVMValueRef pp_build_check(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
			    LLVMBasicBlockRef bb, LLVMBasicBlockRef armed,
			    LLVMBasicBlockRef unarmed, uint32_t site, LLVMMetadataRef loc)
{
	LLVMValueRef gep = pp_flag_ptr(m, f, site), flag, cond, br;

	LLVMSetCurrentDebugLocation2(b, loc);
	br = pp_build_jump(m, b, bb, armed, unarmed, gep, PP_JUMP_FLAG);
	if (br)
		return br;
	LLVMPositionBuilderAtEnd(b, bb);
	flag = LLVMBuildLoad2(b, m->i8, gep, "pinpoint.flag");
	cond = LLVMBuildICmp(b, LLVMIntNE, flag, LLVMConstInt(m->i8, 0, 0), "pinpoint.armed");
	br = LLVMBuildCondBr(b, cond, armed, unarmed);
	LLVMSetMetadata(br, m->prof_kind, m->never_taken);
	return flag;
}

/* A probe's two arguments: f's record (an exit probe's PP_EXIT_BIAS bytes
 * past it with @bias) and @site. */
static void probe_args(struct pp_module *m, struct pp_func *f, uint32_t site, bool bias,
		       LLVMValueRef args[2])
{
	args[0] = LLVMConstPointerCast(f->record, m->ptr);
	if (bias) {
		LLVMValueRef off = LLVMConstInt(m->i32, PP_EXIT_BIAS, 0);

		/* records.c: an address of its own, not kept across the call */
		args[0] = LLVMConstInBoundsGEP2(m->i8, args[0], &off, 1);
	}
	args[1] = LLVMConstInt(m->i32, site, 0);
}

/* A call of the runtime at the builder: enter or exit @site. */
void pp_build_probe_call(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b, uint32_t site,
			 bool exit)
{
	LLVMValueRef args[2], call;

	probe_args(m, f, site, exit && m->probe_cc == LLVMPreserveMostCallConv, args);
	call = LLVMBuildCall2(b, m->probe_fn_ty, exit ? m->exit_fn : m->enter_fn, args, 2, "");
	LLVMSetInstructionCallConv(call, m->probe_cc);
}

/*
 * On x86-64, the probes around a timed call (insert_call_probe) as inline
 * asm that loads the record into r11 and the site into r10d and calls the
 * runtime's r11 entry points (abi.h, 3.): a call to the runtime would take
 * them in rdi and esi, where the probed call's first two arguments go, so
 * those arguments, computed before the check, would be kept in other
 * registers and moved into place on the unarmed path too (tree-sitter's
 * loops over callbacks: two moves a call).  Like preserve_most, the asm
 * leaves every other general register alone; the vector ones too where the
 * runtime's r11 entry points are sure to keep them (m->sleds: abi.h, 3.).
 * The armed block holds the probed call itself, so LLVM sets up the
 * function's frame, aligned for calls, before it; the asm's call cannot
 * land in a leaf function's red zone.
 */
static void build_probe_asm(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b, uint32_t site,
			    bool exit)
{
#define PROBE_ASM(fn)                                                                              \
	"leaq ${0:c}(%rip), %r11\n\tmovl $$${1:c}, %r10d\n\tcall *" fn "@GOTPCREL(%rip)"
	static const char enter[] = PROBE_ASM(PP_ENTER_R11_FN);
	static const char leave[] = PROBE_ASM(PP_EXIT_R11_FN);
#undef PROBE_ASM
	/* Where the runtime keeps the vector registers (m->sleds), only these. */
	static const char keep[] = "i,i,~{r10},~{r11},~{memory},~{dirflag},~{fpsr},~{flags}";
	static const char cons[] =
	    "i,i,~{r10},~{r11},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},~{xmm6},"
	    "~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},~{xmm15},"
	    "~{memory},~{dirflag},~{fpsr},~{flags}";
	LLVMTypeRef params[2] = {m->ptr, m->i32};
	LLVMTypeRef ty = LLVMFunctionType(LLVMVoidTypeInContext(m->ctx), params, 2, 0);
	const char *text = exit ? leave : enter, *c = m->sleds ? keep : cons;
	LLVMValueRef args[2], fn;

	probe_args(m, f, site, exit, args);
	fn = LLVMGetInlineAsm(ty, (char *)text, strlen(text), (char *)c, strlen(c), 1, 0,
			      LLVMInlineAsmDialectATT, 0);
	LLVMBuildCall2(b, ty, fn, args, 2, "");
}

static void build_call_probe(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
			     uint32_t site, bool exit)
{
	if (m->asm_probes)
		build_probe_asm(m, f, b, site, exit);
	else
		pp_build_probe_call(m, f, b, site, exit);
}

/* Whether @call goes through a pointer (kind PP_CALL_INDIRECT). */
static bool is_indirect(LLVMValueRef call)
{
	return !pp_direct_callee(call) && !LLVMIsAInlineAsm(LLVMGetCalledValue(call));
}

/*
 * An indirect call's target for the runtime (abi.h, 5.), at the builder on
 * the armed path, before the enter probe: the call's interval does not hold
 * it.  The runtime learns the target of each execution from the pointer
 * itself, the cheapest way there is: the alternative, the callee's own
 * entry probe, would have to be armed in every function a pointer may
 * reach.  On x86-64 the asm keeps the registers the enter probe keeps, and
 * takes the target in rax (a scratch register no argument is passed in),
 * so that the unarmed path's registers are allocated as before; elsewhere
 * a plain call of the runtime.
 */
static void build_target_note(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
			      uint32_t site, LLVMValueRef target)
{
	static const char text[] = "leaq ${0:c}(%rip), %r11\n\tmovl $$${1:c}, %r10d\n\t"
				   "movq $2, %rax\n\tcall *" PP_TARGET_R11_FN "@GOTPCREL(%rip)";
	static const char keep[] =
	    "i,i,r,~{rax},~{r10},~{r11},~{memory},~{dirflag},~{fpsr},~{flags}";
	static const char cons[] =
	    "i,i,r,~{rax},~{r10},~{r11},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},"
	    "~{xmm6},~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},"
	    "~{xmm15},~{memory},~{dirflag},~{fpsr},~{flags}";
	LLVMValueRef args[3], fn;

	probe_args(m, f, site, false, args);
	args[2] = LLVMBuildPointerCast(b, target, m->ptr, "pinpoint.target");
	if (!m->asm_probes) {
		LLVMBuildCall2(b, m->target_fn_ty, m->target_fn, args, 3, "");
		return;
	}
	fn = LLVMGetInlineAsm(m->target_fn_ty, (char *)text, strlen(text),
			      (char *)(m->sleds ? keep : cons), strlen(m->sleds ? keep : cons), 1,
			      0, LLVMInlineAsmDialectATT, 0);
	LLVMBuildCall2(b, m->target_fn_ty, fn, args, 3, "");
}

/* Inserts one probe before `at`; returns its first instruction. */
static LLVMValueRef insert_probe(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
				 LLVMBuilderRef mover, LLVMValueRef at, const struct point *pt)
{
	LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
	LLVMBasicBlockRef cont = pp_split_before(mover, at, "pinpoint.cont");
	LLVMBasicBlockRef armed = pp_new_block_after(m->ctx, bb, "pinpoint.armed");
	LLVMValueRef flag = pp_build_check(m, f, b, bb, armed, cont, pt->site, pt->loc);

	LLVMPositionBuilderAtEnd(b, armed);
	if (pt->kind == PT_ENTER && pt->site != PP_SITE_BODY && is_call(pt->at) &&
	    is_indirect(pt->at))
		build_target_note(m, f, b, pt->site, LLVMGetCalledValue(pt->at));
	pp_build_probe_call(m, f, b, pt->site, pt->kind == PT_EXIT);
	LLVMBuildBr(b, cont);
	return flag;
}

/* May @i sit between a load and a call that the load moves to? */
static bool keeps_memory(LLVMValueRef i)
{
	if (LLVMIsADbgInfoIntrinsic(i))
		return true;
	if (LLVMIsALoadInst(i))
		return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
	return !LLVMIsAStoreInst(i) && !LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i) &&
	       !LLVMIsAFenceInst(i) && !LLVMIsAAtomicRMWInst(i) && !LLVMIsAAtomicCmpXchgInst(i) &&
	       !LLVMIsAVAArgInst(i) && !LLVMIsAPHINode(i);
}

/* Moves @i to just before @at, keeping its name; 0 or -ENOMEM. */
static int move_before(LLVMBuilderRef b, LLVMValueRef i, LLVMValueRef at)
{
	size_t len;
	char *name = strdup(LLVMGetValueName2(i, &len));

	if (!name)
		return -ENOMEM;
	LLVMInstructionRemoveFromParent(i);
	LLVMPositionBuilderBefore(b, at);
	/* (inserting renames: keep the name) */
	LLVMInsertIntoBuilderWithName(b, i, name);
	free(name);
	return 0;
}

/*
 * The load of an indirect call's callee, when only the call uses it and
 * nothing between them may write memory: it then moves to just before the
 * call, and the armed copy gets a load of its own, so that the unarmed
 * call still reads its target from memory itself (call *8(%rbx) on x86)
 * rather than from a register loaded before the check.  Not when the load
 * is another probe's point: @keep (the entry's), or right after a call.
 */
static LLVMValueRef callee_load(LLVMValueRef call, LLVMValueRef keep)
{
	LLVMValueRef load = LLVMGetCalledValue(call), i;
	LLVMUseRef use;

	if (!LLVMIsALoadInst(load) || load == keep || !keeps_memory(load) ||
	    LLVMGetInstructionParent(load) != LLVMGetInstructionParent(call))
		return NULL;
	/* An exit probe after a call that cannot be copied goes before it. */
	i = LLVMGetPreviousInstruction(load);
	if (i && is_call(i) && !LLVMIsADbgInfoIntrinsic(i))
		return NULL;
	use = LLVMGetFirstUse(load);
	if (!use || LLVMGetNextUse(use) || LLVMGetUser(use) != call)
		return NULL;
	/* (a load also passed as an argument has a second use: not moved) */
	for (i = LLVMGetNextInstruction(load); i && i != call; i = LLVMGetNextInstruction(i))
		if (!keeps_memory(i))
			return NULL;
	return i == call ? load : NULL;
}

/*
 * Probes a call with one check: the call stays where it was, on the
 * unarmed path, and an armed copy between an enter and an exit probe takes
 * its place when the site's flag is set.
 *
 *	%f = load i8, ptr getelementptr (flags, 0, site)
 *	%c = icmp ne i8 %f, 0
 *	br i1 %c, label %armed, label %call, !prof never taken
 *   call:
 *	%r = call @g(...)
 *	br label %cont
 *   armed:
 *	call @enter(record, site)
 *	%r.armed = call @g(...)
 *	call @exit(record + PP_EXIT_BIAS, site)     ; with preserve_most, records.c
 *	br label %cont
 *   cont:
 *	%r.0 = phi [%r.armed, %armed], [%r, %call]
 *
 * An indirect call whose target is loaded just for it keeps that load next
 * to it, and the armed copy loads the target again (callee_load).
 * Returns the check's first instruction.
 */
static LLVMValueRef insert_call_probe(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
				      LLVMBuilderRef mover, const struct point *pt,
				      LLVMValueRef keep)
{
	LLVMValueRef call = pt->at, load = callee_load(call, keep), copy, flag = NULL, phi, vals[2];
	LLVMBasicBlockRef bb = LLVMGetInstructionParent(call), plain, armed, cont, from[2];
	size_t len;
	char *name = strdup(LLVMGetValueName2(call, &len)), *alt = malloc(len + sizeof(".unarmed"));

	if (!name || !alt)
		goto out;
	if (load && LLVMGetNextInstruction(load) != call && move_before(mover, load, call))
		goto out;
	cont = pp_split_before(mover, LLVMGetNextInstruction(call), "pinpoint.cont");
	plain = pp_split_before(mover, load ? load : call, "pinpoint.call");
	LLVMPositionBuilderAtEnd(mover, plain);
	LLVMBuildBr(mover, cont);
	armed = pp_new_block_after(m->ctx, bb, "pinpoint.armed");
	flag = pp_build_check(m, f, b, bb, armed, plain, pt->site, pt->loc);

	LLVMPositionBuilderAtEnd(b, armed);
	copy = LLVMInstructionClone(call);
	if (load) {
		LLVMValueRef target = LLVMInstructionClone(load);

		LLVMInsertIntoBuilder(b, target);
		LLVMSetOperand(copy, LLVMGetNumOperands(copy) - 1, target);
	}
	if (is_indirect(call))
		build_target_note(m, f, b, pt->site, LLVMGetCalledValue(copy));
	build_call_probe(m, f, b, pt->site, false);
	LLVMSetCurrentDebugLocation2(b, NULL);
	LLVMInsertIntoBuilder(b, copy);
	LLVMSetCurrentDebugLocation2(b, pt->loc);
	build_call_probe(m, f, b, pt->site, true);
	LLVMBuildBr(b, cont);

	if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind) {
		LLVMPositionBuilderBefore(mover, LLVMGetFirstInstruction(cont));
		LLVMSetCurrentDebugLocation2(mover, NULL);
		/* the phi takes the call's name: %r.armed, %r.unarmed -> %r */
		phi = LLVMBuildPhi(mover, LLVMTypeOf(call), "");
		LLVMReplaceAllUsesWith(call, phi);
		vals[0] = copy;
		vals[1] = call;
		from[0] = armed;
		from[1] = plain;
		LLVMAddIncoming(phi, vals, from, 2);
		if (len) {
			memcpy(alt, name, len);
			memcpy(alt + len, ".armed", sizeof(".armed"));
			LLVMSetValueName2(copy, alt, len + strlen(".armed"));
			memcpy(alt + len, ".unarmed", sizeof(".unarmed"));
			LLVMSetValueName2(call, alt, len + strlen(".unarmed"));
			LLVMSetValueName2(phi, name, len);
		}
	}
out:
	free(alt);
	free(name);
	return flag;
}

/* Whether @call ends its block's work: a ret (possibly of its value through
 * a bitcast) or unreachable follows it. */
static bool in_tail_position(LLVMValueRef call)
{
	LLVMValueRef i = LLVMGetNextInstruction(call);

	while (i && (LLVMIsADbgInfoIntrinsic(i) || LLVMIsABitCastInst(i)))
		i = LLVMGetNextInstruction(i);
	return !i || LLVMIsAReturnInst(i) || LLVMIsAUnreachableInst(i);
}

/*
 * Probes a call with two sleds (jumps.c) and leaves the code around it as
 * it was: a no-op before the call and one after, which the runtime makes
 * calls of the site's enter and exit thunks when it arms the site.  No
 * block is split and no copy of the call is made, so the backend lays out,
 * allocates and merges the code as in the plain build; the no-ops only
 * clobber what the asm probes do.  Not for a call in tail position, which
 * the backend may turn into a jump (the exit no-op would stop that), nor
 * where static branches cannot be used.  Returns the enter no-op, or NULL
 * when the call is not one for sleds.
 */
static LLVMValueRef insert_call_sled(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
				     const struct point *pt, LLVMValueRef keep)
{
	LLVMValueRef call = pt->at, args[2], enter, key, load;
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));

	/* An indirect call's target is not in a register at a sled: the check
	 * and armed copy pass it (build_target_note). */
	if (!m->sleds || in_tail_position(call) || is_indirect(call))
		return NULL;
	key = pp_flag_ptr(m, f, pt->site);
	/* The load of an indirect call's target goes after the enter no-op,
	 * next to the call, which then reads it from memory (call *8(%rax)). */
	load = callee_load(call, keep);
	if (load && LLVMGetNextInstruction(load) != call && move_before(b, load, call))
		return NULL;
	probe_args(m, f, pt->site, false, args);
	LLVMPositionBuilderBefore(b, load ? load : call);
	LLVMSetCurrentDebugLocation2(b, pt->loc);
	enter = pp_build_sled(m, b, fn, args[0], pt->site, key, false);
	if (!enter)
		return NULL;
	probe_args(m, f, pt->site, true, args);
	LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(call));
	if (!pp_build_sled(m, b, fn, args[0], pt->site, key, true)) {
		LLVMInstructionEraseFromParent(enter);
		return NULL;
	}
	return enter;
}

int pp_probe_function(struct pp_module *m, struct pp_func *f)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
	LLVMBuilderRef mover = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef entry, last_at = NULL, last_first = NULL;
	struct points p = {0};
	int err;

	entry = pp_entry_insertion_point(mover, f->fn);
	err = collect_points(m, f, entry, &p);
	if (err)
		goto out;
	for (uint32_t i = p.n; i-- > 0;) {
		const struct point *pt = &p.v[i];
		LLVMValueRef at = pt->at;

		if (!at) {
			LLVMBasicBlockRef edge = pp_split_normal_edge(mover, pt->invoke);

			insert_probe(m, f, b, mover, LLVMGetBasicBlockTerminator(edge), pt);
			last_at = NULL;
			continue;
		}
		/* Several probes at one point run in program order. */
		if (pt->kind == PT_CALL) {
			last_first = insert_call_sled(m, f, b, pt, entry);
			if (!last_first)
				last_first = insert_call_probe(m, f, b, mover, pt, entry);
			if (!last_first) {
				err = -ENOMEM;
				goto out;
			}
		} else {
			last_first =
			    insert_probe(m, f, b, mover, at == last_at ? last_first : at, pt);
		}
		last_at = at;
	}
out:
	free(p.v);
	LLVMDisposeBuilder(mover);
	LLVMDisposeBuilder(b);
	return err;
}
