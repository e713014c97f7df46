// SPDX-License-Identifier: MIT
/*
 * platform.c - what the measurements were taken on, for the outcome (the JSON report):
 * CPU model and count, kernel, the LLVM of pinpoint's plugin, and the
 * compiler that built each revision, read from its binary's .comment section.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/elfsec.h"
#include "pinpoint/session/platform.h"
#include "pinpoint/session/session.h"

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

/* A .comment section: the compilers it names into the buffer @arg. */
struct comment {
	char *buf;
	size_t len;
};

static int read_section(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	const struct comment *c = arg;
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t used = 0;

	(void)e;
	(void)sh;
	if (!d || !d->d_buf)
		return 1;
	c->buf[0] = 0;
	for (size_t off = 0; off < d->d_size;) {
		const char *s = (const char *)d->d_buf + off;
		size_t n = strnlen(s, d->d_size - off);

		if (n && used + n + 3 < c->len) {
			used += snprintf(c->buf + used, c->len - used, "%s%.*s", used ? "; " : "",
					 (int)n, s);
		}
		off += n + 1;
	}
	return 1;
}

/* The compilers named in @path's .comment section, "; "-separated. */
static void read_comment(const char *path, char *buf, size_t len)
{
	struct comment c = {buf, len};
	struct pp_elf e;

	snprintf(buf, len, "unknown");
	if (pp_elf_open(&e, path))
		return;
	pp_elf_sections(&e, ".comment", SHT_NULL, read_section, &c);
	pp_elf_close(&e);
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
