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
