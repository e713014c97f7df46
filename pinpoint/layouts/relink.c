// SPDX-License-Identifier: MIT
/*
 * relink.c - make a revision's code layouts: link each instrumented module
 * the discovery runs named again, from the link record pinpoint-cc left
 * beside it, with ld.lld's --shuffle-sections and one seed per layout
 * (layouts.h).  A module that cannot be linked again (no record, a record
 * that names another file, no ld.lld, the link fails, or its functions keep
 * their order: no sections of their own) runs as built in every layout, and
 * one line says which and why.  The files are kept in the revision's
 * layouts directory in the cache (layouts.h) and reused while the record,
 * the objects it names and the module are unchanged, and while the file
 * itself is as it was made: each has its size and hash beside it
 * (KEY.SEED.sum), checked before it is used again; a file that differs (a
 * damaged cache, a disk error) is made again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/elfsec.h"
#include "core/linkrec.h"
#include "core/private_dir.h"
#include "core/process.h"
#include "core/util.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"

#define FNV_INIT 14695981039346656037ULL

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);
}

static uint64_t fnv_stat(uint64_t h, const struct stat *st)
{
	uint64_t v[4] = {(uint64_t)st->st_size, (uint64_t)st->st_mtim.tv_sec,
			 (uint64_t)st->st_mtim.tv_nsec, (uint64_t)st->st_ino};

	return fnv(h, v, sizeof(v));
}

/*
 * "SIZE HASH" of the file @name in @dirfd, a file of the user's only they
 * can write (core/private_dir.h), described in *@st, the hash in *@hash:
 * 0, or -errno.
 */
static int file_sum(int dirfd, const char *name, char *buf, size_t len, struct stat *st,
		    uint64_t *hash)
{
	int fd = pp_private_file(dirfd, name, O_RDONLY, 0, st);
	uint64_t h, size;
	int err;

	if (fd < 0)
		return fd;
	err = pp_fd_hash(fd, &h, &size);
	close(fd);
	if (!err) {
		snprintf(buf, len, "%llu %016llx\n", (unsigned long long)size,
			 (unsigned long long)h);
		*hash = h;
	}
	return err;
}

/*
 * Whether layout file @name is as it was made: its size and hash as
 * NAME.sum says.  *@st: the file that was checked.  The sum catches a
 * damaged file (a full disk, a crash while it was written); it is no
 * defence against another user, whom the cache's private directories keep
 * out (SECURITY.md).
 */
static bool sum_ok(int dirfd, const char *name, struct stat *st, uint64_t *hash)
{
	char sum[NAME_MAX + 8], want[64] = "", got[64];
	ssize_t n;
	int fd;

	snprintf(sum, sizeof(sum), "%s.sum", name);
	fd = pp_private_file(dirfd, sum, O_RDONLY, 0, NULL);
	if (fd < 0)
		return false;
	n = read(fd, want, sizeof(want) - 1);
	close(fd);
	if (n <= 0)
		return false;
	want[n] = 0;
	return !file_sum(dirfd, name, got, sizeof(got), st, hash) && !strcmp(got, want);
}

static void write_line(FILE *f, const void *arg)
{
	fputs(arg, f);
}

/* Write @name's size and hash beside it, as NAME.sum; *@st: the file summed, *@hash its hash. */
static int write_sum(int dirfd, const char *name, struct stat *st, uint64_t *hash)
{
	char sum[NAME_MAX + 8], line[64];
	int err = file_sum(dirfd, name, line, sizeof(line), st, hash);

	if (err)
		return err;
	snprintf(sum, sizeof(sum), "%s.sum", name);
	return pp_write_atomic_at(dirfd, sum, write_line, line);
}

/*
 * The module's key, "NAME.HASH": its name, and a hash of its link record,
 * the module's file and every input file the record names (the objects,
 * archives and response files, as they are now), so that a rebuild makes
 * new layouts.
 */
static char *module_key(const char *path, const struct stat *st, const struct pp_linkrec *r)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	uint64_t h = fnv_stat(fnv_str(FNV_INIT, r->cwd), st);
	char *key;

	for (size_t i = 0; i < r->nenv; i++)
		h = fnv_str(h, r->env[i]);
	for (size_t i = 0; i < r->argc; i++) {
		const char *a = r->argv[i];
		char in[PATH_MAX];
		struct stat is;

		h = fnv_str(h, a);
		if (i == 0 || i == r->output || (*a == '-' && a[1]))
			continue;
		a += *a == '@';
		if (snprintf(in, sizeof(in), "%s%s%s", *a == '/' ? "" : r->cwd,
			     *a == '/' ? "" : "/", a) < (int)sizeof(in) &&
		    !stat(in, &is) && S_ISREG(is.st_mode))
			h = fnv_stat(h, &is);
	}
	if (asprintf(&key, "%s.%016llx", base, (unsigned long long)h) < 0)
		return NULL;
	return key;
}

/* Whether @path is an executable file. */
static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* @name looked up in the colon-separated @path, into @buf. */
static bool in_path(const char *name, const char *path, char *buf, size_t len)
{
	for (const char *p = path; p && *p;) {
		size_t n = strcspn(p, ":");

		if (n && snprintf(buf, len, "%.*s/%s", (int)n, p, name) < (int)len &&
		    executable(buf))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* The record's PATH, or pinpoint's own. */
static const char *record_path(const struct pp_linkrec *r)
{
	for (size_t i = 0; i < r->nenv; i++)
		if (!strncmp(r->env[i], "PATH=", 5))
			return r->env[i] + 5;
	return getenv("PATH");
}

/*
 * Whether the compiler the record links with finds ld.lld for -fuse-ld=lld:
 * beside it (Debian's lld-N puts it in /usr/lib/llvm-N/bin, clang's own
 * directory), or on PATH.  @cc gets the compiler, for the message.
 */
static bool have_lld(const struct pp_linkrec *r, char *cc, size_t len)
{
	char found[PATH_MAX], real[PATH_MAX];
	const char *c = r->argv[0];
	char *slash;

	snprintf(cc, len, "%s", c);
	if (strchr(c, '/'))
		snprintf(found, sizeof(found), "%s%s%s", *c == '/' ? "" : r->cwd,
			 *c == '/' ? "" : "/", c);
	else if (!in_path(c, record_path(r), found, sizeof(found)))
		return false;
	if (realpath(found, real) && (slash = strrchr(real, '/'))) {
		snprintf(cc, len, "%s", real);
		snprintf(slash + 1, sizeof(real) - (size_t)(slash + 1 - real), "ld.lld");
		if (executable(real))
			return true;
	}
	return in_path("ld.lld", record_path(r), found, sizeof(found));
}

/* A module's defined function symbols, with their addresses. */
struct sym {
	uint64_t addr;
	const char *name;
};

struct syms {
	struct sym *v;
	size_t n, cap;
};

static int add_syms(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	struct syms *y = arg;
	size_t n;
	Elf_Data *d = pp_elf_entries(scn, sh, &n);

	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		name = elf_strptr(e->elf, sh->sh_link, s.st_name);
		if (!name)
			continue;
		if (y->n == y->cap) {
			struct sym *nv =
			    realloc(y->v, (y->cap = y->cap ? 2 * y->cap : 256) * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			y->v = nv;
		}
		y->v[y->n++] = (struct sym){s.st_value, name};
	}
	return 0;
}

/*
 * A hash of the order of @path's functions (its defined function symbols
 * in address order); 0 when it cannot be read.
 */
static uint64_t function_order(const char *path)
{
	struct syms y = {0};
	struct sym *v;
	struct pp_elf e;
	uint64_t h = 0;

	if (pp_elf_open(&e, path))
		return 0;
	if (pp_elf_sections(&e, NULL, SHT_SYMTAB, add_syms, &y))
		goto out;
	v = y.v;
	/* insertion by address: the symbols come nearly sorted by section */
	for (size_t i = 1; i < y.n; i++)
		for (size_t j = i; j && v[j - 1].addr > v[j].addr; j--) {
			struct sym t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	h = y.n ? FNV_INIT : 0;
	for (size_t i = 0; i < y.n; i++)
		h = fnv_str(h, v[i].name);
out:
	free(y.v);
	pp_elf_close(&e);
	return h;
}

struct seeds {
	const unsigned long *v;
	unsigned n;
};

static void write_seeds(FILE *f, const void *arg)
{
	const struct seeds *s = arg;

	for (unsigned i = 0; i < s->n; i++)
		fprintf(f, "%lu\n", s->v[i]);
}

/* Whether @seed is one of @l's (NULL: none). */
static bool seed_of(const struct pp_layouts *l, unsigned long seed)
{
	for (unsigned i = 0; l && i < l->nseed; i++)
		if (l->seed[i] == seed)
			return true;
	return false;
}

/*
 * The revision's layout seeds: those of l->seeds_of where it follows
 * another revision's, else those kept in DIR/seeds, up to the first that
 * l->seeds_not has, then new ones drawn from @rng that it does not have;
 * kept there for later sessions.  @want is at most l->seeds_of->nseed
 * (seeds_room()).
 */
static int load_seeds(struct pp_layouts *l, unsigned want, gsl_rng *rng)
{
	unsigned have = 0;
	FILE *f;
	int fd, err;

	if (l->seeds_of) {
		if (want > l->seeds_of->nseed)
			return -EINVAL;
		memcpy(l->seed, l->seeds_of->seed, want * sizeof(*l->seed));
		have = want;
		goto keep;
	}
	fd = pp_private_file(l->dirfd, "seeds", O_RDONLY, 0, NULL);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	while (f && have < want && fscanf(f, "%lu", &l->seed[have]) == 1) {
		if (seed_of(l->seeds_not, l->seed[have]))
			break; /* a layout of the other revision's: drawn anew from here */
		if (l->seed[have] >= 1 && l->seed[have] <= 0x7fffffffUL)
			have++;
	}
	if (f)
		fclose(f);
	if (have == want) {
		l->nseed = want;
		return 0;
	}
	for (; have < want; have++) {
		bool dup;

		/* 0 and -1 mean something else to --shuffle-sections */
		do {
			l->seed[have] = 1 + gsl_rng_uniform_int(rng, 0x7ffffffeUL);
			dup = seed_of(l->seeds_not, l->seed[have]);
			for (unsigned i = 0; i < have; i++)
				dup |= l->seed[i] == l->seed[have];
		} while (dup);
	}
keep:
	err = pp_write_atomic_at(l->dirfd, "seeds", write_seeds, &(struct seeds){l->seed, want});
	if (!err)
		l->nseed = want;
	return err;
}

/* At most the seeds of the layouts @l follows (l->seeds_of), if any. */
static unsigned seeds_room(const struct pp_layouts *l, unsigned want)
{
	return l->seeds_of && want > l->seeds_of->nseed ? l->seeds_of->nseed : want;
}

static void write_link_s(FILE *f, const void *arg)
{
	fprintf(f, "%.6f\n", *(const double *)arg);
}

/*
 * What linking one layout of the revision took, in DIR/link_s, kept by the
 * last session that linked one: a session whose layouts all came from the
 * cache still knows what a new one costs (pinpoint/layouts/ahead.c).  0:
 * none kept, or not a number of seconds.
 */
static double load_link_s(const struct pp_layouts *l)
{
	int fd = pp_private_file(l->dirfd, "link_s", O_RDONLY, 0, NULL);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	double v = 0;

	if (fd >= 0 && !f)
		close(fd);
	if (f && (fscanf(f, "%lf", &v) != 1 || !(v > 0 && v < 1e5)))
		v = 0;
	if (f)
		fclose(f);
	return v;
}

/* Keep the mean of what this session's links of one layout took, if it linked any. */
static void keep_link_s(struct pp_layouts *l)
{
	double t = 0;
	unsigned n = 0;

	for (unsigned k = 0; k < l->n; k++)
		if (l->relink_s[k] > 0) {
			t += l->relink_s[k];
			n++;
		}
	if (!n)
		return;
	l->link_s = t / n;
	pp_write_atomic_at(l->dirfd, "link_s", write_link_s, &l->link_s);
}

/* One link of a module in one layout, as relink_set() makes it. */
struct relink_job {
	unsigned k;		 /* the layout */
	char file[NAME_MAX + 1]; /* its file in the layouts directory */
	char tmp[NAME_MAX + 1];	 /* linked into this first */
	char out[PATH_MAX], shuffle[64];
	const char **argv;
	int err;
};

/* The environment of @r's link: what was set then, unset what was not. */
static void link_env(const struct pp_linkrec *r, const char **env)
{
	size_t ne = 0;

	for (size_t i = 0; pp_linkrec_env_names[i] && ne < PP_LINKREC_MAX_ENV; i++) {
		const char *name = pp_linkrec_env_names[i], *set = name;

		for (size_t k = 0; k < r->nenv; k++)
			if (!strncmp(r->env[k], name, strlen(name)) &&
			    r->env[k][strlen(name)] == '=')
				set = r->env[k];
		env[ne++] = set;
	}
	env[ne] = NULL;
}

/*
 * Whether @arg is a shuffle of the build's own (-Wl,--shuffle-sections=...
 * alone): left out of a layout's link, so that its order is the seed's
 * alone, and layout k of two revisions linked from the same sections is
 * one order (common random numbers, both.c).  A shuffle given together
 * with other options in one -Wl, stays, composed with the seed's.
 */
static bool own_shuffle(const char *arg)
{
	static const char *const forms[] = {"-Wl,--shuffle-sections=", "-Wl,-shuffle-sections=",
					    "-Wl,--shuffle-sections,", "-Wl,-shuffle-sections,"};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (!strncmp(arg, forms[i], strlen(forms[i])))
			return !strchr(arg + strlen(forms[i]), ',');
	return false;
}

/* @j's command: @r's link into j->tmp, its sections shuffled with @seed.  0 or -ENOMEM. */
static int link_argv(struct pp_layouts *l, const struct pp_linkrec *r, struct relink_job *j,
		     unsigned long seed)
{
	size_t na = 0;

	j->argv = calloc(r->argc + 4, sizeof(*j->argv));
	if (!j->argv)
		return -ENOMEM;
	snprintf(j->tmp, sizeof(j->tmp), "%.200s.tmp.%ld", j->file, (long)getpid());
	snprintf(j->out, sizeof(j->out), "%s/%s", l->dir, j->tmp);
	snprintf(j->shuffle, sizeof(j->shuffle), "-Wl,--shuffle-sections=.text*=%lu", seed);
	for (size_t i = 0; i < r->argc; i++)
		if (i == r->output || !own_shuffle(r->argv[i]))
			j->argv[na++] = i == r->output ? j->out : r->argv[i];
	/* Last: clang takes the last -fuse-ld; no debug info, which no run reads. */
	j->argv[na++] = "-fuse-ld=lld";
	j->argv[na++] = j->shuffle;
	j->argv[na++] = "-Wl,--strip-debug";
	j->argv[na] = NULL;
	return 0;
}

/*
 * Ask the driver of @r's link, once a session, for the linker's own command
 * (direct.c), with @j's output and seed: the relink log says which, or why
 * the layouts are linked through the driver.  0, -ENOMEM or -EINTR.
 */
static int ask_direct(struct pp_layout_module *m, const struct pp_linkrec *r,
		      const struct relink_job *j, int logfd, volatile int *stop)
{
	const char *env[PP_LINKREC_MAX_ENV + 1];
	int err;

	link_env(r, env);
	err = pp_link_direct_ask(j->argv, j->out, j->shuffle, r->cwd, env, stop, &m->direct);
	if (err)
		return err;
	m->direct_asked = true;
	if (!m->direct.argv) {
		dprintf(logfd, "pinpoint: %s linked through the driver: %s\n", m->path,
			m->direct.why_not);
		pr_dbg("the layouts of %s are linked through the compiler driver: %s", m->path,
		       m->direct.why_not);
		return 0;
	}
	dprintf(logfd, "pinpoint: %s linked by %s, the command its driver runs (-###)\n", m->path,
		m->direct.argv[0]);
	return 0;
}

/* How many links run at once: the CPUs pinpoint may use, PP_PROCESS_SET_MAX at most. */
static size_t links_at_once(void)
{
	cpu_set_t cpus;
	int n = sched_getaffinity(0, sizeof(cpus), &cpus) ? 1 : CPU_COUNT(&cpus);

	return n < 1 ? 1 : n > PP_PROCESS_SET_MAX ? PP_PROCESS_SET_MAX : (size_t)n;
}

/*
 * The linker made @name in @dirfd with the user's umask: writable by its
 * owner alone from now on, as everything in the cache (core/private_dir.h).
 */
static int private_mode(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), err = 0;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		err = -EPERM;
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) && fchmod(fd, st.st_mode & 07755))
		err = -errno;
	close(fd);
	return err;
}

/*
 * Link @r again into the layouts directory as each of @jobs[0..@n) (at most
 * PP_PROCESS_SET_MAX), at the same time, with the seeds of their layouts:
 * each into FILE.tmp.PID first, renamed once complete.  The links' output
 * goes to @logfd.  Each job's err: 0, or the link's exit status (-errno
 * when it could not run, -EINTR when stopped).
 */
static void relink_set(struct pp_layouts *l, const struct pp_linkrec *r, struct relink_job *jobs,
		       size_t n, int logfd, volatile int *stop)
{
	const char *env[PP_LINKREC_MAX_ENV + 1];
	struct pp_process p[PP_PROCESS_SET_MAX];
	struct pp_run_status st[PP_PROCESS_SET_MAX];
	int errs[PP_PROCESS_SET_MAX], ret;

	link_env(r, env);
	for (size_t i = 0; i < n; i++) {
		struct relink_job *j = &jobs[i];

		p[i] = (struct pp_process){.argv = (char *const *)j->argv,
					   .dir = r->cwd,
					   .env = env,
					   .out = logfd,
					   .err = logfd,
					   .group = true,
					   .stop = stop};
		dprintf(logfd, "pinpoint: layout %lu, in %s:", l->seed[j->k], r->cwd);
		for (size_t a = 0; j->argv[a]; a++)
			dprintf(logfd, " %s", j->argv[a]);
		dprintf(logfd, "\n");
		unlinkat(l->dirfd, j->tmp, 0);
	}
	ret = pp_process_run_set(p, n, st, errs);
	for (size_t i = 0; i < n; i++) {
		struct relink_job *j = &jobs[i];
		int err = ret ? ret : errs[i];

		if (!err && st[i].interrupted)
			err = -EINTR;
		else if (!err && !(st[i].exited && !st[i].exit_code))
			err = st[i].exited ? st[i].exit_code : 128 + st[i].signal;
		if (!err)
			err = private_mode(l->dirfd, j->tmp);
		if (!err && renameat(l->dirfd, j->tmp, l->dirfd, j->file))
			err = -errno;
		if (err)
			unlinkat(l->dirfd, j->tmp, 0);
		j->err = err;
	}
}

/*
 * One line: module @m of revision @label runs as built in every layout, and
 * why; or, when @l is growing (pp_layouts_grow()), why it cannot be linked
 * in more layouts (its caller then keeps the layouts it had).
 */
static int as_built(const struct pp_layouts *l, struct pp_layout_module *m, const char *label,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int as_built(const struct pp_layouts *l, struct pp_layout_module *m, const char *label,
		    const char *fmt, ...)
{
	va_list ap;
	int n;

	free(m->why);
	va_start(ap, fmt);
	n = vasprintf(&m->why, fmt, ap);
	va_end(ap);
	if (n < 0) {
		m->why = NULL;
		return -ENOMEM;
	}
	if (l->first_new)
		pr_warn("the %s revision's %s cannot be linked in more layouts: %s", label, m->path,
			m->why);
	else
		pr_warn("the %s revision's %s runs as built in every layout: %s", label, m->path,
			m->why);
	return 0;
}

/* Layout @k's file of @m is the one @st describes, of @hash: runs are shown that file alone. */
static void keep_file(struct pp_layout_module *m, unsigned k, const struct stat *st, uint64_t hash)
{
	m->files[k] = (struct pp_layout_file){st->st_ino, st->st_size, st->st_mtim, hash};
}

/* Whether @path is inside the directory @dir (both resolved). */
static bool inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

/*
 * Make module @m's layouts: check its record, then link it in each layout
 * from l->first_new on whose file is not there yet.  0 (m->why says when it
 * runs as built), or -ENOMEM / -EINTR.
 */
static int make_module(struct pp_layouts *l, struct pp_layout_module *m, const char *label,
		       const char *revision, int logfd, const char *log, volatile int *stop)
{
	char rec[PATH_MAX + 32], out[PATH_MAX], real[PATH_MAX], cc[PATH_MAX];
	struct relink_job *jobs = NULL;
	struct pp_linkrec r;
	char *key;
	size_t nj = 0;
	struct stat st;
	uint64_t order;
	bool moved = false;
	int err;

	if (!inside(m->path, revision))
		return as_built(l, m, label, "it is outside the revision's directory %s", revision);
	if (lstat(m->path, &st) || !S_ISREG(st.st_mode))
		return as_built(l, m, label, "it is not a regular file");
	/* more layouts of what the first ones were made of, or none */
	if (l->first_new && pp_layout_module_changed(m, &st))
		return as_built(l, m, label, "it changed during the session");
	m->dev = st.st_dev;
	m->ino = st.st_ino;
	m->size = st.st_size;
	m->mtime = st.st_mtim;
	snprintf(rec, sizeof(rec), "%s%s", m->path, PP_LINKREC_SUFFIX);
	err = pp_linkrec_read(rec, &r);
	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT)
		return as_built(l, m, label,
				"no link record %s (it was not linked by pinpoint-cc, pinpoint-c++ "
				"or find_package(Pinpoint))",
				rec);
	if (err)
		return as_built(
		    l, m, label, "cannot read its link record %s: %s", rec,
		    err == -EBADMSG
			? "not a complete record, or its command names its output more than once"
		    : err == -EPROTO ? "written by another version of pinpoint-cc"
				     : strerror(-err));
	snprintf(out, sizeof(out), "%s%s%s", *r.argv[r.output] == '/' ? "" : r.cwd,
		 *r.argv[r.output] == '/' ? "" : "/", r.argv[r.output]);
	/* the same file by device and inode: a bind mount or a link of the directory */
	if (!realpath(out, real) || (strcmp(real, m->path) && !pp_same_file(real, m->path))) {
		err =
		    as_built(l, m, label, "its link record %s names another output, %s", rec, out);
		goto out;
	}
	if (!have_lld(&r, cc, sizeof(cc))) {
		err = as_built(l, m, label,
			       "no ld.lld beside %s or on PATH (Debian: lld-N for clang-N)", cc);
		goto out;
	}
	key = module_key(m->path, &st, &r);
	if (!key) {
		err = -ENOMEM;
		goto out;
	}
	/* the files of the layouts so far are named by the key they were made with */
	if (l->first_new && m->key && strcmp(key, m->key)) {
		free(key);
		err =
		    as_built(l, m, label,
			     "its link record or the objects it names changed during the session");
		goto out;
	}
	free(m->key);
	m->key = key;
	order = function_order(m->path);
	if (!m->files)
		m->files = calloc(PP_MAX_LAYOUTS, sizeof(*m->files));
	jobs = calloc(l->n ? l->n : 1, sizeof(*jobs));
	if (!jobs || !m->files) {
		err = -ENOMEM;
		goto out;
	}
	/* The layouts not there yet, or not as they were made... */
	for (unsigned k = l->first_new; k < l->n && !err; k++) {
		struct relink_job *j = &jobs[nj];
		struct stat fs;
		uint64_t hash;

		snprintf(j->file, sizeof(j->file), "%.200s.%lu", m->key, l->seed[k]);
		/* (sum_ok() opens it as a regular file of the user's, not a link) */
		if (sum_ok(l->dirfd, j->file, &fs, &hash)) {
			keep_file(m, k, &fs, hash);
			continue;
		}
		if (!fstatat(l->dirfd, j->file, &fs, AT_SYMLINK_NOFOLLOW))
			pr_info("layout %u of %s is not as it was made: making it again", k + 1,
				m->path);
		unlinkat(l->dirfd, j->file, 0);
		j->k = k;
		err = link_argv(l, &r, j, l->seed[k]);
		nj += !err;
	}
	/* ... by ld.lld itself where the driver says how, ... */
	if (nj && !m->direct_asked)
		err = ask_direct(m, &r, &jobs[0], logfd, stop);
	for (size_t i = 0; i < nj && !err && m->direct.argv; i++) {
		free(jobs[i].argv);
		jobs[i].argv = NULL;
		err = pp_link_direct_argv(&m->direct, jobs[i].out, jobs[i].shuffle, &jobs[i].argv);
	}
	/* ... linked again, as many at once as there are CPUs for them. */
	for (size_t first = 0, at_once = links_at_once(); first < nj && !err && !m->why;
	     first += at_once) {
		size_t n = nj - first < at_once ? nj - first : at_once;
		double t0 = pp_now(), took;

		relink_set(l, &r, &jobs[first], n, logfd, stop);
		took = (pp_now() - t0) / (double)n;
		for (size_t i = first; i < first + n && !err; i++) {
			struct relink_job *j = &jobs[i];

			struct stat fs;
			uint64_t hash;

			err = j->err ? j->err : write_sum(l->dirfd, j->file, &fs, &hash);
			if (!err)
				keep_file(m, j->k, &fs, hash);
			if (err == -EINTR || err == -ENOMEM)
				break;
			if (err) {
				err =
				    as_built(l, m, label, "linking it again failed (%s %d; see %s)",
					     err < 0 ? "error" : "exit", err < 0 ? -err : err, log);
				break;
			}
			/* the set's time, shared by its links */
			l->relink_s[j->k] += took;
			m->relink_s += took;
			l->reused[j->k] = false;
		}
	}
	/* the first layouts showed that its functions move; more need not again */
	for (unsigned k = 0; k < l->n && !err && !m->why && !l->first_new; k++) {
		char file[NAME_MAX + 1];

		snprintf(file, sizeof(file), "%.200s.%lu", m->key, l->seed[k]);
		snprintf(out, sizeof(out), "%s/%s", l->dir, file);
		moved |= function_order(out) != order;
	}
	if (!err && !m->why && !moved && !l->first_new)
		err = as_built(l, m, label,
			       "its functions keep their order in every layout (they have no "
			       "sections of their own: -fno-function-sections, or LTO)");
out:
	for (size_t i = 0; i < nj; i++)
		free(jobs[i].argv);
	free(jobs);
	pp_linkrec_free(&r);
	return err;
}

/* Remove files of modules that are not the ones this session made layouts of. */
static void remove_stale(struct pp_layouts *l)
{
	int fd = openat(l->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		char name[NAME_MAX + 1];
		const char *dot;
		bool current = false, tmp = strstr(e->d_name, ".tmp.") != NULL;
		size_t len = strlen(e->d_name);
		struct stat st;

		/* KEY.SEED.sum goes with KEY.SEED */
		snprintf(name, sizeof(name), "%.*s",
			 (int)(len > 4 && !strcmp(e->d_name + len - 4, ".sum") ? len - 4 : len),
			 e->d_name);
		dot = strrchr(name, '.');

		if (!dot || (!tmp && (dot - name < 18 || dot[-17] != '.' ||
				      strspn(dot + 1, "0123456789") != strlen(dot + 1) || !dot[1])))
			continue;
		for (size_t i = 0; i < l->nmodules && !tmp; i++)
			current |= l->modules[i].key &&
				   strlen(l->modules[i].key) == (size_t)(dot - name) &&
				   !strncmp(l->modules[i].key, name, (size_t)(dot - name));
		if (!current && !fstatat(l->dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			unlinkat(l->dirfd, e->d_name, 0);
	}
	closedir(d);
}

/*
 * How many layouts of @modules[0..@n) the cache at @dir has room for, at
 * most @want: each takes a copy of every module, and a quarter of the free
 * space is all the layouts of one revision may take (the other revision's,
 * and the user's own files, need the rest).
 */
static unsigned room_for(const struct pp_layouts *l, const char *label, char *const *modules,
			 size_t n, unsigned want)
{
	double size = 0, avail, fit;
	struct statvfs vfs;

	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (!stat(modules[i], &st))
			size += (double)st.st_size;
	}
	if (size <= 0 || statvfs(l->dir, &vfs) || !vfs.f_blocks)
		return want;
	avail = (double)vfs.f_bavail * (double)vfs.f_frsize;
	fit = avail / 4 / size;
	if (fit >= want)
		return want;
	pr_warn("the %s revision is measured in %u code layouts, not %u: a layout of its modules "
		"takes %.1f MB and its cache %s has %.0f MB free",
		label, fit < 2 ? 0 : (unsigned)fit, want, size / 1e6, l->dir, avail / 1e6);
	return fit < 2 ? 0 : (unsigned)fit;
}

int pp_layouts_make(struct pp_layouts *l, const char *label, const char *revision,
		    char *const *modules, size_t n, unsigned want, gsl_rng *rng, volatile int *stop)
{
	char log[PATH_MAX], msg[PATH_MAX + 64], *dir;
	size_t relinked = 0;
	int logfd = -1, err = 0;

	l->n = 0;
	/* not varied: said when the layouts were opened (pp_layouts_open() took the lock) */
	if (want < 2 || l->not_varied || l->lock < 0)
		return 0;
	if (want > PP_MAX_LAYOUTS)
		want = PP_MAX_LAYOUTS;
	want = room_for(l, label, modules, n, want);
	if (want >= 2 && seeds_room(l, want) < 2) {
		l->not_varied =
		    "the previous revision's layouts, whose seeds it takes, are not made";
		return 0;
	}
	want = seeds_room(l, want);
	if (want < 2) {
		l->not_varied = "its layouts would not fit in the cache's free space";
		return 0;
	}
	l->modules = calloc(n ? n : 1, sizeof(*l->modules));
	l->binds = calloc(2 * n + 1, sizeof(*l->binds));
	l->bind_fds = malloc((n ? n : 1) * sizeof(*l->bind_fds));
	if (!l->modules || !l->binds || !l->bind_fds)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		l->bind_fds[i] = -1;
	err = load_seeds(l, want, rng);
	if (err) {
		pr_warn("the %s revision runs as built: %s", label,
			pp_write_failure(err, l->dir, msg, sizeof(msg)));
		l->not_varied = "its layouts directory could not be written";
		return 0;
	}
	l->n = want;
	l->link_s = load_link_s(l);
	for (unsigned k = 0; k < want; k++)
		l->reused[k] = true;
	snprintf(log, sizeof(log), "%s/relink.log", l->dir);
	logfd = pp_create_replace_at(l->dirfd, "relink.log", 0644);
	if (logfd < 0) {
		pr_warn("the %s revision runs as built: %s", label,
			pp_write_failure(logfd, log, msg, sizeof(msg)));
		l->n = 0;
		l->not_varied = "its layouts directory could not be written";
		return 0;
	}
	dir = realpath(revision, NULL);
	for (size_t i = 0; i < n && !err; i++) {
		struct pp_layout_module *m = &l->modules[l->nmodules];

		m->path = realpath(modules[i], NULL);
		if (!m->path) {
			m->path = strdup(modules[i]);
			if (!m->path) {
				err = -ENOMEM;
				break;
			}
		}
		l->nmodules++;
		err = make_module(l, m, label, dir ? dir : revision, logfd, log, stop);
		relinked += !err && !m->why;
	}
	free(dir);
	close(logfd);
	if (!err) {
		remove_stale(l);
		keep_link_s(l);
	}
	if (!err && !relinked) {
		l->n = 0;
		l->not_varied = "none of its modules could be linked again";
	}
	return err;
}

int pp_layouts_grow(struct pp_layouts *l, const char *label, const char *revision, unsigned want,
		    gsl_rng *rng, volatile int *stop)
{
	unsigned had = l->n;
	unsigned long kept[PP_MAX_LAYOUTS];
	char log[PATH_MAX], msg[PATH_MAX + 64], **paths = NULL, *dir = NULL;
	int logfd = -1, err = 0;
	bool failed = false;

	if (want > PP_MAX_LAYOUTS)
		want = PP_MAX_LAYOUTS;
	if (had < 2 || want <= had || l->lock < 0)
		return had;
	paths = calloc(l->nmodules ? l->nmodules : 1, sizeof(*paths));
	if (!paths)
		return -ENOMEM;
	for (size_t i = 0; i < l->nmodules; i++)
		paths[i] = l->modules[i].path;
	want = seeds_room(l, room_for(l, label, paths, l->nmodules, want));
	free(paths);
	if (want <= had)
		return had;
	memcpy(kept, l->seed, had * sizeof(*l->seed));
	err = load_seeds(l, want, rng);
	if (err || memcmp(kept, l->seed, had * sizeof(*l->seed))) {
		/* the runs so far were in these: they stay as they were */
		memcpy(l->seed, kept, had * sizeof(*l->seed));
		l->nseed = had;
		pr_warn("no more layouts of the %s revision: %s", label,
			err ? pp_write_failure(err, l->dir, msg, sizeof(msg))
			    : "its seeds file in the layouts cache changed during the session");
		return had;
	}
	snprintf(log, sizeof(log), "%s/relink.log", l->dir);
	logfd = pp_private_file(l->dirfd, "relink.log", O_WRONLY | O_APPEND, 0, NULL);
	if (logfd < 0) {
		pr_warn("no more layouts of the %s revision: %s", label,
			pp_write_failure(logfd, log, msg, sizeof(msg)));
		return had;
	}
	for (unsigned k = had; k < want; k++) {
		l->reused[k] = true;
		l->relink_s[k] = 0;
	}
	l->first_new = had;
	l->n = want;
	dir = realpath(revision, NULL);
	for (size_t i = 0; i < l->nmodules && !err && !failed; i++) {
		struct pp_layout_module *m = &l->modules[i];

		if (m->why)
			continue; /* as built in every layout, the new ones too */
		err = make_module(l, m, label, dir ? dir : revision, logfd, log, stop);
		if (m->why) {
			/* it ran in its layouts so far: it cannot run as built from now on */
			free(m->why);
			m->why = NULL;
			failed = true;
		}
	}
	free(dir);
	close(logfd);
	l->first_new = 0;
	if (err || failed) {
		l->n = had;
		return err ? err : (int)had;
	}
	keep_link_s(l);
	return (int)want;
}

double pp_layouts_relink_s(const struct pp_layouts *l)
{
	double t = 0;

	for (unsigned k = 0; k < l->n; k++)
		t += l->relink_s[k];
	return t;
}

/* Whether every module @l relinks has its file of the layout of @seed in the cache. */
static bool all_there(const struct pp_layouts *l, unsigned long seed)
{
	for (size_t i = 0; i < l->nmodules; i++) {
		const struct pp_layout_module *m = &l->modules[i];
		char file[NAME_MAX + 1];
		struct stat st;

		if (m->why || !m->key)
			continue;
		snprintf(file, sizeof(file), "%.200s.%lu", m->key, seed);
		if (fstatat(l->dirfd, file, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			return false;
	}
	return true;
}

unsigned pp_layouts_reusable(const struct pp_layouts *l)
{
	const struct pp_layouts *from = l->seeds_of ? l->seeds_of : l;
	unsigned long seed;
	unsigned n = 0;
	FILE *f = NULL;
	int fd;

	if (l->dirfd < 0 || from->dirfd < 0 || !l->n)
		return l->n;
	fd = pp_private_file(from->dirfd, "seeds", O_RDONLY, 0, NULL);
	if (fd >= 0 && !(f = fdopen(fd, "r")))
		close(fd);
	while (f && n < PP_MAX_LAYOUTS && fscanf(f, "%lu", &seed) == 1 && all_there(l, seed))
		n++;
	if (f)
		fclose(f);
	return n > l->n ? n : l->n;
}
