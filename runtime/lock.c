// SPDX-License-Identifier: MIT
/*
 * lock.c - the lock of registration: __pinpoint_register and its undoing
 * (arm.c), the static branches (jumps.c) and the functions' addresses
 * (target.c) change shared tables under it.  The probes never take it.
 */
#include <sched.h>

#include "rt.h"

static char pp_lock_word;

/* Registration is rare and short: a spin lock that yields will do. */
void pp_lock(void)
{
	while (__atomic_test_and_set(&pp_lock_word, __ATOMIC_ACQUIRE))
		sched_yield();
}

void pp_unlock(void)
{
	__atomic_clear(&pp_lock_word, __ATOMIC_RELEASE);
}
