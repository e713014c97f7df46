// SPDX-License-Identifier: MIT
/*
 * cmakecache_test.c - pinpoint/build/cmakecache.c on fixtures/CMakeCache.txt:
 * the entries pinpoint needs, the user's options as cmake -D reads them
 * (quoted names and values, blanks at the end, INTERNAL and STATIC entries
 * and CMake's own left out), lines that are no entries passed over; the
 * same file with CRLF line ends; find_package(Pinpoint); a missing file.
 *
 *   test-driver-cmakecache FIXTURE [TEST]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pinpoint/build/cmakecache.h"

#include "check.h"

static const char *fixture;

/* The user's options of the fixture, in its order. */
static const char *const fixture_defs[] = {
    "BUILD_TESTING:BOOL=ON",	       "BENCH_NOTE:STRING='nightly run  '",
    "BENCH_DIR:PATH=/data/bench dir",  "\"FEATURE:X=Y\":BOOL=OFF",
    "BENCH_SIZE:UNINITIALIZED=large",  "BENCH_EMPTY:STRING=",
    "BENCH_ARGS:STRING=--mode=fast:2", "BENCH_QUOTED:STRING=''x''",
    "BENCH_BLANK:STRING='   '",	       "Pinpoint_DIR:PATH=Pinpoint_DIR-NOTFOUND",
};
#define NDEFS (sizeof(fixture_defs) / sizeof(fixture_defs[0]))

static void check_fixture(const char *path)
{
	struct pp_cmake_cache c;

	CHECK_INT(pp_cmake_cache_read(path, &c), 0);
	CHECK_STR(c.home, "/home/u/proj");
	CHECK_STR(c.generator, "Unix Makefiles");
	CHECK_STR(c.build_type, "Release");
	CHECK_STR(c.cmake, "/usr/bin/cmake");
	CHECK_STR(c.cc, "/usr/bin/cc");
	CHECK_STR(c.cflags, "-O2 -g");
	CHECK(!c.cxx && !c.cxxflags);
	CHECK(!c.package);
	CHECK_INT(c.ndefs, NDEFS);
	for (size_t i = 0; i < c.ndefs && i < NDEFS; i++)
		CHECK_STR(c.defs[i], fixture_defs[i]);
	pp_cmake_cache_free(&c);
}

/*
 * A copy of the fixture in a new file in $TMPDIR (its path in @path), with
 * @eol at the end of each line, and @extra after.
 */
static void write_copy(char *path, size_t len, const char *eol, const char *extra)
{
	const char *tmp = getenv("TMPDIR");
	FILE *in = fopen(fixture, "r"), *out = NULL;
	int fd, ch;

	snprintf(path, len, "%s/pp-cmakecache.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd >= 0)
		out = fdopen(fd, "w");
	CHECK(in && out);
	if (!in || !out)
		exit(1);
	while ((ch = fgetc(in)) != EOF)
		if (ch == '\n')
			fputs(eol, out);
		else
			fputc(ch, out);
	fputs(extra, out);
	fclose(in);
	fclose(out);
}

static void test_fixture(void)
{
	check_fixture(fixture);
}

static void test_crlf(void)
{
	char path[4096];

	write_copy(path, sizeof(path), "\r\n", "");
	check_fixture(path);
	unlink(path);
}

/* A project that found pinpoint's package; the last line has no newline. */
static void test_package(void)
{
	char path[4096];
	struct pp_cmake_cache c;

	write_copy(path, sizeof(path), "\n", "Pinpoint_DIR:PATH=/opt/pinpoint/lib/cmake/Pinpoint");
	CHECK_INT(pp_cmake_cache_read(path, &c), 0);
	CHECK(c.package);
	CHECK_INT(c.ndefs, NDEFS + 1);
	if (c.ndefs == NDEFS + 1)
		CHECK_STR(c.defs[NDEFS], "Pinpoint_DIR:PATH=/opt/pinpoint/lib/cmake/Pinpoint");
	pp_cmake_cache_free(&c);
	unlink(path);
}

static void test_missing(void)
{
	struct pp_cmake_cache c;

	CHECK_INT(pp_cmake_cache_read("/nonexistent/CMakeCache.txt", &c), -ENOENT);
	CHECK(!c.home && !c.defs && !c.ndefs);
}

static void test_user_option(void)
{
	CHECK(pp_cmake_user_option("BUILD_TESTING", "BOOL"));
	CHECK(pp_cmake_user_option("WITH_X", "UNINITIALIZED"));
	CHECK(!pp_cmake_user_option("CMAKE_INSTALL_PREFIX", "PATH"));
	CHECK(!pp_cmake_user_option("X-ADVANCED", "INTERNAL"));
	CHECK(!pp_cmake_user_option("proj_SOURCE_DIR", "STATIC"));
}

int main(int argc, char **argv)
{
	static const struct test tests[] = {
	    {"fixture", test_fixture},	       {"crlf", test_crlf},
	    {"package", test_package},	       {"missing", test_missing},
	    {"user-option", test_user_option},
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s FIXTURE [TEST]\n", argv[0]);
		return 2;
	}
	fixture = argv[1];
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]), argc > 2 ? argv[2] : NULL);
}
