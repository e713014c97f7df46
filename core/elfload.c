/* SPDX-License-Identifier: MIT */
/*
 * elfload.c - read the table section of ELF files with libelf, for an
 * executable and the shared libraries it loads (found by deps.c from the ELF
 * files alone: nothing is run).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/deps.h"
#include "core/table_priv.h"

static int open_elf(struct pp_program *prog, const char *path, int *fd, Elf **elf)
{
	struct stat st;

	*elf = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		pp_program_set_error(prog, "%s: libelf: %s", path, elf_errmsg(-1));
		return -ENOEXEC;
	}
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0) {
		int err = errno;

		pp_program_set_error(prog, "%s: %s", path, strerror(err));
		return -err;
	}
	if (fstat(*fd, &st) || !S_ISREG(st.st_mode)) {
		pp_program_set_error(prog, "%s: not a regular file", path);
		close(*fd);
		*fd = -1;
		return -ENOEXEC;
	}
	/* ELF_C_READ reads on demand, so a file truncated under us is an
	 * error, not a SIGBUS as with a mapping. */
	*elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		pp_program_set_error(prog, "%s: not an ELF file", path);
		elf_end(*elf);
		*elf = NULL;
		close(*fd);
		*fd = -1;
		return -ENOEXEC;
	}
	return 0;
}

static int bad_elf(struct pp_program *prog, const char *path, const char *what)
{
	pp_program_set_error(prog, "%s: corrupt ELF file: %s: %s", path, what, elf_errmsg(-1));
	return -ENOEXEC;
}

static int add_scn(struct pp_program *prog, const char *path, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data, *more;
	unsigned char *buf = NULL;
	size_t size = 0;
	int ret;

	if (sh->sh_type == SHT_NOBITS) {
		pp_program_set_error(prog, "%s: corrupt pinpoint table: section %s has no contents",
				     path, PP_TABLE_SECTION);
		return -ENOEXEC;
	}
	if ((sh->sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return bad_elf(prog, path, "cannot decompress " PP_TABLE_SECTION);
	data = elf_getdata(scn, NULL);
	if (!data) {
		if (elf_errno() || sh->sh_size)
			return bad_elf(prog, path, "cannot read " PP_TABLE_SECTION);
		return pp_program_add_section(prog, "", 0, path);
	}
	more = elf_getdata(scn, data);
	if (!more)
		return pp_program_add_section(prog, data->d_buf ? data->d_buf : "", data->d_size,
					      path);
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
	ret = pp_program_add_section(prog, buf ? (void *)buf : "", size, path);
	free(buf);
	return ret;
}

int pp_program_add_file(struct pp_program *prog, const char *path)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int fd, ret, found = 0;
	Elf *elf;

	ret = open_elf(prog, path, &fd, &elf);
	if (ret)
		return ret;
	if (elf_getshdrstrndx(elf, &shstrndx)) {
		ret = bad_elf(prog, path, "section names");
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			ret = bad_elf(prog, path, "section header");
			goto out;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, PP_TABLE_SECTION))
			continue;
		found = 1;
		ret = add_scn(prog, path, scn, &sh);
		if (ret)
			goto out;
	}
	if (!found) {
		pp_program_set_error(prog, "%s: %s", path, pp_table_strerror(-ENOENT));
		ret = -ENOENT;
	}
out:
	elf_end(elf);
	close(fd);
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
