// SPDX-License-Identifier: MIT
/*
 * build.c - build the revisions with pinpoint's instrumentation.
 *
 * A CMake build directory configured with pinpoint-cc / pinpoint-c++ (or
 * with -fpass-plugin in its flags) is used as it is.  A plain one is never
 * touched: its CMakeCache.txt gives the sources, generator, build type and
 * the user's -D options, and an instrumented copy is configured and built in
 * pinpoint's own directory (--build-root, default
 * $XDG_CACHE_HOME/pinpoint/builds), where the benchmark then runs.  Anything
 * else is built by --build-cmd, run in the revision's directory with CC and
 * CXX set to the wrappers.  Build output goes to a log file, created anew
 * (exclusively, then renamed over the old one: a link there is replaced,
 * never followed).
 *
 * A build runs in its own process group, killed when the session is
 * stopped (pp_build_stop_on()).  An instrumented copy is built under a lock
 * (flock on pinpoint.lock in the copy): a second session building the same
 * copy waits for the first one's build to end, with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/paths.h"
#include "core/process.h"
#include "core/private_dir.h"
#include "core/util.h"
#include "pinpoint/build/build.h"
#include "pinpoint/build/cmakecache.h"
#include "pinpoint/log.h"

#ifndef PP_LLVM_VERSION
#define PP_LLVM_VERSION "14"
#endif

/* The session's stop request: a build is killed when it becomes true. */
static volatile int *build_stop;

void pp_build_stop_on(volatile int *stop)
{
	build_stop = stop;
}

/* How instrumented code is compiled: the wrappers, or clang with the plugin. */
struct toolchain {
	char *cc, *cxx;				  /* pinpoint-cc, pinpoint-c++ */
	char *clang, *clangxx, *plugin, *runtime; /* when the wrappers are missing */
	char ccache_check[96];			  /* CCACHE_COMPILERCHECK=string:... */
	char ccache_base[PATH_MAX + 16];	  /* CCACHE_BASEDIR=..., or "" */
};

static void toolchain_free(struct toolchain *t)
{
	free(t->cc);
	free(t->cxx);
	free(t->clang);
	free(t->clangxx);
	free(t->plugin);
	free(t->runtime);
}

static bool is_wrapper(const char *compiler)
{
	const char *base;

	if (!compiler)
		return false;
	base = strrchr(compiler, '/');
	base = base ? base + 1 : compiler;
	return !strcmp(base, "pinpoint-cc") || !strcmp(base, "pinpoint-c++");
}

/*
 * Configured with the wrappers, with the plugin in its flags, or a project
 * that found pinpoint's CMake package (find_package(Pinpoint) +
 * pinpoint_instrument() on its targets).
 */
static bool is_instrumented(const struct pp_cmake_cache *c)
{
	return c->package || is_wrapper(c->cc) || is_wrapper(c->cxx) ||
	       (c->cflags && strstr(c->cflags, "-fpass-plugin")) ||
	       (c->cxxflags && strstr(c->cxxflags, "-fpass-plugin"));
}

/* @path's identity (size and modification time) mixed into @h. */
static uint64_t mix_file(uint64_t h, const char *path)
{
	char buf[PATH_MAX + 64];
	struct stat st;

	if (!path || stat(path, &st))
		return h ^ pp_str_hash(path ? path : "");
	snprintf(buf, sizeof(buf), "%s %lld %lld.%09ld %llu", path, (long long)st.st_size,
		 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
	return h * 1099511628211ull ^ pp_str_hash(buf);
}

/*
 * What ccache is to take for the compiler, when a build's compiles go
 * through it (a CMAKE_<LANG>_COMPILER_LAUNCHER, CC="ccache ...", or
 * ccache's own masquerade): the wrappers, the plugin and the version of
 * pinpoint, so that a new plugin never reuses objects the old one made.
 * By default ccache looks at the compiler's own file only, the wrapper,
 * which does not change when the plugin does.
 */
static void ccache_check(struct toolchain *t)
{
	char plugin[PATH_MAX];
	uint64_t h = pp_str_hash(PP_LLVM_VERSION);

	if (pp_path_find(PP_PATH_PLUGIN, plugin, sizeof(plugin)))
		plugin[0] = 0;
	h = mix_file(h, plugin);
	h = mix_file(h, t->cc);
	h = mix_file(h, t->cxx);
	snprintf(t->ccache_check, sizeof(t->ccache_check),
		 "CCACHE_COMPILERCHECK=string:pinpoint-%016llx", (unsigned long long)h);
}

/*
 * The wrappers live next to pinpoint once installed (bindir) and in
 * tools/cc of a build tree.  Without them, clang gets the plugin and the
 * runtime itself.
 */
static int find_toolchain(struct toolchain *t)
{
	char dir[PATH_MAX], path[PATH_MAX], major[16];
	size_t n;

	memset(t, 0, sizeof(*t));
	if (pp_path_self_dir(dir, sizeof(dir))) {
		pr_err("cannot find the pinpoint executable's directory: %s", strerror(errno));
		return -EINVAL;
	}
	if (!pp_path_find(PP_PATH_CC, path, sizeof(path)) && (t->cc = strdup(path)) &&
	    !pp_path_find(PP_PATH_CXX, path, sizeof(path)) && (t->cxx = strdup(path))) {
		ccache_check(t);
		return 0;
	}
	free(t->cc);
	t->cc = NULL;
	if (!pp_path_find(PP_PATH_PLUGIN, path, sizeof(path)))
		t->plugin = strdup(path);
	if (!pp_path_find(PP_PATH_RUNTIME_STATIC, path, sizeof(path)))
		t->runtime = strdup(path);
	if (!t->plugin || !t->runtime) {
		pr_err("cannot find pinpoint-cc next to %s, nor the plugin and runtime to build "
		       "the revisions with",
		       dir);
		return -EINVAL;
	}
	n = strcspn(PP_LLVM_VERSION, ".");
	snprintf(major, sizeof(major), "%.*s", (int)(n < 8 ? n : 8), PP_LLVM_VERSION);
	if (asprintf(&t->clang, "clang-%s", major) < 0 ||
	    asprintf(&t->clangxx, "clang++-%s", major) < 0)
		return -ENOMEM;
	ccache_check(t);
	return 0;
}

int pp_build_dir(const struct pp_options *opt, const char *name, char *buf, size_t size)
{
	char root[PATH_MAX], rel[NAME_MAX + 16], why[PP_REFUSAL_MAX];
	int fd, n = 0;

	if (!opt->build_root) {
		snprintf(rel, sizeof(rel), "builds/%s", name);
		fd = pp_cache_open(rel, buf, size, why, sizeof(why));
	} else {
		if (*opt->build_root != '/' && getcwd(root, sizeof(root)))
			n = snprintf(root + strlen(root), sizeof(root) - strlen(root), "/%s",
				     opt->build_root);
		else
			n = snprintf(root, sizeof(root), "%s", opt->build_root);
		fd = n < 0 || (size_t)n >= sizeof(root)
			 ? -ENAMETOOLONG
			 : pp_private_dir(root, name, buf, size, why, sizeof(why));
		if (fd == -ENAMETOOLONG && n >= (int)sizeof(root))
			snprintf(why, sizeof(why), "--build-root %s: path too long",
				 opt->build_root);
	}
	if (fd < 0) {
		pr_err("no place for pinpoint's builds: %s%s", why,
		       fd == -ENOENT && !opt->build_root ? " (give --build-root DIR)" : "");
		return -EINVAL;
	}
	close(fd);
	return 0;
}

/*
 * Run @argv (or `sh -c @shell`) in @dir with the compilers in the
 * environment, output to @logfd.  Returns the exit status, or -errno
 * (-EINTR: the session was stopped and the build's process group killed).
 */
static int run_logged(char *const argv[], const char *shell, const char *dir,
		      const struct toolchain *t, int logfd)
{
	char *sh[] = {"/bin/sh", "-c", (char *)shell, NULL};
	char cc[PATH_MAX + 96], cxx[PATH_MAX + 96], libs[PATH_MAX + 48];
	const char *env[8] = {"PINPOINT_BUILD=1", t->ccache_check, cc, cxx};
	size_t ne = 4;
	struct pp_process p = {.argv = shell ? sh : argv,
			       .dir = dir,
			       .env = env,
			       .out = logfd,
			       .err = logfd,
			       .group = true,
			       .stop = build_stop};
	struct pp_run_status st;
	int err;

	if (t->cc) {
		snprintf(cc, sizeof(cc), "CC=%s", t->cc);
		snprintf(cxx, sizeof(cxx), "CXX=%s", t->cxx);
	} else {
		snprintf(cc, sizeof(cc), "CC=%s -g -ffunction-sections -fpass-plugin=%s", t->clang,
			 t->plugin);
		snprintf(cxx, sizeof(cxx), "CXX=%s -g -ffunction-sections -fpass-plugin=%s",
			 t->clangxx, t->plugin);
		snprintf(libs, sizeof(libs), "LDLIBS=%s -lpthread", t->runtime);
		env[ne++] = libs;
	}
	/*
	 * ccache's hits across pinpoint's copies and worktrees, which differ in
	 * their directories only: the working directory left out of the hash
	 * (objects of a hit name the first compile's in their debug info,
	 * their sources by absolute path), and paths under the build root
	 * taken relative to it.  Unless the user set either.
	 */
	if (!getenv("CCACHE_HASHDIR") && !getenv("CCACHE_NOHASHDIR"))
		env[ne++] = "CCACHE_NOHASHDIR=1";
	if (*t->ccache_base && !getenv("CCACHE_BASEDIR"))
		env[ne++] = t->ccache_base;
	env[ne] = NULL;
	err = pp_process_run(&p, &st);
	if (err == -ENOMEM)
		return err;
	if (!err && st.interrupted)
		return -EINTR;
	if (err) {
		dprintf(logfd, "pinpoint: cannot run %s: %s\n", p.argv[0], strerror(-err));
		return 127;
	}
	if (st.exited)
		return st.exit_code;
	return 128 + st.signal;
}

/* A new log at @path: its descriptor, or -errno after one error line. */
static int open_log(const char *path)
{
	char msg[PATH_MAX + 64];
	int fd = pp_create_replace(path, 0644);

	if (fd < 0)
		pr_err("%s", pp_write_failure(fd, path, msg, sizeof(msg)));
	return fd;
}

static int build_failed(const char *label, int status, const char *log)
{
	if (status == -EINTR)
		return -EINTR; /* stopped: said by the caller */
	if (status < 0)
		pr_err("cannot build the %s revision: %s (log: %s)", label, strerror(-status), log);
	else
		pr_err("building the %s revision failed (exit %d): see %s", label, status, log);
	return -EINVAL;
}

/* --build-cmd: the user's command in the revision's directory. */
static int build_with_command(const struct pp_options *opt, const char *label, const char *dir,
			      const struct toolchain *t)
{
	char log[PATH_MAX + 32];
	int fd, st;

	snprintf(log, sizeof(log), "%s/.pinpoint", dir);
	if (mkdir(log, 0755) && errno != EEXIST) {
		pr_err("cannot create %s: %s", log, strerror(errno));
		return -EINVAL;
	}
	snprintf(log, sizeof(log), "%s/.pinpoint/build.log", dir);
	fd = open_log(log);
	if (fd < 0)
		return fd;
	pr_info("building the %s revision (log: %s)", label, log);
	st = run_logged(NULL, opt->build_cmd, dir, t, fd);
	close(fd);
	return st ? build_failed(label, st, log) : 0;
}

/* CMake cache values that may be missing are passed empty. */
static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* The cmake command line that configures the instrumented copy. */
static int configure_args(const struct pp_cmake_cache *c, const struct toolchain *t,
			  const char *bdir, struct pp_argv *a)
{
	int err;

	err = pp_argv_add(a, "%s", or_empty(c->cmake ? c->cmake : "cmake"));
	err = err ?: pp_argv_add(a, "-S%s", or_empty(c->home));
	err = err ?: pp_argv_add(a, "-B%s", or_empty(bdir));
	if (c->generator)
		err = err ?: pp_argv_add(a, "-G%s", or_empty(c->generator));
	err = err ?: pp_argv_add(a, "-DCMAKE_BUILD_TYPE=%s", or_empty(c->build_type));
	if (t->cc) {
		err = err ?: pp_argv_add(a, "-DCMAKE_C_COMPILER=%s", or_empty(t->cc));
		err = err ?: pp_argv_add(a, "-DCMAKE_CXX_COMPILER=%s", or_empty(t->cxx));
		err = err ?: pp_argv_add(a, "-DCMAKE_C_FLAGS=%s", or_empty(c->cflags));
		err = err ?: pp_argv_add(a, "-DCMAKE_CXX_FLAGS=%s", or_empty(c->cxxflags));
	} else {
		err = err ?: pp_argv_add(a, "-DCMAKE_C_COMPILER=%s", or_empty(t->clang));
		err = err ?: pp_argv_add(a, "-DCMAKE_CXX_COMPILER=%s", or_empty(t->clangxx));
		err = err
			  ?: pp_argv_add(
				 a, "-DCMAKE_C_FLAGS=%s -g -ffunction-sections -fpass-plugin=%s",
				 or_empty(c->cflags), t->plugin);
		err = err
			  ?: pp_argv_add(
				 a, "-DCMAKE_CXX_FLAGS=%s -g -ffunction-sections -fpass-plugin=%s",
				 or_empty(c->cxxflags), t->plugin);
		err = err
			  ?: pp_argv_add(a, "-DCMAKE_C_STANDARD_LIBRARIES=%s -lpthread",
					 or_empty(t->runtime));
		err = err
			  ?: pp_argv_add(a, "-DCMAKE_CXX_STANDARD_LIBRARIES=%s -lpthread",
					 or_empty(t->runtime));
	}
	for (size_t i = 0; i < c->ndefs && !err; i++)
		err = pp_argv_add(a, "-D%s", or_empty(c->defs[i]));
	return err;
}

/* Whether @bdir was configured by exactly @a already (pinpoint-configure.args). */
static bool configured_as(const char *bdir, const struct pp_argv *a)
{
	char path[PATH_MAX + 32], *want = NULL, *have = NULL;
	size_t wlen = 0, hlen = 0;
	bool same = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/CMakeCache.txt", bdir);
	if (access(path, F_OK))
		return false;
	f = open_memstream(&want, &wlen);
	if (!f)
		return false;
	for (size_t i = 0; i < a->n; i++)
		fprintf(f, "%s\n", a->v[i]);
	fclose(f);
	snprintf(path, sizeof(path), "%s/pinpoint-configure.args", bdir);
	f = fopen(path, "r");
	if (f) {
		have = malloc(wlen + 2);
		if (have) {
			hlen = fread(have, 1, wlen + 1, f);
			same = hlen == wlen && !memcmp(have, want, wlen);
		}
		fclose(f);
	}
	free(have);
	free(want);
	return same;
}

static void write_args(FILE *f, const void *arg)
{
	const struct pp_argv *a = arg;

	for (size_t i = 0; i < a->n; i++)
		fprintf(f, "%s\n", a->v[i]);
}

static int save_configure_args(const char *bdir, const struct pp_argv *a)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/pinpoint-configure.args", bdir);
	return pp_write_atomic(path, write_args, a);
}

/*
 * Lock the copy @bdir against other sessions building it (flock on
 * @bdir/pinpoint.lock, released when the descriptor is closed, or when
 * pinpoint dies).  Waits for the other session with a message, as long as
 * the session is not stopped.  The descriptor, or -errno (-EINTR: stopped).
 */
static int lock_copy(const char *bdir)
{
	char path[PATH_MAX + 32];
	bool said = false;
	int fd;

	snprintf(path, sizeof(path), "%s/pinpoint.lock", bdir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		fd = -errno;
		pr_err("cannot lock %s: %s", path, strerror(-fd));
		return fd;
	}
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		struct timespec ts = {0, 100000000L};
		int err = -errno;

		if (err != -EWOULDBLOCK && err != -EINTR) {
			pr_err("cannot lock %s: %s", path, strerror(-err));
			close(fd);
			return err;
		}
		if (build_stop && *build_stop) {
			close(fd);
			return -EINTR;
		}
		if (!said)
			pr_info("waiting for another pinpoint session building %s", bdir);
		said = true;
		nanosleep(&ts, NULL);
	}
	return fd;
}

/* A plain CMake build directory: configure (once) and build the copy. */
static int build_cmake_copy(const struct pp_options *opt, const char *label, const char *dir,
			    struct pp_cmake_cache *c, struct toolchain *t, char **run_dir)
{
	struct pp_argv a = {0};
	char root[PATH_MAX + 32], bdir[PATH_MAX], log[PATH_MAX + 32], jobs[24];
	const char *base = strrchr(dir, '/');
	char *build_argv[7];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fd = -1, lock = -1, st, err;

	if (!c->home) {
		pr_err("%s/CMakeCache.txt names no source directory (CMAKE_HOME_DIRECTORY)", dir);
		return -EINVAL;
	}
	base = base && base[1] ? base + 1 : "build";
	snprintf(root, sizeof(root), "%.200s-%016llx", base, (unsigned long long)pp_str_hash(dir));
	err = pp_build_dir(opt, root, bdir, sizeof(bdir));
	if (!err)
		/* the build root: every copy, and --commits' worktrees */
		snprintf(t->ccache_base, sizeof(t->ccache_base), "CCACHE_BASEDIR=%.*s",
			 (int)(strrchr(bdir, '/') - bdir), bdir);
	if (err)
		return err;
	lock = lock_copy(bdir);
	if (lock < 0)
		return lock;
	snprintf(log, sizeof(log), "%s/pinpoint-build.log", bdir);
	err = configure_args(c, t, bdir, &a);
	if (err)
		goto out;
	fd = open_log(log);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	pr_info("building the %s revision (log: %s)", label, log);
	if (!configured_as(bdir, &a)) {
		/* Other options than last time: start from a fresh cache. */
		snprintf(root, sizeof(root), "%s/CMakeCache.txt", bdir);
		unlink(root);
		st = run_logged(a.v, NULL, bdir, t, fd);
		if (st) {
			err = build_failed(label, st, log);
			goto out;
		}
		err = save_configure_args(bdir, &a);
		if (err) {
			char msg[PATH_MAX + 96];

			snprintf(log, sizeof(log), "%s/pinpoint-configure.args", bdir);
			pr_err("%s", pp_write_failure(err, log, msg, sizeof(msg)));
			goto out;
		}
	}
	snprintf(jobs, sizeof(jobs), "%ld", ncpu > 0 ? ncpu : 1);
	build_argv[0] = a.v[0];
	build_argv[1] = "--build";
	build_argv[2] = bdir;
	build_argv[3] = "--parallel";
	build_argv[4] = jobs;
	build_argv[5] = NULL;
	st = run_logged(build_argv, NULL, bdir, t, fd);
	if (st) {
		err = build_failed(label, st, log);
		goto out;
	}
	*run_dir = strdup(bdir);
	if (!*run_dir)
		err = -ENOMEM;
out:
	if (fd >= 0)
		close(fd);
	close(lock);
	pp_argv_free(&a);
	return err;
}

int pp_build_revision(const struct pp_options *opt, const char *label, const char *dir,
		      char **run_dir)
{
	struct pp_cmake_cache c;
	struct toolchain t;
	char path[PATH_MAX];
	int err;

	*run_dir = NULL;
	if (opt->no_build)
		return 0;
	snprintf(path, sizeof(path), "%s/CMakeCache.txt", dir);
	memset(&c, 0, sizeof(c));
	if (!opt->build_cmd) {
		if (access(path, F_OK))
			return 0; /* not CMake's: assumed built; discovery checks the tables */
		err = pp_cmake_cache_read(path, &c);
		if (err) {
			pr_err("cannot read %s: %s", path, strerror(-err));
			return -EINVAL;
		}
		if (is_instrumented(&c)) {
			pp_cmake_cache_free(&c);
			return 0;
		}
	}
	err = find_toolchain(&t);
	if (!err) {
		if (opt->build_cmd)
			err = build_with_command(opt, label, dir, &t);
		else
			err = build_cmake_copy(opt, label, dir, &c, &t, run_dir);
	}
	toolchain_free(&t);
	pp_cmake_cache_free(&c);
	return err;
}
