// SPDX-License-Identifier: MIT
/*
 * rt_dso.c - a hand-instrumented shared library, loaded with dlopen by
 * rt_dlopen.c: its records register late, from its own constructor.
 */
#include "unit_probes.h"

UNIT_FN(fn_dso_work, "dso_work", "test/runtime/rt_dso.c", 0);
/* 4096 probe sites: sixteen armed copies fill the runtime's site table */
UNIT_FN(fn_dso_big, "dso_big", "test/runtime/rt_dso.c", 4095);
UNIT_MODULE_CTOR()
UNIT_MODULE_DTOR()

static volatile unsigned long dso_sink;

__attribute__((visibility("default"))) void dso_work(void)
{
	UNIT_ENTER(fn_dso_work, 0);
	dso_sink++;
	UNIT_EXIT(fn_dso_work, 0);
}

__attribute__((visibility("default"))) void dso_big(void)
{
	UNIT_ENTER(fn_dso_big, 0);
	UNIT_CALL(fn_dso_big, 4094, dso_sink++);
	UNIT_EXIT(fn_dso_big, 0);
}
