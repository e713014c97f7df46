// SPDX-License-Identifier: MIT
/*
 * commits.c - --commits GOOD..BAD, from a slow night to the call.
 *
 *   pinpoint --commits v1.2..main --entry parse_doc --build-cmd make -- ./bench
 *
 * The commits of the range (git rev-list --ancestry-path) are checked out,
 * one git worktree per commit, under the build root
 * (<root>/commits-<repository hash>/<commit>), where they stay: a later
 * session reuses them and their builds.  Each commit tried is compared with
 * GOOD by a session of its own on the entry alone (--depth 0), the same
 * measurement and decision as any session: a commit is slow only when its
 * session finds a regression (its entry slower than GOOD's by the threshold
 * or more; slower below the threshold is not slow).  A commit that does not build,
 * cannot be measured or stays undecided is skipped and a neighbour tried
 * instead; a BAD that stays undecided ends the run with exit status 4.
 * Without --precision-threshold, the commits between are compared at half
 * the slowdown BAD was found to have at least (the lower end of its
 * interval, read back from the --history line of BAD's session), when that
 * is above the default (pp_bisect_threshold(), bisect.c): the question is
 * which commit brought the slowdown BAD shows, and an unchanged commit is
 * told from GOOD within a threshold that size in a few rounds, where the
 * default 1 % can take hundreds of runs on a noisy entry.  --bisect takes
 * its steps' threshold the same way: the bisection's bad commit is checked
 * out, built and compared with --previous here, once per bisection
 * (pp_commits_bisect_bad()).  Then one full session between the last fast and
 * the first slow commit names the call.  Without --build-cmd, --current is
 * a CMake build directory of a source tree in the repository: each commit
 * is configured (generator, build type and the user's options of that
 * directory, cmakecache.h) and built in <worktree>/.pinpoint-cmake with the
 * compiler wrappers, and COMMAND runs there.  The sessions are pinpoint
 * itself, run again with the options of this one (pp_options_argv(); with
 * --verbose each one's command line is printed); their output goes to
 * stderr as progress, the last one's to stdout.  What git prints and the
 * sessions' --history lines go to a private work directory in $TMPDIR,
 * made and removed as a session's is (workdir.h, signals.h); --bisect's
 * BAD line stays under the build root for the later steps.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/process.h"
#include "core/util.h"
#include "pinpoint/build/bisect.h"
#include "pinpoint/build/build.h"
#include "pinpoint/build/cmakecache.h"
#include "pinpoint/build/commits.h"
#include "pinpoint/build/git.h"
#include "pinpoint/log.h"
#include "pinpoint/session/signals.h"
#include "pinpoint/build/workdir.h"

/* What a stage returns when the run goes on to the next one; otherwise an exit status. */
#define GO_ON (-1)

static volatile int commits_stop;

/* What a commit was found to be, compared with GOOD. */
enum commit_state {
	UNTRIED,
	FAST,
	SLOWER,
	SKIPPED,   /* it does not build or cannot be measured */
	UNDECIDED, /* its runs could not tell it from GOOD */
};

struct commit {
	char hash[41];
	char *subject;
	char *dir; /* the revision directory in its worktree, once checked out */
	enum commit_state state;
	bool built; /* by --build-jobs, ahead of its session */
};

struct range {
	const struct pp_options *opt;
	const char *what;    /* the option being run, for messages: --commits or --bisect */
	char *top;	     /* the repository's work tree */
	char *rel;	     /* the current directory, relative to it ("" or "sub/dir/") */
	char *build_cmd;     /* --build-cmd, or the one made for a CMake build directory */
	char root[PATH_MAX]; /* where the worktrees go */
	char self[PATH_MAX]; /* pinpoint */
	struct commit good;
	struct commit *c; /* GOOD..BAD, oldest first; BAD last */
	size_t n;
	long lo, hi;		     /* the first slower commit is one of c[lo + 1 .. hi] */
	double probe_precision;	     /* --precision-threshold of the sessions that bisect */
	char work[PATH_MAX];	     /* private work directory, in $TMPDIR; "" before it is made */
	char history[PATH_MAX + 32]; /* the probes' --history lines, in it */
};

static const char *const work_files[] = {"probes.jsonl", NULL};

/* Run @argv (git) in @dir, stderr silenced; its stdout in *@out when @out (git.h). */
static int run_capture(const struct range *g, char *const argv[], const char *dir, char **out)
{
	return pp_git_capture(argv, dir, g->work, out);
}

/* The full hash of @rev, a commit. */
static int resolve(const struct range *g, const char *rev, char hash[41])
{
	char spec[512], *out = NULL;
	char *argv[] = {"git", "rev-parse", "--verify", "--quiet", spec, NULL};
	int err;

	if (snprintf(spec, sizeof(spec), "%s^{commit}", rev) >= (int)sizeof(spec))
		return -EINVAL;
	err = run_capture(g, argv, g->top, &out);
	if (!err && (!out || strlen(out) != 40))
		err = -EINVAL;
	if (!err)
		memcpy(hash, out, 41);
	free(out);
	return err;
}

static char *subject_of(const struct range *g, const char *hash)
{
	char *argv[] = {"git", "log", "-1", "--format=%s", (char *)hash, NULL};
	char *out = NULL;

	if (run_capture(g, argv, g->top, &out))
		return strdup("");
	return out;
}

static int list_range(struct range *g, const char *good, const char *bad)
{
	char spec[100], *out = NULL;
	char *argv[] = {"git", "rev-list", "--reverse", "--ancestry-path", spec, NULL};
	size_t cap = 0;
	int err;

	snprintf(spec, sizeof(spec), "%s..%s", good, bad);
	err = run_capture(g, argv, g->top, &out);
	if (err)
		return err;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		if (strlen(line) != 40)
			continue;
		if (g->n == cap) {
			struct commit *n = realloc(g->c, (cap = cap ? 2 * cap : 32) * sizeof(*n));

			if (!n) {
				free(out);
				return -ENOMEM;
			}
			g->c = n;
		}
		memset(&g->c[g->n], 0, sizeof(g->c[0]));
		memcpy(g->c[g->n].hash, line, 41);
		g->c[g->n].subject = subject_of(g, line);
		g->n++;
	}
	free(out);
	return 0;
}

/* Where the worktrees go: a directory of the build root (build.h) for this repository. */
static int worktree_root(struct range *g)
{
	char name[64];

	int err;

	snprintf(name, sizeof(name), "commits-%016llx", (unsigned long long)pp_str_hash(g->top));
	err = pp_build_dir(g->opt, name, g->root, sizeof(g->root));
	/* ccache (a launcher of the user's): one commit's objects are another's hits */
	if (!err && !getenv("CCACHE_BASEDIR"))
		setenv("CCACHE_BASEDIR", g->root, 1);
	return err;
}

/* Check @c out in its worktree (once; reused by later sessions). */
static int checkout(struct range *g, struct commit *c)
{
	char wt[PATH_MAX + 48], gitfile[PATH_MAX + 56];
	char *add[] = {"git", "worktree", "add", "--detach", "--quiet", wt, c->hash, NULL};
	char *prune[] = {"git", "worktree", "prune", NULL};
	int err;

	if (c->dir)
		return 0;
	snprintf(wt, sizeof(wt), "%s/%.40s", g->root, c->hash);
	snprintf(gitfile, sizeof(gitfile), "%s/.git", wt);
	if (access(gitfile, F_OK)) {
		pr_info("checking out %.12s in %s", c->hash, wt);
		run_capture(g, prune, g->top, NULL);
		err = run_capture(g, add, g->top, NULL);
		if (err && commits_stop)
			return -EINTR; /* Ctrl-C reached git too: not a failed checkout */
		if (err) {
			pr_err("cannot check out %.12s in %s (git worktree add failed)", c->hash,
			       wt);
			return -EINVAL;
		}
	}
	if (asprintf(&c->dir, "%s/%s", wt, g->rel) < 0) {
		c->dir = NULL;
		return -ENOMEM;
	}
	if (mkdir(c->dir, 0755) && errno != EEXIST) {
		pr_err("cannot create %s: %s", c->dir, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

/* @s quoted for sh, appended to @f. */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/*
 * The command line of a session between @prev and @cur: this one's options
 * (options.c gives them back, those of this process only left out), with
 * the directories, the build command and, for a probe, depth 0 and the
 * bisection's threshold.  The report files are the last session's; the
 * probes write their history lines to the work directory when the
 * threshold is to be read from BAD's.
 */
static int session_args(const struct range *g, const char *prev, const char *cur, bool probe,
			struct pp_argv *a)
{
	struct pp_options o = *g->opt;
	int err;

	o.previous = prev;
	o.current = cur;
	o.build_cmd = g->build_cmd;
	o.no_save_command = true;
	if (probe) {
		o.depth = 0;
		o.precision = g->probe_precision;
		o.json = o.html = NULL;
		o.history = o.precision_given ? NULL : g->history;
	}
	err = pp_argv_add(a, "%s", g->self);
	return err ?: pp_options_argv(&o, a);
}

/* With --verbose: the command line of a session, quoted for sh. */
static void print_args(const struct pp_argv *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (pp_verbose <= 0 || !(m = open_memstream(&buf, &len)))
		return;
	for (size_t i = 0; i < a->n; i++) {
		if (i)
			fputc(' ', m);
		sh_quote(m, a->v[i]);
	}
	if (!fclose(m))
		pr_dbg("session: %s", buf);
	free(buf);
}

/* A session between @prev and @cur; its exit status, or -errno. */
static int run_session(const struct range *g, const char *prev, const char *cur, bool probe)
{
	struct pp_argv a = {0};
	struct pp_process p = {.out = probe ? 2 : 1, .err = 2};
	struct pp_run_status st;
	int err;

	err = session_args(g, prev, cur, probe, &a);
	if (err)
		goto out;
	print_args(&a);
	p.argv = a.v;
	fflush(stdout);
	err = pp_process_run(&p, &st);
	if (err)
		goto out;
	err = st.exited		    ? st.exit_code
	      : st.signal == SIGINT ? PP_EXIT_INTERRUPTED
				    : 128 + st.signal;
out:
	pp_argv_free(&a);
	return err;
}

static const char *const state_names[] = {
    [UNTRIED] = "untried", [FAST] = "fast",	      [SLOWER] = "slower",
    [SKIPPED] = "skipped", [UNDECIDED] = "undecided",
};

/* A session's exit status as what it found commit @c to be. */
static int judge(struct commit *c, int status)
{
	switch (status) {
	case PP_EXIT_NO_REGRESSION:
		c->state = FAST;
		return 0;
	case PP_EXIT_REGRESSION:
		c->state = SLOWER;
		return 0;
	case PP_EXIT_USAGE:
	case PP_EXIT_MEASUREMENT:
		c->state = SKIPPED;
		return 0;
	case PP_EXIT_UNDECIDED:
		c->state = UNDECIDED;
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Compare commit @i with GOOD: its state set, or -EINTR (interrupted),
 * -EINVAL (it could not be checked out, or its session ended some other
 * way), -ENOMEM.  The bisection steps over SKIPPED and UNDECIDED alike.
 */
static int probe(struct range *g, size_t i, size_t step)
{
	struct commit *c = &g->c[i];
	int st;

	fprintf(stderr, "pinpoint: [%zu] commit %zu of %zu, %.12s %s: comparing with GOOD %.12s\n",
		step, i + 1, g->n, c->hash, c->subject, g->good.hash);
	st = checkout(g, c);
	if (st)
		return st;
	st = run_session(g, g->good.dir, c->dir, true);
	if (st < 0)
		return st;
	if (commits_stop || st == PP_EXIT_INTERRUPTED)
		return -EINTR;
	if (judge(c, st))
		return -EINVAL;
	fprintf(stderr, "pinpoint: [%zu] %.12s is %s%s\n", step, c->hash, state_names[c->state],
		c->state == SKIPPED ? " (it does not build or cannot be measured)"
		: c->state == UNDECIDED
		    ? " (its runs could not tell it from GOOD within the budget)"
		    : "");
	return 0;
}

static long next_candidate(const struct range *g, long lo, long hi);

/*
 * --build-jobs: @n commits built at once, each checked out and built by a
 * child pinpoint --build-only in its directory, as its session would build
 * it (which then finds nothing to do).  Nothing is measured meanwhile: the
 * builds are over before the next session starts.  A build that fails is
 * left to the session, which skips the commit.  0, or -EINTR.
 */
static int prebuild(struct range *g, struct commit **c, size_t n)
{
	struct pp_process p[PP_PROCESS_SET_MAX];
	struct pp_run_status st[PP_PROCESS_SET_MAX];
	struct pp_argv a[PP_PROCESS_SET_MAX];
	int err[PP_PROCESS_SET_MAX];
	size_t k = 0;

	memset(a, 0, sizeof(a));
	for (size_t i = 0; i < n && k < PP_PROCESS_SET_MAX; i++) {
		int e;

		if (c[i]->built || (e = checkout(g, c[i])) == -EINVAL)
			continue;
		if (e)
			return e;
		c[i]->built = true;
		e = pp_argv_add(&a[k], "%s", g->self) ?: pp_argv_add(&a[k], "--build-only")
		    ?: pp_argv_add(&a[k], "--current=%s", c[i]->dir)
		    ?: pp_argv_add(&a[k], "--build-cmd=%s", g->build_cmd);
		if (e)
			return e;
		p[k] =
		    (struct pp_process){.argv = a[k].v, .out = 2, .err = 2, .stop = &commits_stop};
		k++;
	}
	if (k > 1)
		fprintf(stderr, "pinpoint: building %zu commits at once (--build-jobs)\n", k);
	if (k)
		pp_process_run_set(p, k, st, err);
	for (size_t i = 0; i < k; i++)
		pp_argv_free(&a[i]);
	return commits_stop ? -EINTR : 0;
}

/*
 * The commits the next steps of the bisection of lo..hi may try, in the
 * order they may be tried (the next one, then the one after it either way
 * it goes, ...), at most @want of them into @out.
 */
static size_t upcoming(const struct range *g, long lo, long hi, size_t want, struct commit **out)
{
	long q[2 * PP_PROCESS_SET_MAX + 2][2];
	size_t head = 0, tail = 0, n = 0;

	q[tail][0] = lo;
	q[tail++][1] = hi;
	while (head < tail && n < want) {
		long l = q[head][0], h = q[head][1], m = next_candidate(g, l, h);

		head++;
		if (m < 0)
			continue;
		out[n++] = &g->c[m];
		if (tail + 2 <= sizeof(q) / sizeof(q[0])) {
			q[tail][0] = l; /* slower: the first slower one is at m or before */
			q[tail++][1] = m;
			q[tail][0] = m; /* fast: after it */
			q[tail++][1] = h;
		}
	}
	return n;
}

/*
 * --build-jobs above 1: @first (@nfirst of them: GOOD and BAD before the
 * bisection starts), then what its next steps may try, built now, at once.
 */
static int build_ahead(struct range *g, struct commit **first, size_t nfirst)
{
	struct commit *c[PP_PROCESS_SET_MAX];
	size_t n = 0, jobs = (size_t)g->opt->build_jobs;

	if (jobs <= 1)
		return 0;
	if (jobs > PP_PROCESS_SET_MAX)
		jobs = PP_PROCESS_SET_MAX;
	for (; n < nfirst && n < jobs; n++)
		c[n] = first[n];
	n += upcoming(g, g->lo, g->hi, jobs - n, c + n);
	return prebuild(g, c, n);
}

/* The untried commit of lo+1..hi-1 nearest the middle, or -1. */
static long next_candidate(const struct range *g, long lo, long hi)
{
	long mid = lo + (hi - lo) / 2;

	for (long d = 0; d < hi - lo; d++) {
		if (mid - d > lo && mid - d < hi && g->c[mid - d].state == UNTRIED)
			return mid - d;
		if (mid + d > lo && mid + d < hi && g->c[mid + d].state == UNTRIED)
			return mid + d;
	}
	return -1;
}

static const struct commit *at(const struct range *g, long i)
{
	return i < 0 ? &g->good : &g->c[i];
}

static void print_commit(const char *what, const struct commit *c)
{
	printf("%s %.12s %s\n", what, c->hash, c->subject);
}

/* What is established: the first slow commit is in lo+1..hi. */
static void print_range(const struct range *g, bool interrupted)
{
	long lo = g->lo, hi = g->hi;

	if (interrupted)
		printf("Interrupted: what was established so far:\n");
	if (hi - lo == 1) {
		print_commit("First slower commit:", at(g, hi));
		print_commit("Last fast commit:   ", at(g, lo));
		return;
	}
	printf("The first slower commit is one of these %ld (after %.12s, the last fast one):\n",
	       hi - lo, at(g, lo)->hash);
	for (long i = lo + 1; i <= hi; i++)
		printf("  %.12s %s%s\n", g->c[i].hash, g->c[i].subject,
		       g->c[i].state == SKIPPED	    ? "  [skipped: no build or no measurement]"
		       : g->c[i].state == UNDECIDED ? "  [undecided]"
		       : g->c[i].state == SLOWER    ? "  [slower]"
						    : "");
}

static int split_range(const char *spec, char **good, char **bad)
{
	const char *dots = strstr(spec, "..");

	*good = strndup(spec, (size_t)(dots - spec));
	*bad = strdup(dots + 2);
	return *good && *bad ? 0 : -ENOMEM;
}

/*
 * --current is a CMake build directory of sources at @srcrel of the work
 * tree: each commit is configured (with the directory's generator and build
 * type) and built in <worktree>/.pinpoint-cmake, from ../@srcrel.
 */
static int cmake_build_cmd(struct range *g, const struct pp_cmake_cache *c, const char *srcrel)
{
	char *buf = NULL, *src = NULL, *arg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m) {
		fputs("cmake -S ", m);
		if (asprintf(&src, "../%s", srcrel) >= 0) {
			sh_quote(m, src);
			free(src);
		}
		fputs(" -B .", m);
		if (c->generator && *c->generator) {
			fputs(" -G ", m);
			sh_quote(m, c->generator);
		}
		if (c->build_type && *c->build_type) {
			fputs(" -DCMAKE_BUILD_TYPE=", m);
			sh_quote(m, c->build_type);
		}
		for (size_t i = 0; i < c->ndefs && asprintf(&arg, "-D%s", c->defs[i]) >= 0; i++) {
			fputc(' ', m);
			sh_quote(m, arg);
			free(arg);
		}
		fputs(" -DCMAKE_C_COMPILER=\"$CC\" -DCMAKE_CXX_COMPILER=\"$CXX\" >/dev/null"
		      " && cmake --build . --parallel",
		      m);
		fclose(m);
	}
	g->build_cmd = buf;
	return buf ? 0 : -ENOMEM;
}

/* The git work tree @in is in, into g->top; -EINVAL after one error line unless @quiet. */
static int find_work_tree(struct range *g, const char *in, bool quiet)
{
	char *argv[] = {"git", "rev-parse", "--show-toplevel", NULL};
	size_t tl;

	free(g->top);
	g->top = NULL;
	if (run_capture(g, argv, in, &g->top) || !g->top || !*g->top) {
		if (!quiet)
			pr_err("%s is not in a git work tree", in);
		return -EINVAL;
	}
	tl = strlen(g->top);
	if (strncmp(in, g->top, tl) || (in[tl] && in[tl] != '/')) {
		if (!quiet)
			pr_err("%s is not inside its work tree %s", in, g->top);
		return -EINVAL;
	}
	return 0;
}

/* @path inside the work tree, relative to it: "" for the top. */
static const char *in_work_tree(const struct range *g, const char *path)
{
	size_t tl = strlen(g->top);

	return path[tl] ? path + tl + 1 : "";
}

static int setup(struct range *g, const struct pp_options *opt)
{
	struct pp_cmake_cache c = {0};
	char cur[PATH_MAX], cache[PATH_MAX + 16];
	ssize_t len;
	int err;

	g->opt = opt;
	if (!opt->command) {
		pr_err("%s needs the benchmark command after '--'", g->what);
		return -EINVAL;
	}
	if (!realpath(opt->current, cur)) {
		pr_err("--current %s: %s", opt->current, strerror(errno));
		return -EINVAL;
	}
	snprintf(cache, sizeof(cache), "%s/CMakeCache.txt", cur);
	if (!opt->build_cmd && (pp_cmake_cache_read(cache, &c) || !c.home)) {
		pp_cmake_cache_free(&c);
		pr_err("%s needs --build-cmd CMD (how each commit is built in its checkout), or "
		       "--current a CMake build directory%s",
		       g->what,
		       opt->bisect ? ", to build the bisection's bad commit (or give "
				     "--precision-threshold P)"
				   : "");
		return -EINVAL;
	}
	err = find_work_tree(g, c.home ? c.home : cur, false);
	if (!err && c.home) {
		const char *src = in_work_tree(g, c.home);

		err = cmake_build_cmd(g, &c, *src ? src : ".");
		if (!err && !(g->rel = strdup(".pinpoint-cmake")))
			err = -ENOMEM;
		if (!err)
			fprintf(stderr, "pinpoint: each commit is built with: %s\n", g->build_cmd);
	} else if (!err) {
		g->build_cmd = strdup(opt->build_cmd);
		g->rel = strdup(in_work_tree(g, cur));
		if (!g->build_cmd || !g->rel)
			err = -ENOMEM;
	}
	pp_cmake_cache_free(&c);
	if (err)
		return err;
	len = readlink("/proc/self/exe", g->self, sizeof(g->self) - 1);
	if (len <= 0) {
		pr_err("cannot find the pinpoint executable: %s", strerror(errno));
		return -EINVAL;
	}
	g->self[len] = 0;
	if (worktree_root(g))
		return -EINVAL; /* said by pp_build_dir() */
	return 0;
}

/*
 * Without --precision-threshold: the bisection's threshold from BAD's
 * session, the last line the probes wrote so far (bisect.h).
 */
static void bisection_threshold(struct range *g)
{
	if (!g->opt->precision_given)
		pp_bisect_threshold(g->history, g->opt->entry, &g->probe_precision);
}

/*
 * The private work directory, in $TMPDIR like a session's: the output of
 * git and the probes' history lines go there.
 */
static int open_workdir(struct range *g)
{
	const char *tmpdir = pp_workdir_tmpdir();
	int err = pp_workdir_create(tmpdir, g->work, sizeof(g->work));

	if (err) {
		g->work[0] = 0;
		pr_err("cannot create a work directory in %s: %s", tmpdir, strerror(-err));
		return PP_EXIT_MEASUREMENT;
	}
	snprintf(g->history, sizeof(g->history), "%s/%s", g->work, work_files[0]);
	if (pp_signals_workdir(g->work, work_files))
		pr_dbg("a second signal would leave %s behind", g->work);
	return GO_ON;
}

/* GOOD and the commits of GOOD..BAD, GOOD checked out. */
static int open_range(struct range *g, const struct pp_options *opt)
{
	char *good = NULL, *bad = NULL, bad_hash[41];
	int code = PP_EXIT_USAGE, err;

	if (split_range(opt->commits, &good, &bad)) {
		code = PP_EXIT_MEASUREMENT;
		goto out;
	}
	if (setup(g, opt))
		goto out;
	if (resolve(g, good, g->good.hash)) {
		pr_err("--commits: '%s' is not a commit of %s", good, g->top);
		goto out;
	}
	if (resolve(g, bad, bad_hash)) {
		pr_err("--commits: '%s' is not a commit of %s", bad, g->top);
		goto out;
	}
	if (list_range(g, g->good.hash, bad_hash) || !g->n) {
		pr_err("--commits %s: no commits from %s to %s (is %s a descendant of %s?)",
		       opt->commits, good, bad, bad, good);
		goto out;
	}
	g->good.subject = subject_of(g, g->good.hash);
	err = checkout(g, &g->good);
	if (err) {
		if (err == -EINTR)
			code = PP_EXIT_INTERRUPTED;
		goto out;
	}
	fprintf(stderr, "pinpoint: %zu commits in %s; GOOD is %.12s %s\n", g->n, opt->commits,
		g->good.hash, g->good.subject);
	code = GO_ON;
out:
	free(good);
	free(bad);
	return code;
}

/* BAD first: nothing to bisect unless it is slower than GOOD. */
static int compare_bad(struct range *g)
{
	const struct commit *bad;
	int err;

	g->lo = -1;
	g->hi = (long)g->n - 1;
	g->probe_precision = g->opt->precision;
	bad = &g->c[g->hi];
	/* GOOD, BAD and the first commits the bisection tries, at once */
	err = build_ahead(g, (struct commit *[]){&g->good, &g->c[g->hi]}, 2);
	if (!err)
		err = probe(g, (size_t)g->hi, 1);
	if (err == -EINTR) {
		printf("Interrupted before BAD was measured.\n");
		return PP_EXIT_INTERRUPTED;
	}
	if (!err && bad->state == FAST) {
		printf("No regression: %.12s %s is not significantly slower than GOOD %.12s.\n",
		       bad->hash, bad->subject, g->good.hash);
		return PP_EXIT_NO_REGRESSION;
	}
	if (!err && bad->state == UNDECIDED) {
		printf("Undecided: the runs allowed could not tell %.12s %s from GOOD %.12s "
		       "(--max-time, --max-runs-per-comparison); nothing to bisect.\n",
		       bad->hash, bad->subject, g->good.hash);
		return PP_EXIT_UNDECIDED;
	}
	if (err || bad->state != SLOWER) {
		pr_err("%s: BAD could not be compared with GOOD (it does not build or cannot be "
		       "measured: see the message above)",
		       g->opt->commits);
		return !err && bad->state == SKIPPED ? PP_EXIT_MEASUREMENT : PP_EXIT_USAGE;
	}
	bisection_threshold(g);
	return GO_ON;
}

/* Narrow lo..hi down to the last fast and the first slower commit, stepping over the others. */
static int bisect(struct range *g)
{
	size_t step = 1;
	long next;

	while ((next = next_candidate(g, g->lo, g->hi)) >= 0) {
		int err = build_ahead(g, NULL, 0);

		if (!err)
			err = probe(g, (size_t)next, ++step);

		if (err == -EINTR) {
			print_range(g, true);
			return PP_EXIT_INTERRUPTED;
		}
		if (err) {
			pr_err("the session on %.12s failed", g->c[next].hash);
			return PP_EXIT_MEASUREMENT;
		}
		if (g->c[next].state == FAST)
			g->lo = next;
		else if (g->c[next].state == SLOWER)
			g->hi = next;
	}
	print_range(g, false);
	return GO_ON;
}

/* The full session between the last fast and the first slower commit names the call. */
static int pinpoint_call(const struct range *g)
{
	const struct commit *fast = at(g, g->lo), *slow = &g->c[g->hi];
	int code;

	/* With skipped commits left between them, the session spans them all. */
	printf("\nPinpointing the call between %.12s and %.12s:\n", fast->hash, slow->hash);
	code = run_session(g, fast->dir, slow->dir, false);
	if (code < 0) {
		pr_err("cannot run the session: %s", strerror(-code));
		code = PP_EXIT_MEASUREMENT;
	}
	return code;
}

static void range_free(struct range *g)
{
	if (g->work[0]) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/%s", g->work, work_files[0]);
		unlink(path);
		rmdir(g->work);
	}
	for (size_t i = 0; i < g->n; i++) {
		free(g->c[i].subject);
		free(g->c[i].dir);
	}
	free(g->c);
	free(g->good.subject);
	free(g->good.dir);
	free(g->top);
	free(g->rel);
	free(g->build_cmd);
}

int pp_commits_run(const struct pp_options *opt)
{
	struct range g = {.opt = opt, .what = "--commits"};
	int code;

	pp_signals_catch(&commits_stop);
	code = open_workdir(&g);
	if (code == GO_ON)
		code = open_range(&g, opt);
	if (code == GO_ON)
		code = compare_bad(&g);
	if (code == GO_ON)
		code = bisect(&g);
	if (code == GO_ON)
		code = pinpoint_call(&g);
	range_free(&g);
	return code;
}

/*
 * --bisect: the bisection in progress in the work tree, its BAD in @hash
 * and the git directory that keeps its files (one per worktree) in @dir;
 * -ENOENT when there is none.  BAD is the first commit its log
 * (BISECT_LOG) names with the bad term (BISECT_TERMS: "bad" unless `git
 * bisect start --term-new` named it otherwise): the one the bisection
 * started from, whichever step runs.
 */
static int bisection_bad(const struct range *g, char *dir, size_t len, char hash[41])
{
	char *argv[] = {"git", "rev-parse", "--absolute-git-dir", NULL};
	char path[PATH_MAX + 16], term[64] = "", prefix[80], *out = NULL, *line = NULL;
	size_t cap = 0, pl;
	int err = -ENOENT;
	FILE *f;

	if (run_capture(g, argv, g->top, &out) || !out ||
	    snprintf(dir, len, "%s", out) >= (int)len) {
		free(out);
		return -ENOENT;
	}
	free(out);
	snprintf(path, sizeof(path), "%s/BISECT_TERMS", dir);
	if ((f = fopen(path, "re"))) {
		if (fgets(term, sizeof(term), f))
			term[strcspn(term, "\r\n")] = 0;
		fclose(f);
	}
	pl = (size_t)snprintf(prefix, sizeof(prefix), "# %s: [", *term ? term : "bad");
	snprintf(path, sizeof(path), "%s/BISECT_LOG", dir);
	if (!(f = fopen(path, "re")))
		return -ENOENT;
	while (err && getline(&line, &cap, f) > 0)
		if (!strncmp(line, prefix, pl) && strspn(line + pl, "0123456789abcdef") == 40 &&
		    line[pl + 40] == ']') {
			memcpy(hash, line + pl, 40);
			hash[40] = 0;
			err = 0;
		}
	free(line);
	fclose(f);
	return err;
}

/*
 * Where BAD's session line is kept for the steps of this bisection, under
 * the build root beside the worktrees: one file per bisection (the git
 * directory, and when `git bisect start` wrote BISECT_START), GOOD, entry
 * and BAD, so that a new bisection, or the same one against another GOOD,
 * measures again.
 */
static int bad_line_path(const struct range *g, const char *dir, const char *bad, char *path,
			 size_t len)
{
	char start[PATH_MAX + 16], good[PATH_MAX], *key = NULL;
	struct stat st;
	int n;

	snprintf(start, sizeof(start), "%s/BISECT_START", dir);
	if (stat(start, &st) || !realpath(g->opt->previous, good))
		return -ENOENT;
	if (asprintf(&key, "%s\n%llu %lld.%09ld\n%s\n%s\n%s", dir, (unsigned long long)st.st_ino,
		     (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, good, g->opt->entry,
		     bad) < 0)
		return -ENOMEM;
	n = snprintf(path, len, "%s/bisect-%016llx.jsonl", g->root,
		     (unsigned long long)pp_str_hash(key));
	free(key);
	return n < (int)len ? 0 : -ENAMETOOLONG;
}

/* BAD checked out and compared with --previous, its line appended to g->history. */
static int measure_bad(struct range *g, struct commit *bad)
{
	int st;

	bad->subject = subject_of(g, bad->hash);
	fprintf(stderr,
		"pinpoint: the bisection's bad commit %.12s %s: comparing it with --previous %s "
		"once, for the threshold of every step\n",
		bad->hash, bad->subject, g->opt->previous);
	st = checkout(g, bad);
	if (!st)
		st = run_session(g, g->opt->previous, bad->dir, true);
	if (st == -EINTR || commits_stop || st == PP_EXIT_INTERRUPTED)
		return PP_EXIT_INTERRUPTED;
	if (st == PP_EXIT_REGRESSION)
		return GO_ON;
	unlink(g->history); /* the next step measures it again */
	if (st == PP_EXIT_NO_REGRESSION)
		pr_err("the bisection's bad commit %.12s is not slower than --previous %s by the "
		       "threshold: nothing to bisect (--precision-threshold P bisects without it)",
		       bad->hash, g->opt->previous);
	else if (st == PP_EXIT_UNDECIDED)
		pr_err("the bisection's bad commit %.12s could not be told from --previous %s "
		       "within its runs: give --precision-threshold P (about half its slowdown)",
		       bad->hash, g->opt->previous);
	else
		pr_err(
		    "the bisection's bad commit %.12s could not be compared with --previous %s "
		    "(it does not build or cannot be measured: see above); --precision-threshold "
		    "P bisects without it",
		    bad->hash, g->opt->previous);
	return st == PP_EXIT_MEASUREMENT ? st : PP_EXIT_USAGE;
}

/*
 * A step of the bisection: BAD's line for this bisection, measured on the
 * first step that finds none, read back on the others, then the threshold.
 */
static int bad_threshold(struct range *g, struct pp_options *opt)
{
	char dir[PATH_MAX];
	struct commit bad = {0};
	double pct = opt->precision;
	int code = GO_ON, st;

	if (bisection_bad(g, dir, sizeof(dir), bad.hash)) {
		pr_warn("no git bisection with a bad commit is in progress in %s: the commit is "
			"compared at --precision-threshold's default, %g%%",
			g->top, opt->precision);
		return GO_ON;
	}
	if (opt->no_build) {
		pr_err(
		    "--bisect builds the bisection's bad commit to measure it once, which "
		    "--no-build excludes: give --precision-threshold P (about half its slowdown)");
		return PP_EXIT_USAGE;
	}
	if (setup(g, opt))
		return PP_EXIT_USAGE;
	if (bad_line_path(g, dir, bad.hash, g->history, sizeof(g->history))) {
		pr_err("no place for the bisection's bad commit's figures under %s", g->root);
		return PP_EXIT_USAGE;
	}
	g->probe_precision = opt->precision;
	st = pp_bisect_threshold(g->history, opt->entry, &pct);
	if (st != PP_EXIT_REGRESSION) {
		unlink(g->history); /* none, or one the last measurement left unfinished */
		code = measure_bad(g, &bad);
		if (code == GO_ON)
			st = pp_bisect_threshold(g->history, opt->entry, &pct);
	}
	if (code == GO_ON && st != PP_EXIT_REGRESSION) {
		pr_err("the bisection's bad commit %.12s: no figures in %s", bad.hash, g->history);
		code = PP_EXIT_MEASUREMENT;
	}
	opt->precision = pct;
	free(bad.subject);
	free(bad.dir);
	return code;
}

int pp_commits_bisect_bad(struct pp_options *opt)
{
	struct range g = {.opt = opt, .what = "--bisect"};
	struct pp_cmake_cache c = {0};
	char cur[PATH_MAX] = "", cache[PATH_MAX + 16];
	int code;

	pp_signals_catch(&commits_stop);
	code = open_workdir(&g);
	if (code != GO_ON)
		goto out;
	/* the work tree setup() finds, without its messages: none is no bisection */
	if (realpath(opt->current, cur)) {
		snprintf(cache, sizeof(cache), "%s/CMakeCache.txt", cur);
		if (opt->build_cmd || pp_cmake_cache_read(cache, &c) || !c.home)
			pp_cmake_cache_free(&c);
	}
	if (!*cur || find_work_tree(&g, c.home ? c.home : cur, true)) {
		pr_warn("%s is not in a git work tree: no bisection, the commit is compared at "
			"--precision-threshold's default, %g%%",
			opt->current, opt->precision);
		code = GO_ON;
		goto out;
	}
	code = bad_threshold(&g, opt);
out:
	pp_cmake_cache_free(&c);
	range_free(&g);
	return code == GO_ON ? 0 : code;
}
