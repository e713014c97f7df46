// SPDX-License-Identifier: MIT
/*
 * pinpoint-cc.c - pinpoint-cc and pinpoint-c++: drop-in compiler wrappers.
 *
 *   CC=pinpoint-cc CXX=pinpoint-c++ make
 *   cmake -DCMAKE_C_COMPILER=pinpoint-cc -DCMAKE_CXX_COMPILER=pinpoint-c++ ..
 *
 * Runs the clang the plugin was built for (PINPOINT_CLANG / PINPOINT_CLANGXX
 * override it) with every argument unchanged, plus -fpass-plugin=<plugin>,
 * -g unless a -g option was given, -ffunction-sections unless
 * -fno-function-sections was (so that the driver can link the program again
 * in other orders of its functions), and, when the command links, the shared
 * runtime with an rpath to its directory: one runtime per process, even
 * when instrumented shared libraries are loaded.  A command without input
 * files (-v, --version, -print-*) is passed through untouched.  The mode
 * (C or C++) is chosen by the name the wrapper is run as: a name ending in
 * "++" is the C++ one.
 *
 * A link that succeeds leaves its link record beside its output,
 * OUTPUT.pinpoint-link (core/linkrec.h): the command, its working directory
 * and the environment a link reads.  A command that compiles and links at
 * once (cc -O2 a.c b.c -o prog) is run as its compiles, each source to an
 * object kept in OUTPUT.pinpoint-objs/, then the link of those objects:
 * the same work, and a record that names objects, so that a code layout of
 * the program is one link, not a compile of every source.  (Not with -x,
 * an @response-file, stdin as a source, -### or -flto: then as it is.)  The
 * link uses, and the driver links again, what is in that directory, so it
 * must be the user's alone, even where the output's directory is shared: it
 * is made with mode 0700, and one already there is used only when it is a
 * directory (not a link) of the effective user's that neither its group nor
 * others can write; each object is noted (device, inode, size, times) after
 * its compile and must be the same right before the link.  Anything else is
 * refused with one line and exit status 1.  `pinpoint-cc
 * --pinpoint-record-link COMMAND...` runs COMMAND as it is and records it the same way: CMake's
 * linker launcher for find_package(Pinpoint)'s targets, and pinpoint's own
 * test programs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/linkrec.h"
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
	bool no_sections; /* -fno-function-sections */
	bool sections;	  /* -ffunction-sections */
	bool response;	  /* an @response-file, which may hold -o */
	int out;	  /* argv index of "-o" or "-oFILE", 0: none */
};

static struct scan scan_args(int argc, char **argv)
{
	struct scan s = {.links = true};

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			s.inputs = true; /* a file, "-" (stdin) or @response-file */
			s.response |= a[0] == '@';
		} else if (!strcmp(a, "-o") || (!strncmp(a, "-o", 2) && !IN(a, separate_value))) {
			/* -o FILE, -oFILE (no other clang option a link takes starts with -o) */
			s.out = i;
			i += !a[2];
		} else if (IN(a, separate_value)) {
			i++;
		} else if (IN(a, no_link)) {
			s.links = false;
		} else if (!strcmp(a, "-fno-function-sections")) {
			s.no_sections = true;
			s.sections = false;
		} else if (!strcmp(a, "-ffunction-sections")) {
			s.sections = true;
			s.no_sections = false;
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

/*
 * Write OUTPUT.pinpoint-link for the link @args[0..@n) just made, whose
 * output is @args[@out].  Only for an output that is a regular file; a
 * record that cannot be written is said in one line and fails nothing: the
 * program is linked, only not relinkable.
 */
static void record_link(char **args, size_t n, size_t out)
{
	char cwd[PATH_MAX], path[PATH_MAX + 32];
	char *env[PP_LINKREC_MAX_ENV] = {NULL};
	struct pp_linkrec r = {.cwd = cwd, .env = env, .argv = args, .argc = n, .output = out};
	struct stat st;
	int err;

	if (lstat(args[out], &st) || !S_ISREG(st.st_mode))
		return; /* /dev/null, a pipe: nothing to link again */
	if (!getcwd(cwd, sizeof(cwd)) || snprintf(path, sizeof(path), "%s%s", args[out],
						  PP_LINKREC_SUFFIX) >= (int)sizeof(path)) {
		fprintf(stderr, "%s: cannot record how %s was linked: %s\n", prog, args[out],
			strerror(errno ? errno : ENAMETOOLONG));
		return;
	}
	for (size_t i = 0; pp_linkrec_env_names[i] && r.nenv < PP_LINKREC_MAX_ENV; i++) {
		const char *v = getenv(pp_linkrec_env_names[i]);

		if (v && asprintf(&env[r.nenv], "%s=%s", pp_linkrec_env_names[i], v) >= 0)
			r.nenv++;
	}
	err = pp_linkrec_write(path, &r);
	if (err)
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(-err));
	for (size_t i = 0; i < r.nenv; i++)
		free(env[i]);
}

/*
 * Run @clang with @args[0..@n) and then the command line's own arguments in
 * this process; returns 127 (and frees @args) only when it cannot.
 */
static int exec_clang(const char *clang, char **args, int n, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execv(clang, args);
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, clang, strerror(errno));
	free(args);
	return 127;
}

/* Run @args (NULL-terminated); the compiler's exit status, or 128 + its signal. */
static int run(char **args)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "%s: cannot run %s: %s\n", prog, args[0], strerror(errno));
		return 127;
	}
	if (!pid) {
		execvp(args[0], args);
		fprintf(stderr, "%s: cannot run %s: %s\n", prog, args[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Append @argv[@from..@argc) to @args at *@n, -o FILE as two words (-oFILE
 * split; none: -o a.out, what clang would write); *@out gets the index of
 * FILE, 0 when the output is not known (in a response file).
 */
static void add_user_args(char **args, int *n, int argc, char **argv, int from,
			  const struct scan *s, int *out)
{
	*out = 0;
	for (int i = from; i < argc; i++) {
		if (i == s->out && argv[i][2]) {
			args[(*n)++] = "-o";
			*out = *n;
			args[(*n)++] = argv[i] + 2;
			continue;
		}
		args[(*n)++] = argv[i];
		if (i == s->out && i + 1 < argc) {
			*out = *n;
			args[(*n)++] = argv[++i];
		}
	}
	if (!s->out && !s->response) {
		args[(*n)++] = "-o";
		*out = *n;
		args[(*n)++] = "a.out";
	}
}

/* --pinpoint-record-link COMMAND...: COMMAND as it is, and its link record. */
static int record_only(int argc, char **argv)
{
	struct scan s = scan_args(argc - 2, argv + 2);
	char **args = calloc((size_t)argc + 4, sizeof(*args));
	int n = 0, out, status;

	if (argc < 3) {
		fprintf(stderr, "%s: --pinpoint-record-link needs a command\n", prog);
		return 2;
	}
	if (!args) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	args[n++] = argv[2];
	if (s.inputs && s.links)
		add_user_args(args, &n, argc - 2, argv + 2, 1, &s, &out);
	else
		for (int i = 3; i < argc; i++)
			args[n++] = argv[i];
	args[n] = NULL;
	status = run(args);
	if (!status && s.inputs && s.links && out)
		record_link(args, (size_t)n, (size_t)out);
	free(args);
	return status;
}

/* Whether @a is a source file that a compile-and-link command compiles. */
static bool is_source(const char *a)
{
	static const char *const ext[] = {".c", ".cc", ".cpp", ".cxx", ".c++", ".C",
					  ".i", ".ii", ".m",   ".mm",  ".s",   ".S"};
	const char *dot = strrchr(a, '.');

	return a[0] != '-' && a[0] != '@' && dot && !strchr(dot, '/') && IN(dot, ext);
}

/* Whether the command's compiles can be run apart from its link (see the top). */
static bool can_split(int argc, char **argv, const struct scan *s)
{
	bool sources = false;

	if (!s->links || s->response)
		return false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-x") || !strncmp(a, "-x", 2) || !strcmp(a, "-") ||
		    !strcmp(a, "-###") || !strncmp(a, "-flto", 5) || !strcmp(a, "-save-temps"))
			return false;
		if (i == s->out) {
			i += !a[2];
			continue;
		}
		if (a[0] == '-') {
			i += IN(a, separate_value);
			continue;
		}
		sources |= is_source(a);
	}
	return sources;
}

/* Free what compile_apart() made: @objs, and its objects' names (not @user's strings). */
static void free_objects(char **objs, char **user, int argc)
{
	for (int i = 0; objs && i < argc; i++)
		if (objs[i] != user[i])
			free(objs[i]);
	free(objs);
}

/*
 * The objects directory of a command compiled apart from its link, and each
 * object as its compile left it (indexed as the command's arguments).
 */
struct objs_dir {
	char path[PATH_MAX + 32];
	int fd; /* O_NOFOLLOW|O_DIRECTORY, checked private */
	struct stat st;
	struct stat *made;
};

/*
 * Whether the directory @st, at @path, is private: the effective user's,
 * writable by neither its group nor others.  0, or -EPERM after one line
 * saying why and what to do.
 */
static int objs_dir_private(const struct stat *st, const char *path)
{
	if (st->st_uid != geteuid()) {
		fprintf(stderr,
			"%s: %s belongs to uid %u, not to you: refusing to compile into it "
			"(remove it, or link to another output)\n",
			prog, path, (unsigned)st->st_uid);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		fprintf(stderr,
			"%s: %s is writable by %s (mode %04o): refusing to compile into it "
			"(chmod go-w %s, or remove it)\n",
			prog, path, st->st_mode & S_IWOTH ? "others" : "its group",
			(unsigned)(st->st_mode & 07777), path);
		return -EPERM;
	}
	return 0;
}

/*
 * Open @d->path, made with mode 0700 when missing, as a private directory
 * reached without following a link: in a shared output directory, what is
 * already on that name may be anyone's.  0, or -errno after one line.
 */
static int objs_dir_open(struct objs_dir *d)
{
	struct stat lst;
	int err;

	if (mkdir(d->path, 0700) && errno != EEXIST) {
		err = -errno;
		fprintf(stderr, "%s: cannot make %s: %s\n", prog, d->path, strerror(-err));
		return err;
	}
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		err = -errno;
		if (!lstat(d->path, &lst) && !S_ISDIR(lst.st_mode))
			fprintf(stderr,
				"%s: %s is %s, not a directory: refusing to compile into it "
				"(remove it)\n",
				prog, d->path, S_ISLNK(lst.st_mode) ? "a symbolic link" : "a file");
		else
			fprintf(stderr, "%s: cannot open %s: %s\n", prog, d->path, strerror(-err));
		return err;
	}
	if (fstat(d->fd, &d->st)) {
		err = -errno;
		fprintf(stderr, "%s: cannot open %s: %s\n", prog, d->path, strerror(-err));
		goto out_close;
	}
	err = objs_dir_private(&d->st, d->path);
	if (err)
		goto out_close;
	return 0;

out_close:
	close(d->fd);
	d->fd = -1;
	return err;
}

static void objs_dir_close(struct objs_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	free(d->made);
	d->made = NULL;
}

/* @obj's name in its directory: what follows the last '/'. */
static const char *obj_name(const char *obj)
{
	return strrchr(obj, '/') + 1;
}

/*
 * Note in *@st the object @obj that a compile just made in @d: a regular
 * file of the user's, not a link.  0, or -EPERM after one line.
 */
static int obj_note(const struct objs_dir *d, const char *obj, struct stat *st)
{
	if (fstatat(d->fd, obj_name(obj), st, AT_SYMLINK_NOFOLLOW)) {
		fprintf(stderr, "%s: the compile made no %s: %s\n", prog, obj, strerror(errno));
		return -EPERM;
	}
	if (!S_ISREG(st->st_mode) || st->st_uid != geteuid()) {
		fprintf(stderr, "%s: %s is not the object its compile made: refusing to link it\n",
			prog, obj);
		return -EPERM;
	}
	return 0;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mode == b->st_mode && a->st_uid == b->st_uid &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * Right before the link of @objs (@user's sources replaced by the objects
 * @d holds): the path of @d still leads, without a link, to the directory
 * the compiles wrote in, still private, and each object there is the file
 * its compile left.  0, or -EPERM after one line.
 */
static int objs_check(const struct objs_dir *d, char **user, char **objs, int argc)
{
	struct stat st;
	int fd, err = 0;

	fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || st.st_dev != d->st.st_dev || st.st_ino != d->st.st_ino) {
		fprintf(stderr,
			"%s: %s was replaced between the compiles and the link: refusing to link\n",
			prog, d->path);
		err = -EPERM;
		goto out;
	}
	err = objs_dir_private(&st, d->path);
	for (int i = 1; i < argc && !err; i++) {
		if (objs[i] == user[i])
			continue;
		if (fstatat(fd, obj_name(objs[i]), &st, AT_SYMLINK_NOFOLLOW) ||
		    !same_file(&st, &d->made[i])) {
			fprintf(stderr,
				"%s: %s changed between its compile and the link: refusing to "
				"link it\n",
				prog, objs[i]);
			err = -EPERM;
		}
	}
out:
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * Compile each source of the command to OUTPUT.pinpoint-objs/K-NAME.o with
 * @pre[0..@npre) (clang and the wrapper's options) and the command's
 * options, then put the objects in the sources' places in @argv (copied),
 * each noted in @d.  0, or the first failed compile's status (1 for a
 * directory or object refused).
 */
static int compile_apart(char **pre, int npre, int argc, char **argv, const struct scan *s,
			 const char *output, struct objs_dir *d, char ***out_argv)
{
	char **cargs, **nargv;
	int status = 0, k = 0;

	snprintf(d->path, sizeof(d->path), "%s.pinpoint-objs", output);
	if (objs_dir_open(d))
		return 1;
	cargs = calloc((size_t)npre + (size_t)argc + 8, sizeof(*cargs));
	nargv = calloc((size_t)argc + 1, sizeof(*nargv));
	d->made = calloc((size_t)argc, sizeof(*d->made));
	if (!cargs || !nargv || !d->made) {
		free(cargs);
		free(nargv);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	nargv[0] = argv[0];
	for (int i = 1; i < argc; i++)
		nargv[i] = argv[i];
	for (int i = 1; i < argc && !status; i++) {
		char obj[PATH_MAX + 64];
		const char *base;
		int n = 0;

		if (i == s->out) {
			i += !argv[i][2];
			continue;
		}
		if (argv[i][0] == '-') {
			i += IN(argv[i], separate_value);
			continue;
		}
		if (!is_source(argv[i]))
			continue;
		base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		snprintf(obj, sizeof(obj), "%s/%d-%s.o", d->path, k++, base);
		/* an object of an earlier build never stands in for this compile's */
		if (unlinkat(d->fd, obj_name(obj), 0) && errno != ENOENT) {
			fprintf(stderr, "%s: cannot remove %s: %s\n", prog, obj, strerror(errno));
			status = 1;
			break;
		}
		for (int j = 0; j < npre; j++)
			cargs[n++] = pre[j];
		/* every option but the output; the link's are unused here */
		for (int j = 1; j < argc; j++) {
			if (j == s->out) {
				j += !argv[j][2];
				continue;
			}
			if (argv[j][0] != '-') {
				continue;
			}
			cargs[n++] = argv[j];
			if (IN(argv[j], separate_value) && j + 1 < argc)
				cargs[n++] = argv[++j];
		}
		cargs[n++] = "-Qunused-arguments";
		cargs[n++] = "-c";
		cargs[n++] = argv[i];
		cargs[n++] = "-o";
		cargs[n++] = obj;
		cargs[n] = NULL;
		status = run(cargs);
		if (!status && obj_note(d, obj, &d->made[i]))
			status = 1;
		if (!status && !(nargv[i] = strdup(obj)))
			status = 1;
	}
	free(cargs);
	if (status) {
		free_objects(nargv, argv, argc);
		return status;
	}
	*out_argv = nargv;
	return 0;
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
	struct objs_dir d = {.fd = -1};
	char **args, **objs = NULL, **user = NULL;
	int n = 0, out = 0, status;

	prog = cxx ? "pinpoint-c++" : "pinpoint-cc";
	if (argc == 2 && !strcmp(argv[1], "--pinpoint-print-config"))
		return print_config(clang);
	if (argc >= 2 && !strcmp(argv[1], "--pinpoint-record-link"))
		return record_only(argc, argv);

	args = calloc((size_t)argc + 12, sizeof(*args));
	if (!args) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	args[n++] = (char *)clang;
	if (!s.inputs)
		return exec_clang(clang, args, n, argc, argv);
	if (find(PP_PATH_PLUGIN, plugin, sizeof(plugin)))
		goto out_fail;
	snprintf(plugin_opt, sizeof(plugin_opt), "-fpass-plugin=%s", plugin);
	args[n++] = plugin_opt;
	if (!s.has_g)
		args[n++] = "-g";
	if (!s.no_sections && !s.sections)
		args[n++] = "-ffunction-sections";
	if (!s.links)
		return exec_clang(clang, args, n, argc, argv);
	if (can_split(argc, argv, &s)) {
		const char *output = !s.out	      ? "a.out"
				     : argv[s.out][2] ? argv[s.out] + 2
						      : argv[s.out + 1];
		status = compile_apart(args, n, argc, argv, &s, output, &d, &objs);
		if (status) {
			objs_dir_close(&d);
			free(args);
			return status;
		}
		user = argv;
		argv = objs; /* the link, of the objects */
	}
	add_user_args(args, &n, argc, argv, 1, &s, &out);
	if (find(PP_PATH_RUNTIME_SHARED, rt, sizeof(rt)))
		goto out_fail;
	snprintf(rpath, sizeof(rpath), "-Wl,-rpath,%.*s", (int)(strrchr(rt, '/') - rt), rt);
	args[n++] = rt;
	args[n++] = rpath;
	args[n++] = "-lpthread";
	args[n] = NULL;
	if (objs && objs_check(&d, user, objs, argc))
		goto out_fail;
	status = run(args);
	if (!status && out)
		record_link(args, (size_t)n, (size_t)out);
	objs_dir_close(&d);
	free_objects(objs, user, argc);
	free(args);
	return status;

out_fail:
	objs_dir_close(&d);
	free_objects(objs, user, argc);
	free(args);
	return 1;
}
