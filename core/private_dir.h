/* SPDX-License-Identifier: MIT */
/*
 * private_dir.h - directories only their owner can write: pinpoint's cache
 * (layouts, remembered commands, instrumented builds) and --build-root.
 *
 * What pinpoint later runs or mounts (a layout, a remembered command, a
 * build) is kept where no other local user can plant or swap it, checked
 * as ssh checks ~/.ssh:
 *
 *  - the base the user chose ($XDG_CACHE_HOME, ~/.cache, --build-root) is
 *    made when missing and resolved, links and all: it and every directory
 *    above it must belong to root or to the effective user, and one that
 *    others can write must be sticky (as /tmp is: no one renames or removes
 *    another's entry there);
 *  - below the base, each directory (pinpoint/layouts/DEV-INO, ...) is
 *    reached from its parent's descriptor with O_NOFOLLOW, made with mode
 *    0700 when missing, and must be a directory of the effective user's
 *    that neither its group nor others can write;
 *  - each file in it is opened from that descriptor with O_NOFOLLOW and
 *    must be a regular file of the user's that no one else can write.
 *
 * A directory that fails a rule is refused, with one line saying which and
 * why; nothing in it is read, run or mounted.
 */
#ifndef PINPOINT_PRIVATE_DIR_H
#define PINPOINT_PRIVATE_DIR_H

#include <stddef.h>
#include <sys/stat.h>

/* Room for the reason a directory was refused. */
#define PP_REFUSAL_MAX 4352

/*
 * pinpoint's cache base, the directory the user chose for caches:
 * $XDG_CACHE_HOME (when absolute), else $HOME/.cache.  0, -ENOENT (neither
 * set: @buf says so) or -ENAMETOOLONG.
 */
int pp_cache_base(char *buf, size_t len);

/*
 * Open the directory @base/@rel (@rel: names separated by '/', no "." or
 * "..", may be empty), making what is missing, as a directory only the
 * effective user can write (above).  Returns a descriptor (O_DIRECTORY,
 * O_CLOEXEC), with the directory's path in @path, free of links: a path
 * every directory of which is safe as well, for commands that need a path
 * (a build, a linker's output).  On failure -errno, with one line in @why:
 * -EPERM for a directory that breaks a rule, -ELOOP for a link.
 */
int pp_private_dir(const char *base, const char *rel, char *path, size_t len, char *why,
		   size_t wlen);

/* pp_private_dir() on pp_cache_base() and "pinpoint/@rel". */
int pp_cache_open(const char *rel, char *path, size_t len, char *why, size_t wlen);

/*
 * Open @name in the private directory @dirfd with @flags (O_NOFOLLOW and
 * O_CLOEXEC added; with O_CREAT, @mode): a regular file of the effective
 * user's that neither its group nor others can write, described in *@st
 * (may be NULL).  The descriptor, or -errno (-EPERM: not such a file,
 * -ELOOP: a link).
 */
int pp_private_file(int dirfd, const char *name, int flags, mode_t mode, struct stat *st);

/*
 * Whether @st, a directory's, is private: the effective user's, writable by
 * neither its group nor others.  Otherwise @why (may be NULL) says, of
 * @path, why not.
 */
int pp_private_check(const struct stat *st, const char *path, char *why, size_t wlen);

#endif /* PINPOINT_PRIVATE_DIR_H */
