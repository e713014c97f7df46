/* SPDX-License-Identifier: MIT */
/*
 * strtab.c - the string table of a module's pinpoint table.
 *
 * Every string (function and callee names, file names) is stored once,
 * NUL-terminated; offset 0 is the empty string, as abi.h requires.  A small
 * open-addressing hash keeps lookups cheap for modules with many calls.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

int pp_strtab_init(struct pp_strtab *st)
{
	memset(st, 0, sizeof(*st));
	st->cap = 4096;
	st->buf = malloc(st->cap);
	st->nslots = 1024;
	st->slots = calloc(st->nslots, sizeof(*st->slots));
	if (!st->buf || !st->slots) {
		pp_strtab_free(st);
		return -ENOMEM;
	}
	st->buf[0] = '\0';
	st->len = 1;
	return 0;
}

void pp_strtab_free(struct pp_strtab *st)
{
	free(st->buf);
	free(st->slots);
	memset(st, 0, sizeof(*st));
}

static uint32_t *find_slot(uint32_t *slots, uint32_t nslots, const char *buf, const char *s,
			   size_t len)
{
	uint32_t i = hash(s, len) & (nslots - 1);

	for (;; i = (i + 1) & (nslots - 1)) {
		uint32_t off = slots[i];

		if (!off)
			return &slots[i];
		off--;
		if (!strncmp(buf + off, s, len) && buf[off + len] == '\0')
			return &slots[i];
	}
}

static int grow_slots(struct pp_strtab *st)
{
	uint32_t n = st->nslots * 2;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < st->nslots; i++) {
		uint32_t off = st->slots[i];
		const char *s;

		if (!off)
			continue;
		s = st->buf + off - 1;
		*find_slot(slots, n, st->buf, s, strlen(s)) = off;
	}
	free(st->slots);
	st->slots = slots;
	st->nslots = n;
	return 0;
}

int pp_strtab_add(struct pp_strtab *st, const char *s, size_t len, uint32_t *off)
{
	uint32_t *slot;

	/* A name with an embedded NUL is stored up to it, like C would read it. */
	len = strnlen(s, len);
	if (!len) {
		*off = 0;
		return 0;
	}
	slot = find_slot(st->slots, st->nslots, st->buf, s, len);
	if (*slot) {
		*off = *slot - 1;
		return 0;
	}
	if (len >= UINT32_MAX / 2 - st->len)
		return -E2BIG;
	if (st->len + len + 1 > st->cap) {
		uint32_t cap = st->cap;
		char *buf;

		while (st->len + len + 1 > cap)
			cap *= 2;
		buf = realloc(st->buf, cap);
		if (!buf)
			return -ENOMEM;
		st->buf = buf;
		st->cap = cap;
	}
	*off = st->len;
	memcpy(st->buf + st->len, s, len);
	st->buf[st->len + len] = '\0';
	st->len += len + 1;
	*slot = *off + 1;
	if (++st->nstrings * 2 > st->nslots)
		return grow_slots(st);
	return 0;
}

int pp_strtab_index(struct pp_strtab *st)
{
	uint32_t off = 1, *slot;

	free(st->slots);
	st->nstrings = 0;
	st->nslots = 1024;
	while (st->nslots < st->len / 4)
		st->nslots *= 2;
	st->slots = calloc(st->nslots, sizeof(*st->slots));
	if (!st->slots)
		return -ENOMEM;
	while (off < st->len) {
		size_t len = strnlen(st->buf + off, st->len - off);

		slot = find_slot(st->slots, st->nslots, st->buf, st->buf + off, len);
		/* A string stored twice is found at its first offset. */
		if (!*slot && len) {
			*slot = off + 1;
			if (++st->nstrings * 2 > st->nslots && grow_slots(st))
				return -ENOMEM;
		}
		off += (uint32_t)len + 1;
	}
	return 0;
}

int pp_strtab_find(const struct pp_strtab *st, const char *s, size_t len, uint32_t *off)
{
	uint32_t *slot;

	len = strnlen(s, len);
	*off = 0;
	if (!len)
		return 0;
	slot = find_slot(st->slots, st->nslots, st->buf, s, len);
	if (!*slot)
		return -ENOENT;
	*off = *slot - 1;
	return 0;
}
