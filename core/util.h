/* SPDX-License-Identifier: MIT */
/*
 * util.h - small helpers of the driver and the tools: clocks, globs, atomic writes.
 */
#ifndef PINPOINT_UTIL_H
#define PINPOINT_UTIL_H

/* Monotonic clock, in seconds. */
double pp_now(void);
/* Wall clock, in seconds since the epoch. */
double pp_wall(void);
/* Whether @name matches the glob @pattern (fnmatch), demangled or not. */
int pp_excluded(const char *const *patterns, unsigned long n, const char *name);
/* "12.3 ms", "4.56 s", "789 ns": @ns formatted into @buf. */
const char *pp_fmt_ns(double ns, char *buf, unsigned len);

#include <stdio.h>

/*
 * Write @path atomically: @write fills a temporary file next to it, which is
 * renamed over @path only when everything was written.  Returns 0 or -errno.
 */
int pp_write_atomic(const char *path, void (*write)(FILE *f, const void *arg), const void *arg);

#endif /* PINPOINT_UTIL_H */
