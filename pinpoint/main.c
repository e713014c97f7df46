// SPDX-License-Identifier: MIT
/*
 * main.c - pinpoint: name the call that made a function slower between two builds.
 *
 *   pinpoint --entry parse_doc --depth 3 --previous ../build-old -- ./bench in.json
 *
 * A pipeline of stages over one session (session.h): build the revisions
 * (build.c), discover the tables and the entry (discover.c), plan the
 * search through the layers of calls (plan.c), which has quantities
 * measured (measure.c) and decided (decide.c), then report from the session
 * (report/: text as comparisons are decided and at the end, JSON, HTML).
 * Exit status: 0 no regression, 1 regression pinpointed, 2 usage or input
 * error, 3 measurement failed, 4 undecided (the entry's comparison could not
 * be decided within its runs), 130 interrupted; with --bisect, those of git
 * bisect run (bisect.c).  --commits runs commits.c instead, which runs
 * sessions of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/process.h"
#include "core/private_dir.h"
#include "core/util.h"
#include "pinpoint/build/bisect.h"
#include "pinpoint/build/build.h"
#include "pinpoint/build/commits.h"
#include "pinpoint/measure/duet.h"
#include "pinpoint/measure/discover.h"
#include "pinpoint/report/history.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/noise.h"
#include "pinpoint/model/model.h"
#include "pinpoint/replay/replay.h"
#include "pinpoint/session/options.h"
#include "pinpoint/session/outcome.h"
#include "pinpoint/search/plan.h"
#include "pinpoint/report/html.h"
#include "pinpoint/report/json.h"
#include "pinpoint/report/report.h"
#include "pinpoint/measure/schedule.h"
#include "pinpoint/session/signals.h"
#include "pinpoint/build/workdir.h"

/* What a stage returns when the session goes on to the next one; otherwise an exit status. */
#define GO_ON (-1)

int pp_verbose;
static volatile int stop_requested;

/* What a session writes in its work directory (run.c, pp_session_results_path()). */
static const char *const work_files[] = {"results-previous",
					 "previous.stdout",
					 "previous.stderr",
					 "results-current",
					 "current.stdout",
					 "current.stderr",
					 NULL};

static int check_dir(const char *what, const char *dir, char **abs)
{
	struct stat st;

	if (stat(dir, &st)) {
		pr_err("--%s %s: %s", what, dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		pr_err("--%s %s: not a directory", what, dir);
		return -ENOTDIR;
	}
	if (access(dir, R_OK | X_OK)) {
		pr_err("--%s %s: %s", what, dir, strerror(errno));
		return -errno;
	}
	*abs = realpath(dir, NULL);
	if (!*abs) {
		pr_err("--%s %s: %s", what, dir, strerror(errno));
		return -errno;
	}
	return 0;
}

/* What a remembered command's file starts with: the mark, then the directory's path. */
#define PP_COMMAND_MARK "pinpoint-command-of"

struct command_file {
	const char *dir;
	char *const *argv;
};

static void write_command(FILE *f, const void *arg)
{
	const struct command_file *c = arg;

	fwrite(PP_COMMAND_MARK, 1, sizeof(PP_COMMAND_MARK), f);
	fwrite(c->dir, 1, strlen(c->dir) + 1, f);
	for (char *const *a = c->argv; *a; a++)
		fwrite(*a, 1, strlen(*a) + 1, f);
}

/*
 * COMMAND is remembered in the cache, not in the build directory:
 * $XDG_CACHE_HOME/pinpoint/commands/DEV-INO (else ~/.cache/...; CURRENT's
 * device and inode, as its layouts are kept), NUL-separated, after a mark
 * and CURRENT's path: a new file created exclusively and renamed over the
 * old one (a link there is replaced, not followed).  The cache is private
 * (core/private_dir.h): a command is read only from a directory no one else
 * can write, and only from a file of the user's that no one else can
 * write; nothing else is run.  A directory deleted frees its inode for the
 * next one made, so a file whose path is not CURRENT's is another
 * directory's and is not used.
 */
static int save_command(const char *dir, char **argv, char *path, size_t len, char *why,
			size_t wlen)
{
	const struct command_file c = {dir, argv};
	char name[64];
	int fd, err = pp_dir_cache_name(dir, name, sizeof(name));

	if (err) {
		snprintf(why, wlen, "%s: %s", dir, strerror(-err));
		return err;
	}
	fd = pp_cache_open("commands", path, len, why, wlen);
	if (fd < 0)
		return fd;
	err = pp_write_atomic_at(fd, name, write_command, &c);
	if (err) {
		size_t n = strlen(path);

		snprintf(path + n, len - n, "/%s", name);
		pp_write_failure(err, path, why, wlen);
	}
	close(fd);
	return err;
}

/* The command remembered for @dir, or NULL (@why says why when it is not the absence of one). */
static char **load_command(const char *dir, char **storage, char *why, size_t wlen)
{
	char path[PATH_MAX], name[64], **argv;
	size_t len = 0, cap = 0, n = 0, off;
	FILE *f = NULL;
	int c, dfd, fd;

	*why = 0;
	if (pp_dir_cache_name(dir, name, sizeof(name)))
		return NULL;
	dfd = pp_cache_open("commands", path, sizeof(path), why, wlen);
	if (dfd == -ENOENT)
		*why = 0; /* no cache: none remembered */
	if (dfd < 0)
		return NULL;
	fd = pp_private_file(dfd, name, O_RDONLY, 0, NULL);
	close(dfd);
	if (fd == -EPERM || fd == -ELOOP)
		snprintf(why, wlen, "%s/%s is not a file of yours that only you can write", path,
			 name);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*storage = NULL;
	while ((c = fgetc(f)) != EOF) {
		if (len + 1 >= cap) {
			char *nb = realloc(*storage, cap = cap ? 2 * cap : 256);

			if (!nb) {
				fclose(f);
				return NULL;
			}
			*storage = nb;
		}
		(*storage)[len++] = (char)c;
		n += !c;
	}
	fclose(f);
	/* the mark, the directory's path, at least one word */
	if (n < 3 || !*storage || (*storage)[len - 1] || strcmp(*storage, PP_COMMAND_MARK) ||
	    strcmp(*storage + sizeof(PP_COMMAND_MARK), dir))
		return NULL;
	off = sizeof(PP_COMMAND_MARK) + strlen(dir) + 1;
	n -= 2;
	argv = calloc(n + 1, sizeof(*argv));
	if (!argv)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		argv[i] = *storage + off;
		off += strlen(argv[i]) + 1;
	}
	return argv;
}

static void remove_workdir(const char *dir)
{
	char path[PATH_MAX];

	if (!dir)
		return;
	for (size_t i = 0; work_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, work_files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * Write --json or --html.  Each report is attempted whatever happened to
 * the other, and each failure gets its line; a report that cannot be
 * written turns a verdict (0 or 1) into exit status 3.
 */
static int write_report(const struct pp_outcome *o, const char *path,
			int (*write)(const struct pp_outcome *o, const char *path), int code)
{
	char msg[PATH_MAX + 64];
	int err;

	if (!path)
		return code;
	err = write(o, path);
	if (!err)
		return code;
	pr_err("%s", pp_write_failure(err, path, msg, sizeof(msg)));
	return code == PP_EXIT_NO_REGRESSION || code == PP_EXIT_REGRESSION ? PP_EXIT_MEASUREMENT
									   : code;
}

/* A failure of the driver's own files: a full disk or an I/O error is a failure to measure. */
static int io_exit(int err)
{
	return err == -ENOSPC || err == -EDQUOT || err == -EIO || err == -EROFS
		   ? PP_EXIT_MEASUREMENT
		   : PP_EXIT_USAGE;
}

static int outcome_of(int err)
{
	switch (err) {
	case 0:
		return GO_ON;
	case -EINTR:
		return PP_EXIT_INTERRUPTED;
	case -EINVAL:
	case -ENOENT:
		return PP_EXIT_USAGE;
	default:
		return PP_EXIT_MEASUREMENT;
	}
}

static void session_init(struct pp_session *s, struct pp_options *opt)
{
	memset(s, 0, sizeof(*s));
	s->opt = opt;
	s->stop = &stop_requested;
	s->rev[PP_PREV].label = "previous";
	s->rev[PP_CUR].label = "current";
	s->on_decided = pp_report_comparison;
	pp_program_init(&s->rev[PP_PREV].prog);
	pp_program_init(&s->rev[PP_CUR].prog);
	/* not open: pp_layouts_close() closes nothing */
	for (int r = 0; r < 2; r++)
		s->rev[r].lay.dirfd = s->rev[r].lay.lock = -1;
}

/* --previous and --current: two directories, made absolute in the session. */
static int open_revisions(struct pp_session *s)
{
	const struct pp_options *opt = s->opt;

	if (check_dir("previous", opt->previous, &s->rev[PP_PREV].dir) ||
	    check_dir("current", opt->current, &s->rev[PP_CUR].dir))
		return PP_EXIT_USAGE;
	/* by device and inode: a path through a link or a bind mount is no other directory */
	if (pp_same_file(s->rev[PP_PREV].dir, s->rev[PP_CUR].dir) ||
	    !strcmp(s->rev[PP_PREV].dir, s->rev[PP_CUR].dir)) {
		pr_err("--previous and --current are the same directory (%s and %s)",
		       s->rev[PP_PREV].dir, s->rev[PP_CUR].dir);
		return PP_EXIT_USAGE;
	}
	return GO_ON;
}

/*
 * COMMAND, remembered for the next session; or, when not given, the last
 * session's (in *@loaded, its strings in *@storage).
 */
static int find_command(struct pp_session *s, char ***loaded, char **storage)
{
	struct pp_options *opt = s->opt;
	const char *cur = s->rev[PP_CUR].dir;
	char path[PATH_MAX], why[PP_REFUSAL_MAX];

	if (opt->command) {
		if (!opt->no_save_command &&
		    save_command(cur, opt->command, path, sizeof(path), why, sizeof(why)))
			pr_warn("cannot remember the command: %s", why);
		return GO_ON;
	}
	*loaded = load_command(cur, storage, why, sizeof(why));
	if (!*loaded && *why) {
		pr_err("no command: give the benchmark after '--' (the remembered one cannot be "
		       "used: %s)",
		       why);
		return PP_EXIT_USAGE;
	}
	if (!*loaded) {
		pr_err(
		    "no command: give the benchmark after '--' (a session on %s remembers it for "
		    "later sessions, in $XDG_CACHE_HOME/pinpoint/commands)",
		    cur);
		return PP_EXIT_USAGE;
	}
	opt->command = *loaded;
	return GO_ON;
}

/*
 * --bisect: every step of a bisection compares at the threshold its bad
 * commit gives (commits.c), unless --precision-threshold was given.
 */
static int bisect_threshold(struct pp_options *opt, enum pp_bisect_stage *stage)
{
	int code;

	if (!opt->bisect || opt->precision_given)
		return GO_ON;
	*stage = PP_BISECT_BAD;
	code = pp_commits_bisect_bad(opt);
	if (code)
		return code;
	*stage = PP_BISECT_OPTIONS;
	return GO_ON;
}

/* The session's work directory, in @buf, removed by a second signal too. */
static int open_workdir(struct pp_session *s, char *buf, size_t len)
{
	const char *tmpdir = pp_workdir_tmpdir();
	int err;

	pp_workdir_clean_stale(tmpdir);
	err = pp_workdir_create(tmpdir, buf, len);
	if (err) {
		if (err == -ENOSPC || err == -EDQUOT)
			pr_err("no space left on device creating a work directory in %s", tmpdir);
		else
			pr_err("cannot create a work directory in %s: %s", tmpdir, strerror(-err));
		return io_exit(err);
	}
	s->workdir = buf;
	if (pp_signals_workdir(buf, work_files))
		pr_dbg("a second signal would leave %s behind", buf);
	pp_signals_catch(&stop_requested);
	return GO_ON;
}

/* Build the revisions; a plain CMake build is measured in its instrumented copy. */
static int build_revisions(struct pp_session *s, enum pp_bisect_stage *stage)
{
	pp_build_stop_on(&stop_requested);
	for (int r = 0; r < 2; r++) {
		char *run_dir;
		int err;

		*stage = r ? PP_BISECT_BUILD_CURRENT : PP_BISECT_BUILD_PREVIOUS;
		err = pp_build_revision(s->opt, s->rev[r].label, s->rev[r].dir, &run_dir);
		if (!err && stop_requested)
			err = -EINTR;
		if (err == -EINTR) {
			free(run_dir);
			pr_err("interrupted while building the %s revision", s->rev[r].label);
			return PP_EXIT_INTERRUPTED;
		}
		if (err)
			return io_exit(err);
		if (run_dir) {
			free(s->rev[r].dir);
			s->rev[r].dir = run_dir;
		}
	}
	*stage = PP_BISECT_SESSION;
	return GO_ON;
}

/*
 * Each revision's layouts lock, taken before anything runs in it (what a
 * killed session of an earlier pinpoint left in a build directory is put
 * back then).
 */
static int open_layouts(struct pp_session *s)
{
	bool layouts = s->opt->layouts > 1;
	const char *why = NULL;
	struct stat st[2];
	int first = 0;

	/* One order for every session, by device and inode: two sessions with
	 * the revisions the other way round never each hold the lock the other
	 * waits for. */
	if (!stat(s->rev[PP_PREV].dir, &st[0]) && !stat(s->rev[PP_CUR].dir, &st[1]) &&
	    (st[1].st_dev < st[0].st_dev ||
	     (st[1].st_dev == st[0].st_dev && st[1].st_ino < st[0].st_ino)))
		first = 1;

	/* Each run sees its layout in a mount namespace of its own: can it here? */
	if (layouts && pp_process_binds_work(&why)) {
		pr_warn("both revisions run as built, not in code layouts: %s", why);
		for (int r = 0; r < 2; r++)
			s->rev[r].lay.not_varied = why;
		layouts = false;
	}
	for (int i = 0; i < 2; i++) {
		int r = i ? 1 - first : first;
		struct pp_revision *rev = &s->rev[r];
		const char *nv = rev->lay.not_varied;
		char why[PP_REFUSAL_MAX];
		int err = pp_layouts_open(&rev->lay, rev->dir, layouts, s->stop, why, sizeof(why));

		rev->lay.not_varied = nv;
		if (err == -EINTR || err == -ENOMEM)
			return err;
		if (err && layouts) {
			pr_warn("cannot use the layouts cache: %s; the %s revision runs as built",
				why, rev->label);
			rev->lay.not_varied = "its layouts could not be kept in the cache";
		}
	}
	return 0;
}

/*
 * Both revisions are varied, or neither: one run as built beside the other
 * over layouts compares a draw of the linker's lottery with its average,
 * and identical code came out 7-22 % slower that way.  The revision that
 * could be varied runs as built too, and one line says why.
 */
static void both_or_neither(struct pp_session *s)
{
	for (int r = 0; r < 2; r++) {
		struct pp_revision *rev = &s->rev[r], *other = &s->rev[1 - r];

		if (!rev->lay.n || other->lay.n)
			continue;
		pr_warn("the %s revision runs as built, not in code layouts: %s; the %s revision "
			"runs as built too, so that both are measured alike",
			other->label,
			other->lay.not_varied ? other->lay.not_varied
					      : "it could not be linked again",
			rev->label);
		rev->lay.n = 0;
		rev->lay.as_other = true;
		rev->lay.not_varied = other->label == s->rev[PP_PREV].label
					  ? "the previous revision could not be varied"
					  : "the current revision could not be varied";
		if (!other->lay.not_varied)
			other->lay.not_varied = "it could not be linked again";
	}
}

/* Each revision's --layouts, from the modules its discovery runs named. */
static int make_layouts(struct pp_session *s)
{
	double t0 = pp_session_now(s);
	gsl_rng *lrng = s->opt->layouts > 1 ? pp_session_layout_rng(s) : NULL;
	int err = s->opt->layouts > 1 && !lrng ? -ENOMEM : 0;

	for (int r = 0; r < 2 && !err; r++) {
		struct pp_revision *rev = &s->rev[r];
		int n;

		if (!s->backend) {
			err = pp_layouts_make(&rev->lay, rev->label, rev->dir, rev->prog.objects,
					      rev->prog.nobjects, (unsigned)s->opt->layouts, lrng,
					      s->stop);
			continue;
		}
		n = s->opt->layouts > 1 ? s->backend->layouts(s, r, (unsigned)s->opt->layouts) : 0;
		if (n < 0)
			err = n;
		else
			rev->lay.n = (unsigned)n;
	}
	if (!err)
		both_or_neither(s);
	if (!err && s->rev[PP_PREV].lay.n && s->rev[PP_CUR].lay.n) {
		unsigned np = s->rev[PP_PREV].lay.n, nc = s->rev[PP_CUR].lay.n;

		/* more during the session when a comparison needs them (decide_layout.c) */
		s->layouts_first = np < nc ? np : nc;
		s->layouts_cap = (unsigned)s->opt->max_layouts > s->layouts_first
				     ? (unsigned)s->opt->max_layouts
				     : s->layouts_first;
		/* with fewer than asked, the cache had no room for more */
		if (np < (unsigned)s->opt->layouts || nc < (unsigned)s->opt->layouts)
			s->layouts_cap = s->layouts_first;

		if (np == nc)
			pr_info("%u code layouts of each revision, made in %.1f s", np,
				pp_session_now(s) - t0);
		else
			pr_info("%u code layouts of the previous revision and %u of the current "
				"one, made in %.1f s",
				np, nc, pp_session_now(s) - t0);
	}
	/* Making the layouts is not measuring: --max-time's plan starts after it. */
	if (s->measuring > 0)
		s->measuring += pp_session_now(s) - t0;
	return err;
}

/* --model: both revisions are the model's, measured by it; nothing is built or run. */
static int open_model(struct pp_session *s, struct pp_model *m)
{
	static char *command[2];
	int err = pp_model_load(m, s->opt->model);

	if (!err)
		err = pp_model_attach(s, m);
	if (err == -ENOMEM)
		pr_err("out of memory reading the model %s", s->opt->model);
	if (err)
		return PP_EXIT_USAGE;
	command[0] = (char *)s->opt->model;
	s->opt->command = command;
	for (int r = 0; r < 2; r++) {
		s->rev[r].dir = strdup(m->path);
		if (!s->rev[r].dir) {
			pr_err("out of memory");
			return PP_EXIT_USAGE;
		}
	}
	return GO_ON;
}

/* --replay: the recorded session's options, revisions and runs; nothing is built or run. */
static int open_replay(struct pp_session *s, struct pp_replay *rp)
{
	int err = pp_replay_load(rp, s->opt);

	if (!err)
		err = pp_replay_attach(s, rp);
	if (err == -ENOMEM)
		pr_err("out of memory reading the report %s", s->opt->replay);
	return err ? PP_EXIT_USAGE : GO_ON;
}

/* The pipeline: discover -> layouts -> plan (measure, decide); 0 or the exit status of a failure.
 */
static int run_pipeline(struct pp_session *s)
{
	bool processes = !s->backend;
	int err, code;

	s->started_wall = pp_wall();
	pr_dbg("measuring %s: previous %s, current %s", s->opt->entry, s->rev[PP_PREV].dir,
	       s->rev[PP_CUR].dir);
	err = processes ? open_layouts(s) : 0;
	if (!err)
		err = pp_discover(s);
	if (!err)
		err = pp_duet_choose(s);
	if (!err)
		err = make_layouts(s);
	if (!err) {
		/* Once the session is known to be sound: warn of what will make its runs vary. */
		if (processes)
			pp_noise_check(s->opt, "/proc", "/sys");
		err = pp_plan(s);
	}
	if (s->backend && s->backend->finish)
		s->backend->finish(s);
	s->finished = pp_session_now(s);
	code = outcome_of(err);
	if (code == PP_EXIT_INTERRUPTED)
		s->interrupted = true;
	if (code == PP_EXIT_MEASUREMENT)
		pr_err("measurement failed: %s", s->failure ? s->failure : strerror(-err));
	return code == GO_ON ? 0 : code;
}

/*
 * The verdict on stdout, --json and --html, then the history line with the
 * exit status they leave (a report that cannot be written makes it 3).
 */
static int report(const struct pp_session *s, int failed, const struct pp_replay *replayed)
{
	const struct pp_options *opt = s->opt;
	struct pp_outcome o;
	int err;

	if (failed == PP_EXIT_USAGE)
		return failed;
	if (pp_outcome_build(&o, s, failed)) {
		pr_err("out of memory making the report");
		return PP_EXIT_MEASUREMENT;
	}
	if (replayed)
		pp_replay_platform(replayed, &o.platform);
	pp_report_verdict(&o, stdout);
	o.status = write_report(&o, opt->json, pp_json_write, o.status);
	o.status = write_report(&o, opt->html, pp_html_write, o.status);
	if (opt->history && (err = pp_history_append(&o, opt->history)))
		pr_warn("cannot append to the history %s: %s", opt->history, strerror(-err));
	err = o.status;
	pp_outcome_free(&o);
	return err;
}

int main(int argc, char **argv)
{
	struct pp_session s;
	struct pp_options opt;
	struct pp_model model;
	struct pp_replay replay;
	char workdir[PATH_MAX], *saved = NULL, **loaded = NULL;
	enum pp_bisect_stage stage = PP_BISECT_OPTIONS;
	int err, code;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&model, 0, sizeof(model));
	memset(&replay, 0, sizeof(replay));
	err = pp_options_parse(&opt, argc, argv);
	if (err) {
		pp_options_free(&opt);
		return err > 0 ? 0 : opt.bisect ? PP_BISECT_ABORT : PP_EXIT_USAGE;
	}
	pp_verbose = opt.quiet ? -1 : opt.verbose;
	if (opt.commits) {
		code = pp_commits_run(&opt);
		pp_options_free(&opt);
		return code;
	}
	/* Whatever the benchmark leaves running is reparented here, and killed after the run. */
	if (pp_process_adopt_orphans())
		pr_dbg("not a subreaper (%s): daemons of the benchmark may outlive it",
		       strerror(errno));
	session_init(&s, &opt);
	code = opt.replay  ? open_replay(&s, &replay)
	       : opt.model ? open_model(&s, &model)
			   : open_revisions(&s);
	if (code == GO_ON && !opt.model && !opt.replay)
		code = find_command(&s, &loaded, &saved);
	if (code == GO_ON)
		code = bisect_threshold(&opt, &stage);
	if (code == GO_ON && !opt.replay)
		code = open_workdir(&s, workdir, sizeof(workdir));
	s.started = pp_session_now(&s);
	if (code == GO_ON && !opt.model && !opt.replay)
		code = build_revisions(&s, &stage);
	if (code == GO_ON)
		code = report(&s, run_pipeline(&s), opt.replay ? &replay : NULL);
	/* The build directories' binaries as they were built. */
	pp_layouts_close(&s.rev[PP_PREV].lay);
	pp_layouts_close(&s.rev[PP_CUR].lay);
	if (!opt.replay)
		remove_workdir(s.workdir);
	pp_session_free(&s);
	pp_model_free(&model);
	pp_replay_free(&replay);
	free(loaded);
	free(saved);
	pp_options_free(&opt);
	return opt.bisect ? pp_bisect_status(stage, code) : code;
}
