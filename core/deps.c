/* SPDX-License-Identifier: MIT */
/*
 * deps.c - the shared libraries an executable loads, found from the ELF
 * files alone, the way the dynamic loader searches for them, without running
 * anything (not even the executable's PT_INTERP, which is code from the file
 * being inspected).
 *
 * Breadth first from the executable, each library once: a DT_NEEDED name
 * with a '/' is a path (relative ones from the current directory); a bare
 * name is looked for, as glibc's ld.so does, in the DT_RPATH of the object
 * needing it and of the objects that loaded it (only when the object has no
 * DT_RUNPATH), LD_LIBRARY_PATH, the object's DT_RUNPATH, the directories of
 * /etc/ld.so.conf (and the files it includes), then the default system
 * directories.  $ORIGIN (or ${ORIGIN}) is the directory of the object;
 * entries with other substitutions are skipped.  A candidate of another ELF
 * class or machine is passed over, as the loader does.  What the loader would
 * take from its cache only is missed (ld.so.conf lists the same directories).
 */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/deps.h"
#include "core/elfsec.h"

#define MAX_OBJECTS 4096
#define MAX_CONF_DEPTH 8

struct object {
	char *path;   /* real path */
	char *origin; /* its directory, for $ORIGIN */
	char *rpath, *runpath;
	char **needed;
	size_t nneeded;
	int loader; /* index of the object that needed it, -1 for the executable */
};

struct deps {
	struct object *obj;
	size_t nobj;
	char **names; /* names already resolved (DT_NEEDED as written) */
	size_t nnames;
	char **conf; /* directories of ld.so.conf */
	size_t nconf;
	int elfclass, machine;
};

static int push(char ***arr, size_t *n, char *s)
{
	char **a;

	if (!s)
		return -ENOMEM;
	a = realloc(*arr, (*n + 1) * sizeof(*a));
	if (!a) {
		free(s);
		return -ENOMEM;
	}
	a[(*n)++] = s;
	*arr = a;
	return 0;
}

static void free_list(char **arr, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(arr[i]);
	free(arr);
}

/* The dynamic entries @o needs: DT_NEEDED, DT_RPATH, DT_RUNPATH. */
static int read_dynamic(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	struct object *o = arg;
	Elf_Data *data;
	size_t n;
	int ret = 0;

	if (!sh->sh_entsize)
		return 0;
	data = pp_elf_entries(scn, sh, &n);
	for (size_t i = 0; i < n; i++) {
		GElf_Dyn d;
		const char *s;

		if (!gelf_getdyn(data, (int)i, &d) || d.d_tag == DT_NULL)
			break;
		if (d.d_tag != DT_NEEDED && d.d_tag != DT_RPATH && d.d_tag != DT_RUNPATH)
			continue;
		s = elf_strptr(e->elf, sh->sh_link, d.d_un.d_val);
		if (!s)
			continue;
		if (d.d_tag == DT_NEEDED)
			ret = push(&o->needed, &o->nneeded, strdup(s));
		else if (d.d_tag == DT_RPATH && !o->rpath)
			ret = (o->rpath = strdup(s)) ? 0 : -ENOMEM;
		else if (d.d_tag == DT_RUNPATH && !o->runpath)
			ret = (o->runpath = strdup(s)) ? 0 : -ENOMEM;
		if (ret)
			return ret;
	}
	return 1; /* the first dynamic section is the one the loader reads */
}

/* Class and machine of @path, and its dynamic entries when @o is not NULL.
 * 0, -ENOEXEC (not a readable ELF file), -ENOMEM. */
static int read_elf(const char *path, int *elfclass, int *machine, struct object *o)
{
	struct pp_elf e;
	GElf_Ehdr eh;
	int ret;

	if (pp_elf_open(&e, path))
		return -ENOEXEC;
	if (!gelf_getehdr(e.elf, &eh)) {
		ret = -ENOEXEC;
		goto out;
	}
	*elfclass = gelf_getclass(e.elf);
	*machine = eh.e_machine;
	ret = o ? pp_elf_sections(&e, NULL, SHT_DYNAMIC, read_dynamic, o) : 0;
out:
	pp_elf_close(&e);
	return ret > 0 ? 0 : ret;
}

/* One directory of a search path, $ORIGIN replaced; -EINVAL when it holds
 * another substitution, -ENAMETOOLONG. */
static int expand(char *out, size_t outlen, const char *dir, size_t len, const char *origin)
{
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		const char *tok = NULL;
		size_t skip = 0;

		if (dir[i] == '$') {
			if (len - i >= 7 && !memcmp(dir + i, "$ORIGIN", 7) &&
			    (len - i == 7 || dir[i + 7] == '/'))
				tok = origin, skip = 7;
			else if (len - i >= 9 && !memcmp(dir + i, "${ORIGIN}", 9))
				tok = origin, skip = 9;
			else
				return -EINVAL;
		}
		if (tok) {
			size_t tl = strlen(tok);

			if (o + tl >= outlen)
				return -ENAMETOOLONG;
			memcpy(out + o, tok, tl);
			o += tl;
			i += skip;
			continue;
		}
		if (o + 1 >= outlen)
			return -ENAMETOOLONG;
		out[o++] = dir[i++];
	}
	if (!o)
		out[o++] = '.'; /* an empty entry is the current directory */
	out[o] = '\0';
	return 0;
}

/* @name in @dir, when it is an ELF file of the executable's class and
 * machine: its real path in @found. */
static int try_dir(struct deps *d, const char *dir, const char *name, char *found)
{
	char path[PATH_MAX];
	int elfclass, machine;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return 0;
	if (read_elf(path, &elfclass, &machine, NULL) || elfclass != d->elfclass ||
	    machine != d->machine)
		return 0;
	return realpath(path, found) != NULL;
}

/* Each directory of the ':'-separated @list (';' too, as ld.so allows). */
static int try_list(struct deps *d, const char *list, const char *origin, const char *name,
		    char *found)
{
	while (list && *list) {
		size_t len = strcspn(list, ":;");
		char dir[PATH_MAX];

		if (!expand(dir, sizeof(dir), list, len, origin) && try_dir(d, dir, name, found))
			return 1;
		list += len;
		if (*list)
			list++;
	}
	return 0;
}

static const char *triplet(int machine)
{
	switch (machine) {
	case EM_X86_64:
		return "x86_64-linux-gnu";
	case EM_AARCH64:
		return "aarch64-linux-gnu";
	case EM_386:
		return "i386-linux-gnu";
	case EM_RISCV:
		return "riscv64-linux-gnu";
	case EM_PPC64:
		return "powerpc64le-linux-gnu";
	case EM_S390:
		return "s390x-linux-gnu";
	case EM_ARM:
		return "arm-linux-gnueabihf";
	default:
		return NULL;
	}
}

static int search(struct deps *d, size_t from, const char *name, char *found)
{
	const struct object *o = &d->obj[from];
	const char *t = triplet(d->machine);
	char dir[PATH_MAX];

	if (strchr(name, '/'))
		return realpath(name, found) != NULL;
	if (!o->runpath)
		for (int i = (int)from; i >= 0; i = d->obj[i].loader)
			if (try_list(d, d->obj[i].rpath, d->obj[i].origin, name, found))
				return 1;
	if (try_list(d, getenv("LD_LIBRARY_PATH"), d->obj[0].origin, name, found))
		return 1;
	if (try_list(d, o->runpath, o->origin, name, found))
		return 1;
	for (size_t i = 0; i < d->nconf; i++)
		if (try_dir(d, d->conf[i], name, found))
			return 1;
	for (size_t i = 0; t && i < 2; i++)
		if (snprintf(dir, sizeof(dir), "%s/%s", i ? "/usr/lib" : "/lib", t) <
			(int)sizeof(dir) &&
		    try_dir(d, dir, name, found))
			return 1;
	if (d->elfclass == ELFCLASS64 &&
	    (try_dir(d, "/lib64", name, found) || try_dir(d, "/usr/lib64", name, found)))
		return 1;
	return try_dir(d, "/lib", name, found) || try_dir(d, "/usr/lib", name, found);
}

static int read_conf(struct deps *d, const char *path, int depth);

/* "include PATTERN": relative patterns are from /etc, as ldconfig reads them. */
static int conf_include(struct deps *d, const char *pattern, int depth)
{
	char pat[PATH_MAX];
	glob_t g;
	int ret = 0;

	if (snprintf(pat, sizeof(pat), "%s%s", pattern[0] == '/' ? "" : "/etc/", pattern) >=
	    (int)sizeof(pat))
		return 0;
	if (glob(pat, 0, NULL, &g))
		return 0;
	for (size_t i = 0; !ret && i < g.gl_pathc; i++)
		ret = read_conf(d, g.gl_pathv[i], depth + 1);
	globfree(&g);
	return ret;
}

static int read_conf(struct deps *d, const char *path, int depth)
{
	char line[PATH_MAX + 16];
	int ret = 0;
	FILE *f;

	if (depth > MAX_CONF_DEPTH)
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		char *s = line, *e;

		s[strcspn(s, "#\n")] = '\0';
		s += strspn(s, " \t");
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (!*s || !strncmp(s, "hwcap", 5))
			continue;
		if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t')) {
			ret = conf_include(d, s + 8 + strspn(s + 8, " \t"), depth);
			continue;
		}
		if (*s == '/')
			ret = push(&d->conf, &d->nconf, strdup(s));
	}
	fclose(f);
	return ret;
}

static int add_object(struct deps *d, const char *path, int loader)
{
	struct object *o, *objs;
	char *slash;
	int elfclass, machine, ret;

	for (size_t i = 0; i < d->nobj; i++)
		if (!strcmp(d->obj[i].path, path))
			return 0;
	if (d->nobj == MAX_OBJECTS)
		return 0;
	objs = realloc(d->obj, (d->nobj + 1) * sizeof(*objs));
	if (!objs)
		return -ENOMEM;
	d->obj = objs;
	o = &d->obj[d->nobj];
	memset(o, 0, sizeof(*o));
	o->loader = loader;
	o->path = strdup(path);
	o->origin = strdup(path);
	if (!o->path || !o->origin) {
		free(o->path);
		free(o->origin);
		return -ENOMEM;
	}
	slash = strrchr(o->origin, '/');
	if (slash)
		*(slash == o->origin ? slash + 1 : slash) = '\0';
	d->nobj++;
	ret = read_elf(path, &elfclass, &machine, o);
	return ret == -ENOEXEC ? 0 : ret;
}

int pp_deps_each(const char *exe, int (*fn)(const char *path, void *arg), void *arg)
{
	struct deps d = {0};
	char real[PATH_MAX];
	int ret;

	if (!realpath(exe, real))
		return -errno;
	if (read_elf(real, &d.elfclass, &d.machine, NULL))
		return -ENOEXEC;
	ret = read_conf(&d, "/etc/ld.so.conf", 0);
	if (!ret)
		ret = add_object(&d, real, -1);
	for (size_t i = 0; !ret && i < d.nobj; i++) {
		for (size_t k = 0; !ret && k < d.obj[i].nneeded; k++) {
			const char *name = d.obj[i].needed[k];
			char found[PATH_MAX];
			bool seen = false;

			for (size_t j = 0; j < d.nnames && !seen; j++)
				seen = !strcmp(d.names[j], name);
			if (seen)
				continue;
			ret = push(&d.names, &d.nnames, strdup(name));
			if (!ret && search(&d, i, name, found))
				ret = add_object(&d, found, (int)i);
		}
		if (!ret && i)
			ret = fn(d.obj[i].path, arg);
	}
	for (size_t i = 0; i < d.nobj; i++) {
		free(d.obj[i].path);
		free(d.obj[i].origin);
		free(d.obj[i].rpath);
		free(d.obj[i].runpath);
		free_list(d.obj[i].needed, d.obj[i].nneeded);
	}
	free(d.obj);
	free_list(d.names, d.nnames);
	free_list(d.conf, d.nconf);
	return ret;
}
