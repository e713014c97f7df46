/* SPDX-License-Identifier: MIT */
/*
 * paths.h - where pinpoint's plugin and runtime are, seen from the running
 * executable.
 *
 * Paths are relative to the executable's directory (/proc/self/exe), so a
 * build tree, an installed tree and a relocated copy (an extracted .deb) all
 * work:
 *
 *   installed    <prefix>/bin/EXE    <prefix>/lib/pinpoint/{pinpoint-pass.so,
 *                                      libpinpoint-rt.so, libpinpoint-rt.a}
 *   build tree   <build>/DIR/EXE     <build>/pass/pinpoint-pass.so,
 *                                    <build>/runtime/libpinpoint-rt.{so,a}
 *
 * The wrappers pinpoint-cc and pinpoint-c++ are looked for beside the
 * executable (installed), then in <build>/tools and <build>/tools/cc.
 */
#ifndef PINPOINT_PATHS_H
#define PINPOINT_PATHS_H

#include <stddef.h>

enum pp_path_kind {
	PP_PATH_PLUGIN,		/* pinpoint-pass.so */
	PP_PATH_RUNTIME_SHARED, /* libpinpoint-rt.so */
	PP_PATH_RUNTIME_STATIC, /* libpinpoint-rt.a */
	PP_PATH_CC,		/* pinpoint-cc: bin/ installed, tools/ or tools/cc/ built */
	PP_PATH_CXX,		/* pinpoint-c++ */
};

/*
 * Absolute path of KIND into buf, its directory canonical.  Returns 0, or -errno; on
 * -ENOENT buf holds the installed-layout path that was expected, for the
 * error message.
 */
int pp_path_find(enum pp_path_kind kind, char *buf, size_t size);

/* Directory of the running executable, symlinks resolved.  0 or -errno. */
int pp_path_self_dir(char *buf, size_t size);

#endif /* PINPOINT_PATHS_H */
