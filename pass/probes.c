/* SPDX-License-Identifier: MIT */
/*
 * probes.c - the probes of one function.
 *
 * Runs in the late phase, on optimised code.  Site 0 is the body: enter(0)
 * at the entry (after the static allocas), exit(0) before every ret; paths
 * ending in unreachable or resume get no exit probe.  Call k of the call
 * list is site k+1: enter before every surviving call tagged as f's call k
 * (sites.c), exit after it (for an invoke, on its normal edge).  Calls
 * tagged with another owner came from an inlined body and are timed with
 * the body that holds them.  A call that lost its tag (merged by CSE,
 * rewritten by instcombine) is taken for the untimed call of the list at
 * the same line:col, if there is one.  Every probe is
 *
 *	%f = load i8, ptr getelementptr (flags, 0, site)
 *	%c = icmp ne i8 %f, 0
 *	br i1 %c, label %armed, label %cont, !prof !{"branch_weights", 1, 1048575}
 *   armed:
 *	call void @__pinpoint_enter(ptr @record, i32 site)   ; or __pinpoint_exit
 *	br label %cont
 *
 * so an unarmed probe costs a byte load and a branch never taken.  The
 * points are collected in program order first, then probed from the last
 * to the first: each split then only moves what lies between two points.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

struct point {
	LLVMValueRef at; /* the probe goes before it; NULL: after invoke */
	LLVMValueRef invoke;
	LLVMMetadataRef loc;
	uint32_t site;
	bool exit;
};

struct points {
	struct point *v;
	uint32_t n, cap;
};

static int add_point(struct points *p, LLVMValueRef at, LLVMValueRef invoke, LLVMMetadataRef loc,
		     uint32_t site, bool exit)
{
	if (p->n == p->cap) {
		uint32_t cap = p->cap ? p->cap * 2 : 16;
		struct point *v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = (struct point){at, invoke, loc, site, exit};
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
	err = add_point(p, call, NULL, loc, PP_SITE_CALL(k), false);
	if (err)
		return err;
	if (LLVMIsAInvokeInst(call))
		return add_point(p, NULL, call, loc, PP_SITE_CALL(k), true);
	return add_point(p, LLVMGetNextInstruction(call), NULL, loc, PP_SITE_CALL(k), true);
}

static bool is_call(LLVMValueRef inst)
{
	return LLVMIsACallInst(inst) || LLVMIsAInvokeInst(inst);
}

/* The site of a call of f's body; -1 when it is not f's. */
static int64_t site_of(struct pp_module *m, struct pp_func *f, LLVMValueRef inst, bool fallback)
{
	struct pp_call *calls = m->calls + f->first_call;
	const char *name = m->strtab.buf + f->name;
	int64_t k = pp_site_of(m, inst, name, strlen(name));
	LLVMMetadataRef loc;
	unsigned line, col;

	if (k >= f->ncalls)
		return -1;
	if (k >= 0 || !fallback || LLVMGetMetadata(inst, m->site_kind) ||
	    !pp_is_listed_call(inst))
		return k;
	loc = LLVMInstructionGetDebugLoc(inst);
	if (!loc || LLVMDILocationGetInlinedAt(loc))
		return -1;
	line = LLVMDILocationGetLine(loc);
	col = LLVMDILocationGetColumn(loc);
	for (uint32_t i = 0; line && i < f->ncalls; i++)
		if (!calls[i].tagged && calls[i].line == line && calls[i].col == col)
			return i;
	return -1;
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
			if (is_call(inst) && (k = site_of(m, f, inst, false)) >= 0)
				calls[k].tagged = true;

	err = add_point(p, entry, NULL, entry_loc, PP_SITE_BODY, false);
	for (bb = LLVMGetFirstBasicBlock(f->fn); bb && !err; bb = LLVMGetNextBasicBlock(bb)) {
		for (inst = LLVMGetFirstInstruction(bb); inst && !err;
		     inst = LLVMGetNextInstruction(inst)) {
			if (is_call(inst) && (k = site_of(m, f, inst, true)) >= 0) {
				err = call_points(p, inst, &calls[k], (uint32_t)k);
			} else if (LLVMIsAReturnInst(inst)) {
				LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);

				mt = musttail_before(inst);
				err = add_point(p, mt ? mt : inst, NULL, loc ? loc : entry_loc,
						PP_SITE_BODY, true);
			}
		}
	}
	return err;
}

/* Inserts one probe before `at`; returns its first instruction. */
static LLVMValueRef insert_probe(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
				 LLVMBuilderRef mover, LLVMValueRef at, const struct point *pt)
{
	LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
	LLVMBasicBlockRef cont = pp_split_before(mover, at, "pinpoint.cont");
	LLVMBasicBlockRef armed = pp_new_block_after(m->ctx, bb, "pinpoint.armed");
	LLVMTypeRef flags_ty = LLVMGlobalGetValueType(f->flags);
	LLVMValueRef idx[2], args[2], gep, flag, cond, br, call;

	idx[0] = LLVMConstInt(m->i32, 0, 0);
	idx[1] = LLVMConstInt(m->i32, pt->site, 0);
	gep = LLVMConstInBoundsGEP2(flags_ty, f->flags, idx, 2);
	LLVMSetCurrentDebugLocation2(b, pt->loc);
	LLVMPositionBuilderAtEnd(b, bb);
	flag = LLVMBuildLoad2(b, m->i8, gep, "pinpoint.flag");
	cond = LLVMBuildICmp(b, LLVMIntNE, flag, LLVMConstInt(m->i8, 0, 0), "pinpoint.armed");
	br = LLVMBuildCondBr(b, cond, armed, cont);
	LLVMSetMetadata(br, m->prof_kind, m->never_taken);

	LLVMPositionBuilderAtEnd(b, armed);
	args[0] = LLVMConstPointerCast(f->record, m->ptr);
	args[1] = idx[1];
	call = LLVMBuildCall2(b, m->probe_fn_ty, pt->exit ? m->exit_fn : m->enter_fn, args, 2, "");
	LLVMSetInstructionCallConv(call, m->probe_cc);
	LLVMBuildBr(b, cont);
	return flag;
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
		last_first = insert_probe(m, f, b, mover, at == last_at ? last_first : at, pt);
		last_at = at;
	}
out:
	free(p.v);
	LLVMDisposeBuilder(mover);
	LLVMDisposeBuilder(b);
	return err;
}
