// SPDX-License-Identifier: MIT
/*
 * ticks.c - x86-64's tick clock: the TSC, read with one rdtsc per probe
 * (arch_defs.h), when it is invariant, i.e. runs at a constant rate
 * whatever the core's frequency and sleep states.
 */
#include <cpuid.h>

#include "arch.h"

bool pp_arch_ticks_usable(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return false;
	if (!__get_cpuid(0x80000007u, &a, &b, &c, &d))
		return false;
	return d & (1u << 8);
}
