/* SPDX-License-Identifier: MIT */
/*
 * blob.h - the table blob's format (abi.h, 1.; doc/formats.md): the one
 * decoder, and the one statement of the rules a blob obeys.
 *
 * The pass decodes with it what it wrote (pass/table.c: the early phase's
 * blob read back by the late phase, and the late phase's own blob checked
 * function by function before it is emitted); the readers (core/table.c)
 * decode the sections of binaries with it.  Nothing here allocates or
 * needs more than libc: the plugin compiles this file in as it is.
 *
 * The blob is untrusted input: every count, offset and string is checked
 * against it before use, each in constant time: the string table ends with
 * a NUL, and a string is named by its start, never from inside another (so
 * the strings a blob names do not overlap).  What is wrong with the header
 * or the layout of the regions makes the blob unreadable; what is wrong
 * with one function's records is that function's alone (pp_blob_func(),
 * pp_blob_calls()), and a reader can skip it and keep the rest.
 */
#ifndef PINPOINT_BLOB_H
#define PINPOINT_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pinpoint/abi.h"

/* One blob: where it is and what its header says. */
struct pp_blob {
	const uint8_t *p;
	uint32_t version, call_size; /* a call record's size in this version */
	uint32_t size, nfuncs, ncalls, funcs_off, calls_off, strtab_off, strtab_size;
	uint32_t module, producer; /* strtab offsets, checked */
};

/* A function record, its strings as strtab offsets (checked). */
struct pp_blob_func {
	uint32_t name, file, line, first_call, ncalls;
	uint8_t linkage, flags;
};

/* A call record, its strings as strtab offsets (checked). */
struct pp_blob_call {
	uint32_t callee, file, line, col, via;
	uint32_t callback; /* 0 (""): none, and in versions before 4 */
	uint8_t kind, fate;
};

/*
 * The header of the blob at @p (@avail bytes from there to the end of the
 * section), and the regions it names.  Returns 0; -EPROTO when the version
 * is not one of PP_TABLE_VERSION_MIN..PP_TABLE_VERSION; -ENOEXEC when the
 * header or the layout is corrupt (a string table starts with the empty
 * string and ends with a NUL).  On failure @why (@len bytes) says
 * what was wrong, without the file or the offset.
 */
int pp_blob_open(struct pp_blob *b, const void *p, size_t avail, char *why, size_t len);

/*
 * String @off of the blob's string table (which pp_blob_open() checked ends
 * with a NUL); NULL when it is outside the table or does not start a string
 * (offset 0, or right after a NUL).  Constant time.
 */
const char *pp_blob_str(const struct pp_blob *b, uint32_t off);

/*
 * Function record @i (< b->nfuncs), checked on its own: its strings, a
 * name, its linkage and flags, its calls inside the blob's.  0, or
 * -ENOEXEC with @why.
 */
int pp_blob_func(const struct pp_blob *b, uint32_t i, struct pp_blob_func *f, char *why,
		 size_t len);

/*
 * Call record @i (< b->ncalls) of the blob, checked on its own: kind, fate,
 * strings, a direct call's callee.  An indirect call's callee reads as 0
 * (""), whatever the record holds.  0, or -ENOEXEC with @why.
 */
int pp_blob_call(const struct pp_blob *b, uint32_t i, struct pp_blob_call *c, char *why,
		 size_t len);

/* Whether a call of kind @kind is direct (has a named callee). */
static inline bool pp_blob_kind_direct(uint8_t kind)
{
	return kind == PP_CALL_DIRECT || kind == PP_CALL_INVOKE;
}

/*
 * The calls of function @f (read with pp_blob_func()) into
 * @calls[0..f->ncalls), each checked on its own (pp_blob_call()) and with
 * the rules that take the calls before it or the function: its `via` is 0
 * or k' + 1 for a direct call k' before it; a timed call needs an emitted
 * function.  With @dropped, a call whose via breaks the rule loses its via
 * (it reads as 0) instead of failing, and *@dropped counts them: the pass
 * reads its own blob so, where the optimiser can leave a via wrong.  0, or
 * -ENOEXEC with @why naming the call by its index in the function
 * (*@dropped then counts the calls before it).
 */
int pp_blob_calls(const struct pp_blob *b, const struct pp_blob_func *f, struct pp_blob_call *calls,
		  uint32_t *dropped, char *why, size_t len);

#endif /* PINPOINT_BLOB_H */
