/* SPDX-License-Identifier: MIT */
/*
 * deps.h - the shared libraries an executable loads, read from its ELF
 * dynamic sections without running anything (deps.c).
 */
#ifndef PINPOINT_DEPS_H
#define PINPOINT_DEPS_H

/*
 * Call @fn(path, @arg) for each shared library @exe needs, directly or
 * through other libraries, breadth first, each once, by real path, as the
 * dynamic loader would find them; names it cannot find are left out.  Stops
 * at the first non-zero return of @fn and returns it.  Returns 0,
 * -ENOEXEC when @exe is not an ELF file, -ENOMEM, or -errno of resolving
 * @exe's path.
 */
int pp_deps_each(const char *exe, int (*fn)(const char *path, void *arg), void *arg);

#endif /* PINPOINT_DEPS_H */
