/* SPDX-License-Identifier: MIT */
/*
 * arena.h - bump allocation and string interning for the table reader.
 *
 * A program's tables hold many copies of the same strings (file names,
 * callee names); interning keeps one copy of each, and the arena frees them
 * all at once with the program.
 */
#ifndef PINPOINT_ARENA_H
#define PINPOINT_ARENA_H

#include <stddef.h>

struct pp_arena_chunk;

struct pp_arena {
	struct pp_arena_chunk *chunks;
	const char **strs; /* open-addressing set of interned strings */
	size_t nstrs, capstrs;
};

void pp_arena_init(struct pp_arena *a);
void pp_arena_free(struct pp_arena *a);
/* @size bytes aligned for any object, or NULL when out of memory. */
void *pp_arena_alloc(struct pp_arena *a, size_t size);
/* The interned copy of the first @len bytes of @s (plus a NUL), or NULL. */
const char *pp_arena_intern(struct pp_arena *a, const char *s, size_t len);

#endif /* PINPOINT_ARENA_H */
