/* SPDX-License-Identifier: MIT */
/*
 * cmakecache.h - what the driver reads from a CMake build directory's
 * CMakeCache.txt: where its sources are, how it was configured, and the
 * user's own options, to configure another build directory the same way
 * (build.c's instrumented copies, commits.c's builds of each commit).
 */
#ifndef PINPOINT_CMAKECACHE_H
#define PINPOINT_CMAKECACHE_H

#include <stdbool.h>
#include <stddef.h>

struct pp_cmake_cache {
	char *home;		 /* CMAKE_HOME_DIRECTORY: the sources */
	char *generator;	 /* CMAKE_GENERATOR */
	char *build_type;	 /* CMAKE_BUILD_TYPE */
	char *cmake;		 /* CMAKE_COMMAND: the cmake that configured it */
	char *cc, *cxx;		 /* CMAKE_C_COMPILER, CMAKE_CXX_COMPILER */
	char *cflags, *cxxflags; /* CMAKE_C_FLAGS, CMAKE_CXX_FLAGS */
	char **defs;		 /* the user's options, each NAME:TYPE=VALUE as cmake -D reads it */
	size_t ndefs;
	bool package; /* found find_package(Pinpoint): its targets use pinpoint_instrument() */
};

/*
 * Read the CMakeCache.txt @path into @c, whose strings are malloc'ed (NULL
 * when the cache has no such entry).  0, or -errno (-ENOENT: no such file,
 * -ENOMEM), with nothing left to free.
 */
int pp_cmake_cache_read(const char *path, struct pp_cmake_cache *c);
void pp_cmake_cache_free(struct pp_cmake_cache *c);

/*
 * Whether the entry @name of type @type is the user's own option, which
 * another build directory is configured with too: not an INTERNAL or STATIC
 * entry, nor one of CMake's (CMAKE_*: compilers, flags, tool paths and
 * install directories are CMake's or pinpoint's to choose), but for
 * CMAKE_<LANG>_COMPILER_LAUNCHER: the user's ccache, distcc or icecc, which
 * then runs pinpoint-cc as the compiler.
 */
bool pp_cmake_user_option(const char *name, const char *type);

#endif /* PINPOINT_CMAKECACHE_H */
