/* SPDX-License-Identifier: MIT */
/*
 * trace-rt.c - a test fixture standing in for the runtime in the pass's lit
 * tests: it prints what the probes report so the tests can check the
 * probes' order and arguments.  It is not the pinpoint runtime (runtime/).
 *
 *   PP_TRACE_LIST=1  print every record handed to __pinpoint_register
 *   PP_TRACE_ARM=1   arm every probe site of every record
 *   PP_TRACE_UNREGISTER=1  print each range handed to __pinpoint_unregister
 *   PP_TRACE_JUMPS=1 print how many static branches it patched (abi.h, 4.)
 *   (always) an indirect call's target, named by its function's record (abi.h, 5.)
 *
 * Build it without the plugin and link it into an instrumented program:
 *   clang -c -I include trace-rt.c && clang -fpass-plugin=... t.c trace-rt.o
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pinpoint/abi.h"

void __pinpoint_register(struct pp_fn *begin, struct pp_fn *end)
{
	int list = getenv("PP_TRACE_LIST") != NULL;
	int arm = getenv("PP_TRACE_ARM") != NULL;

	printf("register %d\n", (int)(end - begin));
	for (struct pp_fn *fn = begin; fn < end; fn++) {
		if (list)
			printf("record %s %s ncalls=%u armed=%u flags=%s\n", fn->name, fn->file,
			       fn->ncalls, fn->armed, fn->flags ? "yes" : "no");
		/* as the runtime does: armed before the flags (abi.h) */
		if (arm)
			fn->armed = PP_FN_ARMED;
		for (uint32_t i = 0; arm && i <= fn->ncalls; i++)
			fn->flags[i] = 1;
	}
	fflush(stdout);
}

void __pinpoint_unregister(struct pp_fn *begin, struct pp_fn *end)
{
	if (!getenv("PP_TRACE_UNREGISTER"))
		return;
	printf("unregister %d\n", (int)(end - begin));
	fflush(stdout);
}

void __pinpoint_enter(struct pp_fn *fn, uint32_t site)
{
	printf("enter %s %u\n", fn->name, site);
}

/* The way in of the preserve_most thunks of objects compiled before
 * __pinpoint_enter_fast: the probe's position must be in the probed
 * function's frame, just above its return address. */
void __pinpoint_enter_at(struct pp_fn *fn, uint32_t site, uintptr_t cfa, uintptr_t ret)
{
	const uintptr_t *slot = (const uintptr_t *)cfa - 1;

	if (*slot != ret)
		printf("bad position %s %u\n", fn->name, site);
	__pinpoint_enter(fn, site);
}

void __pinpoint_exit(struct pp_fn *fn, uint32_t site)
{
	printf("exit %s %u\n", fn->name, site);
}

#if defined(__x86_64__)
/* The entry points the pass calls on x86-64 (abi.h, 3.): preserve_most, and
 * the exit probe's record PP_EXIT_BIAS bytes past its address. */
__attribute__((preserve_most)) void __pinpoint_enter_fast(struct pp_fn *fn, uint32_t site)
{
	__pinpoint_enter(fn, site);
}

__attribute__((preserve_most)) void __pinpoint_exit_fast(struct pp_fn *fn, uint32_t site)
{
	__pinpoint_exit((struct pp_fn *)((char *)fn - PP_EXIT_BIAS), site);
}

/* The entry points of the inline asm probes around a call: the record in
 * r11 (exit: PP_EXIT_BIAS past it), the site in r10d; everything but r10,
 * r11 and the vector registers preserved.  Seven pushes align the stack. */
#define PP_STR(x) #x
#define PP_XSTR(x) PP_STR(x)
#define TRACE_R11(name, fn, bias)                                                                  \
	__asm__(".text\n\t.globl " name "\n\t.type " name ", @function\n" name ":\n\t"             \
		"push %rax\n\tpush %rcx\n\tpush %rdx\n\tpush %rsi\n\tpush %rdi\n\t"                \
		"push %r8\n\tpush %r9\n\tlea -" bias "(%r11), %rdi\n\tmov %r10d, %esi\n\t"         \
		"call " fn "@PLT\n\tpop %r9\n\tpop %r8\n\tpop %rdi\n\tpop %rsi\n\t"                \
		"pop %rdx\n\tpop %rcx\n\tpop %rax\n\tret\n\t.size " name ", . - " name)
TRACE_R11(PP_ENTER_R11_FN, "__pinpoint_enter", "0");
TRACE_R11(PP_EXIT_R11_FN, "__pinpoint_exit", PP_XSTR(PP_EXIT_BIAS));
/* An indirect call's target (abi.h, 5.): the target in rax besides. */
__asm__(".text\n\t.globl " PP_TARGET_R11_FN "\n\t.type " PP_TARGET_R11_FN
	", @function\n" PP_TARGET_R11_FN ":\n\t"
	"push %rax\n\tpush %rcx\n\tpush %rdx\n\tpush %rsi\n\tpush %rdi\n\t"
	"push %r8\n\tpush %r9\n\tmov %r11, %rdi\n\tmov %r10d, %esi\n\tmov %rax, %rdx\n\t"
	"call " PP_TARGET_FN "@PLT\n\tpop %r9\n\tpop %r8\n\tpop %rdi\n\tpop %rsi\n\t"
	"pop %rdx\n\tpop %rcx\n\tpop %rax\n\tret\n\t.size " PP_TARGET_R11_FN
	", . - " PP_TARGET_R11_FN);
#endif

static const struct pp_fn_addr *addrs_begin, *addrs_end;

/* The functions' addresses (abi.h, 5.): with PP_TRACE_LIST, how many. */
void __pinpoint_register_addrs(const struct pp_fn_addr *begin, const struct pp_fn_addr *end)
{
	addrs_begin = begin;
	addrs_end = end;
	if (getenv("PP_TRACE_LIST"))
		printf("addrs %d\n", begin ? (int)(end - begin) : 0);
	fflush(stdout);
}

void __pinpoint_unregister_addrs(const struct pp_fn_addr *begin, const struct pp_fn_addr *end)
{
	(void)begin;
	(void)end;
}

/* An indirect call's target, named by its record as the runtime does at
 * exit, or "?" outside the instrumented functions. */
void __pinpoint_target(struct pp_fn *fn, uint32_t site, const void *target)
{
	const char *name = "?";

	for (const struct pp_fn_addr *a = addrs_begin; a && a < addrs_end; a++)
		if (a->addr == target)
			name = a->fn->name;
	printf("target %s %u %s\n", fn->name, site, name);
}

static unsigned char *at(const int32_t *field)
{
	return (unsigned char *)((intptr_t)field + *field);
}

/* With PP_TRACE_ARM, as the runtime does (runtime/jumps.c, without its
 * checks): every static branch whose key is set jumps to its armed path. */
void __pinpoint_register_jumps(const struct pp_jump *begin, const struct pp_jump *end)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned n = 0;

	for (const struct pp_jump *j = begin; getenv("PP_TRACE_ARM") && j && j < end; j++) {
		unsigned char *code = at(&j->code), *key = at(&j->key);
		int32_t rel = (int32_t)(at(&j->target) - (code + PP_JUMP_LEN));
		uintptr_t lo = (uintptr_t)code & ~(uintptr_t)(page - 1);

		if (j->kind == PP_JUMP_FN ? *(uint32_t *)(void *)key < PP_FN_ARMED : !*key)
			continue;
		if ((memcmp(code, PP_JUMP_NOP, PP_JUMP_LEN) &&
		     memcmp(code, PP_JUMP_ENTRY_NOP, PP_JUMP_LEN)) ||
		    mprotect((void *)lo, 2 * (size_t)page, PROT_READ | PROT_WRITE | PROT_EXEC)) {
			printf("cannot patch %p\n", (void *)code);
			continue;
		}
		code[0] = j->kind == PP_JUMP_CALL ? PP_JUMP_CALL_OP : PP_JUMP_JMP;
		memcpy(code + 1, &rel, sizeof(rel));
		mprotect((void *)lo, 2 * (size_t)page, PROT_READ | PROT_EXEC);
		n++;
	}
	if (getenv("PP_TRACE_JUMPS"))
		printf("jumps %d patched %u\n", begin ? (int)(end - begin) : 0, n);
	fflush(stdout);
}

void __pinpoint_unregister_jumps(const struct pp_jump *begin, const struct pp_jump *end)
{
	(void)begin;
	(void)end;
}
