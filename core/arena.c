/* SPDX-License-Identifier: MIT */
/*
 * arena.c - bump allocation and string interning for the table reader.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"

#define CHUNK_SIZE (64 * 1024)

struct pp_arena_chunk {
	struct pp_arena_chunk *next;
	size_t used, size;
	alignas(max_align_t) unsigned char data[];
};

void pp_arena_init(struct pp_arena *a)
{
	memset(a, 0, sizeof(*a));
}

void pp_arena_free(struct pp_arena *a)
{
	struct pp_arena_chunk *c, *next;

	for (c = a->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a->strs);
	memset(a, 0, sizeof(*a));
}

void *pp_arena_alloc(struct pp_arena *a, size_t size)
{
	const size_t align = alignof(max_align_t);
	struct pp_arena_chunk *c = a->chunks;
	size_t csize;
	void *p;

	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + align - 1) & ~(align - 1);
	if (!c || c->size - c->used < size) {
		csize = size > CHUNK_SIZE ? size : CHUNK_SIZE;
		c = malloc(sizeof(*c) + csize);
		if (!c)
			return NULL;
		c->size = csize;
		c->used = 0;
		/* A big allocation goes behind the current chunk so that the
		 * current one's free space is not lost. */
		if (a->chunks && csize > CHUNK_SIZE) {
			c->next = a->chunks->next;
			a->chunks->next = c;
		} else {
			c->next = a->chunks;
			a->chunks = c;
		}
	}
	p = c->data + c->used;
	c->used += size;
	return p;
}

/* FNV-1a: short strings, no adversary worth a keyed hash. */
static size_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ull;
	}
	return (size_t)h;
}

static int grow(struct pp_arena *a)
{
	size_t cap = a->capstrs ? a->capstrs * 2 : 1024, i, j;
	const char **strs;

	if (cap > SIZE_MAX / sizeof(*strs))
		return -1;
	strs = calloc(cap, sizeof(*strs));
	if (!strs)
		return -1;
	for (i = 0; i < a->capstrs; i++) {
		const char *s = a->strs[i];

		if (!s)
			continue;
		for (j = hash(s, strlen(s)) & (cap - 1); strs[j]; j = (j + 1) & (cap - 1))
			;
		strs[j] = s;
	}
	free(a->strs);
	a->strs = strs;
	a->capstrs = cap;
	return 0;
}

const char *pp_arena_intern(struct pp_arena *a, const char *s, size_t len)
{
	size_t i;
	char *copy;

	if ((a->nstrs + 1) * 2 > a->capstrs && grow(a))
		return NULL;
	for (i = hash(s, len) & (a->capstrs - 1); a->strs[i]; i = (i + 1) & (a->capstrs - 1)) {
		const char *t = a->strs[i];

		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return t;
	}
	copy = pp_arena_alloc(a, len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	a->strs[i] = copy;
	a->nstrs++;
	return copy;
}
