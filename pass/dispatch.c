/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c - a function's probes in an armed clone.
 *
 * In the late phase, a function f that entry.c leaves alone (no static
 * branches, or f not eligible for an entry no-op) and that can be cloned
 * (pp_can_clone) is copied into "<f>.pinpoint", local, never inlined, in .text.unlikely; the
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
 * optimisation) are cloned: their checks and the frame the probes' calls
 * make them set up cost most relative to their work (the lexer callbacks
 * of tree-sitter), and cloning them adds little code generation.  So are
 * functions of at most PP_CLONE_LOOP_MAX instructions with one of their
 * timed calls in a loop, where the call's check runs on every iteration:
 * Snappy's DecompressAllTags<SnappyDecompressionValidator>, whose loop
 * calls RefillTag(), made the whole program 7-8 % slower unarmed with the
 * checks in its body, and as fast as the plain build as a clone, though
 * its unarmed code differs from the plain one by little more than the
 * checks' no-ops (bench/README.md).  A larger function gets a stub for its
 * body probes instead (stub.c) or an entry no-op (entry.c), and keeps the
 * checks of its calls.  With the environment variable PP_CLONE_ENV set
 * while compiling, "1" clones every function, "0" none, and "loops" every
 * function with a timed call in a loop, whatever its size.  Cloning a
 * function doubles its code generation: on real libraries (bench/README.md,
 * "Real code"), "loops" halves the instructions the probes add to
 * tree-sitter-json and expat but costs their builds 1.5x the plain build's
 * CPU time; the size bound of the default costs them 1-3 %.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

#define PP_CLONE_SMALL 100
#define PP_CLONE_LOOP_MAX 300

bool pp_has_byval(LLVMValueRef fn)
{
	unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);

	for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++)
		if (LLVMGetEnumAttributeAtIndex(fn, i + 1, kind))
			return true;
	return false;
}

LLVMValueRef pp_build_forward_call(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef callee,
				   LLVMValueRef *args, bool musttail)
{
	LLVMValueRef call;

	LLVMGetParams(fn, args);
	call = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), callee, args, LLVMCountParams(fn), "");
	pp_forward_call(call, fn, musttail);
	return call;
}

void pp_build_ret(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef value)
{
	if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else
		LLVMBuildRet(b, value);
}

char *pp_suffixed(const char *name, const char *suffix)
{
	size_t len = strlen(name), slen = strlen(suffix);
	char *s = malloc(len + slen + 1);

	if (s) {
		memcpy(s, name, len);
		memcpy(s + len, suffix, slen + 1);
	}
	return s;
}

static void add_dispatch(struct pp_module *m, struct pp_func *f, LLVMValueRef clone,
			 LLVMValueRef *args)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
	LLVMBuilderRef mover = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef at = pp_entry_insertion_point(mover, f->fn);
	LLVMBasicBlockRef entry = LLVMGetInstructionParent(at);
	LLVMBasicBlockRef body = pp_split_before(mover, at, "pinpoint.body");
	LLVMBasicBlockRef armed = pp_new_block_after(m->ctx, entry, "pinpoint.dispatch");
	LLVMValueRef gep = pp_armed_ptr(m, f), word, cond, br, call;

	LLVMSetCurrentDebugLocation2(b, pp_func_entry_loc(m, f->fn));
	LLVMPositionBuilderAtEnd(b, entry);
	if (!pp_build_jump(m, b, entry, armed, body, gep, PP_JUMP_FN)) {
		LLVMPositionBuilderAtEnd(b, entry);
		word = LLVMBuildLoad2(b, m->i32, gep, "pinpoint.fn.armed");
		cond = LLVMBuildICmp(b, LLVMIntUGE, word, LLVMConstInt(m->i32, PP_FN_ARMED, 0),
				     "pinpoint.any");
		br = LLVMBuildCondBr(b, cond, armed, body);
		LLVMSetMetadata(br, m->prof_kind, m->never_taken);
	}

	LLVMPositionBuilderAtEnd(b, armed);
	/* LLVM 14 to 19 lower a musttail call that forwards a byval argument
	 * on x86-64 by copying it over the return address: a plain call
	 * copies it once more, on the armed path only. */
	call = pp_build_forward_call(b, f->fn, clone, args, !pp_has_byval(f->fn));
	pp_build_ret(b, f->fn, call);
	LLVMDisposeBuilder(mover);
	LLVMDisposeBuilder(b);
}

/* At most @max instructions (after optimisation). */
static bool at_most(LLVMValueRef fn, unsigned max)
{
	unsigned n = 0;

	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (++n > max)
				return false;
	return true;
}

struct cfg {
	LLVMBasicBlockRef *bbs; /* in function order */
	LLVMBasicBlockRef *by_addr;
	uint32_t *idx_by_addr, *seen, *stack, n, gen;
};

static int cmp_block(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const LLVMBasicBlockRef *)a;
	uintptr_t y = (uintptr_t) * (const LLVMBasicBlockRef *)b;

	return x < y ? -1 : x > y;
}

static uint32_t block_index(const struct cfg *g, LLVMBasicBlockRef bb)
{
	LLVMBasicBlockRef *p = bsearch(&bb, g->by_addr, g->n, sizeof(bb), cmp_block);

	return g->idx_by_addr[p - g->by_addr];
}

static void free_cfg(struct cfg *g)
{
	free(g->bbs);
	free(g->by_addr);
	free(g->idx_by_addr);
	free(g->seen);
	free(g->stack);
}

static int build_cfg(struct cfg *g, LLVMValueRef fn)
{
	uint32_t n = LLVMCountBasicBlocks(fn);

	memset(g, 0, sizeof(*g));
	g->bbs = malloc(n * sizeof(*g->bbs));
	g->by_addr = malloc(n * sizeof(*g->by_addr));
	g->idx_by_addr = malloc(n * sizeof(*g->idx_by_addr));
	g->seen = calloc(n, sizeof(*g->seen));
	g->stack = malloc(n * sizeof(*g->stack));
	if (!g->bbs || !g->by_addr || !g->idx_by_addr || !g->seen || !g->stack) {
		free_cfg(g);
		return -ENOMEM;
	}
	g->n = n;
	LLVMGetBasicBlocks(fn, g->bbs);
	memcpy(g->by_addr, g->bbs, n * sizeof(*g->bbs));
	qsort(g->by_addr, n, sizeof(*g->by_addr), cmp_block);
	for (uint32_t i = 0; i < n; i++) {
		LLVMBasicBlockRef *p =
		    bsearch(&g->bbs[i], g->by_addr, n, sizeof(*g->by_addr), cmp_block);

		g->idx_by_addr[p - g->by_addr] = i;
	}
	return 0;
}

/* Whether block @from can reach itself again: it is in a loop. */
static bool in_cycle(struct cfg *g, uint32_t from)
{
	uint32_t top = 0;

	g->gen++;
	g->stack[top++] = from;
	while (top) {
		LLVMValueRef term = LLVMGetBasicBlockTerminator(g->bbs[g->stack[--top]]);
		unsigned nsucc = term ? LLVMGetNumSuccessors(term) : 0;

		for (unsigned i = 0; i < nsucc; i++) {
			uint32_t k = block_index(g, LLVMGetSuccessor(term, i));

			if (k == from)
				return true;
			if (g->seen[k] != g->gen) {
				g->seen[k] = g->gen;
				g->stack[top++] = k;
			}
		}
	}
	return false;
}

/*
 * Whether one of f's timed calls sits in a loop, where its check runs on
 * every iteration: those are the checks the plain body is worth a clone
 * for.  Each block that holds one of f's calls to be timed is searched for a
 * path back to itself, until one has one.
 */
static int calls_in_loop(struct pp_module *m, struct pp_func *f, bool *found)
{
	struct cfg g;
	int err;

	*found = false;
	if (!f->ncalls)
		return 0;
	err = build_cfg(&g, f->fn);
	if (err)
		return err;
	for (uint32_t b = 0; b < g.n && !*found; b++) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(g.bbs[b]); i;
		     i = LLVMGetNextInstruction(i)) {
			if ((LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) &&
			    pp_call_site(m, f, i, false) >= 0) {
				*found = in_cycle(&g, b);
				break;
			}
		}
	}
	free_cfg(&g);
	return 0;
}

bool pp_clone_all(void)
{
	const char *mode = getenv(PP_CLONE_ENV);

	return mode && !strcmp(mode, "1");
}

/* Whether f gets a clone: see the top of the file. */
int pp_want_clone(struct pp_module *m, struct pp_func *f, bool *want)
{
	const char *mode = getenv(PP_CLONE_ENV);

	*want = false;
	if (!pp_can_clone(f->fn))
		return 0;
	if (mode && (!strcmp(mode, "0") || !strcmp(mode, "1"))) {
		*want = *mode == '1';
		return 0;
	}
	*want = at_most(f->fn, PP_CLONE_SMALL);
	if (*want)
		return 0;
	if ((!mode || strcmp(mode, "loops")) && !at_most(f->fn, PP_CLONE_LOOP_MAX))
		return 0;
	return calls_in_loop(m, f, want);
}

int pp_probe_via_clone(struct pp_module *m, struct pp_func *f, bool *done)
{
	LLVMValueRef orig = f->fn, clone, *args = NULL;
	char *cname = NULL;
	bool want;
	int err;

	*done = false;
	err = pp_want_clone(m, f, &want);
	if (err || !want)
		return err;
	args = malloc((LLVMCountParams(orig) + 1) * sizeof(*args));
	cname = pp_suffixed(m->strtab.buf + f->name, PP_CLONE_SUFFIX);
	err = -ENOMEM;
	if (!args || !cname)
		goto out;
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
