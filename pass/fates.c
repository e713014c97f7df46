/* SPDX-License-Identifier: MIT */
/*
 * fates.c - what became of each call of a function's list after
 * optimisation (enum pp_call_fate in abi.h).
 *
 * After the late phase has probed f: a call with a probed copy is timed.
 * Otherwise, when f still holds code inlined at the call's line:col (the
 * outermost inlinedAt of an instruction's debug location names the call
 * site in f), it was inlined there; when f has debug info and nothing of
 * the call is left, it was removed (deleted as dead, folded, or merged
 * with another call); without debug info the two cannot be told apart.
 * Every call of a function that is no longer emitted is of unknown fate.
 * A call of inlined code (inlined.c) is timed when probed, else inlined
 * when code of its inlining is left, else removed.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>

#include "pass.h"

struct sites {
	uint64_t *v; /* line << 32 | col of each call site inlined into f */
	size_t n, cap;
};

static int add_site(struct sites *s, uint64_t key)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		uint64_t *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = key;
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The call sites of f that code was inlined at, sorted. */
static int inlined_sites(LLVMValueRef fn, struct sites *s)
{
	LLVMMetadataRef last = NULL;
	int err = 0;

	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !err;
	     bb = LLVMGetNextBasicBlock(bb)) {
		for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst && !err;
		     inst = LLVMGetNextInstruction(inst)) {
			LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
			LLVMMetadataRef at = loc ? LLVMDILocationGetInlinedAt(loc) : NULL;

			if (!at)
				continue;
			while (LLVMDILocationGetInlinedAt(at))
				at = LLVMDILocationGetInlinedAt(at);
			/* Neighbours mostly come from the same site. */
			if (at == last)
				continue;
			last = at;
			err = add_site(s, (uint64_t)LLVMDILocationGetLine(at) << 32 |
					      LLVMDILocationGetColumn(at));
		}
	}
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_key);
	return err;
}

int pp_call_fates(struct pp_module *m, struct pp_func *f)
{
	struct pp_call *calls = m->calls + f->first_call;
	struct sites s = {0};
	bool debug;
	int err;

	if (!f->fn) {
		for (uint32_t k = 0; k < f->ncalls; k++)
			calls[k].fate = PP_FATE_UNKNOWN;
		return 0;
	}
	debug = LLVMGetSubprogram(f->fn) != NULL;
	err = debug ? inlined_sites(f->fn, &s) : 0;
	for (uint32_t k = 0; k < f->ncalls && !err; k++) {
		struct pp_call *c = &calls[k];
		uint64_t key = (uint64_t)c->line << 32 | c->col;

		if (c->probed)
			c->fate = PP_FATE_TIMED;
		else if (c->via) /* a place of inlined code: inlinings or calls (inlined.c) */
			c->fate = c->inlined ? PP_FATE_INLINED : PP_FATE_REMOVED;
		else if (!debug || !c->line)
			c->fate = PP_FATE_UNKNOWN;
		else if (s.n && bsearch(&key, s.v, s.n, sizeof(*s.v), cmp_key))
			c->fate = PP_FATE_INLINED;
		else
			c->fate = PP_FATE_REMOVED;
	}
	free(s.v);
	return err;
}
