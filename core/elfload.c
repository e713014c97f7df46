/* SPDX-License-Identifier: MIT */
/*
 * elfload.c - read the table sections of ELF files (walked by elfsec.c), for an
 * executable and the shared libraries it loads (found by deps.c from the ELF
 * files alone: nothing is run).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/deps.h"
#include "core/elfsec.h"
#include "core/table_priv.h"

/*
 * The most a compressed table section may expand to: PP_TABLE_ZRATIO times
 * its size in the file, PP_TABLE_ZMAX at most.  libelf allocates the
 * compression header's ch_size before it inflates anything, and checks it
 * only against zlib's limit, 1032:1 (a 1 MB file could take 1 GB; zstd's,
 * some 32000:1, not at all).  A real table compresses 6 times with zlib -9,
 * 8 with zstd -19 (pinpoint's own modules); more only with zstd over many
 * near-identical C++ blobs.  And the section is allocated (SHF_ALLOC),
 * which linkers do not compress and libelf does not decompress: a
 * compressed one is made by hand.  So the bound costs no real table, and a
 * file can make the reader hold 64 times its size at most.
 */
#define PP_TABLE_ZRATIO 64
#define PP_TABLE_ZMAX (1ull << 30)

/*
 * A walk over one file's table sections.  Their contents are gathered
 * first and read together at the end, so that a file adds all its tables
 * or none: a bad second section, or a bad section header after a good
 * section, leaves the program as it was.  The pieces point into libelf's
 * memory, valid until the file is closed.
 */
struct piece {
	const void *data;
	size_t size;
	bool last; /* of its section: padded after it */
};

struct walk {
	struct pp_program *prog;
	const char *path;
	int found;
	struct piece *pieces;
	size_t npieces, cap;
};

/* Keep @size bytes at @data, the @last piece of its section or not. */
static int keep(struct walk *w, const void *data, size_t size, bool last)
{
	if (w->npieces == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 4;
		struct piece *p = realloc(w->pieces, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->pieces = p;
		w->cap = cap;
	}
	w->pieces[w->npieces++] = (struct piece){data ? data : "", size, last};
	return 0;
}

/* How many zeros follow piece @p when the pieces are joined. */
static size_t pad_after(const struct piece *p)
{
	return p->last ? (PP_TABLE_ALIGN - p->size % PP_TABLE_ALIGN) % PP_TABLE_ALIGN : 0;
}

/*
 * The gathered sections into the program, at once: one piece as it is,
 * several joined, a section's pieces as they follow one another and each
 * section padded with zeros to PP_TABLE_ALIGN as a linker would place them
 * (the reader skips the padding).
 */
static int add_pieces(struct walk *w)
{
	static const unsigned char zero[PP_TABLE_ALIGN];
	unsigned char *buf;
	size_t i, size = 0, at = 0;
	int ret;

	if (w->npieces == 1)
		return pp_program_add_section(w->prog, w->pieces[0].data, w->pieces[0].size,
					      w->path);
	for (i = 0; i < w->npieces; i++) {
		size_t n = w->pieces[i].size + pad_after(&w->pieces[i]);

		if (n < w->pieces[i].size || n > SIZE_MAX - size)
			return -ENOMEM;
		size += n;
	}
	buf = malloc(size ? size : 1);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < w->npieces; i++) {
		size_t n = w->pieces[i].size;

		if (n)
			memcpy(buf + at, w->pieces[i].data, n);
		at += n;
		memcpy(buf + at, zero, pad_after(&w->pieces[i]));
		at += pad_after(&w->pieces[i]);
	}
	ret = pp_program_add_section(w->prog, buf, size, w->path);
	free(buf);
	return ret;
}

/*
 * Refuse compressed section @scn (header @sh) when its compression header
 * claims more than the bound above: before libelf allocates that much.
 * 0, or -EFBIG / -ENOEXEC with @e->why.
 */
static int check_bound(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	uint64_t bound;
	GElf_Chdr ch;

	/* Read from the file: sh_size is within it from here on. */
	if (!gelf_getchdr(scn, &ch))
		return pp_elf_bad(e, "compression header of " PP_TABLE_SECTION);
	bound = sh->sh_size > PP_TABLE_ZMAX / PP_TABLE_ZRATIO ? PP_TABLE_ZMAX
							      : sh->sh_size * PP_TABLE_ZRATIO;
	if (ch.ch_size > bound) {
		snprintf(e->why, sizeof(e->why),
			 "compressed %s of %llu bytes claims %llu, more than %llu "
			 "(%u times its size, 1 GiB at most): refused",
			 PP_TABLE_SECTION, (unsigned long long)sh->sh_size,
			 (unsigned long long)ch.ch_size, (unsigned long long)bound,
			 PP_TABLE_ZRATIO);
		return -EFBIG;
	}
	return 0;
}

/* Section @scn (PP_TABLE_SECTION) of @e: its blobs into the program. */
static int add_scn(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	struct walk *w = arg;
	Elf_Data *data, *next;
	int ret;

	w->found = 1;
	if (sh->sh_type == SHT_NOBITS) {
		pp_program_set_error(w->prog,
				     "%s: corrupt pinpoint table: section %s has no contents",
				     w->path, PP_TABLE_SECTION);
		return -ENOEXEC;
	}
	if (sh->sh_flags & SHF_COMPRESSED) {
		ret = check_bound(e, scn, sh);
		if (ret)
			return ret;
		if (elf_compress(scn, 0, 0) < 0)
			return pp_elf_bad(e, "cannot decompress " PP_TABLE_SECTION);
	}
	data = elf_getdata(scn, NULL);
	if (!data) {
		if (elf_errno() || sh->sh_size)
			return pp_elf_bad(e, "cannot read " PP_TABLE_SECTION);
		return keep(w, "", 0, true);
	}
	/* several pieces are not seen in files read from disk: kept one by one */
	for (; data; data = next) {
		next = elf_getdata(scn, data);
		ret = keep(w, data->d_buf, data->d_size, !next);
		if (ret)
			return ret;
	}
	return 0;
}

int pp_program_add_file(struct pp_program *prog, const char *path)
{
	struct walk w = {.prog = prog, .path = path};
	struct pp_elf e;
	int ret;

	ret = pp_elf_open(&e, path);
	if (!ret)
		ret = pp_elf_sections(&e, PP_TABLE_SECTION, SHT_NULL, add_scn, &w);
	if (!ret && w.npieces)
		ret = add_pieces(&w);
	free(w.pieces);
	if (e.why[0])
		pp_program_set_error(prog, "%s: %s", path, e.why);
	else if (ret == -ENOMEM)
		pp_program_set_error(prog, "%s: out of memory", path);
	else if (!ret && !w.found) {
		pp_program_set_error(prog, "%s: %s", path, pp_table_strerror(-ENOENT));
		ret = -ENOENT;
	}
	pp_elf_close(&e);
	return ret;
}

struct load {
	struct pp_program *prog;
	int have; /* some file had a table */
};

static int add_dep(const char *path, void *arg)
{
	struct load *l = arg;
	int ret = pp_program_add_file(l->prog, path);

	if (!ret)
		l->have = 1;
	return ret == -ENOENT ? 0 : ret;
}

int pp_program_load(struct pp_program *prog, const char *exe)
{
	struct load l = {prog, 0};
	int ret;

	ret = pp_program_add_file(prog, exe);
	if (ret && (ret != -ENOENT || access(exe, R_OK)))
		return ret;
	l.have = !ret;
	ret = pp_deps_each(exe, add_dep, &l);
	if (ret && ret != -ENOEXEC && ret != -ENOENT)
		return ret;
	if (!l.have) {
		pp_program_set_error(prog, "%s: %s", exe, pp_table_strerror(-ENOENT));
		return -ENOENT;
	}
	return 0;
}
