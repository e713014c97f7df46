// SPDX-License-Identifier: MIT
/*
 * stack.c - at exit, tell an execution still running on the exiting thread
 * from one abandoned earlier by longjmp or an exception: both left their
 * counter open.  Only when some execution is open, the exit handler unwinds
 * its own stack once; an execution is still running when a frame of the
 * probe's caller's function is on that chain at the stack position recorded
 * by its outermost enter.
 *
 * pp_stack_alive answers the same question from a probe, on the probe's own
 * thread, walking only up to the recorded position and keeping one CFA (no
 * static storage: probes run on many threads).
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

struct walk {
	uintptr_t cfa;	 /* the position looked for */
	uintptr_t ret;	 /* the return address recorded there */
	uintptr_t below; /* the probe's caller's stack pointer: frames above it only */
	uintptr_t lo;	 /* the pending frame: its stack pointer ... */
	uintptr_t ip;	 /* ... and where it is */
	unsigned n;
	int found; /* 1 alive, 0 gone, -1 not decided yet */
};

/*
 * The recorded position is the stack pointer of the probe's caller at the
 * enter probe.  While that execution lives, a frame of its function above
 * the probe's caller spans it: from the frame's stack pointer at its current
 * call up to its own CFA, the next frame's stack pointer.  (libgcc's
 * _Unwind_GetCFA gives a frame's stack pointer, its callee's CFA.)  The
 * probe's caller's own frame is not a candidate: a new execution only a
 * little deeper than a gone one may span the gone one's position.
 */
static void decide(struct walk *w, uintptr_t hi)
{
	if (w->lo > w->cfa)
		w->found = 0; /* this frame and all above it are above the position */
	else if (w->lo > w->below && w->cfa < hi && function_of(w->ip) == function_of(w->ret))
		w->found = 1;
}

static _Unwind_Reason_Code walk_one(struct _Unwind_Context *ctx, void *arg)
{
	struct walk *w = arg;
	uintptr_t sp = (uintptr_t)_Unwind_GetCFA(ctx);

	if (w->n) {
		decide(w, sp);
		if (w->found >= 0)
			return _URC_NORMAL_STOP;
	}
	if (++w->n > PP_MAX_FRAMES)
		return _URC_NORMAL_STOP;
	w->lo = sp;
	w->ip = (uintptr_t)_Unwind_GetIP(ctx);
	return _URC_NO_REASON;
}

int pp_stack_alive(uintptr_t cfa, uintptr_t ret, uintptr_t below)
{
	struct walk w = {.cfa = cfa, .ret = ret, .below = below, .found = -1};

	if (!function_of(ret))
		return -1;
	/* A complete walk always reaches frames above the position (main's
	 * callers), so one that ends undecided stopped early (no unwind
	 * information on the way): unknown. */
	_Unwind_Backtrace(walk_one, &w);
	return w.found;
}
