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
 * sessions of its own; --changes runs changes.c, which reads a --history
 * file and runs nothing (its exit statuses: changes.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/process.h"
#include "core/private_dir.h"
#include "core/util.h"
#include "pinpoint/build/bisect.h"
#include "pinpoint/build/build.h"
#include "pinpoint/build/commits.h"
#include "pinpoint/build/git.h"
#include "pinpoint/changes/changes.h"
#include "pinpoint/measure/duet.h"
#include "pinpoint/measure/discover.h"
#include "pinpoint/report/history.h"
#include "pinpoint/layouts/both.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/noise.h"
#include "pinpoint/model/model.h"
#include "pinpoint/replay/replay.h"
#include "pinpoint/session/command.h"
#include "pinpoint/session/options.h"
#include "pinpoint/session/revisions.h"
#include "pinpoint/session/outcome.h"
#include "pinpoint/search/plan.h"
#include "pinpoint/report/html.h"
#include "pinpoint/report/json.h"
#include "pinpoint/report/report.h"
#include "pinpoint/session/signals.h"
#include "pinpoint/build/workdir.h"

/* What a stage returns when the session goes on to the next one; otherwise an exit status. */
#define GO_ON (-1)

int pp_verbose;
static volatile int stop_requested;

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
		    pp_command_remember(cur, opt->command, path, sizeof(path), why, sizeof(why)))
			pr_warn("cannot remember the command: %s", why);
		return GO_ON;
	}
	*loaded = pp_command_recall(cur, storage, why, sizeof(why));
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
	if (pp_signals_workdir(buf, pp_work_files))
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
		/* the commit as built: the work tree may move on while the session measures */
		if (pp_git_build_commit(s->rev[r].dir, s->rev[r].commit) && r == PP_CUR &&
		    s->opt->label && pp_git_full_hash(s->opt->label))
			snprintf(s->rev[r].commit, sizeof(s->rev[r].commit), "%s", s->opt->label);
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
			s->rev[r].built_from = s->rev[r].dir;
			s->rev[r].dir = run_dir;
		}
	}
	*stage = PP_BISECT_SESSION;
	return GO_ON;
}

/* --build-only (--commits' --build-jobs): --current built as a session builds it. */
static int build_only(const struct pp_options *opt)
{
	char dir[PATH_MAX], *run_dir = NULL;
	int err;

	if (!realpath(opt->current, dir)) {
		pr_err("--current %s: %s", opt->current, strerror(errno));
		return PP_EXIT_USAGE;
	}
	pp_signals_catch(&stop_requested);
	pp_build_stop_on(&stop_requested);
	err = pp_build_revision(opt, "current", dir, &run_dir);
	free(run_dir);
	return err == -EINTR ? PP_EXIT_INTERRUPTED : err ? io_exit(err) : 0;
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
	err = processes ? pp_layouts_open_both(s) : 0;
	if (!err)
		err = pp_discover(s);
	if (!err)
		err = pp_duet_choose(s);
	if (!err)
		err = pp_layouts_make_both(s);
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
	if (opt.build_only) {
		code = build_only(&opt);
		pp_options_free(&opt);
		return code;
	}
	if (opt.commits || opt.changes) {
		code = opt.commits ? pp_commits_run(&opt) : pp_changes_run(&opt);
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
			   : (pp_revisions_open(&s) ? PP_EXIT_USAGE : GO_ON);
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
		pp_workdir_remove(s.workdir);
	pp_session_free(&s);
	pp_model_free(&model);
	pp_replay_free(&replay);
	free(loaded);
	free(saved);
	pp_options_free(&opt);
	return opt.bisect ? pp_bisect_status(stage, code) : code;
}
