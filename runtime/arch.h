/* SPDX-License-Identifier: MIT */
/*
 * arch.h - what the runtime needs of the processor it runs on.
 *
 * Each architecture implements it in a directory of its own,
 * runtime/arch/<arch>/: x86-64 in arch/x86_64, every other one with the
 * fallback of arch/generic.  runtime/CMakeLists.txt picks the directory
 * from CMAKE_SYSTEM_PROCESSOR, compiles its files and puts it on the
 * include path, where its arch_defs.h holds what must be inline or
 * constant:
 *
 *   PP_ARCH_TICKS        1 when the architecture has a tick clock cheaper
 *                        than CLOCK_MONOTONIC (x86-64: the TSC), else 0
 *   PP_ARCH_TICKS_NAME   its name in the results file (doc/formats.md)
 *   pp_arch_ticks()      one read of it, on the probes' hot path
 *   PP_ARCH_FAST_PATHS   1 when the architecture has assembly entry points
 *                        that instrumented code calls besides probe.c's
 *                        (x86-64: the preserve_most and r11 entry points of
 *                        abi.h, 3., in probe_x86_64.S), else 0
 *
 * The fallback has no tick clock (CLOCK_MONOTONIC times every probe), no
 * fast paths, no static branches (the pass plants them on x86-64 only;
 * elsewhere every probe is a check of its flag) and no vector state to
 * keep.
 */
#ifndef PINPOINT_ARCH_H
#define PINPOINT_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "arch_defs.h"
#include "pinpoint/abi.h"

#pragma GCC visibility push(hidden)

/* Whether the tick clock can time probes on this CPU (x86-64: the TSC is
 * invariant).  Called once, at initialisation. */
bool pp_arch_ticks_usable(void);

/*
 * Static branches (abi.h, 4.): the PP_JUMP_LEN bytes of the instruction
 * that replaces the no-op at @code once its site is armed, a jump to
 * @target (a call of it, with @call), written to @insn.  Returns 0, -ERANGE
 * when @target is out of the instruction's reach, or -EOPNOTSUPP where the
 * architecture has no static branches.  jumps.c writes the bytes.
 */
int pp_arch_branch(uint8_t insn[PP_JUMP_LEN], const uint8_t *code, const uint8_t *target,
		   bool call);
/* Whether the PP_JUMP_LEN bytes at @code are one of the no-ops a static
 * branch starts as: anything else is not patched. */
bool pp_arch_branch_unpatched(const uint8_t *code);

/* Learn what the fast paths need to keep the vector state of the code a
 * probe interrupted (x86-64: the XSAVE area's size); before any probe
 * can run. */
void pp_arch_vsave_init(void);

/*
 * The loops calib.c times: @n executions of an enter and an exit probe of
 * site PP_CALIB_SITE of pp_calib_fn (rt.h), called as an armed call's
 * probes call the runtime in an executable (x86-64: a sled's call of a
 * thunk that jumps to the r11 entry points; elsewhere a check of the flag
 * and a call of __pinpoint_enter or __pinpoint_exit); and the same loop
 * with the probes unarmed.
 */
void pp_arch_calib_probes(unsigned n);
void pp_arch_calib_plain(unsigned n);

#pragma GCC visibility pop

#endif /* PINPOINT_ARCH_H */
