// SPDX-License-Identifier: MIT
/*
 * pinpoint-cc.c - pinpoint-cc and pinpoint-c++: drop-in compiler wrappers.
 *
 *   CC=pinpoint-cc CXX=pinpoint-c++ make
 *   cmake -DCMAKE_C_COMPILER=pinpoint-cc -DCMAKE_CXX_COMPILER=pinpoint-c++ ..
 *
 * Runs the clang the plugin was built for (PINPOINT_CLANG / PINPOINT_CLANGXX
 * override it) with every argument unchanged, plus -fpass-plugin=<plugin>,
 * -g unless a -g option was given, and, when the command links, the shared
 * runtime with an rpath to its directory: one runtime per process, even
 * when instrumented shared libraries are loaded.  A command without input
 * files (-v, --version, -print-*) is passed through untouched.  The mode
 * (C or C++) is chosen by the name the wrapper is run as: a name ending in
 * "++" is the C++ one.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/paths.h"

#ifndef PP_CLANG
#define PP_CLANG "clang"
#endif
#ifndef PP_CLANGXX
#define PP_CLANGXX "clang++"
#endif
#ifndef PP_VERSION
#define PP_VERSION "0"
#endif

static const char *prog = "pinpoint-cc";

/* Options whose value is the next argument, so it is not an input file. */
static const char *const separate_value[] = {
    "-o",
    "-I",
    "-D",
    "-U",
    "-x",
    "-MF",
    "-MT",
    "-MQ",
    "-include",
    "-imacros",
    "-isystem",
    "-idirafter",
    "-iquote",
    "-isysroot",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-include-pch",
    "-L",
    "-l",
    "-T",
    "-u",
    "-z",
    "-Xlinker",
    "-Xclang",
    "-Xassembler",
    "-Xpreprocessor",
    "-mllvm",
    "-target",
    "-arch",
    "--sysroot",
    "--param",
    "-B",
    "-F",
    "-MJ",
    "-serialize-diagnostics",
    "-dumpdir",
    "-dumpbase",
    "-working-directory",
    "-Xopenmp-target",
    "-gcc-toolchain",
};

/* Options that stop before the link. */
static const char *const no_link[] = {
    "-c", "-S", "-E", "-M", "-MM", "-fsyntax-only", "-emit-llvm", "-emit-ast",
};

static bool in_list(const char *arg, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(arg, list[i]))
			return true;
	return false;
}

#define IN(arg, list) in_list(arg, list, sizeof(list) / sizeof(list[0]))

struct scan {
	bool inputs; /* at least one input file (or a response file) */
	bool links;
	bool has_g;
};

static struct scan scan_args(int argc, char **argv)
{
	struct scan s = {.links = true};

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			s.inputs = true; /* a file, "-" (stdin) or @response-file */
		} else if (IN(a, separate_value)) {
			i++;
		} else if (IN(a, no_link)) {
			s.links = false;
		} else if (!strncmp(a, "-g", 2) && strncmp(a, "-gz", 3)) {
			/* -gz compresses debug info, it does not ask for it */
			s.has_g = true;
		}
	}
	return s;
}

static int print_config(const char *clang)
{
	char path[PATH_MAX];
	enum pp_path_kind kinds[] = {PP_PATH_PLUGIN, PP_PATH_RUNTIME_SHARED};
	const char *labels[] = {"plugin", "runtime"};

	printf("%s %s\nclang %s\n", prog, PP_VERSION, clang);
	for (size_t i = 0; i < 2; i++) {
		int err = pp_path_find(kinds[i], path, sizeof(path));

		printf("%s %s%s\n", labels[i], path, err ? " (missing)" : "");
	}
	return 0;
}

static int find(enum pp_path_kind kind, char *buf, size_t size)
{
	int err = pp_path_find(kind, buf, size);

	if (err)
		fprintf(stderr, "%s: %s: %s\n", prog, buf, strerror(-err));
	return err;
}

int main(int argc, char **argv)
{
	char plugin[PATH_MAX], rt[PATH_MAX], plugin_opt[PATH_MAX + 16], rpath[PATH_MAX + 16];
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	size_t blen = strlen(base);
	bool cxx = blen >= 2 && !strcmp(base + blen - 2, "++");
	const char *env = getenv(cxx ? "PINPOINT_CLANGXX" : "PINPOINT_CLANG");
	const char *clang = env && *env ? env : cxx ? PP_CLANGXX : PP_CLANG;
	struct scan s = scan_args(argc, argv);
	char **args;
	int n = 0;

	prog = cxx ? "pinpoint-c++" : "pinpoint-cc";
	if (argc == 2 && !strcmp(argv[1], "--pinpoint-print-config"))
		return print_config(clang);

	args = calloc((size_t)argc + 8, sizeof(*args));
	if (!args) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	args[n++] = (char *)clang;
	if (s.inputs) {
		if (find(PP_PATH_PLUGIN, plugin, sizeof(plugin)))
			goto out_fail;
		snprintf(plugin_opt, sizeof(plugin_opt), "-fpass-plugin=%s", plugin);
		args[n++] = plugin_opt;
		if (!s.has_g)
			args[n++] = "-g";
	}
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	if (s.inputs && s.links) {
		char *slash;

		if (find(PP_PATH_RUNTIME_SHARED, rt, sizeof(rt)))
			goto out_fail;
		slash = strrchr(rt, '/');
		snprintf(rpath, sizeof(rpath), "-Wl,-rpath,%.*s", (int)(slash - rt), rt);
		args[n++] = rt;
		args[n++] = rpath;
		args[n++] = "-lpthread";
	}
	args[n] = NULL;
	execv(clang, args);
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, clang, strerror(errno));
	free(args);
	return 127;

out_fail:
	free(args);
	return 1;
}
