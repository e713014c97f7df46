/* SPDX-License-Identifier: MIT */
/*
 * jumps.c - static branches: a probe's check as a 5-byte no-op that the
 * runtime turns into a jump to the armed path (abi.h, 4.).
 *
 * A check built here is "asm goto" (callbr) of
 *
 *	.Lpinpoint_jumpN:
 *		.byte 0x0f, 0x1f, 0x44, 0x00, 0x00          nopl 0(%rax,%rax)
 *		.pushsection pinpoint_jumps, ...
 *		.long .Lpinpoint_jumpN - .                  the no-op
 *		.long <armed block> - .                     where the jump goes
 *		.long <key> - .                             the flag byte, or pp_fn.armed
 *		.long <kind>
 *		.popsection
 *
 * falling through to the unarmed path.  Unarmed, a check is one no-op: no
 * load, no compare, no branch for the predictor to track, where a load
 * check costs a byte load and a never-taken branch on every execution
 * (expat, CPU time against the plain build: 1.029x with load checks, 1.003x
 * with these; bench/README.md).  The armed paths are the same either way.
 *
 * The entries go to a section linked (SHF_LINK_ORDER) to the code they
 * describe, so that --gc-sections drops them with an unused function; in a
 * function of a comdat group they go to the group instead, so that the
 * linker drops them with a duplicate copy of the group.  A function whose
 * group name the assembler could not take unquoted keeps load checks.
 * x86-64 only; PINPOINT_PASS_JUMPS=0 in the compiler's environment keeps
 * load checks everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

#define PP_JUMP_LABEL "${:private}pinpoint_jump${:uid}"

bool pp_use_jumps(LLVMModuleRef mod)
{
	const char *env = getenv(PP_JUMPS_ENV);

	if (env && !strcmp(env, "0"))
		return false;
	return !strncmp(LLVMGetTarget(mod), "x86_64", 6);
}

/* A group name the assembler takes as it is ('$' is doubled for inline asm). */
static bool plain_name(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '$'))
			return false;
	}
	return true;
}

/*
 * The asm text of one struct pp_jump, malloc'ed; NULL without memory.  @head
 * goes first (a label, or nothing); @code, @target and @key are the
 * operands' expressions; @link is the symbol whose section the entry is
 * linked to when the function has no comdat group.
 */
static char *entry_asm(const char *head, const char *group, size_t glen, const char *link,
		       const char *code, const char *target, const char *key,
		       enum pp_jump_kind kind)
{
	size_t cap = strlen(head) + 2 * glen + strlen(link) + strlen(code) + strlen(target) +
		     strlen(key) + 256;
	char *s = malloc(cap);
	size_t n;

	if (!s)
		return NULL;
	n = (size_t)snprintf(s, cap, "%s\t.pushsection " PP_JUMPS_SECTION ", ", head);
	if (group) {
		n += (size_t)snprintf(s + n, cap - n, "\"aG\", @progbits, ");
		for (size_t i = 0; i < glen; i++) {
			if (group[i] == '$')
				s[n++] = '$';
			s[n++] = group[i];
		}
		n += (size_t)snprintf(s + n, cap - n, ", comdat");
	} else {
		n += (size_t)snprintf(s + n, cap - n, "\"ao\", @progbits, %s", link);
	}
	snprintf(s + n, cap - n,
		 "\n\t.balign 4\n\t.long %s - .\n\t.long %s - .\n\t.long %s - .\n"
		 "\t.long %u\n\t.popsection",
		 code, target, key, (unsigned)kind);
	return s;
}

/* The check's asm text: the no-op at a label of its own, whose bytes are
 * PP_JUMP_NOP (abi.h), which the runtime checks before it patches them. */
static char *jump_asm(const char *group, size_t glen, enum pp_jump_kind kind)
{
	return entry_asm(PP_JUMP_LABEL ":\n\t.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n", group, glen,
			 PP_JUMP_LABEL, PP_JUMP_LABEL, "${1:l}", "${0:c}", kind);
}

bool pp_jump_group_ok(LLVMValueRef fn)
{
	size_t glen = 0;
	const char *group = pp_comdat_name(fn, &glen);

	return !group || plain_name(group, glen);
}

LLVMValueRef pp_build_entry_jump(struct pp_module *m, LLVMBuilderRef b, LLVMValueRef fn,
				 LLVMValueRef target, LLVMValueRef key, enum pp_jump_kind kind)
{
	size_t glen = 0;
	const char *group = pp_comdat_name(fn, &glen);
	LLVMValueRef ops[3], asm_fn, call;
	LLVMTypeRef params[3] = {m->ptr, m->ptr, m->ptr}, ty;
	char *text;

	if (group && !plain_name(group, glen))
		return NULL;
	text = entry_asm("", group, glen, "${0:c}", "${0:c}", "${1:c}", "${2:c}", kind);
	if (!text)
		return NULL;
	ops[0] = LLVMConstPointerCast(fn, m->ptr);
	ops[1] = LLVMConstPointerCast(target, m->ptr);
	ops[2] = LLVMConstPointerCast(key, m->ptr);
	ty = LLVMFunctionType(LLVMVoidTypeInContext(m->ctx), params, 3, 0);
	asm_fn =
	    LLVMGetInlineAsm(ty, text, strlen(text), "i,i,i", 5, 1, 0, LLVMInlineAsmDialectATT, 0);
	call = LLVMBuildCall2(b, ty, asm_fn, ops, 3, "");
	free(text);
	return call;
}

LLVMValueRef pp_build_jump(struct pp_module *m, LLVMBuilderRef b, LLVMBasicBlockRef bb,
			   LLVMBasicBlockRef armed, LLVMBasicBlockRef unarmed, LLVMValueRef key,
			   enum pp_jump_kind kind)
{
	size_t glen = 0;
	const char *group = pp_comdat_name(LLVMGetBasicBlockParent(bb), &glen);
	LLVMValueRef br;
	char *text;

	if (!m->jumps || (group && !plain_name(group, glen)))
		return NULL;
	text = jump_asm(group, glen, kind);
	if (!text)
		return NULL;
	LLVMPositionBuilderAtEnd(b, bb);
	br = pp_build_asm_goto(b, text, LLVMConstPointerCast(key, m->ptr), unarmed, armed);
	free(text);
	return br;
}
