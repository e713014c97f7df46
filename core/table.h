/* SPDX-License-Identifier: MIT */
/*
 * table.h - read the call lists the pass embedded in a build's binaries.
 *
 * A pp_program is the union of the tables of one executable and the
 * instrumented shared libraries it loads, read with libelf; no sources or
 * rebuild needed.  Functions are deduplicated: a linkonce function present in
 * several objects appears once; two static functions of the same name in
 * different files both appear (see pp_program_lookup()); of several copies,
 * one with a body (PP_FUNC_EMITTED) is kept.  Tables of PP_TABLE_VERSION_MIN
 * to PP_TABLE_VERSION are read (version 1 had no fates: rebuild; version 2
 * has no calls of inlined code).
 */
#ifndef PINPOINT_TABLE_H
#define PINPOINT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pinpoint/abi.h"

struct pp_prog_call {
	const char *callee; /* linkage name; "" when indirect */
	const char *file;   /* "" when unknown */
	uint32_t line, col;
	uint8_t kind; /* enum pp_call_kind */
	/* enum pp_call_fate: only a PP_FATE_TIMED call has probes and can be
	 * measured; PP_FATE_INLINED: inlined at file:line:col. */
	uint8_t fate;
	/* 0: a call of the function's own source; k + 1: a call of code that
	 * the optimiser inlined at the function's call k (before it), and
	 * file:line:col is in the inlined function's source (abi.h) */
	uint32_t via;
	/* a function the call passes as an argument, which its callee may call
	 * back (qsort's comparator), by linkage name; "" none (abi.h) */
	const char *callback;
};

struct pp_prog_fn {
	const char *name; /* linkage name */
	const char *file; /* source file, "" when unknown */
	uint32_t line;
	uint8_t linkage;    /* enum pp_linkage */
	uint8_t flags;	    /* PP_FUNC_*: without PP_FUNC_EMITTED no probes */
	const char *object; /* path of the binary that holds it */
	uint32_t ncalls;
	struct pp_prog_call *calls;
	const char *module; /* the module (source file) whose blob held it */
};

struct pp_program {
	size_t nfuncs;
	struct pp_prog_fn *funcs; /* sorted by name, then file */
	size_t nobjects;
	char **objects; /* binaries read, with a table */
	/* private: storage */
	void *priv;
};

/*
 * Read the table blobs held in one ELF file's PP_TABLE_SECTION and add their
 * functions to @prog.  Returns 0, -ENOENT when the file has no table,
 * -ENOEXEC when it is not ELF or the table is corrupt, -EPROTO when the table
 * has another PP_TABLE_VERSION, -EFBIG when its section is compressed and
 * claims to expand more than a table does (elfload.c: 64 times its size,
 * 1 GiB at most), or another -errno from opening the file.  Never crashes
 * on truncated or corrupt input.
 */
int pp_program_add_file(struct pp_program *prog, const char *path);

/* The same, from memory (used by the fuzzer): @data holds a whole section. */
int pp_program_add_section(struct pp_program *prog, const void *data, size_t size,
			   const char *object);

/*
 * A section is added completely or not at all: a blob whose header or layout
 * is corrupt fails the whole section.  A bad record in one function (a
 * string outside the table, a call that came through no inlined call before
 * it, ...) only skips that function, with one warning naming it
 * (pp_program_warnings()); the rest is added.
 *
 * After a failure,
 * pp_program_error() says what was wrong and where, in one line naming the
 * file ("prog: pinpoint table version 2 at offset 0, ..."); pp_table_strerror()
 * gives the general reason of an error code (for -ENOENT: how to build with
 * the plugin).
 */
const char *pp_program_error(const struct pp_program *prog);

/*
 * One line for each function skipped so far ("prog: pinpoint table at
 * offset 0: function f skipped: its calls end past the blob's 3 calls"),
 * in the order read; *@n of them.  They live as long as @prog.
 */
const char *const *pp_program_warnings(const struct pp_program *prog, size_t *n);

/*
 * Prints the warnings from number @from on to @out, "@who: warning: ...",
 * the first PP_WARNINGS_SHOWN of them and then how many more; returns the
 * number of warnings, the @from of the next call.
 */
#define PP_WARNINGS_SHOWN 5
size_t pp_program_print_warnings(const struct pp_program *prog, size_t from, const char *who,
				 FILE *out);
const char *pp_table_strerror(int err);

/*
 * Read @exe and the instrumented shared libraries it loads (libraries without
 * a table are skipped).  The libraries are found from the ELF files alone,
 * as the dynamic loader would find them (deps.h): nothing is run, not even
 * @exe's PT_INTERP.  Returns 0, or -ENOENT when none of them has a table, or
 * another -errno.
 */
int pp_program_load(struct pp_program *prog, const char *exe);

void pp_program_init(struct pp_program *prog);
void pp_program_free(struct pp_program *prog);

/*
 * Find function @spec, "NAME" or "FILE:NAME" (FILE a suffix of the function's
 * file at a '/' boundary).  Returns the number of matches and stores up to
 * @max of them in @out.
 *
 * NAME is tried as a linkage name, then as a demangled name ("ns::f(int)"),
 * then as a demangled name without its parameters ("ns::f", which can match
 * several overloads); the first of these that matches wins.  FILE is split
 * off at the first ':' that is not part of "::".
 */
size_t pp_program_lookup(const struct pp_program *prog, const char *spec,
			 const struct pp_prog_fn **out, size_t max);

/*
 * The names closest to @name (edit distance), for "did you mean" messages.
 * Stores up to @max of them in @out and returns how many.  Names containing
 * @name, or contained in it, come first; then names within an edit distance
 * of a third of @name's length.  C++ names are given demangled, in a form
 * pp_program_lookup() accepts; the strings live at least as long as
 * @prog.
 */
size_t pp_program_suggest(const struct pp_program *prog, const char *name, const char **out,
			  size_t max);

/*
 * pp_program_suggest() for the NAME of [FILE:]NAME @spec, at most @max
 * names joined with ", " into @buf.  Returns how many.
 */
size_t pp_program_suggest_list(const struct pp_program *prog, const char *spec, size_t max,
			       char *buf, size_t len);

/*
 * Matches @m[0..@n) of one spec as the [FILE:]NAME a user gives to pick
 * one: FILE the shortest suffix of its file that tells it from the others
 * (none when all share a file), NAME demangled unless that is ambiguous too;
 * joined with ", " into @buf.
 */
void pp_program_candidates(const struct pp_prog_fn *const *m, size_t n, char *buf, size_t len);

/*
 * The function a call of @caller reaches, or NULL when it has no table
 * (external) or is indirect.  When several functions have the callee's name
 * (static functions of different files), the one of @caller's module and
 * object wins, then a non-static one, then one of @caller's file.
 */
const struct pp_prog_fn *pp_program_resolve(const struct pp_program *prog,
					    const struct pp_prog_fn *caller,
					    const struct pp_prog_call *call);

/* Human name of a call's callee: the linkage name, or "<indirect>". */
const char *pp_prog_call_name(const struct pp_prog_call *call);

/*
 * Call @k of @fn as reports name it: its callee demangled, after the calls
 * it was inlined through, "(inlined SHA512_Pad) → SHA512_Transform" (the
 * outermost first).  malloc'ed; NULL without memory.
 */
char *pp_prog_call_label(const struct pp_prog_fn *fn, uint32_t k);
/* The same, each function named as @nm names it (names.h; NULL: demangled). */
struct pp_names;
char *pp_prog_call_label_named(const struct pp_prog_fn *fn, uint32_t k, struct pp_names *nm);

/*
 * The calls that call @k of @fn came through, the outermost first, into
 * @out (up to @max); returns how many there are.
 */
uint32_t pp_prog_call_chain(const struct pp_prog_fn *fn, uint32_t k, uint32_t *out, uint32_t max);

/*
 * Demangled C++ name or @name itself.  Demangled names are kept for the life
 * of the process: several results can be used at once, from any thread.
 */
const char *pp_demangle(const char *name);

#endif /* PINPOINT_TABLE_H */
