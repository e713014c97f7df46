/* SPDX-License-Identifier: MIT */
/*
 * linkrec_test.c - the link record (core/linkrec.h, doc/formats.md 5):
 * written and read back, and the records the reader refuses, above all a
 * command that names its output twice, which would make the driver's link
 * again write over the build's own files.
 *
 *     linkrec_test [TEST]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "core/linkrec.h"

/* Parse the record "pinpoint-link 1", "cwd /build", @lines, "end". */
static int parse(const char *lines, struct pp_linkrec *r)
{
	char text[4096];
	int n = snprintf(text, sizeof(text), "pinpoint-link 1\ncwd /build\n%send\n", lines);

	return pp_linkrec_parse(text, (size_t)n, r);
}

/* @lines as a record: 0 or its error; a record read is checked and freed. */
static int check(const char *lines, const char *output)
{
	struct pp_linkrec r;
	int err = parse(lines, &r);

	if (!err) {
		CHECK_STR(r.argv[r.output], output);
		pp_linkrec_free(&r);
	}
	return err;
}

#define CC "arg clang\narg main.o\n"

static void test_roundtrip(void)
{
	char dir[] = "/tmp/pp-linkrec-XXXXXX", path[256];
	char *argv[] = {"/usr/bin/clang", "-O2", "main.o", "-o", "app dir/a\nb", "-lm", NULL};
	char *env[] = {"PATH=/usr/bin:/bin"};
	struct pp_linkrec w = {
	    .cwd = "/home/me/b", .env = env, .nenv = 1, .argv = argv, .argc = 6, .output = 4};
	struct pp_linkrec r;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/app%s", dir, PP_LINKREC_SUFFIX);
	CHECK_INT(pp_linkrec_write(path, &w), 0);
	CHECK_INT(pp_linkrec_read(path, &r), 0);
	CHECK_STR(r.cwd, "/home/me/b");
	CHECK_INT(r.nenv, 1);
	CHECK_INT(r.argc, 6);
	CHECK_INT(r.output, 4);
	if (r.argc == 6) {
		CHECK_STR(r.argv[0], "/usr/bin/clang");
		CHECK_STR(r.argv[4], "app dir/a\nb");
		CHECK(r.argv[6] == NULL);
	}
	pp_linkrec_free(&r);

	/* Written with a second -o (the writer records what it is given) ... */
	argv[1] = "-o";
	argv[2] = "other";
	CHECK_INT(pp_linkrec_write(path, &w), 0);
	/* ... read, refused. */
	CHECK_INT(pp_linkrec_read(path, &r), -EBADMSG);
	CHECK(r.argv == NULL && r.cwd == NULL);
	unlink(path);
	rmdir(dir);
}

static void test_records(void)
{
	struct pp_linkrec r;

	CHECK_INT(check(CC "arg -o\noutput app\narg -lm\n", "app"), 0);
	CHECK_INT(check(CC "arg --output\noutput app\n", "app"), 0);
	/* The output is the word after -o, whatever it looks like. */
	CHECK_INT(check(CC "arg -o\noutput -oapp\n", "-oapp"), 0);
	/* Options that only start like -o's long form, or link flags. */
	CHECK_INT(check(CC
			"arg -o\noutput app\narg --output-dir\narg -O2\narg -Wl,-O1,--as-needed\n"
			"arg -Wl,-rpath,/opt/out\narg -Xlinker\narg -soname\n",
			"app"),
		  0);

	/* Not complete records. */
	CHECK_INT(parse(CC "arg -o\noutput app\nbogus x\n", &r), -EBADMSG);
	CHECK_INT(parse(CC "arg -o\n", &r), -EBADMSG);
	CHECK_INT(parse("output app\n", &r), -EBADMSG);
	CHECK_INT(pp_linkrec_parse("pinpoint-link 2\nend\n", 20, &r), -EPROTO);
}

/*
 * A command that names its output more than once, in any of clang's
 * spellings, or not as the word after -o: the link again would write
 * where the other names, over the build's own binary.
 */
static void test_two_outputs(void)
{
	static const char *const bad[] = {
	    /* a second output, after the one marked or before it */
	    CC "arg -o\noutput app\narg -o\narg app-built\n",
	    CC "arg -o\narg app-built\narg -o\noutput app\n",
	    CC "arg -o\noutput app\narg -oapp-built\n",
	    CC "arg -o\noutput app\narg --output\narg app-built\n",
	    CC "arg -o\noutput app\narg --output=app-built\n",
	    CC "arg --output=app-built\narg -o\noutput app\n",
	    /* -o with its file missing, at the end */
	    CC "arg -o\noutput app\narg -o\n",
	    /* to the linker, past clang */
	    CC "arg -o\noutput app\narg -Wl,-o,app-built\n",
	    CC "arg -o\noutput app\narg -Wl,--as-needed,-oapp-built\n",
	    CC "arg -o\noutput app\narg -Wl,--output=app-built\n",
	    CC "arg -o\noutput app\narg -Wl,-o\narg -Wl,app-built\n",
	    CC "arg -o\noutput app\narg -Xlinker\narg -o\narg -Xlinker\narg app-built\n",
	    /* the word marked is not -o's */
	    CC "output app\n",
	    CC "arg -oapp-built\noutput app\n",
	    CC "arg -lm\noutput app\narg -o\narg app-built\n",
	};
	struct pp_linkrec r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = parse(bad[i], &r);

		if (err != -EBADMSG)
			fprintf(stderr, "record %zu: %d, not -EBADMSG:\n%s", i, err, bad[i]);
		CHECK_INT(err, -EBADMSG);
		CHECK(r.argv == NULL && r.argc == 0);
	}
}

static const struct test tests[] = {
    {"roundtrip", test_roundtrip},
    {"records", test_records},
    {"two_outputs", test_two_outputs},
};

int main(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "usage: linkrec_test [TEST]\n");
		return 2;
	}
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]), argc > 1 ? argv[1] : NULL);
}
