/* SPDX-License-Identifier: MIT */
/*
 * split.c - block surgery for probes, on the LLVM-C API alone.
 *
 * LLVM-C has no SplitBasicBlock and cannot change a PHI's incoming block,
 * so a split moves the tail of a block into a new block one instruction at
 * a time, then rebuilds each PHI of the moved terminator's successors that
 * named the old block.  The builder passed in as `mover` must never have a
 * current debug location: inserting through it would overwrite the moved
 * instructions' own.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

LLVMBasicBlockRef pp_new_block_after(LLVMContextRef ctx, LLVMBasicBlockRef bb, const char *name)
{
	LLVMBasicBlockRef next = LLVMGetNextBasicBlock(bb);

	if (next)
		return LLVMInsertBasicBlockInContext(ctx, next, name);
	return LLVMAppendBasicBlockInContext(ctx, LLVMGetBasicBlockParent(bb), name);
}

/* IRBuilder adopts the debug location of the instruction it is positioned
 * at, and would stamp it on everything inserted afterwards. */
static void position_before(LLVMBuilderRef mover, LLVMValueRef inst)
{
	LLVMPositionBuilderBefore(mover, inst);
	LLVMSetCurrentDebugLocation2(mover, NULL);
}

/* Re-inserts a detached instruction at the builder, keeping its name. */
static void reinsert(LLVMBuilderRef mover, LLVMValueRef inst)
{
	size_t len;

	LLVMInsertIntoBuilderWithName(mover, inst, LLVMGetValueName2(inst, &len));
}

static void move_before(LLVMBuilderRef mover, LLVMValueRef inst, LLVMValueRef before)
{
	LLVMInstructionRemoveFromParent(inst);
	position_before(mover, before);
	reinsert(mover, inst);
}

static bool phi_names(LLVMValueRef phi, LLVMBasicBlockRef bb)
{
	unsigned n = LLVMCountIncoming(phi);

	for (unsigned i = 0; i < n; i++)
		if (LLVMGetIncomingBlock(phi, i) == bb)
			return true;
	return false;
}

/* A copy of phi with incoming block from replaced by to. */
static void rebuild_phi(LLVMBuilderRef mover, LLVMValueRef phi, LLVMBasicBlockRef from,
			LLVMBasicBlockRef to)
{
	unsigned n = LLVMCountIncoming(phi);
	size_t len;
	const char *name = LLVMGetValueName2(phi, &len);
	char *saved = len ? strndup(name, len) : NULL;
	LLVMValueRef np;

	position_before(mover, phi);
	np = LLVMBuildPhi(mover, LLVMTypeOf(phi), "");
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef v = LLVMGetIncomingValue(phi, i);
		LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, i);

		if (bb == from)
			bb = to;
		LLVMAddIncoming(np, &v, &bb, 1);
	}
	pp_copy_fast_math_flags(phi, np);
	LLVMInstructionSetDebugLoc(np, LLVMInstructionGetDebugLoc(phi));
	LLVMReplaceAllUsesWith(phi, np);
	LLVMInstructionEraseFromParent(phi);
	/* Only cosmetic: a name that cannot be copied is left out. */
	if (saved)
		LLVMSetValueName2(np, saved, len);
	free(saved);
}

/* PHIs of succ that came from `from` now come from `to`. */
static void retarget_phis(LLVMBuilderRef mover, LLVMBasicBlockRef succ, LLVMBasicBlockRef from,
			  LLVMBasicBlockRef to)
{
	LLVMValueRef inst = LLVMGetFirstInstruction(succ);

	while (inst && LLVMIsAPHINode(inst)) {
		LLVMValueRef next = LLVMGetNextInstruction(inst);

		if (phi_names(inst, from))
			rebuild_phi(mover, inst, from, to);
		inst = next;
	}
}

LLVMBasicBlockRef pp_split_before(LLVMBuilderRef mover, LLVMValueRef at, const char *name)
{
	LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
	LLVMBasicBlockRef tail = pp_new_block_after(LLVMGetTypeContext(LLVMTypeOf(at)), bb, name);
	LLVMValueRef inst, next, term;
	unsigned n;

	LLVMPositionBuilderAtEnd(mover, tail);
	for (inst = at; inst; inst = next) {
		next = LLVMGetNextInstruction(inst);
		LLVMInstructionRemoveFromParent(inst);
		reinsert(mover, inst);
	}
	term = LLVMGetBasicBlockTerminator(tail);
	n = term ? LLVMGetNumSuccessors(term) : 0;
	/* A successor listed twice is fixed on its first visit. */
	for (unsigned i = 0; i < n; i++)
		retarget_phis(mover, LLVMGetSuccessor(term, i), bb, tail);
	return tail;
}

LLVMBasicBlockRef pp_split_normal_edge(LLVMBuilderRef mover, LLVMValueRef invoke)
{
	LLVMBasicBlockRef bb = LLVMGetInstructionParent(invoke);
	LLVMBasicBlockRef dest = LLVMGetNormalDest(invoke);
	LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(invoke));
	LLVMBasicBlockRef edge = pp_new_block_after(ctx, bb, "pinpoint.invoke.cont");
	LLVMValueRef br;

	LLVMPositionBuilderAtEnd(mover, edge);
	br = LLVMBuildBr(mover, dest);
	LLVMInstructionSetDebugLoc(br, LLVMInstructionGetDebugLoc(invoke));
	LLVMSetNormalDest(invoke, edge);
	retarget_phis(mover, dest, bb, edge);
	return edge;
}

static bool is_static_alloca(LLVMValueRef inst)
{
	return LLVMIsAAllocaInst(inst) && LLVMIsAConstantInt(LLVMGetOperand(inst, 0));
}

LLVMValueRef pp_entry_insertion_point(LLVMBuilderRef mover, LLVMValueRef fn)
{
	LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
	LLVMValueRef inst, next;

	while (LLVMIsAAllocaInst(first))
		first = LLVMGetNextInstruction(first);
	/*
	 * An alloca is static only in the entry block; one left below the
	 * entry probe would end up in another block, as a dynamic alloca
	 * that mem2reg no longer promotes.
	 */
	for (inst = LLVMGetNextInstruction(first); inst; inst = next) {
		next = LLVMGetNextInstruction(inst);
		if (is_static_alloca(inst))
			move_before(mover, inst, first);
	}
	return first;
}
