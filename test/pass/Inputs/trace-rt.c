/* SPDX-License-Identifier: MIT */
/*
 * trace-rt.c - a test fixture standing in for the runtime in the pass's lit
 * tests: it prints what the probes report so the tests can check the
 * probes' order and arguments.  It is not the pinpoint runtime (runtime/).
 *
 *   PP_TRACE_LIST=1  print every record handed to __pinpoint_register
 *   PP_TRACE_ARM=1   arm every probe site of every record
 *   PP_TRACE_UNREGISTER=1  print each range handed to __pinpoint_unregister
 *
 * Build it without the plugin and link it into an instrumented program:
 *   clang -c -I include trace-rt.c && clang -fpass-plugin=... t.c trace-rt.o
 */
#include <stdio.h>
#include <stdlib.h>

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

/* The preserve_most thunk's way in: the probe's position must be in the
 * probed function's frame, just above its return address. */
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
