// SPDX-License-Identifier: MIT
/*
 * platform.c - what the measurements were taken on, for the JSON report:
 * CPU model and count, kernel, the LLVM of pinpoint's plugin, and the
 * compiler that built each revision, read from its binary's .comment section.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pinpoint/report/platform.h"

#ifndef PP_LLVM_VERSION
#define PP_LLVM_VERSION "unknown"
#endif

static void read_cpu(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = 0;
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

/* The compilers named in @path's .comment section, "; "-separated. */
static void read_comment(const char *path, char *buf, size_t len)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, used = 0;
	Elf *e;
	int fd;

	snprintf(buf, len, "unknown");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getshdrstrndx(e, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".comment"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			break;
		buf[0] = 0;
		for (size_t off = 0; off < d->d_size;) {
			const char *s = (const char *)d->d_buf + off;
			size_t n = strnlen(s, d->d_size - off);

			if (n && used + n + 3 < len) {
				used += snprintf(buf + used, len - used, "%s%.*s", used ? "; " : "",
						 (int)n, s);
			}
			off += n + 1;
		}
		break;
	}
out:
	if (e)
		elf_end(e);
	close(fd);
}

void pp_platform_read(struct pp_platform *p, const struct pp_session *s)
{
	struct utsname u;

	memset(p, 0, sizeof(*p));
	read_cpu(p->cpu, sizeof(p->cpu));
	p->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!uname(&u)) {
		snprintf(p->kernel, sizeof(p->kernel), "%s %s %s", u.sysname, u.release, u.version);
		snprintf(p->machine, sizeof(p->machine), "%s", u.machine);
	}
	snprintf(p->llvm, sizeof(p->llvm), "%s", PP_LLVM_VERSION);
	for (int r = 0; r < 2; r++) {
		if (s->rev[r].prog.nobjects)
			read_comment(s->rev[r].prog.objects[0], p->compiler[r],
				     sizeof(p->compiler[r]));
		else
			snprintf(p->compiler[r], sizeof(p->compiler[r]), "unknown");
	}
}
