/* SPDX-License-Identifier: MIT */
/*
 * table.h - read the call lists the pass embedded in a build's binaries.
 *
 * A pp_program is the union of the tables of one executable and the
 * instrumented shared libraries it loads, read with libelf; no sources or
 * rebuild needed.  Functions are deduplicated: a linkonce function present in
 * several objects appears once; two static functions of the same name in
 * different files both appear (see pp_program_lookup()).
 */
#ifndef PINPOINT_TABLE_H
#define PINPOINT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "pinpoint/abi.h"

struct pp_call {
	const char *callee; /* linkage name; "" when indirect */
	const char *file; /* "" when unknown */
	uint32_t line, col;
	uint8_t kind; /* enum pp_call_kind */
};

struct pp_func {
	const char *name; /* linkage name */
	const char *file; /* source file, "" when unknown */
	uint32_t line;
	uint8_t linkage; /* enum pp_linkage */
	const char *object; /* path of the binary that holds it */
	uint32_t ncalls;
	struct pp_call *calls;
};

struct pp_program {
	size_t nfuncs;
	struct pp_func *funcs; /* sorted by name, then file */
	size_t nobjects;
	char **objects; /* binaries read, with a table */
	/* private: storage */
	void *priv;
};

/*
 * Read the table blobs held in one ELF file's PP_TABLE_SECTION and add their
 * functions to @prog.  Returns 0, -ENOENT when the file has no table,
 * -ENOEXEC when it is not ELF or the table is corrupt, -EPROTO when the table
 * has another PP_TABLE_VERSION, or another -errno from opening the file.
 * Never crashes on truncated or corrupt input.
 */
int pp_program_add_file(struct pp_program *prog, const char *path);

/* The same, from memory (used by the fuzzer): @data holds a whole section. */
int pp_program_add_section(struct pp_program *prog, const void *data, size_t size,
			   const char *object);

/*
 * Read @exe and the instrumented shared libraries it loads (as the dynamic
 * loader resolves them; libraries without a table are skipped).
 * Returns 0, or -ENOENT when none of them has a table, or another -errno.
 */
int pp_program_load(struct pp_program *prog, const char *exe);

void pp_program_init(struct pp_program *prog);
void pp_program_free(struct pp_program *prog);

/*
 * Find function @spec, "NAME" or "FILE:NAME" (FILE a suffix of the function's
 * file at a '/' boundary).  Returns the number of matches and stores up to
 * @max of them in @out.
 */
size_t pp_program_lookup(const struct pp_program *prog, const char *spec,
			 const struct pp_func **out, size_t max);

/*
 * The names closest to @name (edit distance), for "did you mean" messages.
 * Stores up to @max of them in @out and returns how many.
 */
size_t pp_program_suggest(const struct pp_program *prog, const char *name, const char **out,
			  size_t max);

/* Human name of a call's callee: the linkage name, or "<indirect>". */
const char *pp_call_name(const struct pp_call *call);

/* Demangled C++ name or @name itself; the result is valid until the next call. */
const char *pp_demangle(const char *name);

#endif /* PINPOINT_TABLE_H */
