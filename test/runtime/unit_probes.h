/* SPDX-License-Identifier: MIT */
/*
 * unit_probes.h - hand-made instrumentation for the runtime's unit tests:
 * the pp_fn records, flags and probes the pass would plant, written as
 * macros, so the runtime is tested without the plugin.
 */
#ifndef PP_TEST_UNIT_PROBES_H
#define PP_TEST_UNIT_PROBES_H

#include <stdint.h>

#include "pinpoint/abi.h"

/* One record in the pinpoint_fns section, as the pass plants it. */
#define UNIT_FN(var, name, file, ncalls)                                                           \
	static uint8_t var##_flags[(ncalls) + 1];                                                  \
	static struct pp_fn var                                                                    \
	    __attribute__((section(PP_FNS_SECTION), used)) = {var##_flags, name, file, ncalls, 0}

#define UNIT_ENTER(var, site)                                                                      \
	do {                                                                                       \
		if (__builtin_expect(var##_flags[site], 0))                                        \
			__pinpoint_enter(&var, site);                                              \
	} while (0)
#define UNIT_EXIT(var, site)                                                                       \
	do {                                                                                       \
		if (__builtin_expect(var##_flags[site], 0))                                        \
			__pinpoint_exit(&var, site);                                               \
	} while (0)

/* Call k of a function: probe site k + 1 around the statement. */
#define UNIT_CALL(var, k, stmt)                                                                    \
	do {                                                                                       \
		UNIT_ENTER(var, PP_SITE_CALL(k));                                                  \
		stmt;                                                                              \
		UNIT_EXIT(var, PP_SITE_CALL(k));                                                   \
	} while (0)

/*
 * The same probes as an armed call's in an executable calls them on x86-64
 * (abi.h, 3.): the record in r11 (the exit's PP_EXIT_BIAS past it), the
 * site in r10d, a call of the r11 entry point through the GOT; the path
 * the runtime calibrates (runtime/calib.c).  The program is compiled with
 * -mno-red-zone, so that the call cannot land on a leaf function's data.
 * Elsewhere (UNIT_R11 0), the C entry points.
 */
#if defined(__x86_64__) && defined(UNIT_R11) && UNIT_R11
#define UNIT_R11_CALL(fn, rec, site)                                                               \
	__asm__ volatile("leaq %c0(%%rip), %%r11\n\tmovl %1, %%r10d\n\tcall *" fn                  \
			 "@GOTPCREL(%%rip)"                                                        \
			 :                                                                         \
			 : "i"(rec), "i"(site)                                                     \
			 : "r10", "r11", "memory", "cc")
#define UNIT_ENTER_R11(var, site)                                                                  \
	do {                                                                                       \
		if (__builtin_expect(var##_flags[site], 0))                                        \
			UNIT_R11_CALL(PP_ENTER_R11_FN, &var, site);                                \
	} while (0)
#define UNIT_EXIT_R11(var, site)                                                                   \
	do {                                                                                       \
		if (__builtin_expect(var##_flags[site], 0))                                        \
			UNIT_R11_CALL(PP_EXIT_R11_FN, (char *)&var + PP_EXIT_BIAS, site);          \
	} while (0)
#else
#define UNIT_ENTER_R11(var, site) UNIT_ENTER(var, site)
#define UNIT_EXIT_R11(var, site) UNIT_EXIT(var, site)
#endif
#define UNIT_CALL_R11(var, k, stmt)                                                                \
	do {                                                                                       \
		UNIT_ENTER_R11(var, PP_SITE_CALL(k));                                              \
		stmt;                                                                              \
		UNIT_EXIT_R11(var, PP_SITE_CALL(k));                                               \
	} while (0)

/* The module constructor. */
#define UNIT_MODULE_CTOR()                                                                         \
	extern struct pp_fn __start_pinpoint_fns[], __stop_pinpoint_fns[];                         \
	__attribute__((constructor)) static void pp_module_ctor(void)                              \
	{                                                                                          \
		__pinpoint_register(__start_pinpoint_fns, __stop_pinpoint_fns);                    \
	}

/* The module destructor: gives the records' sites back at dlclose. */
#define UNIT_MODULE_DTOR()                                                                         \
	__attribute__((destructor)) static void pp_module_dtor(void)                               \
	{                                                                                          \
		__pinpoint_unregister(__start_pinpoint_fns, __stop_pinpoint_fns);                  \
	}

#endif /* PP_TEST_UNIT_PROBES_H */
