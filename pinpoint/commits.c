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
 * GOOD by a session of its own on the entry alone (--depth 0 --bisect), the
 * same measurement and decision as any session: a commit is slow only when
 * its entry is significantly slower than GOOD's.  A commit that does not
 * build or cannot be measured is skipped and a neighbour tried instead.
 * Then one full session between the last fast and the first slow commit
 * names the call.  The sessions are pinpoint itself, run again with the
 * options of this one; their output goes to stderr as progress, the last
 * one's to stdout.
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
#include "pinpoint/bisect.h"
#include "pinpoint/commits.h"
#include "pinpoint/log.h"

#define PP_EXIT_INTERRUPTED 130

static volatile int commits_stop;

static void on_signal(int sig)
{
	(void)sig;
	commits_stop = 1;
}

struct commit {
	char hash[41];
	char *subject;
	char *dir; /* the revision directory in its worktree, once checked out */
	int state; /* 0 untried, 1 fast, 2 slow, 3 skipped */
};

struct range {
	const struct pp_options *opt;
	char *top; /* the repository's work tree */
	char *rel; /* the current directory, relative to it ("" or "sub/dir/") */
	char root[PATH_MAX]; /* where the worktrees go */
	char self[PATH_MAX]; /* pinpoint */
	struct commit good;
	struct commit *c; /* GOOD..BAD, oldest first; BAD last */
	size_t n;
};

/* Run @argv in @dir; its stdout (trailing newlines cut) in *@out when @out. */
static int run_capture(char *const argv[], const char *dir, char **out)
{
	char tmpl[] = "/tmp/pinpoint-git.XXXXXX";
	struct pp_process p = {.argv = argv, .dir = dir, .out = -1, .err = 2};
	struct pp_run_status st;
	int fd = -1, err;

	if (out) {
		*out = NULL;
		fd = mkstemp(tmpl);
		if (fd < 0)
			return -errno;
		unlink(tmpl);
		p.out = fd;
	}
	err = pp_process_run(&p, &st);
	if (!err && !(st.exited && st.exit_code == 0))
		err = -EINVAL;
	if (!err && out) {
		off_t len = lseek(fd, 0, SEEK_END);
		char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;

		if (!buf || pread(fd, buf, (size_t)len, 0) != len) {
			free(buf);
			err = -EIO;
		} else {
			while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
				len--;
			buf[len] = 0;
			*out = buf;
		}
	}
	if (fd >= 0)
		close(fd);
	return err;
}

/* The full hash of @rev, a commit. */
static int resolve(const struct range *g, const char *rev, char hash[41])
{
	char spec[512], *out = NULL;
	char *argv[] = {"git", "rev-parse", "--verify", "--quiet", spec, NULL};
	int err;

	if (snprintf(spec, sizeof(spec), "%s^{commit}", rev) >= (int)sizeof(spec))
		return -EINVAL;
	err = run_capture(argv, g->top, &out);
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

	if (run_capture(argv, g->top, &out))
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
	err = run_capture(argv, g->top, &out);
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

/* FNV-1a of the repository's path: one directory of worktrees per repository. */
static uint64_t path_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int worktree_root(struct range *g)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const struct pp_options *opt = g->opt;
	char base[PATH_MAX], cwd[PATH_MAX];
	int n;

	if (opt->build_root && *opt->build_root != '/' && getcwd(cwd, sizeof(cwd)))
		n = snprintf(base, sizeof(base), "%s/%s", cwd, opt->build_root);
	else if (opt->build_root)
		n = snprintf(base, sizeof(base), "%s", opt->build_root);
	else if (xdg && *xdg == '/')
		n = snprintf(base, sizeof(base), "%s/pinpoint/builds", xdg);
	else if (home && *home)
		n = snprintf(base, sizeof(base), "%s/.cache/pinpoint/builds", home);
	else
		return -ENOENT;
	if (n < 0 || (size_t)n >= sizeof(base))
		return -ENAMETOOLONG;
	n = snprintf(g->root, sizeof(g->root), "%s/commits-%016llx", base,
		     (unsigned long long)path_hash(g->top));
	if (n < 0 || (size_t)n >= sizeof(g->root))
		return -ENAMETOOLONG;
	return mkdir_p(g->root);
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
		run_capture(prune, g->top, NULL);
		err = run_capture(add, g->top, NULL);
		if (err) {
			pr_err("cannot check out %.12s in %s (git worktree add failed)", c->hash, wt);
			return -EINVAL;
		}
	}
	if (asprintf(&c->dir, "%s/%s", wt, g->rel) < 0) {
		c->dir = NULL;
		return -ENOMEM;
	}
	return 0;
}

struct argv_buf {
	char **v;
	size_t n, cap;
};

static int add(struct argv_buf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int add(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

static void argv_free(struct argv_buf *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* The options of this session, for a session between @prev and @cur. */
static int session_args(const struct range *g, const char *prev, const char *cur, bool probe,
			struct argv_buf *a)
{
	const struct pp_options *o = g->opt;
	int err;

	err = add(a, "%s", g->self);
	err = err ?: add(a, "--entry=%s", o->entry);
	err = err ?: add(a, "--depth=%d", probe ? 0 : o->depth);
	err = err ?: add(a, "--previous=%s", prev);
	err = err ?: add(a, "--current=%s", cur);
	err = err ?: add(a, "--measurements=%d", o->measurements);
	err = err ?: add(a, "--warmups=%d", o->warmups);
	err = err ?: add(a, "--confidence=%.17g", 100 * o->confidence);
	err = err ?: add(a, "--precision-threshold=%.17g", o->precision);
	err = err ?: add(a, "--re-measurement=%d", o->remeasure);
	if (o->timeout > 0)
		err = err ?: add(a, "--timeout=%.17g", o->timeout);
	for (size_t i = 0; i < o->nexclude; i++)
		err = err ?: add(a, "--exclude=%s", o->exclude[i]);
	err = err ?: add(a, "--search=%s", o->search == PP_SEARCH_LINEAR ? "linear" : "binary");
	err = err ?: add(a, "--test=%s", o->test == PP_TEST_WELCH ? "welch" : "mann-whitney");
	if (o->build_cmd)
		err = err ?: add(a, "--build-cmd=%s", o->build_cmd);
	if (o->build_root)
		err = err ?: add(a, "--build-root=%s", o->build_root);
	err = err ?: add(a, "--no-save-command");
	if (o->quiet)
		err = err ?: add(a, "--quiet");
	if (o->verbose)
		err = err ?: add(a, "--verbose");
	if (probe) {
		err = err ?: add(a, "--bisect");
	} else {
		if (o->json)
			err = err ?: add(a, "--json=%s", o->json);
		if (o->html)
			err = err ?: add(a, "--html=%s", o->html);
		if (o->history)
			err = err ?: add(a, "--history=%s", o->history);
	}
	err = err ?: add(a, "--");
	for (char **c = o->command; *c && !err; c++)
		err = add(a, "%s", *c);
	return err;
}

/* A session between @prev and @cur; its exit status, or -errno. */
static int run_session(const struct range *g, const char *prev, const char *cur, bool probe)
{
	struct argv_buf a = {0};
	struct pp_process p = {.out = probe ? 2 : 1, .err = 2};
	struct pp_run_status st;
	int err;

	err = session_args(g, prev, cur, probe, &a);
	if (err)
		goto out;
	p.argv = a.v;
	fflush(stdout);
	err = pp_process_run(&p, &st);
	if (err)
		goto out;
	err = st.exited ? st.exit_code : st.signal == SIGINT ? PP_EXIT_INTERRUPTED : 128 + st.signal;
out:
	argv_free(&a);
	return err;
}

static const char *state_name(int state)
{
	static const char *const names[] = {"untried", "fast", "slower", "skipped"};

	return names[state];
}

/* Compare commit @i with GOOD: 1 fast, 2 slow, 3 skipped; 130 interrupted, 128 abort. */
static int probe(struct range *g, size_t i, size_t step)
{
	struct commit *c = &g->c[i];
	int st;

	fprintf(stderr, "pinpoint: [%zu] commit %zu of %zu, %.12s %s: comparing with GOOD %.12s\n",
		step, i + 1, g->n, c->hash, c->subject, g->good.hash);
	st = checkout(g, c);
	if (st)
		return st == -ENOMEM ? st : PP_BISECT_ABORT;
	st = run_session(g, g->good.dir, c->dir, true);
	if (st < 0)
		return st;
	if (commits_stop || st == PP_EXIT_INTERRUPTED)
		return PP_EXIT_INTERRUPTED;
	switch (st) {
	case 0:
		c->state = 1;
		break;
	case 1:
		c->state = 2;
		break;
	case PP_BISECT_SKIP:
		c->state = 3;
		break;
	default:
		return PP_BISECT_ABORT;
	}
	fprintf(stderr, "pinpoint: [%zu] %.12s is %s%s\n", step, c->hash, state_name(c->state),
		c->state == 3 ? " (it does not build or cannot be measured)" : "");
	return c->state;
}

/* The untried commit of lo+1..hi-1 nearest the middle, or -1. */
static long next_candidate(const struct range *g, long lo, long hi)
{
	long mid = lo + (hi - lo) / 2;

	for (long d = 0; d < hi - lo; d++) {
		if (mid - d > lo && mid - d < hi && !g->c[mid - d].state)
			return mid - d;
		if (mid + d > lo && mid + d < hi && !g->c[mid + d].state)
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
static void print_range(const struct range *g, long lo, long hi, bool interrupted)
{
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
		       g->c[i].state == 3 ? "  [skipped: no build or no measurement]"
		       : g->c[i].state == 2 ? "  [slower]"
					    : "");
}

static int split_range(const char *spec, char **good, char **bad)
{
	const char *dots = strstr(spec, "..");

	*good = strndup(spec, (size_t)(dots - spec));
	*bad = strdup(dots + 2);
	return *good && *bad ? 0 : -ENOMEM;
}

static int setup(struct range *g, const struct pp_options *opt)
{
	char *argv[] = {"git", "rev-parse", "--show-toplevel", NULL};
	char cur[PATH_MAX], *top = NULL;
	ssize_t len;
	size_t tl;

	g->opt = opt;
	if (!opt->command) {
		pr_err("--commits needs the benchmark command after '--'");
		return -EINVAL;
	}
	if (!opt->build_cmd) {
		pr_err("--commits needs --build-cmd CMD: how each commit is built in its "
		       "checkout (for a CMake project, e.g. 'cmake -S . -B b -DCMAKE_C_COMPILER=$CC "
		       "&& cmake --build b')");
		return -EINVAL;
	}
	if (!realpath(opt->current, cur)) {
		pr_err("--current %s: %s", opt->current, strerror(errno));
		return -EINVAL;
	}
	if (run_capture(argv, cur, &top) || !top || !*top) {
		free(top);
		pr_err("%s is not in a git work tree", cur);
		return -EINVAL;
	}
	g->top = top;
	tl = strlen(top);
	if (strncmp(cur, top, tl) || (cur[tl] && cur[tl] != '/')) {
		pr_err("%s is not inside its work tree %s", cur, top);
		return -EINVAL;
	}
	if (asprintf(&g->rel, "%s", cur[tl] ? cur + tl + 1 : "") < 0)
		return -ENOMEM;
	len = readlink("/proc/self/exe", g->self, sizeof(g->self) - 1);
	if (len <= 0) {
		pr_err("cannot find the pinpoint executable: %s", strerror(errno));
		return -EINVAL;
	}
	g->self[len] = 0;
	if (worktree_root(g)) {
		pr_err("no place for the commits' worktrees: set HOME or give --build-root DIR");
		return -EINVAL;
	}
	return 0;
}

int pp_commits_run(const struct pp_options *opt)
{
	struct range g = {0};
	struct sigaction sa;
	char *good = NULL, *bad = NULL, bad_hash[41];
	long lo, hi, next;
	size_t step = 0;
	int code = PP_EXIT_USAGE, st;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (split_range(opt->commits, &good, &bad)) {
		code = PP_EXIT_MEASUREMENT;
		goto out;
	}
	if (setup(&g, opt))
		goto out;
	if (resolve(&g, good, g.good.hash)) {
		pr_err("--commits: '%s' is not a commit of %s", good, g.top);
		goto out;
	}
	if (resolve(&g, bad, bad_hash)) {
		pr_err("--commits: '%s' is not a commit of %s", bad, g.top);
		goto out;
	}
	if (list_range(&g, g.good.hash, bad_hash) || !g.n) {
		pr_err("--commits %s: no commits from %s to %s (is %s a descendant of %s?)",
		       opt->commits, good, bad, bad, good);
		goto out;
	}
	g.good.subject = subject_of(&g, g.good.hash);
	if (checkout(&g, &g.good))
		goto out;
	fprintf(stderr, "pinpoint: %zu commits in %s; GOOD is %.12s %s\n", g.n, opt->commits,
		g.good.hash, g.good.subject);

	/* BAD first: nothing to bisect unless it is slower than GOOD. */
	lo = -1;
	hi = (long)g.n - 1;
	st = probe(&g, (size_t)hi, ++step);
	if (st == PP_EXIT_INTERRUPTED) {
		printf("Interrupted before BAD was measured.\n");
		code = PP_EXIT_INTERRUPTED;
		goto out;
	}
	if (st == 1) {
		printf("No regression: %.12s %s is not significantly slower than GOOD %.12s.\n",
		       g.c[hi].hash, g.c[hi].subject, g.good.hash);
		code = PP_EXIT_NO_REGRESSION;
		goto out;
	}
	if (st != 2) {
		pr_err("%s: %s cannot be %s", opt->commits, st == 3 ? "BAD" : "GOOD",
		       st == 3 ? "built or measured" : "built (see its build log)");
		code = st == 3 ? PP_EXIT_MEASUREMENT : PP_EXIT_USAGE;
		goto out;
	}
	while ((next = next_candidate(&g, lo, hi)) >= 0) {
		st = probe(&g, (size_t)next, ++step);
		if (st == PP_EXIT_INTERRUPTED) {
			print_range(&g, lo, hi, true);
			code = PP_EXIT_INTERRUPTED;
			goto out;
		}
		if (st == 1) {
			lo = next;
		} else if (st == 2) {
			hi = next;
		} else if (st != 3) {
			pr_err("the session on %.12s failed", g.c[next].hash);
			code = PP_EXIT_MEASUREMENT;
			goto out;
		}
	}
	print_range(&g, lo, hi, false);
	/* With skipped commits left between them, the session spans them all. */
	printf("\nPinpointing the call between %.12s and %.12s:\n", at(&g, lo)->hash,
	       g.c[hi].hash);
	code = run_session(&g, at(&g, lo)->dir, g.c[hi].dir, false);
	if (code < 0) {
		pr_err("cannot run the session: %s", strerror(-code));
		code = PP_EXIT_MEASUREMENT;
	}
out:
	for (size_t i = 0; i < g.n; i++) {
		free(g.c[i].subject);
		free(g.c[i].dir);
	}
	free(g.c);
	free(g.good.subject);
	free(g.good.dir);
	free(g.top);
	free(g.rel);
	free(good);
	free(bad);
	return code;
}
