// SPDX-License-Identifier: MIT
/*
 * vsave.c - what the general path of the r11 entry points (probe_x86_64.S)
 * needs to keep the vector and x87 state of the code a probe interrupted:
 * the size of the stack area and whether XSAVE or FXSAVE fills it.
 */
#include <cpuid.h>

#include "arch.h"
#include "layout.h"

/* FXSAVE's 512 bytes (the x87 and SSE state) until pp_arch_vsave_init() knows
 * better. */
uint64_t pp_vsave_size = 512;
bool pp_vsave_xsave;

/*
 * The XSAVE area of the components PP_XSAVE_MASK names that the system
 * enabled (XCR0): x87, SSE, AVX, the AVX-512 mask and upper registers; not
 * AMX's 8 KiB of tiles, which no code interrupted by a probe holds across a
 * call.  Without OSXSAVE, FXSAVE's 512 bytes cover x87 and SSE, all there is.
 */
void pp_arch_vsave_init(void)
{
	unsigned a, b, c, d, lo, hi;
	uint64_t size = 576, mask; /* legacy area and XSAVE header */

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || __get_cpuid_max(0, NULL) < 0xd)
		return;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	mask = (((uint64_t)hi << 32) | lo) & PP_XSAVE_MASK;
	for (unsigned i = 2; i < 64; i++) {
		if (!(mask & (1ull << i)))
			continue;
		__cpuid_count(0xd, i, a, b, c, d);
		if ((uint64_t)a + b > size)
			size = (uint64_t)a + b;
	}
	pp_vsave_size = (size + 63) & ~(uint64_t)63;
	pp_vsave_xsave = true;
}
