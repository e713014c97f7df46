/* SPDX-License-Identifier: MIT */
/*
 * fuzz_table.c - libFuzzer target: any bytes as a table section.  Besides
 * "no crash, no leak", it checks what a parsed table promises: functions
 * sorted and found by name, and adding the same section again adds nothing.
 */
#include <stdint.h>
#include <string.h>

#include "core/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pp_prog_fn *m[4];
	const char *sugg[4];
	struct pp_program p;
	size_t i, nfuncs;
	int ret;

	pp_program_init(&p);
	ret = pp_program_add_section(&p, data, size, "fuzz");
	if (ret) {
		pp_program_warnings(&p, &i);
		if (!pp_program_error(&p)[0] || p.nfuncs || p.nobjects || i)
			__builtin_trap();
		goto out;
	}
	for (i = 0; i < p.nfuncs; i++) {
		const struct pp_prog_fn *f = &p.funcs[i];
		uint32_t k;

		if (i && strcmp(p.funcs[i - 1].name, f->name) > 0)
			__builtin_trap();
		if (i < 64 && pp_program_lookup(&p, f->name, m, 4) == 0)
			__builtin_trap();
		for (k = 0; k < f->ncalls; k++) {
			uint32_t via = f->calls[k].via;

			if (pp_program_resolve(&p, f, &f->calls[k]) && !f->calls[k].callee[0])
				__builtin_trap();
			/* A kept function's calls obey the rules (core/blob.h). */
			if (via && (via > k || !f->calls[via - 1].callee[0]))
				__builtin_trap();
		}
	}
	pp_program_suggest(&p, "main", sugg, 4);
	nfuncs = p.nfuncs;
	if (pp_program_add_section(&p, data, size, "again") || p.nfuncs != nfuncs)
		__builtin_trap();
out:
	pp_program_free(&p);
	return 0;
}
