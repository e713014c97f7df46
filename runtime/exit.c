// SPDX-License-Identifier: MIT
/*
 * exit.c - the end of a measured process: the exit handler, and stop=N's
 * early end from the exit probe that reached it (probe.c).  Both collect
 * the threads' counters (thread.c) and write the results (output.c).
 * Only the process that initialised the runtime writes: a forked child
 * writes nothing, and is not stopped.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"

static int pp_forked;

void pp_atfork_child(void)
{
	pp_forked = 1;
}

void pp_atexit(void)
{
	static int done;
	uint64_t now = pp_ticks();
	char where[PATH_MAX];
	int ret;

	if (pp_state != PP_ARMED || pp_forked || (int)getpid() != pp_init_pid)
		return;
	if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;
	pp_thread_collect(now);
	ret = pp_output_write(pp_spec.out, pp_clock_ticks_per_ns(), where, sizeof(where));
	if (ret)
		pp_err("cannot write results to %s: %s", pp_spec.out, strerror(-ret));
	else if (strcmp(where, pp_spec.out))
		pp_err("%s exists (another process wrote it); results written to %s", pp_spec.out,
		       where);
}

void pp_stop(void)
{
	if (pp_forked || (int)getpid() != pp_init_pid)
		return;
	pp_atexit();
	_exit(0);
}
