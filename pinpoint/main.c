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
 * (report/: text as comparisons are decided and at the end, JSON, HTML).  Exit status: 0 no regression,
 * 1 regression pinpointed, 2 usage or input error, 3 measurement failed,
 * 130 interrupted; with --bisect, those of git bisect run (bisect.c).
 * --commits runs commits.c instead, which runs sessions of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/process.h"
#include "core/util.h"
#include "pinpoint/bisect.h"
#include "pinpoint/build.h"
#include "pinpoint/commits.h"
#include "pinpoint/discover.h"
#include "pinpoint/history.h"
#include "pinpoint/log.h"
#include "pinpoint/noise.h"
#include "pinpoint/options.h"
#include "pinpoint/plan.h"
#include "pinpoint/report/html.h"
#include "pinpoint/report/json.h"
#include "pinpoint/report/report.h"
#include "pinpoint/workdir.h"

#define PP_EXIT_INTERRUPTED 130

int pp_verbose;
static volatile int stop_requested;

static const char *const work_files[] = {"results", "previous.stdout", "previous.stderr",
					 "current.stdout", "current.stderr"};
#define NWORK_FILES (sizeof(work_files) / sizeof(work_files[0]))
/* The work directory's paths, made before the handler can need them. */
static char work_paths[NWORK_FILES + 1][PATH_MAX];

/*
 * The first signal asks the search to stop after the running benchmark is
 * killed, and the session is reported; a second one stops at once: it
 * kills the benchmark and removes the work directory with async-signal-safe
 * calls only.
 */
static void on_signal(int sig)
{
	int saved_errno = errno;

	(void)sig;
	if (stop_requested++) {
		static const char msg[] = "\npinpoint: stopped\n";

		pp_process_kill();
		for (size_t i = 0; i < NWORK_FILES; i++)
			if (work_paths[i][0])
				unlink(work_paths[i]);
		if (work_paths[NWORK_FILES][0])
			rmdir(work_paths[NWORK_FILES]);
		if (write(2, msg, sizeof(msg) - 1) < 0)
			_exit(PP_EXIT_INTERRUPTED);
		_exit(PP_EXIT_INTERRUPTED);
	}
	errno = saved_errno;
}

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

static void write_command(FILE *f, const void *arg)
{
	for (char *const *a = arg; *a; a++)
		fwrite(*a, 1, strlen(*a) + 1, f);
}

/*
 * COMMAND is remembered in CURRENT/.pinpoint/command, NUL-separated: a new
 * file created exclusively and renamed over the old one (a link there is
 * replaced, not followed).
 */
static int save_command(const char *dir, char **argv, char *path, size_t len)
{
	snprintf(path, len, "%s/.pinpoint", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, len, "%s/.pinpoint/command", dir);
	return pp_write_atomic(path, write_command, argv);
}

static char **load_command(const char *dir, char **storage)
{
	char path[PATH_MAX], **argv;
	size_t len = 0, cap = 0, n = 0;
	FILE *f;
	int c;

	snprintf(path, sizeof(path), "%s/.pinpoint/command", dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
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
	if (!n || !*storage || (*storage)[len - 1])
		return NULL;
	argv = calloc(n + 1, sizeof(*argv));
	if (!argv)
		return NULL;
	for (size_t i = 0, off = 0; i < n; i++) {
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
	for (size_t i = 0; i < NWORK_FILES; i++) {
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
static int write_report(const struct pp_session *s, const char *path,
			int (*write)(const struct pp_session *s, const char *path), int code)
{
	char msg[PATH_MAX + 64];
	int err;

	if (!path || s->outcome == PP_EXIT_USAGE)
		return code;
	err = write(s, path);
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
		return -1;
	case -EINTR:
		return PP_EXIT_INTERRUPTED;
	case -EINVAL:
	case -ENOENT:
		return PP_EXIT_USAGE;
	default:
		return PP_EXIT_MEASUREMENT;
	}
}

int main(int argc, char **argv)
{
	struct pp_session s;
	struct pp_options opt;
	struct sigaction sa, old_sa;
	char tmpl[PATH_MAX], msg[PATH_MAX + 64], *saved = NULL, **loaded = NULL;
	const char *tmpdir;
	enum pp_bisect_stage stage = PP_BISECT_OPTIONS;
	int err, code;

	setvbuf(stdout, NULL, _IOLBF, 0);
	err = pp_options_parse(&opt, argc, argv);
	if (err)
		return err > 0 ? 0 : opt.bisect ? PP_BISECT_ABORT : PP_EXIT_USAGE;
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

	memset(&s, 0, sizeof(s));
	s.opt = &opt;
	s.stop = &stop_requested;
	s.rev[PP_PREV].label = "previous";
	s.rev[PP_CUR].label = "current";
	s.on_decided = pp_report_comparison;
	pp_program_init(&s.rev[PP_PREV].prog);
	pp_program_init(&s.rev[PP_CUR].prog);
	code = PP_EXIT_USAGE;
	if (check_dir("previous", opt.previous, &s.rev[PP_PREV].dir) ||
	    check_dir("current", opt.current, &s.rev[PP_CUR].dir))
		goto out;
	if (!strcmp(s.rev[PP_PREV].dir, s.rev[PP_CUR].dir)) {
		pr_err("--previous and --current are the same directory (%s)", s.rev[PP_CUR].dir);
		goto out;
	}
	if (opt.command) {
		if (!opt.no_save_command &&
		    (err = save_command(s.rev[PP_CUR].dir, opt.command, tmpl, sizeof(tmpl))))
			pr_warn("cannot remember the command: %s",
				pp_write_failure(err, tmpl, msg, sizeof(msg)));
	} else {
		loaded = load_command(s.rev[PP_CUR].dir, &saved);
		if (!loaded) {
			pr_err("no command: give the benchmark after '--' (it is remembered in "
			       "%s/.pinpoint/command for later sessions)",
			       s.rev[PP_CUR].dir);
			goto out;
		}
		opt.command = loaded;
	}

	tmpdir = getenv("TMPDIR");
	tmpdir = tmpdir && *tmpdir ? tmpdir : "/tmp";
	pp_workdir_clean_stale(tmpdir);
	err = pp_workdir_create(tmpdir, tmpl, sizeof(tmpl));
	if (err) {
		if (err == -ENOSPC || err == -EDQUOT)
			pr_err("no space left on device creating a work directory in %s", tmpdir);
		else
			pr_err("cannot create a work directory in %s: %s", tmpdir, strerror(-err));
		code = io_exit(err);
		goto out;
	}
	s.workdir = tmpl;
	for (size_t i = 0; i < NWORK_FILES; i++)
		snprintf(work_paths[i], sizeof(work_paths[i]), "%s/%s", s.workdir, work_files[i]);
	snprintf(work_paths[NWORK_FILES], sizeof(work_paths[0]), "%s", s.workdir);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &old_sa) || old_sa.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL); /* nohup: ignored it stays */
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	pp_build_stop_on(&stop_requested);
	s.started = pp_now();
	/* Build the revisions; a plain CMake build is measured in its instrumented copy. */
	for (int r = 0; r < 2; r++) {
		char *run_dir;

		stage = r ? PP_BISECT_BUILD_CURRENT : PP_BISECT_BUILD_PREVIOUS;
		err = pp_build_revision(&opt, s.rev[r].label, s.rev[r].dir, &run_dir);
		if (!err && stop_requested)
			err = -EINTR;
		if (err == -EINTR) {
			free(run_dir);
			pr_err("interrupted while building the %s revision", s.rev[r].label);
			code = PP_EXIT_INTERRUPTED;
			goto out;
		}
		if (err) {
			code = io_exit(err);
			goto out;
		}
		if (run_dir) {
			free(s.rev[r].dir);
			s.rev[r].dir = run_dir;
		}
	}
	stage = PP_BISECT_SESSION;
	s.started_wall = pp_wall();
	pr_dbg("measuring %s: previous %s, current %s", opt.entry, s.rev[PP_PREV].dir,
	       s.rev[PP_CUR].dir);
	/* The pipeline: discover -> plan (measure, decide) -> report. */
	err = pp_discover(&s);
	if (!err) {
		/* Once the session is known to be sound: warn of what will make its runs vary. */
		pp_noise_check(&opt, "/proc", "/sys");
		err = pp_plan(&s);
	}
	/* An entry that could not be decided is no clean result. */
	if (!err && s.nq && s.q[0]->decided && s.q[0]->verdict == PP_V_UNDECIDED)
		s.outcome = PP_EXIT_UNDECIDED;
	s.finished = pp_now();
	code = outcome_of(err);
	if (code < 0)
		code = s.outcome;
	else if (code == PP_EXIT_INTERRUPTED)
		s.interrupted = true;
	if (code == PP_EXIT_MEASUREMENT) {
		if (s.failure)
			pr_err("measurement failed: %s", s.failure);
		else
			pr_err("measurement failed: %s", strerror(-err));
	}
	s.outcome = code;
	if (code != PP_EXIT_USAGE)
		pp_report_verdict(&s, stdout);
	if (opt.history && code != PP_EXIT_USAGE && (err = pp_history_append(&s, opt.history)))
		pr_warn("cannot append to the history %s: %s", opt.history, strerror(-err));
	code = write_report(&s, opt.json, pp_json_write_session, code);
	code = write_report(&s, opt.html, pp_html_write_session, code);
out:
	remove_workdir(s.workdir);
	pp_session_free(&s);
	free(loaded);
	free(saved);
	pp_options_free(&opt);
	return opt.bisect ? pp_bisect_status(stage, code) : code;
}
