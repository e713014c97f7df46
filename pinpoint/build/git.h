/* SPDX-License-Identifier: MIT */
/*
 * git.h - git run as a process (never through a shell), its output read
 * back: what --commits asks of a repository, and the commit a revision
 * directory's work tree has checked out (the --history line).
 */
#ifndef PINPOINT_GIT_H
#define PINPOINT_GIT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Run @argv (git ...) in @dir, stderr silenced; its stdout, trailing newlines
 * cut, in *@out (malloc'ed) when @out is not NULL, by way of a file made and
 * unlinked at once in @tmpdir.  0, -EINVAL when git did not exit with 0, or
 * -errno.
 */
int pp_git_capture(char *const argv[], const char *dir, const char *tmpdir, char **out);

/* The hexadecimal digits of a commit's name: 40 (SHA-1) or 64 (SHA-256), and the NUL. */
#define PP_GIT_HASH_LEN 65

/* Whether @s is a commit's name in full: 40 or 64 lower-case hexadecimal digits. */
bool pp_git_full_hash(const char *s);

/*
 * The commit checked out (HEAD) in the git work tree @dir is in, into
 * @hash: `git rev-parse --verify HEAD` run in @dir.  0, or -ENOENT when
 * @dir is in no work tree (or git cannot be run, or HEAD names no commit).
 */
int pp_git_head(const char *dir, char hash[PP_GIT_HASH_LEN]);

/*
 * The commit a build directory @dir was built from, into @hash: that of
 * the work tree @dir is in, else, for a CMake build directory outside its
 * sources, that of the work tree of the sources its CMakeCache.txt names.
 * 0, or -ENOENT when neither is known.
 */
int pp_git_build_commit(const char *dir, char hash[PP_GIT_HASH_LEN]);

#endif /* PINPOINT_GIT_H */
