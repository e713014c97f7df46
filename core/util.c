// SPDX-License-Identifier: MIT
/*
 * util.c - small helpers of the driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/table.h"
#include "core/util.h"

double pp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double pp_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int pp_excluded(const char *const *patterns, unsigned long n, const char *name)
{
	for (unsigned long i = 0; i < n; i++)
		if (!fnmatch(patterns[i], name, 0) || !fnmatch(patterns[i], pp_demangle(name), 0))
			return 1;
	return 0;
}

/* A figure that is not a number: an open end of an interval, or none. */
static const char *not_finite(double v)
{
	return isnan(v) ? "n/a" : v > 0 ? "+inf" : "-inf";
}

const char *pp_fmt_ns(double ns, char *buf, unsigned len)
{
	double a = fabs(ns);

	if (!isfinite(ns))
		snprintf(buf, len, "%s", not_finite(ns));
	else if (a >= 1e9)
		snprintf(buf, len, "%.3g s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.3g ms", ns / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%.3g us", ns / 1e3);
	else if (a < 1e-3)
		snprintf(buf, len,
			 "0 ns"); /* rounding left by sums of whole ns, e.g. a derived own body */
	else
		snprintf(buf, len, "%.3g ns", ns);
	return buf;
}

const char *pp_fmt_pct(double fraction, char *buf, unsigned len)
{
	if (!isfinite(fraction))
		snprintf(buf, len, "%s", not_finite(fraction));
	else
		snprintf(buf, len, "%.1f%%", 100.0 * fraction);
	return buf;
}

int pp_create_temp_at(int dirfd, const char *path, mode_t mode, char *tmp, size_t len)
{
	long pid = (long)getpid();

	for (int i = 0; i < 100; i++) {
		int n = i ? snprintf(tmp, len, "%s.tmp.%ld.%d", path, pid, i)
			  : snprintf(tmp, len, "%s.tmp.%ld", path, pid);
		int fd;

		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		/* Something is in the way (a file, a planted link): another name. */
		if (errno != EEXIST && errno != ELOOP)
			return -errno;
	}
	return -EEXIST;
}

int pp_create_temp(const char *path, mode_t mode, char *tmp, size_t len)
{
	return pp_create_temp_at(AT_FDCWD, path, mode, tmp, len);
}

int pp_create_replace_at(int dirfd, const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	int fd = pp_create_temp_at(dirfd, path, mode, tmp, sizeof(tmp)), err;

	if (fd < 0)
		return fd;
	if (!renameat(dirfd, tmp, dirfd, path))
		return fd;
	err = -errno;
	close(fd);
	unlinkat(dirfd, tmp, 0);
	return err;
}

int pp_create_replace(const char *path, mode_t mode)
{
	return pp_create_replace_at(AT_FDCWD, path, mode);
}

int pp_write_atomic_at(int dirfd, const char *path, void (*write)(FILE *f, const void *arg),
		       const void *arg)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, err = 0;

	fd = pp_create_temp_at(dirfd, path, 0644, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto out;
	}
	write(f, arg);
	/* The first error that stopped the writes: ENOSPC, EDQUOT, EIO, EFBIG... */
	if (fflush(f))
		err = -errno;
	else if (ferror(f))
		err = -EIO;
	if (!err && fsync(fd) && errno != EINVAL && errno != EROFS)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, path))
		err = -errno;
out:
	if (err)
		unlinkat(dirfd, tmp, 0);
	return err;
}

int pp_write_atomic(const char *path, void (*write)(FILE *f, const void *arg), const void *arg)
{
	return pp_write_atomic_at(AT_FDCWD, path, write, arg);
}

const char *pp_write_failure(int err, const char *path, char *buf, size_t len)
{
	if (err == -ENOSPC || err == -EDQUOT)
		snprintf(buf, len, "no space left on device writing %s", path);
	else
		snprintf(buf, len, "cannot write %s: %s", path, strerror(-err));
	return buf;
}

uint64_t pp_str_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

int pp_dir_cache_name(const char *dir, char *buf, size_t len)
{
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	if ((size_t)snprintf(buf, len, "%llx-%llx", (unsigned long long)st.st_dev,
			     (unsigned long long)st.st_ino) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int pp_fd_hash(int fd, uint64_t *hash, uint64_t *size)
{
	unsigned char b[65536];
	uint64_t h = 14695981039346656037ULL, total = 0;
	ssize_t n;

	while ((n = read(fd, b, sizeof(b))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ b[i]) * 1099511628211ULL;
		total += (uint64_t)n;
	}
	*hash = h;
	if (size)
		*size = total;
	return n < 0 ? -EIO : 0;
}

int pp_fd_read_all(int fd, size_t most, char **text, size_t *len)
{
	off_t size = lseek(fd, 0, SEEK_END);
	char *buf;

	*text = NULL;
	if (size < 0)
		return -EIO;
	if (most && (uint64_t)size > most)
		return -EFBIG;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return -ENOMEM;
	if (pread(fd, buf, (size_t)size, 0) != size) {
		free(buf);
		return -EIO;
	}
	buf[size] = '\0';
	*text = buf;
	if (len)
		*len = (size_t)size;
	return 0;
}

bool pp_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int pp_argv_add(struct pp_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

void pp_argv_free(struct pp_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}
