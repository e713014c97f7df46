/* SPDX-License-Identifier: MIT */
/*
 * pass.h - what the files of the pinpoint pass share.
 *
 * The pass runs in two phases over a module: collect (call lists, strings,
 * the table blob; nothing in the IR changes) and inject (globals, probes,
 * the module constructor).  Used as
 *
 *	clang -fpass-plugin=pinpoint-pass.so ...
 *	opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint ...
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

/* One call site of a function's call list. */
struct pp_call {
	LLVMValueRef inst;
	uint32_t callee, file, line, col; /* strtab offsets and numbers */
	uint8_t kind;			  /* enum pp_call_kind */
	bool musttail;			  /* in the list, but not probed: see probes.c */
};

/* One instrumented function. */
struct pp_func {
	LLVMValueRef fn;
	uint32_t name, file, line;   /* strtab offsets and line */
	uint8_t linkage;	     /* enum pp_linkage */
	uint32_t first_call, ncalls; /* slice of pp_module.calls */
	LLVMValueRef flags, record;  /* created by records.c */
};

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
	unsigned prof_kind;		/* !prof */
	LLVMValueRef never_taken;	/* !{!"branch_weights", 1, 1048575} */
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

/* table.c: builds the blob and its global (needs every function collected). */
int pp_emit_table(struct pp_module *m);
/* Pointer to string `off` of the table (constant expression). */
LLVMValueRef pp_table_string(struct pp_module *m, uint32_t off);

/* records.c: per-function flags + pp_fn record, runtime declarations,
 * module constructor. */
void pp_declare_runtime(struct pp_module *m);
void pp_emit_records(struct pp_module *m, struct pp_func *f);
void pp_emit_module_ctor(struct pp_module *m);

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

/* probes.c */
int pp_probe_function(struct pp_module *m, struct pp_func *f);

/* plugin.cpp: the few things LLVM-C lacks. */
#ifdef __cplusplus
extern "C" {
#endif
void pp_append_used(LLVMModuleRef mod, LLVMValueRef *gvs, unsigned n);
void pp_append_global_ctor(LLVMModuleRef mod, LLVMValueRef fn, int priority, LLVMValueRef key);
bool pp_is_musttail_call(LLVMValueRef call);
void pp_copy_fast_math_flags(LLVMValueRef from, LLVMValueRef to);
bool pp_instrument_module(LLVMModuleRef mod);
#ifdef __cplusplus
}
#endif

#endif /* PINPOINT_PASS_H */
