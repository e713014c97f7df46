/* SPDX-License-Identifier: MIT */
/*
 * build.h - make sure each revision is built with pinpoint's instrumentation
 * before it is measured: use an instrumented build directory as it is, build
 * an instrumented copy of a plain CMake build directory, or run --build-cmd.
 */
#ifndef PINPOINT_BUILD_H
#define PINPOINT_BUILD_H

#include "pinpoint/session/options.h"

/*
 * Prepare the revision @label whose build directory is @dir (absolute).
 * On success *@run_dir is NULL when the benchmark runs in @dir itself, or
 * the (malloc'ed) instrumented build directory it runs in instead.
 * Returns 0, or -EINVAL after printing one error line (a failed build names
 * the revision and its log), -ENOMEM, -EINTR when the session was stopped
 * (the build is killed, nothing printed), or the -errno of a log that could
 * not be written (-ENOSPC ...) after its line.
 */
int pp_build_revision(const struct pp_options *opt, const char *label, const char *dir,
		      char **run_dir);

/*
 * The directory @name of the build root, made and opened private
 * (core/private_dir.h), its path (free of links) in @buf: the build root is
 * --build-root (made absolute), else $XDG_CACHE_HOME/pinpoint/builds, else
 * ~/.cache/pinpoint/builds.  Builds are run there, so a directory another
 * user could write is refused.  0, or -EINVAL after one error line.
 */
int pp_build_dir(const struct pp_options *opt, const char *name, char *buf, size_t size);

/* Builds are killed, and pp_build_revision() returns -EINTR, once *@stop is true. */
void pp_build_stop_on(volatile int *stop);

#endif /* PINPOINT_BUILD_H */
