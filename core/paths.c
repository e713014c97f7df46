// SPDX-License-Identifier: MIT
/*
 * paths.c - find the plugin and the runtime relative to the running
 * executable (see paths.h for the two layouts).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/paths.h"

/* Relative to the executable's directory. */
#define PP_INSTALLED_LIBDIR "../lib/pinpoint"

static const struct {
	const char *name;
	const char *build_dir;
} files[] = {
    [PP_PATH_PLUGIN] = {"pinpoint-pass.so", "../pass"},
    [PP_PATH_RUNTIME_SHARED] = {"libpinpoint-rt.so", "../runtime"},
    [PP_PATH_RUNTIME_STATIC] = {"libpinpoint-rt.a", "../runtime"},
};

int pp_path_self_dir(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n < 0)
		return -errno;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = 0;
	if ((size_t)snprintf(buf, size, "%s", exe) >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* Canonical path of DIR/REL/NAME into buf if it exists. */
static int try_path(const char *dir, const char *rel, const char *name, char *buf, size_t size)
{
	char p[PATH_MAX], real[PATH_MAX];

	if ((size_t)snprintf(p, sizeof(p), "%s/%s/%s", dir, rel, name) >= sizeof(p))
		return -ENAMETOOLONG;
	if (!realpath(p, real))
		return -errno;
	if ((size_t)snprintf(buf, size, "%s", real) >= size)
		return -ENAMETOOLONG;
	return 0;
}

int pp_path_find(enum pp_path_kind kind, char *buf, size_t size)
{
	char dir[PATH_MAX];
	int err;

	if ((unsigned)kind >= sizeof(files) / sizeof(files[0]))
		return -EINVAL;
	err = pp_path_self_dir(dir, sizeof(dir));
	if (err)
		return err;
	err = try_path(dir, PP_INSTALLED_LIBDIR, files[kind].name, buf, size);
	if (err != -ENOENT && err != -ENOTDIR)
		return err;
	err = try_path(dir, files[kind].build_dir, files[kind].name, buf, size);
	if (err != -ENOENT && err != -ENOTDIR)
		return err;
	/* name the installed location in the caller's message */
	snprintf(buf, size, "%s/%s/%s", dir, PP_INSTALLED_LIBDIR, files[kind].name);
	return -ENOENT;
}
