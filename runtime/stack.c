// SPDX-License-Identifier: MIT
/*
 * stack.c - at exit, tell an execution still running on the exiting thread
 * from one abandoned earlier by longjmp or an exception: both left their
 * counter open.  Only when some execution is open, the exit handler unwinds
 * its own stack once; an execution is still running when a frame of the
 * probe's caller's function is on that chain at the stack position recorded
 * by its outermost enter.
 */
#include <unwind.h>

#include "rt.h"

#define PP_MAX_FRAMES 4096

struct frame {
	uintptr_t cfa;
	void *fn; /* start of the frame's function, NULL when unknown */
};

static struct frame pp_frames[PP_MAX_FRAMES];
static unsigned pp_nframes;
static bool pp_complete; /* the chain reached the end of the stack */

static void *function_of(uintptr_t ip)
{
	/* ip - 1: inside the call, even when a noreturn call ends the function */
	return ip ? _Unwind_FindEnclosingFunction((void *)(ip - 1)) : NULL;
}

static _Unwind_Reason_Code collect(struct _Unwind_Context *ctx, void *arg)
{
	(void)arg;
	if (pp_nframes == PP_MAX_FRAMES)
		return _URC_NORMAL_STOP;
	pp_frames[pp_nframes].cfa = (uintptr_t)_Unwind_GetCFA(ctx);
	pp_frames[pp_nframes].fn = function_of((uintptr_t)_Unwind_GetIP(ctx));
	pp_nframes++;
	return _URC_NO_REASON;
}

void pp_stack_snapshot(void)
{
	pp_nframes = 0;
	pp_complete = _Unwind_Backtrace(collect, NULL) == _URC_END_OF_STACK;
}

int pp_stack_live(uintptr_t cfa, uintptr_t ret)
{
	void *want = function_of(ret);

	if (!want)
		return -1;
	/*
	 * Unwinders differ on whether a frame's CFA is its own top or its
	 * callee's; the recorded position (the caller's stack pointer at the
	 * probe) lies between the neighbours' CFAs either way.
	 */
	for (unsigned i = 0; i < pp_nframes; i++) {
		uintptr_t lo = i ? pp_frames[i - 1].cfa : 0;
		uintptr_t hi = i + 1 < pp_nframes ? pp_frames[i + 1].cfa : UINTPTR_MAX;

		if (pp_frames[i].fn == want && lo <= cfa && cfa <= hi)
			return 1;
	}
	return pp_complete ? 0 : -1;
}
