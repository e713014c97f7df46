// SPDX-License-Identifier: MIT
/*
 * private_dir.c - directories only their owner can write (private_dir.h).
 *
 * Every directory is reached from its parent's descriptor, one name at a
 * time, with O_NOFOLLOW: a link planted anywhere on the way, or a directory
 * renamed under the walk, makes the open fail instead of leading elsewhere.
 * (openat2's RESOLVE_NO_SYMLINKS does the same in one call where the kernel
 * has it; the walk is needed anyway to check each directory's owner and
 * mode, so it is the one way here.)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/private_dir.h"

static int refuse(char *why, size_t wlen, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(char *why, size_t wlen, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && wlen) {
		va_start(ap, fmt);
		vsnprintf(why, wlen, fmt, ap);
		va_end(ap);
	}
	return err;
}

int pp_cache_base(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s", xdg);
	else if (home && *home == '/')
		n = snprintf(buf, len, "%s/.cache", home);
	else {
		snprintf(buf, len, "no cache: $XDG_CACHE_HOME and $HOME are unset");
		return -ENOENT;
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int pp_private_check(const struct stat *st, const char *path, char *why, size_t wlen)
{
	uid_t me = geteuid();

	if (st->st_uid != me)
		return refuse(why, wlen, -EPERM, "%s belongs to uid %u, not to you (uid %u)", path,
			      (unsigned)st->st_uid, (unsigned)me);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return refuse(why, wlen, -EPERM,
			      "%s can be written by %s (mode %04o): only its owner may write it",
			      path, st->st_mode & S_IWOTH ? "others" : "its group",
			      (unsigned)(st->st_mode & 07777));
	return 0;
}

/* The rule for the base and the directories above it (private_dir.h). */
static int check_above(const struct stat *st, const char *path, char *why, size_t wlen)
{
	uid_t me = geteuid();

	if (!S_ISDIR(st->st_mode))
		return refuse(why, wlen, -ENOTDIR, "%s is not a directory", path);
	if (st->st_uid != 0 && st->st_uid != me)
		return refuse(why, wlen, -EPERM,
			      "%s belongs to uid %u, neither to you (uid %u) nor to root", path,
			      (unsigned)st->st_uid, (unsigned)me);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return refuse(why, wlen, -EPERM,
			      "%s can be written by %s and is not sticky (mode %04o)", path,
			      st->st_mode & S_IWOTH ? "others" : "its group",
			      (unsigned)(st->st_mode & 07777));
	return 0;
}

/*
 * @name in @dirfd (whose path is @path, @name appended to it), opened as a
 * directory without following a link: the descriptor, or -errno with @why.
 */
static int open_step(int dirfd, const char *name, char *path, size_t len, bool make, char *why,
		     size_t wlen)
{
	size_t n = strlen(path);
	struct stat st;
	int fd;

	if ((size_t)snprintf(path + n, len - n, "%s%s", n && path[n - 1] == '/' ? "" : "/", name) >=
	    len - n)
		return refuse(why, wlen, -ENAMETOOLONG, "%s/%s: path too long", path, name);
	fd = openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && make) {
		if (mkdirat(dirfd, name, 0700) && errno != EEXIST)
			return refuse(why, wlen, -errno, "cannot create %s: %s", path,
				      strerror(errno));
		fd = openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd >= 0)
		return fd;
	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (S_ISLNK(st.st_mode))
			return refuse(why, wlen, -ELOOP, "%s is a symbolic link", path);
		if (!S_ISDIR(st.st_mode))
			return refuse(why, wlen, -ENOTDIR, "%s is not a directory", path);
	}
	return refuse(why, wlen, -errno, "%s: %s", path, strerror(errno));
}

/* mkdir -p @path, mode 0700 for what it makes (before the base is resolved). */
static int make_base(const char *path, char *why, size_t wlen)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return refuse(why, wlen, -ENAMETOOLONG, "%s: path too long", path);
	for (char *p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;

		*p = 0;
		if (mkdir(buf, 0700) && errno != EEXIST)
			return refuse(why, wlen, -errno, "cannot create %s: %s", buf,
				      strerror(errno));
		if (!c)
			return 0;
		*p = c;
	}
}

/*
 * Walk *@fd down @names ('/'-separated), one directory at a time, each
 * checked by @rule (check_above() above the base, pp_private_check() below
 * it, where what is missing is made: @make).  *@fd: the last one reached
 * (closed and -1 on failure).  0, or -errno with @why.
 */
static int walk(int *fd, const char *names, bool make,
		int (*rule)(const struct stat *, const char *, char *, size_t), char *path,
		size_t len, char *why, size_t wlen)
{
	char buf[PATH_MAX];
	struct stat st;
	int err = 0;

	if (snprintf(buf, sizeof(buf), "%s", names) >= (int)sizeof(buf))
		return refuse(why, wlen, -ENAMETOOLONG, "%s/%s: path too long", path, names);
	for (char *save = NULL, *name = strtok_r(buf, "/", &save); name && !err;
	     name = strtok_r(NULL, "/", &save)) {
		int next;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			return refuse(why, wlen, -EINVAL, "%s/%s: a '.' or '..' in it", path, name);
		next = open_step(*fd, name, path, len, make, why, wlen);
		close(*fd);
		*fd = next;
		if (next < 0)
			return next;
		err = fstat(next, &st) ? refuse(why, wlen, -errno, "%s: %s", path, strerror(errno))
				       : rule(&st, path, why, wlen);
	}
	return err;
}

int pp_private_dir(const char *base, const char *rel, char *path, size_t len, char *why,
		   size_t wlen)
{
	char real[PATH_MAX];
	struct stat st;
	int fd = -1, err;

	*path = 0;
	if (*base != '/')
		return refuse(why, wlen, -EINVAL, "%s: not an absolute path", base);
	err = make_base(base, why, wlen);
	if (err)
		return err;
	/* the user's choice, links and all, resolved once; then walked without them */
	if (!realpath(base, real))
		return refuse(why, wlen, -errno, "%s: %s", base, strerror(errno));
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return refuse(why, wlen, -errno, "/: %s", strerror(errno));
	snprintf(path, len, "/");
	err = fstat(fd, &st) ? refuse(why, wlen, -errno, "/: %s", strerror(errno))
			     : check_above(&st, "/", why, wlen);
	err = err ?: walk(&fd, real, false, check_above, path, len, why, wlen);
	err = err ?: walk(&fd, rel, true, pp_private_check, path, len, why, wlen);
	if (!err) {
		/* readable now: the O_PATH walk only looked */
		int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0)
			err = refuse(why, wlen, -errno, "%s: %s", path, strerror(errno));
		close(fd);
		fd = dfd;
	}
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

int pp_cache_open(const char *rel, char *path, size_t len, char *why, size_t wlen)
{
	char base[PATH_MAX], sub[PATH_MAX];
	int err = pp_cache_base(base, sizeof(base));

	if (err) {
		snprintf(path, len, "%s", base);
		return refuse(why, wlen, err, "%s", base);
	}
	if (snprintf(sub, sizeof(sub), "pinpoint%s%s", *rel ? "/" : "", rel) >= (int)sizeof(sub))
		return refuse(why, wlen, -ENAMETOOLONG, "%s/pinpoint/%s: path too long", base, rel);
	err = pp_private_dir(base, sub, path, len, why, wlen);
	if (err < 0 && !*path)
		snprintf(path, len, "%s/%s", base, sub);
	return err;
}

int pp_private_file(int dirfd, const char *name, int flags, mode_t mode, struct stat *st)
{
	struct stat own;
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);

	if (!st)
		st = &own;
	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st->st_mode) || pp_private_check(st, name, NULL, 0)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}
