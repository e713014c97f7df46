/* SPDX-License-Identifier: MIT */
/*
 * elfload.c - read the table sections of ELF files (walked by elfsec.c), for an
 * executable and the shared libraries it loads (found by deps.c from the ELF
 * files alone: nothing is run).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/deps.h"
#include "core/elfsec.h"
#include "core/table_priv.h"

/* A walk over one file's table sections. */
struct walk {
	struct pp_program *prog;
	const char *path;
	int found;
};

/* Section @scn (PP_TABLE_SECTION) of @e: its blobs into the program. */
static int add_scn(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	struct walk *w = arg;
	Elf_Data *data, *more;
	unsigned char *buf = NULL;
	size_t size = 0;
	int ret;

	w->found = 1;
	if (sh->sh_type == SHT_NOBITS) {
		pp_program_set_error(w->prog,
				     "%s: corrupt pinpoint table: section %s has no contents",
				     w->path, PP_TABLE_SECTION);
		return -ENOEXEC;
	}
	if ((sh->sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return pp_elf_bad(e, "cannot decompress " PP_TABLE_SECTION);
	data = elf_getdata(scn, NULL);
	if (!data) {
		if (elf_errno() || sh->sh_size)
			return pp_elf_bad(e, "cannot read " PP_TABLE_SECTION);
		return pp_program_add_section(w->prog, "", 0, w->path);
	}
	more = elf_getdata(scn, data);
	if (!more)
		return pp_program_add_section(w->prog, data->d_buf ? data->d_buf : "", data->d_size,
					      w->path);
	/* Several pieces (not seen in files read from disk): join them. */
	for (data = NULL; (data = elf_getdata(scn, data));) {
		unsigned char *b;

		if (data->d_size > SIZE_MAX - size || !(b = realloc(buf, size + data->d_size))) {
			free(buf);
			return -ENOMEM;
		}
		buf = b;
		if (data->d_size)
			memcpy(buf + size, data->d_buf, data->d_size);
		size += data->d_size;
	}
	ret = pp_program_add_section(w->prog, buf ? (void *)buf : "", size, w->path);
	free(buf);
	return ret;
}

int pp_program_add_file(struct pp_program *prog, const char *path)
{
	struct walk w = {prog, path, 0};
	struct pp_elf e;
	int ret;

	ret = pp_elf_open(&e, path);
	if (!ret)
		ret = pp_elf_sections(&e, PP_TABLE_SECTION, SHT_NULL, add_scn, &w);
	if (e.why[0])
		pp_program_set_error(prog, "%s: %s", path, e.why);
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
