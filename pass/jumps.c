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
 * A timed call's probes are sleds instead where the module allows them
 * (pp_sleds_ok: an executable's code; probes.c): plain inline asm, not asm
 * goto, before the call and after it,
 *
 *	.Lpinpoint_jumpN:
 *		.byte 0x0f, 0x1f, 0x44, 0x00, 0x00
 *		.pushsection pinpoint_jumps, "ao", @progbits, <function>
 *		<the entry: the no-op, .Lpinpoint_thunkN, the site's flag, 3>
 *		.popsection
 *		.pushsection .pinpoint_sleds, "axo", @progbits, <function>
 *	.Lpinpoint_thunkN:
 *		leaq <record>(%rip), %r11         ; + PP_EXIT_BIAS after the call
 *		movl $<site>, %r10d
 *		jmp *__pinpoint_enter_r11@GOTPCREL(%rip)   ; __pinpoint_exit_r11
 *		.popsection
 *
 * which the runtime makes "call .Lpinpoint_thunkN" when it arms the site.
 * The asm clobbers r10, r11 and the flags, nothing else: the r11 entry
 * points keep the rest, vector state included.  With no block split and no
 * armed copy of the call, the backend allocates, lays out and tail-merges
 * the code as in the plain build, and has half the code to generate for
 * a timed call (expat's build: 1.36x the plain build's CPU time with asm
 * goto checks and armed copies, 1.23x with sleds).
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
#define PP_THUNK_LABEL "${:private}pinpoint_thunk${:uid}"

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

/* Appends to @s (of @cap bytes, @n used) the flags, type and link of a
 * section of the function: in its comdat group @group if it has one, else
 * linked to @link; @flags "a" or "ax".  Returns the new length. */
static size_t section_tail(char *s, size_t cap, size_t n, const char *flags, const char *group,
			   size_t glen, const char *link)
{
	if (!group)
		return n + (size_t)snprintf(s + n, cap - n, "\"%so\", @progbits, %s", flags, link);
	n += (size_t)snprintf(s + n, cap - n, "\"%sG\", @progbits, ", flags);
	for (size_t i = 0; i < glen; i++) {
		if (group[i] == '$')
			s[n++] = '$';
		s[n++] = group[i];
	}
	return n + (size_t)snprintf(s + n, cap - n, ", comdat");
}

/*
 * The asm text of one struct pp_jump, malloc'ed; NULL without memory.  @head
 * goes first (a label, or nothing), @tail last; @code, @target and @key are
 * the operands' expressions; @link is the symbol whose section the entry is
 * linked to when the function has no comdat group.
 */
static char *entry_asm(const char *head, const char *tail, const char *group, size_t glen,
		       const char *link, const char *code, const char *target, const char *key,
		       enum pp_jump_kind kind)
{
	size_t cap = strlen(head) + strlen(tail) + 2 * glen + strlen(link) + strlen(code) +
		     strlen(target) + strlen(key) + 256;
	char *s = malloc(cap);
	size_t n;

	if (!s)
		return NULL;
	n = (size_t)snprintf(s, cap, "%s\t.pushsection " PP_JUMPS_SECTION ", ", head);
	n = section_tail(s, cap, n, "a", group, glen, link);
	snprintf(s + n, cap - n,
		 "\n\t.balign 4\n\t.long %s - .\n\t.long %s - .\n\t.long %s - .\n"
		 "\t.long %u\n\t.popsection%s",
		 code, target, key, (unsigned)kind, tail);
	return s;
}

/* The check's asm text: the no-op at a label of its own, whose bytes are
 * PP_JUMP_NOP (abi.h), which the runtime checks before it patches them. */
static char *jump_asm(const char *group, size_t glen, enum pp_jump_kind kind)
{
	return entry_asm(PP_JUMP_LABEL ":\n\t.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n", "", group, glen,
			 PP_JUMP_LABEL, PP_JUMP_LABEL, "${1:l}", "${0:c}", kind);
}

bool pp_jump_group_ok(LLVMValueRef fn)
{
	size_t glen = 0;
	const char *group = pp_comdat_name(fn, &glen);

	return !group || plain_name(group, glen);
}

/* At the builder: a call of inline asm @text (freed here; NULL: none) with
 * constraints @cons and the @n operands @ops, each of type ptr or i32.
 * NULL when @text is. */
static LLVMValueRef build_asm(struct pp_module *m, LLVMBuilderRef b, char *text, const char *cons,
			      LLVMValueRef *ops, unsigned n)
{
	LLVMTypeRef params[4], ty;
	LLVMValueRef asm_fn, call;

	if (!text || n > 4)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		params[i] = LLVMTypeOf(ops[i]);
	ty = LLVMFunctionType(LLVMVoidTypeInContext(m->ctx), params, n, 0);
	asm_fn = LLVMGetInlineAsm(ty, text, strlen(text), (char *)cons, strlen(cons), 1, 0,
				  LLVMInlineAsmDialectATT, 0);
	call = LLVMBuildCall2(b, ty, asm_fn, ops, n, "");
	free(text);
	return call;
}

LLVMValueRef pp_build_entry_jump(struct pp_module *m, LLVMBuilderRef b, LLVMValueRef fn,
				 LLVMValueRef target, LLVMValueRef key, enum pp_jump_kind kind)
{
	size_t glen = 0;
	const char *group = pp_comdat_name(fn, &glen);
	LLVMValueRef ops[3];

	if (group && !plain_name(group, glen))
		return NULL;
	ops[0] = LLVMConstPointerCast(fn, m->ptr);
	ops[1] = LLVMConstPointerCast(target, m->ptr);
	ops[2] = LLVMConstPointerCast(key, m->ptr);
	return build_asm(
	    m, b, entry_asm("", "", group, glen, "${0:c}", "${0:c}", "${1:c}", "${2:c}", kind),
	    "i,i,i", ops, 3);
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

/* The asm text of a call's probe as a sled: the no-op, its entry, and its
 * thunk in a section of its own that goes with the function's; malloc'ed,
 * NULL without memory. */
static char *sled_asm(const char *group, size_t glen, bool exit)
{
	const char *fn = exit ? PP_EXIT_R11_FN : PP_ENTER_R11_FN;
	/* The group's name, each '$' doubled, and the fixed text (under 256 bytes). */
	size_t cap = 2 * glen + strlen(fn) + 256, n;
	char *thunk = malloc(cap), *s;

	if (!thunk)
		return NULL;
	n = (size_t)snprintf(thunk, cap, "\n\t.pushsection " PP_SLEDS_SECTION ", ");
	n = section_tail(thunk, cap, n, "ax", group, glen, "${3:c}");
	snprintf(thunk + n, cap - n,
		 "\n" PP_THUNK_LABEL ":\n\tleaq ${0:c}(%%rip), %%r11\n\tmovl $$${1:c}, %%r10d\n"
		 "\tjmp *%s@GOTPCREL(%%rip)\n\t.popsection",
		 fn);
	s = entry_asm(PP_JUMP_LABEL ":\n\t.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n", thunk, group,
		      glen, "${3:c}", PP_JUMP_LABEL, PP_THUNK_LABEL, "${2:c}", PP_JUMP_CALL);
	free(thunk);
	return s;
}

LLVMValueRef pp_build_sled(struct pp_module *m, LLVMBuilderRef b, LLVMValueRef fn,
			   LLVMValueRef record, uint32_t site, LLVMValueRef key, bool exit)
{
	size_t glen = 0;
	const char *group = pp_comdat_name(fn, &glen);
	LLVMValueRef ops[4];

	if (!m->sleds || (group && !plain_name(group, glen)))
		return NULL;
	ops[0] = record;
	ops[1] = LLVMConstInt(m->i32, site, 0);
	ops[2] = LLVMConstPointerCast(key, m->ptr);
	ops[3] = LLVMConstPointerCast(fn, m->ptr);
	return build_asm(m, b, sled_asm(group, glen, exit),
			 "i,i,i,i,~{r10},~{r11},~{dirflag},~{fpsr},~{flags}", ops, 4);
}
