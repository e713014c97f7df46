/* SPDX-License-Identifier: MIT */
/*
 * fuzz_elf.c - libFuzzer target: any bytes as an ELF file holding a table
 * (pp_program_add_file(), libelf and elfload.c: compressed sections too).
 * Besides "no crash, no leak", what fuzz_table checks of a section: an
 * error leaves the program empty and explains itself, a table read is
 * sorted.  No input may make the reader allocate more than 64 times its
 * size for a compressed section (-malloc_limit_mb catches it).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;
	struct pp_program p;
	size_t i, n;
	int ret;

	if (fd < 0) {
		fd = memfd_create("fuzz_elf", MFD_CLOEXEC);
		if (fd < 0)
			__builtin_trap();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		__builtin_trap();
	pp_program_init(&p);
	ret = pp_program_add_file(&p, path);
	if (ret) {
		pp_program_warnings(&p, &n);
		if (!pp_program_error(&p)[0] || p.nfuncs || p.nobjects || n)
			__builtin_trap();
	}
	for (i = 1; i < p.nfuncs; i++)
		if (strcmp(p.funcs[i - 1].name, p.funcs[i].name) > 0)
			__builtin_trap();
	pp_program_free(&p);
	return 0;
}
