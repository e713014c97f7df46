/* SPDX-License-Identifier: MIT */
/*
 * util.h - small helpers of the driver and the tools: clocks, globs, atomic writes.
 */
#ifndef PINPOINT_UTIL_H
#define PINPOINT_UTIL_H

#include <stdint.h>

/* Monotonic clock, in seconds. */
double pp_now(void);
/* Wall clock, in seconds since the epoch. */
double pp_wall(void);
/* Whether @name matches the glob @pattern (fnmatch), demangled or not. */
int pp_excluded(const char *const *patterns, unsigned long n, const char *name);
/* "12.3 ms", "4.56 s", "789 ns": @ns formatted into @buf; an open end "+inf" or "-inf", NaN "n/a".
 */
const char *pp_fmt_ns(double ns, char *buf, unsigned len);
/* "12.3%" for the fraction 0.123; an open end "+inf" or "-inf", NaN "n/a". */
const char *pp_fmt_pct(double fraction, char *buf, unsigned len);

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * A new file beside @path, to replace it: "@path.tmp.PID" (or ".PID.N" when
 * something is already there) created O_CREAT|O_EXCL|O_NOFOLLOW with @mode
 * (less the umask).  What is planted on the name, a link included, is never
 * opened.  Its name goes to @tmp; returns the descriptor or -errno.
 */
int pp_create_temp(const char *path, mode_t mode, char *tmp, size_t len);
/* The same, with @path relative to the directory @dirfd (AT_FDCWD: as above). */
int pp_create_temp_at(int dirfd, const char *path, mode_t mode, char *tmp, size_t len);

/*
 * pp_create_temp(), renamed over @path at once: a file or a link at @path is
 * replaced, never followed.  For logs written while a command runs.
 */
int pp_create_replace(const char *path, mode_t mode);
int pp_create_replace_at(int dirfd, const char *path, mode_t mode);

/*
 * Write @path atomically: @write fills a temporary file next to it
 * (pp_create_temp(), mode 0644), which is renamed over @path only when
 * everything was written and synced.  Returns 0 or -errno: the error of the
 * write that failed (-ENOSPC on a full disk), not a generic one.
 */
int pp_write_atomic(const char *path, void (*write)(FILE *f, const void *arg), const void *arg);
int pp_write_atomic_at(int dirfd, const char *path, void (*write)(FILE *f, const void *arg),
		       const void *arg);

/* The one-line message for a failed write of @path: "no space left on device writing PATH". */
const char *pp_write_failure(int err, const char *path, char *buf, size_t len);

/* FNV-1a of a string: stable names for cache directories. */
uint64_t pp_str_hash(const char *s);
/*
 * The name under which pinpoint's cache keeps what belongs to the directory
 * @dir: "DEV-INO", its device and inode in hexadecimal (any path to @dir,
 * through links or bind mounts, finds the same).  0 or -errno.
 */
int pp_dir_cache_name(const char *dir, char *buf, size_t len);

/* FNV-1a 64 of what @fd reads to its end, its length in *@size (may be NULL):
 * 0, or -EIO. */
int pp_fd_hash(int fd, uint64_t *hash, uint64_t *size);

/*
 * What the file @fd holds, from its start to its end (a child's output
 * written to it, say), NUL-terminated in *@text, its length in *@len (may be
 * NULL): 0, -EFBIG (more than @most bytes; 0: no limit), -ENOMEM or -EIO.
 */
int pp_fd_read_all(int fd, size_t most, char **text, size_t *len);

/* Whether @a and @b name one file or directory, by device and inode (through
 * links and bind mounts); false when either cannot be stat'ed. */
bool pp_same_file(const char *a, const char *b);

/* A NULL-terminated argument vector built one printf-formatted word at a time. */
struct pp_argv {
	char **v;
	size_t n, cap;
};
int pp_argv_add(struct pp_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pp_argv_free(struct pp_argv *a);

#endif /* PINPOINT_UTIL_H */
