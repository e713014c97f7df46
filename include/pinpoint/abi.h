/* SPDX-License-Identifier: MIT */
/*
 * abi.h - the contract between the pinpoint pass, its runtime and its readers.
 *
 * Everything the pass plants in an object file and everything the runtime and
 * the table readers rely on is named here, once.  Bump PP_TABLE_VERSION or
 * PP_RESULTS_VERSION whenever a layout below changes.
 *
 * 1. The table (section PP_TABLE_SECTION, read-only, kept by llvm.used).
 *    Each instrumented module contributes one self-describing blob:
 *
 *        struct pp_table_header
 *        struct pp_table_func   [nfuncs]
 *        struct pp_table_call   [ncalls]   (all functions' calls, in order)
 *        char                   strtab[strtab_size]
 *        zero padding up to a multiple of PP_TABLE_ALIGN
 *
 *    Offsets are from the start of the blob; strings are NUL-terminated
 *    offsets into strtab (offset 0 is the empty string).  All fields are
 *    little-endian.  The linker concatenates blobs; a reader walks the section
 *    blob by blob, skipping zero padding in PP_TABLE_ALIGN steps.
 *
 * 2. The probe records (section PP_FNS_SECTION, writable).  One
 *    struct pp_fn per instrumented function, and a module constructor that
 *    calls PP_REGISTER_FN(__start_<sec>, __stop_<sec>) for its link unit,
 *    then PP_REGISTER_JUMPS_FN with the link unit's static branches (4.);
 *    a module destructor calls PP_UNREGISTER_JUMPS_FN and PP_UNREGISTER_FN
 *    with the same ranges, so a library unloaded by dlclose gives its armed
 *    sites back.  (The constructor and destructor were named
 *    __pinpoint_module_ctor/dtor before static branches, and registered the
 *    records only: both run when objects of both kinds are linked together.)
 *
 * 3. Probes.  Site 0 of a function is its body (entry ... every return);
 *    site k+1 is its call k (before ... after).  Every probe is
 *
 *        if (fn.flags[site]) PP_ENTER_FN(&fn, site);   (or PP_EXIT_FN)
 *
 *    with the flag load inline and the branch weighted as never taken.
 *    On x86-64 the armed path calls PP_ENTER_FAST_FN or PP_EXIT_FAST_FN
 *    instead, with calling convention preserve_most (every register but
 *    r11 is the callee's to preserve), so that the unarmed path needs no
 *    saved registers; the exit probe passes its record PP_EXIT_BIAS bytes
 *    past its address.  Both are declared nonlazybind: called through the
 *    GOT, bound at load time, never through a lazily bound PLT entry, whose
 *    resolver may clobber a register preserve_most keeps.  (Objects of
 *    table version 2 compiled before these existed carry module-local
 *    preserve_most thunks that call PP_ENTER_AT_FN and PP_EXIT_FN instead;
 *    both stay.)  The two probes around a timed call on x86-64 are inline
 *    asm instead, "leaq <record>(%rip), %r11; movl $<site>, %r10d; call
 *    *PP_ENTER_R11_FN@GOTPCREL(%rip)" (PP_EXIT_R11_FN with the biased
 *    record), clobbering r10, r11 and the flags: the call's arguments can
 *    then stay in their argument registers across the armed path, and the
 *    unarmed path moves none of them for its sake.  The r11 entry points
 *    keep every other register, the vector and x87 state too.  In code of
 *    a shared library (-fPIC, not -fPIE), whose runtime may find its thread
 *    block through a TLS descriptor call that can clobber vector registers
 *    in a module loaded by dlopen, the asm declares xmm0-xmm15 clobbered
 *    as well.  In an executable's code, these probes are sleds (4.): in
 *    place, a 5-byte no-op before the call and one after it; armed, calls
 *    of thunks that run the same three instructions with a jmp for the
 *    call.
 *    Call lists are those of the source (taken before any optimisation),
 *    each call followed by what came into the function by inlining at it:
 *    the calls of the inlined function that survived in this one, and the
 *    calls it inlined in turn, each with the call it came through (via).
 *    Probes are planted after all optimisation, so only the calls that
 *    survived are probed (fate PP_FATE_TIMED; every copy of a duplicated
 *    call has the probes of its one site).  A call whose
 *    callee was inlined, or that was removed, has no probes: its flag is
 *    never read and an armed range of such calls never executes.  Probes
 *    exist only in functions with PP_FUNC_EMITTED.
 *
 *    A small function (every function that can be cloned, with
 *    PINPOINT_PASS_CLONE=1) keeps the plain body: its probes are in a local
 *    clone "<name>.pinpoint", run instead of the body by one check at the
 *    entry,
 *
 *        if (fn.armed >= PP_FN_ARMED) return <name>.pinpoint(args);  (musttail)
 *
 *    so the runtime sets fn.armed >= PP_FN_ARMED while any of the
 *    function's sites is armed, before any of its flags (doc/formats.md).
 *
 * 4. Static branches (x86-64, whose encodings abi_x86_64.h holds;
 *    PINPOINT_PASS_JUMPS=0 at compile time turns them off).  Each check of 3. is then not a load
 * and a branch but a 5-byte no-op (0f 1f 44 00 00) that falls through to the unarmed path,
 *    described by one struct pp_jump in section PP_JUMPS_SECTION (read-only,
 *    SHF_LINK_ORDER with the code it describes).  When the runtime arms a
 *    site it sets the flag (or fn.armed) as before, then overwrites the
 *    no-op of every branch whose key is set with "jmp rel32" to the armed
 *    path, as the Linux kernel's jump labels and XRay's sleds do: an unarmed
 *    check executes one no-op, reads no memory and takes no branch slot.
 *    The entries are position-independent (each field an offset from
 *    itself), so they need no relocation at load time.  A function's own
 *    entry can be such a no-op too (PP_JUMP_ENTRY_NOP, ahead of its
 *    prologue): patched, it jumps with the caller's arguments and return
 *    address to the function's armed clone (PP_JUMP_FN) or to a function
 *    that times the body past the no-op (PP_JUMP_FLAG on the body's flag).
 *    A timed call in an executable's code (-fPIE or not position-
 *    independent, not for LTO) has a no-op right before it and one right
 *    after (PP_JUMP_CALL, keyed by the site's flag), and no other check:
 *    no block is split and the call is not copied, so the backend lays out
 *    and allocates the code as in the plain build.  Patched, each becomes
 *    "call rel32" to a thunk of its own in section PP_SLEDS_SECTION (which
 *    goes with the function's section, or its comdat group),
 *
 *        leaq <record>(%rip), %r11; movl $<site>, %r10d
 *        jmp *PP_ENTER_R11_FN@GOTPCREL(%rip)     ; PP_EXIT_R11_FN after
 *
 *    which returns to the code after the no-op.  A call right before a ret
 *    or unreachable (which the backend may make a jump) keeps the asm goto
 *    check and armed copy of 3.
 *
 * 5. Indirect calls.  An indirect call (kind PP_CALL_INDIRECT or
 *    PP_CALL_INVOKE_INDIRECT) tells the runtime where it goes: its armed
 *    path calls PP_TARGET_FN(&fn, site, target) right before its enter
 *    probe, outside the call's own interval, with the pointer the call is
 *    about to call (on x86-64 inline asm, "leaq <record>(%rip), %r11;
 *    movl $<site>, %r10d; movq <target>, %rax; call
 *    *PP_TARGET_R11_FN@GOTPCREL(%rip)", clobbering rax, r10, r11 and the
 *    flags, like 3.'s).  Such a call is probed with the check and armed
 *    copy of 3., never with sleds: a sled is a no-op where the target is
 *    not in any register yet (call *8(%rbx)), and the armed copy has it.
 *    Unarmed it is the one no-op of a check.  Each instrumented function
 *    also has a struct pp_fn_addr in section PP_ADDRS_SECTION (writable,
 *    SHF_LINK_ORDER with the function, or in its comdat group), which the
 *    module constructor hands to PP_REGISTER_ADDRS_FN after the records:
 *    at exit the runtime names a target by the record whose function has
 *    its address, and looks nothing up on the hot path.  Not in a module
 *    built for LTO, where a reference to every function would keep them
 *    all (the runtime then names such targets by their symbol).
 */
#ifndef PINPOINT_ABI_H
#define PINPOINT_ABI_H

#include <stdint.h>

#define PP_TABLE_SECTION "pinpoint_table"
#define PP_FNS_SECTION "pinpoint_fns"
#define PP_JUMPS_SECTION "pinpoint_jumps"
/* The thunks of the sleds around timed calls (4.). */
#define PP_SLEDS_SECTION ".pinpoint_sleds"
/* Each instrumented function's record and address (5.). */
#define PP_ADDRS_SECTION "pinpoint_addrs"
#define PP_TABLE_MAGIC "PINPOINT"
/* 2: pp_table_func.flags and pp_table_call.fate (were reserved, zero).
 * 3: pp_table_call.via, and calls that came into a function by inlining
 *    listed in its call list (a version 2 call record is the first 20
 *    bytes of a version 3 one, via 0).
 * 4: pp_table_call.callback (a version 3 call record is the first 24 bytes
 *    of a version 4 one, no callback). */
#define PP_TABLE_VERSION 4
/* The oldest version the readers still take. */
#define PP_TABLE_VERSION_MIN 2
/* Size of a call record of version 2, and of version 3. */
#define PP_TABLE_CALL_V2_SIZE 20
#define PP_TABLE_CALL_V3_SIZE 24
#define PP_TABLE_ALIGN 8

/* Runtime entry points called by instrumented code. */
#define PP_ENTER_FN "__pinpoint_enter"
/* __pinpoint_enter with the probe's position given: its caller's stack
 * pointer at the call (CFA) and return address, as __pinpoint_enter takes
 * them from its own frame.  Called by the pass's preserve_most thunk, whose
 * frame lies between the probe and the runtime. */
#define PP_ENTER_AT_FN "__pinpoint_enter_at"
#define PP_EXIT_FN "__pinpoint_exit"
/* x86-64: __pinpoint_enter and __pinpoint_exit with calling convention
 * preserve_most, called nonlazybind (3.); the exit one takes the record
 * PP_EXIT_BIAS bytes past its address. */
#define PP_ENTER_FAST_FN "__pinpoint_enter_fast"
#define PP_EXIT_FAST_FN "__pinpoint_exit_fast"
#define PP_EXIT_BIAS 1
/* x86-64: the same, for the probes around a call, called from inline asm
 * or a sled's thunk with the record (exit: + PP_EXIT_BIAS) in r11 and the
 * site in r10d; every register but r10 and r11 is preserved, and the vector
 * and x87 state (3.). */
#define PP_ENTER_R11_FN "__pinpoint_enter_r11"
#define PP_EXIT_R11_FN "__pinpoint_exit_r11"
/* An indirect call's target, before its enter probe (5.); x86-64: the
 * record in r11, the site in r10d, the target in rax. */
#define PP_TARGET_FN "__pinpoint_target"
#define PP_TARGET_R11_FN "__pinpoint_target_r11"
#define PP_REGISTER_FN "__pinpoint_register"
#define PP_UNREGISTER_FN "__pinpoint_unregister"
#define PP_REGISTER_JUMPS_FN "__pinpoint_register_jumps"
#define PP_UNREGISTER_JUMPS_FN "__pinpoint_unregister_jumps"
#define PP_REGISTER_ADDRS_FN "__pinpoint_register_addrs"
#define PP_UNREGISTER_ADDRS_FN "__pinpoint_unregister_addrs"
/* Names the pass gives to what it creates; functions with this prefix are
 * never instrumented. */
#define PP_PREFIX "__pinpoint_"
#define PP_MODULE_CTOR "__pinpoint_module_init"
#define PP_MODULE_DTOR "__pinpoint_module_fini"

/* The environment variable through which the driver arms probes. */
#define PP_ENV "PINPOINT"
/* First line of a results file. */
#define PP_RESULTS_MAGIC "pinpoint-results"
#define PP_RESULTS_VERSION 1

enum pp_linkage {
	PP_LINK_EXTERNAL = 0,
	PP_LINK_INTERNAL = 1, /* static: name is unique only with its file */
	PP_LINK_LINKONCE = 2, /* inline/template: one copy kept per link */
	PP_LINK_WEAK = 3,
};

enum pp_call_kind {
	PP_CALL_DIRECT = 0,   /* call of a named function */
	PP_CALL_INVOKE = 1,   /* C++ invoke of a named function */
	PP_CALL_INDIRECT = 2, /* call through a pointer; callee is "" */
	PP_CALL_INVOKE_INDIRECT = 3,
};

/* What became of a listed call after optimisation. */
enum pp_call_fate {
	PP_FATE_TIMED = 0,   /* a call survives in its function, with probes */
	PP_FATE_INLINED = 1, /* the callee was inlined at the call's file:line:col */
	PP_FATE_REMOVED = 2, /* no call and no inlined code is left (deleted, folded,
				or merged with another call) */
	PP_FATE_UNKNOWN = 3, /* no call is left; inlined or removed cannot be told
				(no debug info), or the function is not emitted */
};

/* pp_table_func.flags */
#define PP_FUNC_EMITTED                                                                            \
	0x01u /* the function has a body with probes in the                                        \
		 object; else it was inlined everywhere or                                         \
		 deleted, and cannot be measured */

struct pp_table_header {
	char magic[8];	  /* PP_TABLE_MAGIC, no NUL */
	uint32_t version; /* PP_TABLE_VERSION */
	uint32_t size;	  /* whole blob in bytes, a multiple of PP_TABLE_ALIGN */
	uint32_t nfuncs;
	uint32_t ncalls;
	uint32_t funcs_off;
	uint32_t calls_off;
	uint32_t strtab_off;
	uint32_t strtab_size;
	uint32_t module;   /* strtab: the module's source file name */
	uint32_t producer; /* strtab: e.g. "pinpoint 0.1 llvm 14.0.6" */
};

struct pp_table_func {
	uint32_t name;	     /* strtab: linkage (mangled) name */
	uint32_t file;	     /* strtab: "dir/file.c" from debug info, else module */
	uint32_t line;	     /* 0 when unknown */
	uint32_t first_call; /* index into the blob's calls */
	uint32_t ncalls;
	uint8_t linkage; /* enum pp_linkage */
	uint8_t flags;	 /* PP_FUNC_* */
	uint8_t reserved[2];
};

struct pp_table_call {
	uint32_t callee; /* strtab: callee's linkage name, "" if indirect */
	uint32_t file;	 /* strtab: "" when unknown */
	uint32_t line;
	uint32_t col;
	uint8_t kind; /* enum pp_call_kind */
	uint8_t fate; /* enum pp_call_fate; INLINED: inlined at file:line:col */
	uint8_t reserved[2];
	/* 0: a call of the function's own source; k + 1: a call of code
	 * inlined at call k of the same list (k before it, an inlined call),
	 * file:line:col then in the inlined function's source (version 3) */
	uint32_t via;
	/* strtab: a function the call passes as an argument (the first one),
	 * which its callee may call back - qsort's comparator - or "" (version
	 * 4) */
	uint32_t callback;
	uint32_t reserved2; /* zero */
};

/* One per instrumented function, in PP_FNS_SECTION. */
struct pp_fn {
	uint8_t *flags; /* ncalls + 1 bytes: [0] body, [k+1] call k */
	const char *name;
	const char *file;
	uint32_t ncalls;
	uint32_t armed; /* owned by the runtime; >= PP_FN_ARMED while any
			   site of the function is armed, set before its
			   flags (read by the probes' dispatch, see 3.) */
};

/* One per instrumented function, in PP_ADDRS_SECTION (5.): the address
 * that a pointer to the function holds, and the function's record. */
struct pp_fn_addr {
	struct pp_fn *fn;
	const void *addr;
};

/* pp_fn.armed from which a function's armed clone runs. */
#define PP_FN_ARMED 2u

/* One static branch (4.), in PP_JUMPS_SECTION; each field but kind is an
 * offset from the field's own address. */
struct pp_jump {
	int32_t code;	/* the 5-byte no-op */
	int32_t target; /* the armed path it jumps to once patched */
	int32_t key;	/* what arms it: a flag byte, or pp_fn.armed */
	uint32_t kind;	/* enum pp_jump_kind */
};

enum pp_jump_kind {
	PP_JUMP_FLAG = 1, /* armed while the byte at key is not 0 */
	PP_JUMP_FN = 2,	  /* armed while the uint32_t at key is >= PP_FN_ARMED */
	PP_JUMP_CALL = 3, /* as PP_JUMP_FLAG, but the no-op becomes "call rel32" */
};

/* The instructions of a static branch (PP_JUMP_NOP, PP_JUMP_LEN, ...) are
 * an architecture's: x86-64's, the only one with static branches. */
#include "abi_x86_64.h"

#define PP_SITE_BODY 0u
#define PP_SITE_CALL(k) ((uint32_t)(k) + 1u)

#ifdef __cplusplus
extern "C" {
#endif
void __pinpoint_enter(struct pp_fn *fn, uint32_t site);
void __pinpoint_enter_at(struct pp_fn *fn, uint32_t site, uintptr_t cfa, uintptr_t ret);
void __pinpoint_exit(struct pp_fn *fn, uint32_t site);
void __pinpoint_register(struct pp_fn *begin, struct pp_fn *end);
void __pinpoint_unregister(struct pp_fn *begin, struct pp_fn *end);
void __pinpoint_register_jumps(const struct pp_jump *begin, const struct pp_jump *end);
void __pinpoint_unregister_jumps(const struct pp_jump *begin, const struct pp_jump *end);
void __pinpoint_target(struct pp_fn *fn, uint32_t site, const void *target);
void __pinpoint_register_addrs(const struct pp_fn_addr *begin, const struct pp_fn_addr *end);
void __pinpoint_unregister_addrs(const struct pp_fn_addr *begin, const struct pp_fn_addr *end);
#ifdef __cplusplus
}
#endif

#endif /* PINPOINT_ABI_H */
