// SPDX-License-Identifier: MIT
/*
 * run.c - run the benchmark once in a build directory, with a time limit,
 * through the one process runner (core/process.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/util.h"
#include "pinpoint/abi.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/protocol.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/backend.h"
#include "pinpoint/measure/run.h"

static uint64_t hash_file(const char *path)
{
	uint64_t h = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	pp_fd_hash(fd, &h, NULL);
	close(fd);
	return h;
}

/* A job's environment: PINPOINT (or its removal) and the pad; -ENOMEM. */
struct job_env {
	char *setting, pad[sizeof(PP_ENV_PAD) + PP_ENV_PAD_MAX + 1];
	const char *env[3];
};

static int job_env_init(struct job_env *e, const struct pp_run_job *j)
{
	unsigned pad = j->env_pad > PP_ENV_PAD_MAX ? PP_ENV_PAD_MAX : j->env_pad;

	e->setting = NULL;
	e->env[0] = PP_ENV;
	e->env[1] = e->pad;
	e->env[2] = NULL;
	if (j->arming) {
		if (asprintf(&e->setting, "%s=%s", PP_ENV, j->arming) < 0) {
			e->setting = NULL;
			return -ENOMEM;
		}
		e->env[0] = e->setting;
	}
	/* The environment's size moves the stack: a variable of @env_pad bytes. */
	snprintf(e->pad, sizeof(e->pad), "%s=", PP_ENV_PAD);
	memset(e->pad + sizeof(PP_ENV_PAD), 'x', pad);
	e->pad[sizeof(PP_ENV_PAD) + pad] = 0;
	return 0;
}

int pp_run_jobs(const struct pp_run_job *jobs, size_t n, double timeout_s, volatile int *stop,
		struct pp_run_status *st, int *errs)
{
	struct pp_process p[PP_PROCESS_SET_MAX] = {{0}};
	struct job_env e[PP_PROCESS_SET_MAX] = {{0}};
	int err = 0;

	if (!n || n > PP_PROCESS_SET_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		p[i] = (struct pp_process){
		    .argv = jobs[i].argv,
		    .dir = jobs[i].dir,
		    .env = e[i].env,
		    .group = true,
		    .timeout_s = timeout_s,
		    .stop = stop,
		    .cpus = jobs[i].cpus,
		    .binds = jobs[i].binds,
		    .bind_fds = jobs[i].bind_fds,
		    .out = -1,
		    .err = -1,
		};
	}
	for (size_t i = 0; i < n && !err; i++) {
		/* New files in the work directory (0700): whatever is there goes, nothing is
		 * followed. */
		unlink(jobs[i].out_path);
		unlink(jobs[i].err_path);
		p[i].out = open(jobs[i].out_path,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		p[i].err = open(jobs[i].err_path,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (p[i].out < 0 || p[i].err < 0)
			err = -errno;
		else
			err = job_env_init(&e[i], &jobs[i]);
	}
	if (!err)
		err = pp_process_run_set(p, n, st, errs);
	for (size_t i = 0; i < n; i++) {
		if (!err && !errs[i])
			st[i].output_hash = hash_file(jobs[i].out_path);
		if (p[i].out >= 0)
			close(p[i].out);
		if (p[i].err >= 0)
			close(p[i].err);
		free(e[i].setting);
	}
	return err;
}

/* The last non-empty line of a file, for error messages. */
static void last_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

/*
 * No results after a run: did the runtime fail to write them?  -ENOSPC when
 * it said the disk was full or the work directory's file system has no
 * space left, -EIO with its line in @line for another write error, else 0.
 */
static int results_write_error(const char *errp, const char *workdir, char *line, size_t len)
{
	struct statvfs vfs;
	char buf[512];
	int err = 0;
	FILE *f;

	line[0] = 0;
	f = fopen(errp, "r");
	while (f && fgets(buf, sizeof(buf), f)) {
		if (!strstr(buf, "pinpoint: cannot write results to "))
			continue;
		buf[strcspn(buf, "\n")] = 0;
		snprintf(line, len, "%s", buf);
		err =
		    strstr(buf, strerror(ENOSPC)) || strstr(buf, strerror(EDQUOT)) ? -ENOSPC : -EIO;
	}
	if (f)
		fclose(f);
	if (!err && !statvfs(workdir, &vfs) && vfs.f_blocks &&
	    (!vfs.f_bavail || (vfs.f_files && !vfs.f_favail)))
		err = -ENOSPC;
	return err;
}

/* What the run in @layout sees (*@binds); 0 or -EIO after recording why it cannot. */
static int use_layout(struct pp_session *s, struct pp_revision *rev, int layout, unsigned batch,
		      unsigned index, const char *const **binds, const int **fds)
{
	const char *module;
	int err;

	*binds = NULL;
	*fds = NULL;
	if (layout < 0 || !rev->lay.n)
		return 0;
	err = pp_layouts_use(&rev->lay, (unsigned)layout, binds, fds, &module);
	if (!err)
		return 0;
	pp_session_fail(
	    s, "%s revision, batch %u, run %u: cannot use layout %d: %s%s%s", rev->label, batch,
	    index + 1, layout + 1, module ? module : "", module ? ": " : "",
	    err == -ESTALE  ? "it was rebuilt during the session"
	    : err == -EPERM ? "its layout file in the cache is no longer the one checked"
			    : strerror(-err));
	return -EIO;
}

/* One run of a revision on its way: what it was asked, and its files. */
struct prepared {
	const struct pp_run_req *req;
	unsigned batch;
	char out[4096], outp[4096], errp[4096];
	char *armed;
	struct pp_run_job job;
};

/* Make @p ready to run; 0, or -EIO after recording why it cannot run. */
static int prepare(struct pp_session *s, unsigned batch, const struct pp_run_req *req,
		   struct prepared *p)
{
	struct pp_revision *rev = &s->rev[req->rev];
	const char *const *binds;
	const int *fds;
	int err;

	p->req = req;
	p->batch = batch;
	p->armed = NULL;
	err = use_layout(s, rev, req->setup.layout, batch, req->index, &binds, &fds);
	if (err)
		return err;
	if (asprintf(&p->armed, "%s;%s=%u", req->arming, PP_SPEC_KEY_HEAP, req->setup.heap) < 0) {
		p->armed = NULL;
		pp_session_fail(s, "out of memory");
		return -EIO;
	}
	pp_session_results_path(s, req->rev, p->out, sizeof(p->out));
	snprintf(p->outp, sizeof(p->outp), "%s/%s.stdout", s->workdir, rev->label);
	snprintf(p->errp, sizeof(p->errp), "%s/%s.stderr", s->workdir, rev->label);
	unlink(p->out);
	pp_results_others(p->out, NULL, 0, 1);
	p->job = (struct pp_run_job){
	    .argv = s->opt->command,
	    .dir = rev->dir,
	    .arming = p->armed,
	    .env_pad = req->setup.env_pad,
	    .out_path = p->outp,
	    .err_path = p->errp,
	    .cpus = req->cpus	       ? req->cpus
		    : s->opt->cpu_list ? &s->opt->cpus
				       : NULL,
	    .binds = binds,
	    .bind_fds = fds,
	};
	return 0;
}

/* Check how run @p ended (@err: pp_run_jobs()'s for it) and read its results into @res. */
static int finish(struct pp_session *s, struct prepared *p, int err, struct pp_run_status *st,
		  struct pp_results *res)
{
	const struct pp_run_req *req = p->req;
	struct pp_revision *rev = &s->rev[req->rev];
	unsigned batch = p->batch, index = req->index;
	char how[128], tail[512];
	int errline = 0;
	long others[1];

	if (err && st->bind_failed) {
		pp_session_fail(s, "%s revision, batch %u, run %u: cannot show it layout %d: %s",
				rev->label, batch, index + 1, req->setup.layout + 1,
				strerror(-err));
		return -EIO;
	}
	if (err) {
		pp_session_fail(s, "cannot run '%s' in %s: %s", s->opt->command[0], rev->dir,
				strerror(-err));
		return -EIO;
	}
	if (st->interrupted)
		return -EINTR;
	if (st->timed_out || st->signal || st->exit_code) {
		last_line(p->errp, tail, sizeof(tail));
		pp_session_fail(s, "%s revision, batch %u, run %u: '%s' %s%s%s", rev->label, batch,
				index + 1, s->opt->command[0],
				pp_run_describe(st, how, sizeof(how)),
				tail[0] ? "; its last words: " : "", tail);
		return -EIO;
	}
	/* A run the runtime stopped (stop=, later batches) printed only part of its output. */
	if (s->entry_stop && batch != 0)
		goto read;
	if (!rev->output_hash) {
		rev->output_hash = st->output_hash;
	} else if (rev->output_hash != st->output_hash && !rev->output_differs_warned) {
		pr_warn("the %s revision's output changed between runs", rev->label);
		rev->output_differs_warned = true;
	}
	if (s->rev[PP_PREV].output_hash && s->rev[PP_CUR].output_hash &&
	    s->rev[PP_PREV].output_hash != s->rev[PP_CUR].output_hash &&
	    !s->outputs_differ_warned) {
		pr_warn("the previous and current revisions print different output: are they "
			"running the same work?");
		s->outputs_differ_warned = true;
	}
read:
	err = pp_results_read(res, p->out, &errline);
	if (err == -ENOENT) {
		int werr = results_write_error(p->errp, s->workdir, tail, sizeof(tail));

		if (werr == -ENOSPC) {
			pp_session_fail(s,
					"no space left on device writing %s (the %s revision's "
					"results, batch %u, run %u)",
					p->out, rev->label, batch, index + 1);
			return -ENOSPC;
		}
		if (werr) {
			pp_session_fail(s,
					"%s revision, batch %u, run %u: the results could "
					"not be written: %s",
					rev->label, batch, index + 1, tail);
			return -EIO;
		}
	}
	if (err == -ENOENT && batch == 0) {
		/* The first run: most likely a build without the plugin and runtime. */
		pr_err("the %s revision's '%s' (in %s) wrote no measurements: build it with "
		       "pinpoint-cc, or clang -g -fpass-plugin=$(pinpoint --print-plugin-path) "
		       "and the pinpoint runtime",
		       rev->label, s->opt->command[0], rev->dir);
		return -EINVAL;
	}
	if (err == -ENOENT) {
		pp_session_fail(s,
				"%s revision, batch %u, run %u: the benchmark wrote no "
				"measurements (is it built with the pinpoint runtime, and does it "
				"end with exit() or a return from main?)",
				rev->label, batch, index + 1);
		return -EIO;
	}
	if (!err && pp_results_others(p->out, others, 1, 1) > 0) {
		/* <out> and <out>.<pid>: two processes measured; which one ran what? */
		pp_session_fail(s,
				"%s revision, batch %u, run %u: '%s' ran more than one program "
				"with the pinpoint runtime armed (processes %ld and %ld wrote "
				"results): pinpoint measures one process per run",
				rev->label, batch, index + 1, s->opt->command[0], res->pid,
				others[0]);
		pp_results_free(res);
		return -EIO;
	}
	if (err) {
		pp_session_fail(s, "%s revision, batch %u, run %u: unreadable results %s: %s",
				rev->label, batch, index + 1, p->out,
				err == -EPROTO
				    ? "written by another version of the pinpoint runtime"
				    : strerror(-err));
		return -EIO;
	}
	return 0;
}

static int processes_run(struct pp_session *s, unsigned batch, const struct pp_run_req *req,
			 size_t n, struct pp_results *res, struct pp_run_status *st, int *each)
{
	struct prepared *p = calloc(n ? n : 1, sizeof(*p));
	struct pp_run_job jobs[PP_PROCESS_SET_MAX] = {{0}};
	int errs[PP_PROCESS_SET_MAX], err = 0, ferr;
	size_t ready = 0;

	if (!p || n > PP_PROCESS_SET_MAX) {
		free(p);
		pp_session_fail(s, "out of memory");
		return -EIO;
	}
	for (size_t i = 0; i < n; i++) {
		memset(&st[i], 0, sizeof(st[i]));
		if (each)
			each[i] = 0;
	}
	for (; ready < n && !err; ready++)
		err = prepare(s, batch, &req[ready], &p[ready]);
	if (err)
		goto none_ran;
	for (size_t i = 0; i < n; i++)
		jobs[i] = p[i].job;
	err = pp_run_jobs(jobs, n, s->timeout_s, s->stop, st, errs);
	if (err) {
		pp_session_fail(s, "cannot run '%s': %s", s->opt->command[0], strerror(-err));
		err = -EIO;
		goto none_ran;
	}
	/* Every run is read; the first failure is the one returned (and recorded). */
	for (size_t i = 0; i < n; i++) {
		ferr = finish(s, &p[i], errs[i], &st[i], &res[i]);
		if (each)
			each[i] = ferr;
		if (ferr && (!err || err == -EINTR))
			err = ferr;
	}
	goto out;
none_ran:
	for (size_t i = 0; each && i < n; i++)
		each[i] = err;
out:
	for (size_t i = 0; i < ready; i++)
		free(p[i].armed);
	free(p);
	return err;
}

/* Read the tables of the binaries run @res names into revision @r's program. */
static int processes_tables(struct pp_session *s, enum pp_rev_id r, const struct pp_results *res)
{
	struct pp_revision *rev = &s->rev[r];
	size_t nwarned = 0;

	for (size_t i = 0; i < res->nmodules; i++) {
		int e = pp_program_add_file(&rev->prog, res->modules[i]);

		nwarned = pp_program_print_warnings(&rev->prog, nwarned, "pinpoint", stderr);
		if (e && e != -ENOENT) {
			const char *why = pp_program_error(&rev->prog);

			if (why && *why)
				pr_err("%s", why);
			else
				pr_err("%s: %s", res->modules[i], pp_table_strerror(e));
			return -EINVAL;
		}
	}
	return 0;
}

const struct pp_backend pp_backend_processes = {
    .name = "processes",
    .tables = processes_tables,
    .run = processes_run,
};

int pp_run_revisions(struct pp_session *s, unsigned batch, const struct pp_run_req *req, size_t n,
		     struct pp_results *res, struct pp_run_status *st, int *each)
{
	int err = pp_backend_of(s)->run(s, batch, req, n, res, st, each);
	double turn = 0;

	/* a virtual clock moves by the longest of the runs made at once */
	for (size_t i = 0; s->virtual_clock && i < n; i++)
		if (!(each ? each[i] : err) && st[i].wall_s > turn)
			turn = st[i].wall_s;
	s->clock_s += turn;
	return err;
}

int pp_run_revision(struct pp_session *s, enum pp_rev_id r, const char *arming, unsigned batch,
		    unsigned index, const struct pp_run_setup *setup, struct pp_results *res,
		    struct pp_run_status *st)
{
	const struct pp_run_req req = {.rev = r, .arming = arming, .index = index, .setup = *setup};

	return pp_run_revisions(s, batch, &req, 1, res, st, NULL);
}
