/* SPDX-License-Identifier: MIT */
/*
 * elfsec.c - open an ELF file with libelf and walk its sections (elfsec.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/elfsec.h"

int pp_elf_open(struct pp_elf *e, const char *path)
{
	struct stat st;
	int ret;

	e->elf = NULL;
	e->why[0] = '\0';
	e->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(e->why, sizeof(e->why), "libelf: %s", elf_errmsg(-1));
		return -ENOEXEC;
	}
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	e->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e->fd < 0) {
		ret = -errno;
		snprintf(e->why, sizeof(e->why), "%s", strerror(-ret));
		return ret;
	}
	if (fstat(e->fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(e->why, sizeof(e->why), "not a regular file");
		ret = -ENOEXEC;
		goto out;
	}
	/* ELF_C_READ reads on demand, so a file truncated under us is an
	 * error, not a SIGBUS as with a mapping. */
	e->elf = elf_begin(e->fd, ELF_C_READ, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF) {
		snprintf(e->why, sizeof(e->why), "not an ELF file");
		ret = -ENOEXEC;
		goto out;
	}
	return 0;
out:
	pp_elf_close(e);
	return ret;
}

void pp_elf_close(struct pp_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	e->elf = NULL;
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
}

int pp_elf_bad(struct pp_elf *e, const char *what)
{
	snprintf(e->why, sizeof(e->why), "corrupt ELF file: %s: %s", what, elf_errmsg(-1));
	return -ENOEXEC;
}

int pp_elf_sections(struct pp_elf *e, const char *name, GElf_Word type, pp_elf_section_fn *fn,
		    void *arg)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx = 0;
	int ret;

	if (name && elf_getshdrstrndx(e->elf, &shstrndx))
		return pp_elf_bad(e, "section names");
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *s;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return pp_elf_bad(e, "section header");
		if (type != SHT_NULL && sh.sh_type != type)
			continue;
		if (name) {
			s = elf_strptr(e->elf, shstrndx, sh.sh_name);
			if (!s || strcmp(s, name))
				continue;
		}
		ret = fn(e, scn, &sh, arg);
		if (ret)
			return ret;
	}
	return 0;
}

Elf_Data *pp_elf_entries(Elf_Scn *scn, const GElf_Shdr *sh, size_t *n)
{
	Elf_Data *d = sh->sh_entsize ? elf_getdata(scn, NULL) : NULL;

	*n = d ? sh->sh_size / sh->sh_entsize : 0;
	return d;
}
