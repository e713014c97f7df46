// SPDX-License-Identifier: MIT
/*
 * link_direct_test.c - pinpoint/layouts/direct.c: a -### line read as the
 * driver quotes it; the linker's command taken from drivers (shell
 * scripts in $TMPDIR) that answer -### as clang does, and each answer that
 * must keep the driver: two commands, another linker, the output or the
 * seed inside another argument, a driver that fails or prints nothing; the
 * command for another layout.
 *
 *   test-driver-link-direct [TEST]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pinpoint/layouts/direct.h"

#include "check.h"

#define OUT "/cache/prog.7.tmp.42"
#define SHUFFLE "-Wl,--shuffle-sections=.text*=7"

static void test_parse(void)
{
	char **v = NULL;
	size_t n = 0;

	CHECK_INT(pp_link_direct_parse(" \"/usr/bin/ld.lld\" \"-o\" \"a b\" \"x\\\"y\\\\z\\$w\"\n",
				       &v, &n),
		  0);
	CHECK_INT(n, 4);
	if (n == 4) {
		CHECK_STR(v[0], "/usr/bin/ld.lld");
		CHECK_STR(v[2], "a b");
		CHECK_STR(v[3], "x\"y\\z$w");
		CHECK(!v[4]);
	}
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
	v = NULL;
	CHECK_INT(pp_link_direct_parse(" \"unclosed", &v, &n), -EINVAL);
	CHECK_INT(pp_link_direct_parse(" \"a\"b", &v, &n), -EINVAL);
	CHECK_INT(pp_link_direct_parse(" \"a\" b", &v, &n), -EINVAL);
	CHECK_INT(pp_link_direct_parse("Target: x86_64", &v, &n), -EINVAL);
	CHECK_INT(pp_link_direct_parse("", &v, &n), -EINVAL);
	CHECK(!v);
}

/* A driver in $TMPDIR that prints @answer to stderr and exits with @status; its path in @path. */
static void fake_driver(char *path, size_t len, const char *answer, int status)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, len, "%s/pp-driverXXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f)
		return;
	fprintf(f,
		"#!/bin/sh\nfor a; do last=$a; done\n[ \"$last\" = '-###' ] || exit 9\n"
		"cat >&2 <<'EOF'\n%sEOF\nexit %d\n",
		answer, status);
	fclose(f);
	chmod(path, 0700);
}

/* What pp_link_direct_ask() takes of a driver answering @answer with @status. */
static int ask(const char *answer, int status, struct pp_link_direct *d)
{
	char drv[4096];
	const char *argv[] = {drv, "main.o", "-o", OUT, "-fuse-ld=lld", SHUFFLE, NULL};
	int err;

	fake_driver(drv, sizeof(drv), answer, status);
	err = pp_link_direct_ask(argv, OUT, SHUFFLE, NULL, NULL, NULL, d);
	unlink(drv);
	return err;
}

#define CLANG_HEAD "clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\nInstalledDir: /usr/bin\n"
#define LINK_LINE                                                                                  \
	" \"/usr/lib/llvm-14/bin/ld.lld\" \"-pie\" \"-o\" \"" OUT "\" \"main.o\" "                 \
	"\"--shuffle-sections=.text*=3\" \"--shuffle-sections=.text*=7\" \"--strip-debug\"\n"

static void test_ask(void)
{
	struct pp_link_direct d;
	const char **argv = NULL;

	CHECK_INT(ask(CLANG_HEAD LINK_LINE, 0, &d), 0);
	CHECK(d.argv && !d.why_not);
	if (d.argv) {
		CHECK_STR(d.argv[0], "/usr/lib/llvm-14/bin/ld.lld");
		CHECK_INT(d.out, 3);
		CHECK_INT(d.seed, 6); /* the layout's, after the build's own */
		CHECK_INT(pp_link_direct_argv(&d, "/cache/prog.9.tmp.42",
					      "-Wl,--shuffle-sections=.text*=9", &argv),
			  0);
		CHECK_STR(argv[3], "/cache/prog.9.tmp.42");
		CHECK_STR(argv[5], "--shuffle-sections=.text*=3");
		CHECK_STR(argv[6], "--shuffle-sections=.text*=9");
		CHECK_STR(argv[7], "--strip-debug");
		CHECK(!argv[8]);
		free(argv);
	}
	pp_link_direct_free(&d);
	CHECK(!d.argv && !d.why_not);
}

/* Answers that keep the driver, each with its reason. */
static void test_keep_driver(void)
{
	static const struct {
		const char *answer, *why;
		int status;
	} cases[] = {
	    {CLANG_HEAD " \"/usr/bin/clang\" \"-cc1\" \"-o\" \"/tmp/a.o\"\n" LINK_LINE,
	     "more than one command", 0},
	    {" \"/usr/lib/gcc/x86_64-linux-gnu/12/collect2\" \"-o\" \"" OUT "\" "
	     "\"--shuffle-sections=.text*=7\"\n",
	     "not ld.lld", 0},
	    {" \"/usr/bin/ld.lld\" \"-o" OUT "\" \"--shuffle-sections=.text*=7\"\n",
	     "the output and the seed", 0},
	    {" \"/usr/bin/ld.lld\" \"-o\" \"" OUT "\" \"--shuffle-sections=.text*=7,-z\"\n",
	     "the output and the seed", 0},
	    {" \"/usr/bin/ld.lld\" \"-o\" \"" OUT "\" \"--shuffle-sections=.text*=7\" \"-o\" "
	     "\"" OUT "\"\n",
	     "the output and the seed", 0},
	    {" \"/usr/bin/ld.lldx\" \"-o\" \"" OUT "\" \"--shuffle-sections=.text*=7\"\n",
	     "not ld.lld", 0},
	    {" \"/usr/bin/ld.lld\" \"-o\" \"" OUT "\" \"unclosed\n", "could not read", 0},
	    {CLANG_HEAD, "named no command", 0},
	    {CLANG_HEAD LINK_LINE, "-### failed", 1},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pp_link_direct d;

		CHECK_INT(ask(cases[i].answer, cases[i].status, &d), 0);
		CHECK(!d.argv && d.why_not);
		if (d.why_not && !strstr(d.why_not, cases[i].why)) {
			fprintf(stderr, "case %zu: why not: %s\n", i, d.why_not);
			CHECK(0);
		}
		pp_link_direct_free(&d);
	}
}

/* A driver that is not there: the driver is kept, nothing fails. */
static void test_no_driver(void)
{
	const char *argv[] = {"/nonexistent/clang", "-o", OUT, SHUFFLE, NULL};
	struct pp_link_direct d;

	CHECK_INT(pp_link_direct_ask(argv, OUT, SHUFFLE, NULL, NULL, NULL, &d), 0);
	CHECK(!d.argv && d.why_not);
	pp_link_direct_free(&d);
}

int main(int argc, char **argv)
{
	static const struct test tests[] = {
	    {"parse", test_parse},
	    {"ask", test_ask},
	    {"keep-driver", test_keep_driver},
	    {"no-driver", test_no_driver},
	};

	return run_tests(tests, sizeof(tests) / sizeof(tests[0]), argc > 1 ? argv[1] : NULL);
}
