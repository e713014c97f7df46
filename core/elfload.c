/* SPDX-License-Identifier: MIT */
/*
 * elfload.c - read the table section of ELF files with libelf, and find the
 * shared libraries an executable loads the way ldd does: its dynamic loader,
 * run on it in trace mode, lists them without running the program.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/process.h"
#include "core/table_priv.h"

#define TRACE_MAX_OUTPUT (4u << 20)
#define TRACE_ENV "LD_TRACE_LOADED_OBJECTS"

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

/*
 * The program interpreter (PT_INTERP) of @path in @buf: 1 when there is an
 * absolute one, 0 when none (static executable, library), -errno.
 */
static int read_interp(const char *path, char *buf, size_t bufsize)
{
	struct pp_program scratch; /* open_elf()'s messages are not wanted */
	size_t i, n;
	int fd, ret = 0;
	Elf *elf;

	pp_program_init(&scratch);
	ret = open_elf(&scratch, path, &fd, &elf);
	pp_program_free(&scratch);
	if (ret)
		return ret;
	if (elf_getphdrnum(elf, &n)) {
		ret = -ENOEXEC;
		goto out;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		ssize_t got;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz < 2 || ph.p_filesz > bufsize || ph.p_offset > (uint64_t)LLONG_MAX)
			break;
		got = pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset);
		if (got != (ssize_t)ph.p_filesz || buf[ph.p_filesz - 1] != '\0' || buf[0] != '/' ||
		    strlen(buf) != ph.p_filesz - 1)
			break;
		ret = 1;
		break;
	}
out:
	elf_end(elf);
	close(fd);
	return ret;
}

/*
 * Run @interp @exe with TRACE_ENV=1 and collect its standard output in
 * *@out (NUL-terminated).  0, or -ETIMEDOUT, -EMSGSIZE, -errno.  Its exit
 * status says nothing its output does not: the loader lists what it finds
 * either way.
 */
static int trace(const char *interp, const char *exe, int timeout_ms, char **out)
{
	char *argv[3] = {(char *)interp, NULL, NULL}, *buf = NULL, *dotexe = NULL;
	static const char *const env[] = {TRACE_ENV "=1", NULL};
	struct pp_process p = {.argv = argv, .env = env, .err = -1,
			       .timeout_s = timeout_ms > 0 ? timeout_ms / 1000.0 : 1e-9};
	struct pp_run_status st;
	struct stat sb;
	int ret;

	/* As ldd does: a bare name would be searched for like a library. */
	if (!strchr(exe, '/')) {
		dotexe = malloc(strlen(exe) + 3);
		if (!dotexe)
			return -ENOMEM;
		strcpy(dotexe, "./");
		strcat(dotexe, exe);
	}
	argv[1] = dotexe ? dotexe : (char *)exe;
	p.out = memfd_create("pinpoint-trace", MFD_CLOEXEC);
	if (p.out < 0) {
		ret = -errno;
		goto out;
	}
	ret = pp_process_run(&p, &st);
	if (!ret && st.timed_out)
		ret = -ETIMEDOUT;
	if (!ret && fstat(p.out, &sb))
		ret = -errno;
	if (!ret && (uint64_t)sb.st_size > TRACE_MAX_OUTPUT)
		ret = -EMSGSIZE;
	if (!ret) {
		buf = malloc((size_t)sb.st_size + 1);
		if (!buf)
			ret = -ENOMEM;
		else if (pread(p.out, buf, (size_t)sb.st_size, 0) != sb.st_size)
			ret = -EIO;
		else
			buf[sb.st_size] = '\0';
	}
out:
	if (p.out >= 0)
		close(p.out);
	free(dotexe);
	if (ret) {
		free(buf);
		buf = NULL;
	}
	*out = buf;
	return ret;
}

/*
 * The path of a trace line: "\tlibx.so.1 => /path/libx.so.1 (0x7f...)", or
 * "\t/path/libx.so (0x7f...)" for a library needed by path (no soname).
 * NULL for other lines (the vDSO, "not found").  Edits @line in place.
 */
static char *trace_path(char *line)
{
	char *path = strstr(line, " => "), *paren, *next;

	if (path) {
		path += 4;
	} else {
		path = line + strspn(line, " \t");
		if (path[0] != '/')
			return NULL;
	}
	paren = strstr(path, " (");
	if (paren) {
		while ((next = strstr(paren + 2, " (")))
			paren = next;
		*paren = '\0';
	}
	if (!path[0] || !strcmp(path, "not found"))
		return NULL;
	return path;
}

int pp_program_load_timeout(struct pp_program *prog, const char *exe, int timeout_ms)
{
	char interp[PATH_MAX], *out = NULL, *line, *save = NULL;
	int ret, have;

	ret = pp_program_add_file(prog, exe);
	if (ret && (ret != -ENOENT || access(exe, R_OK)))
		return ret;
	have = !ret;
	if (read_interp(exe, interp, sizeof(interp)) <= 0 || trace(interp, exe, timeout_ms, &out))
		goto done;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *lib = trace_path(line);

		if (!lib)
			continue;
		ret = pp_program_add_file(prog, lib);
		if (!ret)
			have = 1;
		else if (ret != -ENOENT)
			goto out;
	}
done:
	ret = 0;
	if (!have) {
		pp_program_set_error(prog, "%s: %s", exe, pp_table_strerror(-ENOENT));
		ret = -ENOENT;
	}
out:
	free(out);
	return ret;
}

int pp_program_load(struct pp_program *prog, const char *exe)
{
	return pp_program_load_timeout(prog, exe, PP_LOAD_TIMEOUT_MS);
}
