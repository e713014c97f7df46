// SPDX-License-Identifier: MIT
/*
 * util.c - small helpers of the driver.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

const char *pp_fmt_ns(double ns, char *buf, unsigned len)
{
	double a = fabs(ns);

	if (a >= 1e9)
		snprintf(buf, len, "%.3g s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.3g ms", ns / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%.3g us", ns / 1e3);
	else
		snprintf(buf, len, "%.3g ns", ns);
	return buf;
}

int pp_write_atomic(const char *path, void (*write)(FILE *f, const void *arg), const void *arg)
{
	char *tmp = NULL;
	FILE *f;
	int err = 0;

	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
		return -ENOMEM;
	f = fopen(tmp, "w");
	if (!f) {
		err = -errno;
		goto out;
	}
	write(f, arg);
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
out:
	free(tmp);
	return err;
}
