/* SPDX-License-Identifier: MIT */
/*
 * pass.h - what the files of the pinpoint pass share.
 *
 * The pass runs in two phases over a module.  The early phase (before any
 * optimisation) records the call lists of the source: it tags every listed
 * call with !pinpoint.site !{!"owner", i32 k} and stores the table blob in
 * the named metadata !pinpoint.table; the code is not changed.  The late
 * phase (after all optimisation) reads that blob back, plants the probes of
 * the calls that survived in their owner, records the fate of every call
 * (timed, inlined, removed) and emits the table, the flags and records and
 * the module constructor.  Used as
 *
 *	clang -fpass-plugin=pinpoint-pass.so ...
 *	opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint ...
 *	    (or -passes=pinpoint-early,...,pinpoint-late)
 */
#ifndef PINPOINT_PASS_H
#define PINPOINT_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "pinpoint/abi.h"

/* Name of the table global; its presence marks a module as instrumented. */
#define PP_TABLE_GLOBAL PP_PREFIX "table"
/* What the early phase leaves for the late one (see above). */
#define PP_TABLE_MD "pinpoint.table"
#define PP_SITE_MD "pinpoint.site"

/* strtab.c: deduplicated NUL-terminated strings, offset 0 is "". */
struct pp_strtab {
	char *buf;
	uint32_t len, cap;
	uint32_t *slots; /* open addressing: offset + 1, 0 = empty */
	uint32_t nslots, nstrings;
};

int pp_strtab_init(struct pp_strtab *st);
void pp_strtab_free(struct pp_strtab *st);
/* Adds s[0..len) (or finds it); 0 or -ENOMEM, offset in *off. */
int pp_strtab_add(struct pp_strtab *st, const char *s, size_t len, uint32_t *off);
/* Indexes the strings of a buffer loaded into st->buf (st->len bytes). */
int pp_strtab_index(struct pp_strtab *st);
/* The offset of s[0..len) in *off: 0, or -ENOENT when it is not there. */
int pp_strtab_find(const struct pp_strtab *st, const char *s, size_t len, uint32_t *off);

/* One call site of a function's call list. */
struct pp_call {
	LLVMValueRef inst;		  /* early phase only */
	uint32_t callee, file, line, col; /* strtab offsets and numbers */
	uint8_t kind;			  /* enum pp_call_kind */
	uint8_t fate;			  /* enum pp_call_fate, late phase */
	bool tagged;			  /* late phase: a tagged copy survives */
	bool inlined;			  /* late phase: code of an inlining at it */
	uint32_t via;			  /* abi.h: 0, or the call it came through + 1 */
	uint32_t callback;		  /* strtab: a function passed to it, or 0 ("") */
	uint32_t probed;		  /* late phase: probed copies of the call */
};

/* One function with a call list. */
struct pp_func {
	LLVMValueRef fn;	     /* late phase: NULL when no longer emitted */
	uint32_t name, file, line;   /* strtab offsets and line */
	uint8_t linkage;	     /* enum pp_linkage */
	uint8_t fflags;		     /* PP_FUNC_*, late phase */
	uint32_t first_call, ncalls; /* slice of pp_module.calls */
	/* Late phase (inlined.c): source call k is call own[first_own + k]
	 * of the list; its places in the tree of inlined calls. */
	uint32_t first_own, nown;
	uint32_t first_node, nnodes; /* slice of pp_module.node_pos */
	LLVMValueRef flags, record;  /* created by records.c */
	LLVMValueRef addr;	     /* records.c: its pp_fn_addr, NULL for LTO */
	bool stub;		     /* late phase: body probes in a stub (stub.c) */
};

/* inlined.c: which call of its function's list a place of the tree of
 * inlined calls is. */
struct pp_inl_map;

struct pp_module {
	LLVMModuleRef mod;
	LLVMContextRef ctx;
	struct pp_func *funcs;
	uint32_t nfuncs, funcs_cap;
	struct pp_call *calls;
	uint32_t ncalls, calls_cap;
	struct pp_strtab strtab;
	uint32_t module_name; /* strtab: source file name */
	uint32_t producer;    /* strtab: "pinpoint <version> llvm <version>" */
	LLVMValueRef table;   /* the blob global, created by table.c */
	uint32_t strtab_off;  /* where strtab starts in the blob */
	/* Types, in the module's pointer flavour (typed in LLVM 14). */
	LLVMTypeRef i8, i32, ptr, record_ty, probe_fn_ty;
	LLVMValueRef enter_fn, exit_fn; /* as callees of probe_fn_ty */
	LLVMTypeRef target_fn_ty;	/* void (ptr, i32, ptr): abi.h, 5. */
	LLVMValueRef target_fn;		/* PP_TARGET_FN, C convention */
	unsigned probe_cc;		/* their calling convention */
	bool asm_probes;		/* a call's probes are inline asm (probes.c) */
	bool sleds;			/* ... sleds, keeping vector registers (jumps.c) */
	bool jumps;			/* checks are static branches (jumps.c) */
	unsigned prof_kind;		/* !prof */
	LLVMValueRef never_taken;	/* !{!"branch_weights", 1, 1048575} */
	unsigned site_kind;		/* !pinpoint.site */
	/* Late phase (inlined.c): each source call's place in its list, each
	 * node's, and the nodes by what they are. */
	uint32_t *own, *node_pos;
	uint32_t nnodes;
	struct pp_inl_map *inl;
};

/* srcloc.c: file names and lines from debug info. */
int pp_file_of_scope(struct pp_module *m, LLVMMetadataRef scope, uint32_t *off);
/* Function's file (falls back to the module's) and line (0 if unknown). */
int pp_func_srcloc(struct pp_module *m, LLVMValueRef fn, uint32_t *file, uint32_t *line);
/* A location for probes placed at a function's entry; NULL without -g. */
LLVMMetadataRef pp_func_entry_loc(struct pp_module *m, LLVMValueRef fn);

/* calls.c: whether fn gets instrumented, and its call list. */
bool pp_want_function(LLVMValueRef fn);
int pp_collect_calls(struct pp_module *m, struct pp_func *f);
/* Callee of a call after stripping pointer casts; NULL when indirect. */
LLVMValueRef pp_direct_callee(LLVMValueRef call);

/*
 * The first function call @call passes as an argument (through casts),
 * which its callee may call back (qsort's comparator); intrinsics and the
 * pass's own functions are not.  Its strtab offset in *@off, 0 ("") when
 * there is none.  0 or -ENOMEM.
 */
int pp_call_callback(struct pp_module *m, LLVMValueRef call, uint32_t *off);
/* Whether a call instruction would be in a call list. */
bool pp_is_listed_call(LLVMValueRef inst);

/* inlined.c: each emitted function's call list expanded, after each call
 * of its source, with what came into the function by inlining at it (the
 * calls that survive of the inlined code, and the calls it inlined, each
 * with the call it came through); m->calls is rebuilt.  Before any probe. */
int pp_expand_calls(struct pp_module *m);
/* The call of f's (expanded) list that @call is, -1 when none: a call of
 * inlined code by its place in the tree of inlined calls, a call of f's
 * source by its tag, or (@fallback) by its line:col among f's untagged
 * source calls. */
int64_t pp_call_site(struct pp_module *m, struct pp_func *f, LLVMValueRef call, bool fallback);
void pp_free_expansion(struct pp_module *m);

/* sites.c: the !pinpoint.site tags. */
void pp_tag_site(struct pp_module *m, LLVMValueRef call, LLVMValueRef fn, uint32_t k);
/* Site index k of a call tagged as call k of function `owner` (name of
 * length len); -1 when it carries no tag or another owner's. */
int64_t pp_site_of(struct pp_module *m, LLVMValueRef call, const char *owner, size_t len);
void pp_untag_site(struct pp_module *m, LLVMValueRef call);

/* table.c: the blob (needs every function collected). */
/* Encodes the blob into a malloc'ed buffer. */
int pp_encode_table(struct pp_module *m, uint8_t **blob, uint32_t *size);
/* Reads back a blob pp_encode_table() made: funcs, calls and strtab. */
int pp_decode_table(struct pp_module *m, const uint8_t *blob, size_t size);
/* The table global; pp_finish_table() then writes the fates into it. */
int pp_emit_table(struct pp_module *m);
int pp_finish_table(struct pp_module *m);
/* Pointer to string `off` of the table (constant expression). */
LLVMValueRef pp_table_string(struct pp_module *m, uint32_t off);

/* records.c: per-function flags + pp_fn record, runtime declarations,
 * module constructor. */
void pp_declare_runtime(struct pp_module *m);
void pp_emit_records(struct pp_module *m, struct pp_func *f);
void pp_emit_module_ctor(struct pp_module *m);
/* &f's flags[site], and &f's record.armed (pp_fn.armed), as constants. */
LLVMValueRef pp_flag_ptr(struct pp_module *m, struct pp_func *f, uint32_t site);
LLVMValueRef pp_armed_ptr(struct pp_module *m, struct pp_func *f);

/* split.c: block surgery LLVM-C does not offer. */
LLVMBasicBlockRef pp_new_block_after(LLVMContextRef ctx, LLVMBasicBlockRef bb, const char *name);
/* Moves `at` and everything after it into a new block; the old block is
 * left without a terminator.  Returns the new block. */
LLVMBasicBlockRef pp_split_before(LLVMBuilderRef mover, LLVMValueRef at, const char *name);
/* Puts a block holding only "br normal-dest" on an invoke's normal edge. */
LLVMBasicBlockRef pp_split_normal_edge(LLVMBuilderRef mover, LLVMValueRef invoke);
/* Hoists the entry block's constant-size allocas to its top and returns
 * the first instruction after them. */
LLVMValueRef pp_entry_insertion_point(LLVMBuilderRef mover, LLVMValueRef fn);

/* probes.c: probes of the body and of the surviving calls owned by f
 * (counted in pp_call.probed); strips the tags of f's body. */
int pp_probe_function(struct pp_module *m, struct pp_func *f);
/* The check of @site's flag at the end of @bb: to @armed when set. */
LLVMValueRef pp_build_check(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b,
			    LLVMBasicBlockRef bb, LLVMBasicBlockRef armed,
			    LLVMBasicBlockRef unarmed, uint32_t site, LLVMMetadataRef loc);
/* The runtime's enter (or exit) of @site, at the builder. */
void pp_build_probe_call(struct pp_module *m, struct pp_func *f, LLVMBuilderRef b, uint32_t site,
			 bool exit);

/* probes.c: PP_ASM_PROBES_ENV=0 makes the probes of a call calls of the
 * preserve_most entry points on x86-64, instead of inline asm. */
#define PP_ASM_PROBES_ENV "PINPOINT_PASS_ASM_PROBES"

/* jumps.c: static branches (abi.h, 4.), on x86-64 unless PP_JUMPS_ENV=0. */
#define PP_JUMPS_ENV "PINPOINT_PASS_JUMPS"
bool pp_use_jumps(LLVMModuleRef mod);
/* At the end of @bb: a no-op the runtime makes a jump to @armed while the
 * key @key (a flag byte, or the pp_fn.armed word with PP_JUMP_FN) is set;
 * falls through to @unarmed.  Returns the branch. */
LLVMValueRef pp_build_jump(struct pp_module *m, LLVMBuilderRef b, LLVMBasicBlockRef bb,
			   LLVMBasicBlockRef armed, LLVMBasicBlockRef unarmed, LLVMValueRef key,
			   enum pp_jump_kind kind);
/* At the builder: a call's enter (or exit) probe of @site as a sled, a
 * no-op the runtime makes a call of a thunk that passes @record and @site
 * to the r11 entry point while the flag byte @key is set (PP_JUMP_CALL);
 * NULL where jumps cannot be used or without memory. */
LLVMValueRef pp_build_sled(struct pp_module *m, LLVMBuilderRef b, LLVMValueRef fn,
			   LLVMValueRef record, uint32_t site, LLVMValueRef key, bool exit);
/* Whether fn's comdat group, if any, can be named in an entry's section. */
bool pp_jump_group_ok(LLVMValueRef fn);
/* At the builder: the table entry (data only, no code) of a no-op at fn's
 * address that jumps to @target while @key is set.  NULL without memory. */
LLVMValueRef pp_build_entry_jump(struct pp_module *m, LLVMBuilderRef b, LLVMValueRef fn,
				 LLVMValueRef target, LLVMValueRef key, enum pp_jump_kind kind);

/* dispatch.c: for a small function (every function with PP_CLONE_ENV=1,
 * none with PP_CLONE_ENV=0), puts f's probes into an armed clone and leaves
 * f pristine but for one check at its entry; *done false when it did not
 * (f's probes then go into f itself). */
#define PP_CLONE_ENV "PINPOINT_PASS_CLONE"
#define PP_CLONE_SUFFIX ".pinpoint"
int pp_probe_via_clone(struct pp_module *m, struct pp_func *f, bool *done);
/* Whether f is one to clone (small, or mid-sized with a timed call in a
 * loop, or as PP_CLONE_ENV says). */
int pp_want_clone(struct pp_module *m, struct pp_func *f, bool *want);
/* PP_CLONE_ENV=1: every function that can be is cloned. */
bool pp_clone_all(void);
/* Whether one of fn's parameters is byval. */
bool pp_has_byval(LLVMValueRef fn);
/* At the builder: a call of @callee with @fn's own arguments (@args holds
 * them), with @fn's parameter attributes (pp_forward_call). */
LLVMValueRef pp_build_forward_call(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef callee,
				   LLVMValueRef *args, bool musttail);
/* At the builder: fn's return of @value (ret void for a void fn). */
void pp_build_ret(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef value);
/* @name followed by @suffix, malloc'ed; NULL without memory. */
char *pp_suffixed(const char *name, const char *suffix);

/* stub.c: for a function dispatch.c did not clone, moves f's body into
 * "<f>.pinpoint.body" and makes f a stub that times it (f->fn is the body
 * afterwards), then probes the body's calls; *done false when it did not
 * (none with PP_STUB_ENV=0). */
#define PP_STUB_ENV "PINPOINT_PASS_STUB"
#define PP_TIMED_SUFFIX ".pinpoint.timed"
int pp_probe_via_stub(struct pp_module *m, struct pp_func *f, bool *done);
/* "<f>.pinpoint.timed" (@name): enter f's body site, call @callee with
 * the arguments, exit; in .text.unlikely, of @fn's type. */
LLVMValueRef pp_build_timed(struct pp_module *m, struct pp_func *f, LLVMValueRef fn,
			    LLVMValueRef callee, const char *name, LLVMValueRef *args);

/* entry.c: on x86-64 with static branches, f's entry becomes a 5-byte
 * no-op that the runtime makes a jump to f's armed clone, or to a function
 * that times f's body; f keeps nothing else but the checks of its calls
 * when it is not cloned; *done false when it did not (PP_ENTRY_ENV=0, or f
 * not eligible).  Only the entry's asm refers to the function it jumps to
 * (*kept): the caller puts it into llvm.compiler.used. */
#define PP_ENTRY_ENV "PINPOINT_PASS_ENTRY"
int pp_probe_via_entry(struct pp_module *m, struct pp_func *f, bool *done, LLVMValueRef *kept);

/* fates.c: the fate of each of f's calls after pp_probe_function(). */
int pp_call_fates(struct pp_module *m, struct pp_func *f);

/* plugin.cpp: the few things LLVM-C lacks. */
#ifdef __cplusplus
extern "C" {
#endif
void pp_append_used(LLVMModuleRef mod, LLVMValueRef *gvs, unsigned n);
void pp_append_compiler_used(LLVMModuleRef mod, LLVMValueRef *gvs, unsigned n);
void pp_append_global_ctor(LLVMModuleRef mod, LLVMValueRef fn, int priority, LLVMValueRef key);
bool pp_is_musttail_call(LLVMValueRef call);
/* Linkage name (else name) of the function a debug-info scope is in; NULL
 * when it has none. */
const char *pp_scope_function_name(LLVMMetadataRef scope, size_t *len);
void pp_copy_fast_math_flags(LLVMValueRef from, LLVMValueRef to);
/* An optimisation remark of pass "pinpoint" named @name on function @fn
 * (clang -Rpass=pinpoint, opt -pass-remarks=pinpoint, and the
 * -fsave-optimization-record files). */
void pp_remark(LLVMValueRef fn, const char *name, const char *msg);
bool pp_instrument_module(LLVMModuleRef mod);
bool pp_record_module(LLVMModuleRef mod);
bool pp_probe_module(LLVMModuleRef mod);
LLVMValueRef pp_clone_function(LLVMValueRef fn, const char *name);
bool pp_can_clone(LLVMValueRef fn);
bool pp_entry_eligible(LLVMValueRef fn);
/* Whether the module's calls may be probed with sleds (jumps.c) and its asm
 * probes leave the vector registers to the runtime: code of an executable,
 * not for LTO. */
bool pp_sleds_ok(LLVMModuleRef mod);
/* Whether the module is built for LTO (clang's EnableSplitLTOUnit flag). */
bool pp_module_for_lto(LLVMModuleRef mod);
void pp_forward_call(LLVMValueRef call, LLVMValueRef fn, bool musttail);
void pp_erase_named_metadata(LLVMModuleRef mod, const char *name);
const char *pp_comdat_name(LLVMValueRef fn, size_t *len);
LLVMValueRef pp_build_asm_goto(LLVMBuilderRef b, const char *asm_text, LLVMValueRef op,
			       LLVMBasicBlockRef fallthrough, LLVMBasicBlockRef label);
#ifdef __cplusplus
}
#endif

#endif /* PINPOINT_PASS_H */
