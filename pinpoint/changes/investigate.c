// SPDX-License-Identifier: MIT
/*
 * investigate.c - --changes FILE --investigate: from a change point to the
 * commit and the call.
 *
 * A slower change point of a series lies between two nights, and each
 * night's history line names the commit measured and the command line it
 * was measured with ("rerun", history.h).  The change point is run through
 * --commits from the commit of the last night before it to that of the last
 * night of the new level (not only the first: near the end of the nights a
 * change point can be placed a night early), as a child pinpoint
 * started with the options of the first night after it (in the directory
 * it ran in, its --previous, --baseline and report files left out), its
 * output passed through.  Its last session's --history line, written to a
 * private directory, gives the first slower commit and the call; what was
 * found is appended to the history as an investigation line, which later
 * runs match to the change point instead of running it again.  Runs that
 * end undecided, fail to measure or are interrupted are not recorded, so
 * the next run tries again.
 *
 * The commands run are the history's: the file must be the user's own and
 * writable by no one else (nor its directory, unless sticky), or nothing
 * runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/process.h"
#include "core/util.h"
#include "pinpoint/build/workdir.h"
#include "pinpoint/changes/changes.h"
#include "pinpoint/log.h"
#include "pinpoint/report/report.h"

int pp_investigate_check_owner(const char *path)
{
	char dir[PATH_MAX], *slash;
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		pr_err("--investigate: cannot open %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	close(fd);
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		pr_err("--investigate runs the commands %s recorded, and %s; it runs only what you "
		       "alone could have written (chmod go-w, or a history of your own)",
		       path,
		       st.st_uid != geteuid() ? "another user owns it"
					      : "other users may write to it");
		return -EPERM;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	if (stat(dir, &st) || ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) ||
	    (st.st_uid != geteuid() && st.st_uid != 0)) {
		pr_err("--investigate runs the commands %s recorded, and other users can replace "
		       "it in %s; it runs only what you alone could have written",
		       path, dir);
		return -EPERM;
	}
	return 0;
}

/* Why @c cannot be run, into inv->why (status 2, recorded): 0, or -ENOMEM. */
static int cannot(struct pp_history_inv *inv, const char *why)
{
	inv->status = PP_EXIT_USAGE;
	inv->why = strdup(why);
	return inv->why ? 0 : -ENOMEM;
}

/* Whether @w is a word of the options --commits sets itself or leaves out. */
static bool dropped(const char *w)
{
	static const char *const drop[] = {
	    "--previous=", "--baseline=", "--json=", "--html=", "--history=", "--label=", NULL};

	for (size_t i = 0; drop[i]; i++)
		if (!strncmp(w, drop[i], strlen(drop[i])))
			return true;
	return false;
}

/*
 * The recorded command line of @rerun, without its revisions and report
 * files, with --commits @range, parsed into @o (its strings in @words,
 * which must outlive it): 0, or -EINVAL after one error line.
 */
static int recorded_options(const json_t *rerun, const char *range, struct pp_options *o,
			    struct pp_argv *words)
{
	const json_t *argv = json_object_get(rerun, "argv"), *w;
	bool command = false;
	size_t i;
	int err = pp_argv_add(words, "pinpoint");

	if (!err)
		err = pp_argv_add(words, "--commits=%s", range);
	json_array_foreach(argv, i, w)
	{
		if (!err && !json_is_string(w))
			err = -EINVAL;
		if (err)
			break;
		if (!command && dropped(json_string_value(w)))
			continue;
		command |= !strcmp(json_string_value(w), "--");
		err = pp_argv_add(words, "%s", json_string_value(w));
	}
	if (err == -EINVAL)
		pr_err("the recorded command line is not a list of words");
	if (err)
		return err;
	return pp_options_parse(o, (int)words->n, words->v) ? -EINVAL : 0;
}

/*
 * The first slower commit and the call, from the last line of the history
 * @path that --commits' last session wrote, into @inv: 0, or -ENOMEM.
 */
static int read_found(const char *path, struct pp_history_inv *inv)
{
	char *line = NULL, *last = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");
	const json_t *v;
	json_t *o;
	int err = 0;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0)
		if (line[strspn(line, " \t\r\n")]) {
			free(last);
			last = strdup(line);
			if (!last)
				err = -ENOMEM;
		}
	fclose(f);
	free(line);
	o = last ? json_loads(last, 0, NULL) : NULL;
	v = json_object_get(o, "current_commit");
	if (json_is_string(v) && pp_git_full_hash(json_string_value(v)))
		snprintf(inv->first_slower, sizeof(inv->first_slower), "%s", json_string_value(v));
	v = json_object_get(o, "call");
	if (json_is_string(v) && !(inv->call = strdup(json_string_value(v))))
		err = -ENOMEM;
	json_decref(o);
	free(last);
	return err;
}

/* Run --commits @from..@to as @rerun recorded, its history in @hist: its exit status, or -errno. */
static int run_commits(const struct pp_options *opt, const json_t *rerun, const char *range,
		       const char *hist)
{
	struct pp_argv words = {0}, a = {0};
	struct pp_options o;
	struct pp_process p = {.out = 1, .err = 2};
	struct pp_run_status st;
	const json_t *cwd = json_object_get(rerun, "cwd");
	char self[PATH_MAX];
	ssize_t len;
	int err;

	memset(&o, 0, sizeof(o));
	err = recorded_options(rerun, range, &o, &words);
	if (err)
		goto out;
	o.history = hist;
	o.quiet = opt->quiet;
	o.verbose = opt->verbose;
	if (opt->build_root)
		o.build_root = opt->build_root;
	if (opt->build_jobs)
		o.build_jobs = opt->build_jobs;
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		err = -errno;
		goto out;
	}
	self[len] = 0;
	err = pp_argv_add(&a, "%s", self);
	if (!err)
		err = pp_argv_add(&a, "--commits=%s", o.commits);
	if (!err && o.build_jobs > 1)
		err = pp_argv_add(&a, "--build-jobs=%d", o.build_jobs);
	if (!err)
		err = pp_options_argv(&o, &a);
	if (err)
		goto out;
	if (pp_verbose > 0) {
		fprintf(stderr, "pinpoint: in %s:", json_string_value(cwd));
		for (size_t i = 0; i < a.n; i++)
			fprintf(stderr, " %s", a.v[i]);
		fputc('\n', stderr);
	}
	p.argv = a.v;
	p.dir = json_string_value(cwd);
	fflush(stdout);
	err = pp_process_run(&p, &st);
	if (!err)
		err = st.exited		    ? st.exit_code
		      : st.signal == SIGINT ? PP_EXIT_INTERRUPTED
					    : 128 + st.signal;
out:
	pp_options_free(&o);
	pp_argv_free(&a);
	pp_argv_free(&words);
	return err;
}

int pp_investigate(const struct pp_options *opt, const struct pp_change *c,
		   struct pp_history_inv *inv)
{
	const struct pp_history_entry *after = c->s->night[c->cp.index];
	const json_t *rerun = after->rerun;
	char dir[PATH_MAX], hist[PATH_MAX + 16], range[2 * PP_GIT_HASH_LEN + 4];
	const char *from, *to;
	struct stat st;
	int code;

	memset(inv, 0, sizeof(*inv));
	inv->time = pp_wall();
	snprintf(inv->machine, sizeof(inv->machine), "%s", c->s->machine);
	inv->before_time = c->s->night[c->cp.index - 1]->time;
	inv->after_time = after->time;
	pp_change_commits(c, &from, &to);
	/*
	 * To the last night of the new level: a change point near the end of
	 * the nights can sit a night or two early (E-Divisive needs nights on
	 * either side), and the range then still holds the commit.
	 */
	inv->last_time = after->time;
	if (*c->s->night[c->cp.hi - 1]->commit[PP_CUR]) {
		to = c->s->night[c->cp.hi - 1]->commit[PP_CUR];
		inv->last_time = c->s->night[c->cp.hi - 1]->time;
	}
	snprintf(inv->from, sizeof(inv->from), "%s", from);
	snprintf(inv->to, sizeof(inv->to), "%s", to);
	if (!*from || !*to)
		return cannot(inv, "the commits on either side are not recorded (no git work tree "
				   "or CMake cache that names one, no --label with a commit hash)");
	if (!strcmp(from, to))
		return cannot(inv, "both nights measured the same commit: the change is not in "
				   "the code (the machine, the build, the data)");
	if (!json_is_object(rerun) || !json_is_string(json_object_get(rerun, "cwd")) ||
	    !json_is_array(json_object_get(rerun, "argv")))
		return cannot(inv, "the night after it has no recorded command line (a line from "
				   "an older pinpoint, a --model or a --replay session)");
	if (stat(json_string_value(json_object_get(rerun, "cwd")), &st) || !S_ISDIR(st.st_mode))
		return cannot(inv, "the directory its night ran in is gone");
	if (pp_workdir_create(pp_workdir_tmpdir(), dir, sizeof(dir)))
		return -EIO;
	snprintf(hist, sizeof(hist), "%s/found.jsonl", dir);
	snprintf(range, sizeof(range), "%s..%s", from, to);
	fprintf(stderr,
		"pinpoint: investigating %s%s%s, slower from night %zu on: --commits "
		"%.12s..%.12s\n",
		c->s->entry, *c->s->machine ? " on " : "", c->s->machine, c->cp.index, from, to);
	code = run_commits(opt, rerun, range, hist);
	if (code == -EINVAL) {
		code = cannot(inv, "the night's recorded command line does not parse");
		goto out;
	}
	if (code < 0)
		goto out;
	inv->status = code;
	code = code == PP_EXIT_REGRESSION ? read_found(hist, inv) : 0;
out:
	unlink(hist);
	rmdir(dir);
	return code;
}
