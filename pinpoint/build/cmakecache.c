// SPDX-License-Identifier: MIT
/*
 * cmakecache.c - read a CMakeCache.txt the way CMake reads it.
 *
 * Each entry is a line NAME:TYPE=VALUE, or "NAME":TYPE=VALUE for a name
 * with ':' or '=' in it; lines starting with '#' or '//' are comments.
 * Blanks at the end of a value are cut unless the value is all blanks, and
 * single quotes around it, which CMake writes to keep trailing blanks, are
 * removed.  Any other line is passed over.  A user option is handed back
 * written so that cmake -D reads the same name, type and value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/build/cmakecache.h"

struct entry {
	char *name, *type, *value;
};

/* Split @line (no newline) into @e, in place; false when it is no entry. */
static bool parse_entry(char *line, struct entry *e)
{
	char *p = NULL, *end;
	size_t len;

	if (*line == '"' && (p = strchr(line + 1, '"')) && p[1] == ':') {
		e->name = line + 1;
		*p++ = 0;
	} else {
		p = line + strcspn(line, ":=");
		if (*p != ':')
			return false;
		e->name = line;
	}
	*p++ = 0;
	e->type = p;
	p = strchr(p, '=');
	if (!p)
		return false;
	*p++ = 0;
	e->value = p;
	end = p + strlen(p);
	while (end > p && strchr(" \t\r", end[-1]))
		end--;
	if (end > p)
		*end = 0;
	len = strlen(p);
	if (len >= 2 && p[0] == '\'' && p[len - 1] == '\'') {
		p[len - 1] = 0;
		e->value = p + 1;
	}
	return true;
}

bool pp_cmake_user_option(const char *name, const char *type)
{
	size_t n = strlen(name);
	static const char launcher[] = "_COMPILER_LAUNCHER";

	if (!strcmp(type, "INTERNAL") || !strcmp(type, "STATIC"))
		return false;
	/* ccache, distcc, icecc: how the user's compiles run, pinpoint-cc under them */
	if (n > sizeof(launcher) - 1 && !strcmp(name + n - (sizeof(launcher) - 1), launcher))
		return true;
	return strncmp(name, "CMAKE_", 6) != 0;
}

/* @e as cmake -D reads it back: quotes around a name with ':' or '=', and around
 * a value that ends in a blank or is quoted itself. */
static int define(const struct entry *e, char **out)
{
	const char *v = e->value;
	size_t len = strlen(v);
	bool qname = e->name[strcspn(e->name, ":=")] != 0;
	bool qvalue =
	    len && (strchr(" \t", v[len - 1]) || (len >= 2 && v[0] == '\'' && v[len - 1] == '\''));

	if (asprintf(out, "%s%s%s:%s=%s%s%s", qname ? "\"" : "", e->name, qname ? "\"" : "",
		     e->type, qvalue ? "'" : "", v, qvalue ? "'" : "") < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = strdup(v);
	return *dst ? 0 : -ENOMEM;
}

/* Take what pinpoint needs of @e into @c. */
static int take(struct pp_cmake_cache *c, const struct entry *e)
{
	static const struct {
		const char *name;
		size_t off;
	} known[] = {
	    {"CMAKE_HOME_DIRECTORY", offsetof(struct pp_cmake_cache, home)},
	    {"CMAKE_GENERATOR", offsetof(struct pp_cmake_cache, generator)},
	    {"CMAKE_BUILD_TYPE", offsetof(struct pp_cmake_cache, build_type)},
	    {"CMAKE_COMMAND", offsetof(struct pp_cmake_cache, cmake)},
	    {"CMAKE_C_COMPILER", offsetof(struct pp_cmake_cache, cc)},
	    {"CMAKE_CXX_COMPILER", offsetof(struct pp_cmake_cache, cxx)},
	    {"CMAKE_C_FLAGS", offsetof(struct pp_cmake_cache, cflags)},
	    {"CMAKE_CXX_FLAGS", offsetof(struct pp_cmake_cache, cxxflags)},
	};
	char **n;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(e->name, known[i].name))
			return set_str((char **)((char *)c + known[i].off), e->value);
	if (!strcmp(e->name, "Pinpoint_DIR") && *e->value && !strstr(e->value, "NOTFOUND"))
		c->package = true;
	if (!pp_cmake_user_option(e->name, e->type))
		return 0;
	n = realloc(c->defs, (c->ndefs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	c->defs = n;
	if (define(e, &c->defs[c->ndefs]))
		return -ENOMEM;
	c->ndefs++;
	return 0;
}

int pp_cmake_cache_read(const char *path, struct pp_cmake_cache *c)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!err && (len = getline(&line, &cap, f)) > 0) {
		struct entry e;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (*line == '#' || !strncmp(line, "//", 2) || !parse_entry(line, &e))
			continue;
		err = take(c, &e);
	}
	free(line);
	fclose(f);
	if (err)
		pp_cmake_cache_free(c);
	return err;
}

void pp_cmake_cache_free(struct pp_cmake_cache *c)
{
	free(c->home);
	free(c->generator);
	free(c->build_type);
	free(c->cmake);
	free(c->cc);
	free(c->cxx);
	free(c->cflags);
	free(c->cxxflags);
	for (size_t i = 0; i < c->ndefs; i++)
		free(c->defs[i]);
	free(c->defs);
	memset(c, 0, sizeof(*c));
}
