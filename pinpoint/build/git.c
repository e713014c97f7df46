// SPDX-License-Identifier: MIT
/*
 * git.c - git as a process (core/process.c, no shell), its output read back
 * from a file: a pipe would need reading while git runs, and what
 * `git rev-list` prints of a long range is more than a pipe holds.
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/process.h"
#include "core/util.h"
#include "pinpoint/build/cmakecache.h"
#include "pinpoint/build/git.h"
#include "pinpoint/build/workdir.h"

int pp_git_capture(char *const argv[], const char *dir, const char *tmpdir, char **out)
{
	char tmpl[PATH_MAX];
	struct pp_process p = {.argv = argv, .dir = dir, .out = -1, .err = -1};
	struct pp_run_status st;
	int fd = -1, err;

	if (out) {
		*out = NULL;
		if (snprintf(tmpl, sizeof(tmpl), "%s/git.XXXXXX", tmpdir) >= (int)sizeof(tmpl))
			return -ENAMETOOLONG;
		fd = mkstemp(tmpl);
		if (fd < 0)
			return -errno;
		unlink(tmpl);
		p.out = fd;
	}
	err = pp_process_run(&p, &st);
	if (!err && !(st.exited && st.exit_code == 0))
		err = -EINVAL;
	if (!err && out) {
		char *buf;
		size_t len;

		if (pp_fd_read_all(fd, 0, &buf, &len)) {
			err = -EIO;
		} else {
			while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
				len--;
			buf[len] = 0;
			*out = buf;
		}
	}
	if (fd >= 0)
		close(fd);
	return err;
}

bool pp_git_full_hash(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return !s[n] && (n == 40 || n == 64);
}

int pp_git_head(const char *dir, char hash[PP_GIT_HASH_LEN])
{
	char *argv[] = {"git", "rev-parse", "--verify", "--quiet", "HEAD^{commit}", NULL};
	char *out = NULL;
	int err;

	hash[0] = 0;
	err = pp_git_capture(argv, dir, pp_workdir_tmpdir(), &out);
	if (!err && out && pp_git_full_hash(out))
		memcpy(hash, out, strlen(out) + 1);
	else
		err = -ENOENT;
	free(out);
	return err;
}

int pp_git_build_commit(const char *dir, char hash[PP_GIT_HASH_LEN])
{
	struct pp_cmake_cache c = {0};
	char path[PATH_MAX];
	int err = pp_git_head(dir, hash);

	if (!err)
		return 0;
	if (snprintf(path, sizeof(path), "%s/CMakeCache.txt", dir) >= (int)sizeof(path) ||
	    pp_cmake_cache_read(path, &c))
		return -ENOENT;
	err = c.home ? pp_git_head(c.home, hash) : -ENOENT;
	pp_cmake_cache_free(&c);
	return err;
}
