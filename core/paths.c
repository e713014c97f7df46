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

/* Where each file is looked for, relative to the executable's directory:
 * the installed layout first, then the build tree's. */
static const struct {
	const char *name;
	int mode; /* access(2) mode it must allow */
	const char *dirs[3];
} files[] = {
    [PP_PATH_PLUGIN] = {"pinpoint-pass.so", R_OK, {"../lib/pinpoint", "../pass"}},
    [PP_PATH_RUNTIME_SHARED] = {"libpinpoint-rt.so", R_OK, {"../lib/pinpoint", "../runtime"}},
    [PP_PATH_RUNTIME_STATIC] = {"libpinpoint-rt.a", R_OK, {"../lib/pinpoint", "../runtime"}},
    [PP_PATH_CC] = {"pinpoint-cc", X_OK, {".", "../tools", "../tools/cc"}},
    [PP_PATH_CXX] = {"pinpoint-c++", X_OK, {".", "../tools", "../tools/cc"}},
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

/*
 * DIR/REL/NAME into buf if it exists and allows @mode, the directory
 * canonical and the name kept (pinpoint-c++ is a symlink to pinpoint-cc).
 */
static int try_path(const char *dir, const char *rel, const char *name, int mode, char *buf,
		    size_t size)
{
	char p[PATH_MAX], real[PATH_MAX];

	if ((size_t)snprintf(p, sizeof(p), "%s/%s/%s", dir, rel, name) >= sizeof(p))
		return -ENAMETOOLONG;
	if (access(p, mode))
		return -errno;
	if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, rel) >= sizeof(p))
		return -ENAMETOOLONG;
	if (!realpath(p, real))
		return -errno;
	if ((size_t)snprintf(buf, size, "%s/%s", real, name) >= size)
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
	for (size_t i = 0; i < 3 && files[kind].dirs[i]; i++) {
		err = try_path(dir, files[kind].dirs[i], files[kind].name, files[kind].mode, buf,
			       size);
		if (err != -ENOENT && err != -ENOTDIR && err != -EACCES)
			return err;
	}
	/* name the installed location in the caller's message */
	snprintf(buf, size, "%s/%s/%s", dir, files[kind].dirs[0], files[kind].name);
	return -ENOENT;
}
