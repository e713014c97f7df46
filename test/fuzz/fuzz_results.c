/* SPDX-License-Identifier: MIT */
/*
 * fuzz_results.c - libFuzzer target: any bytes as a results file.  Besides
 * "no crash, no leak", a file that parses must be complete and consistent.
 */
#include <stdint.h>

#include "core/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_results r;
	int line = -1, ret;
	size_t i;

	ret = pp_results_parse(&r, (const char *)data, size, &line);
	if (!ret && (!r.complete || line != 0 || r.version != 1))
		__builtin_trap();
	if (ret && (r.complete || line < 1))
		__builtin_trap();
	/* costs are decimals at least 0 (so not NaN) */
	if (r.has_overhead && !(r.plain_ns >= 0 && r.clock_ns >= 0 && r.bias_ns >= 0))
		__builtin_trap();
	for (i = 0; i < r.nslots; i++) {
		if (!r.slots[i].spec || r.slots[i].index != i || r.slots[i].kind > PP_SLOT_WHOLE ||
		    r.slots[i].timed > r.slots[i].count)
			__builtin_trap();
		/* targets: a known kind, a function's named, the others' at 0 */
		for (size_t k = 0; k < r.slots[i].ntargets; k++) {
			const struct pp_target_result *t = &r.slots[i].targets[k];

			if (t->kind > PP_TGT_OTHER || t->timed > t->count ||
			    (t->kind == PP_TGT_FN && !t->name) ||
			    (t->kind == PP_TGT_OTHER) != (t->addr == 0))
				__builtin_trap();
		}
	}
	pp_results_free(&r);
	return 0;
}
