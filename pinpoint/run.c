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
#include "pinpoint/layouts.h"
#include "pinpoint/protocol.h"
#include "pinpoint/log.h"
#include "pinpoint/run.h"

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

int pp_run(char *const argv[], const char *dir, const char *arming, unsigned env_pad,
	   const char *out_path, const char *err_path, double timeout_s, volatile int *stop,
	   const cpu_set_t *cpus, const char *const *binds, struct pp_run_status *st)
{
	char *setting = NULL, pad[sizeof(PP_ENV_PAD) + PP_ENV_PAD_MAX + 1];
	const char *env[3] = {PP_ENV, pad, NULL};
	struct pp_process p = {
	    .argv = argv,
	    .dir = dir,
	    .env = env,
	    .group = true,
	    .timeout_s = timeout_s,
	    .stop = stop,
	    .cpus = cpus,
	    .binds = binds,
	};
	int err;

	/* New files in the work directory (0700): whatever is there goes, nothing is followed. */
	unlink(out_path);
	unlink(err_path);
	p.out = open(out_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	p.err = open(err_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (p.out < 0 || p.err < 0) {
		err = -errno;
		goto out;
	}
	if (arming) {
		if (asprintf(&setting, "%s=%s", PP_ENV, arming) < 0) {
			err = -ENOMEM;
			goto out;
		}
		env[0] = setting;
	}
	/* The environment's size moves the stack: a variable of @env_pad bytes. */
	if (env_pad > PP_ENV_PAD_MAX)
		env_pad = PP_ENV_PAD_MAX;
	snprintf(pad, sizeof(pad), "%s=", PP_ENV_PAD);
	memset(pad + sizeof(PP_ENV_PAD), 'x', env_pad);
	pad[sizeof(PP_ENV_PAD) + env_pad] = 0;
	err = pp_process_run(&p, st);
	if (!err)
		st->output_hash = hash_file(out_path);
out:
	if (p.out >= 0)
		close(p.out);
	if (p.err >= 0)
		close(p.err);
	free(setting);
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
		      unsigned index, const char *const **binds)
{
	const char *module;
	int err;

	*binds = NULL;
	if (layout < 0 || !rev->lay.n)
		return 0;
	err = pp_layouts_use(&rev->lay, (unsigned)layout, binds, &module);
	if (!err)
		return 0;
	pp_session_fail(s, "%s revision, batch %u, run %u: cannot use layout %d: %s%s%s",
			rev->label, batch, index + 1, layout + 1, module ? module : "",
			module ? ": " : "",
			err == -ESTALE ? "it was rebuilt during the session" : strerror(-err));
	return -EIO;
}

int pp_run_revision(struct pp_session *s, enum pp_rev_id r, const char *arming, unsigned batch,
		    unsigned index, const struct pp_run_setup *setup, struct pp_results *res,
		    struct pp_run_status *st)
{
	struct pp_revision *rev = &s->rev[r];
	char out[4096], outp[4096], errp[4096], how[128], tail[512], *armed = NULL;
	const char *const *binds;
	int err, errline = 0;
	long others[1];

	memset(st, 0, sizeof(*st));
	err = use_layout(s, rev, setup->layout, batch, index, &binds);
	if (err)
		return err;
	if (asprintf(&armed, "%s;%s=%u", arming, PP_SPEC_KEY_HEAP, setup->heap) < 0) {
		pp_session_fail(s, "out of memory");
		return -EIO;
	}

	pp_session_results_path(s, out, sizeof(out));
	snprintf(outp, sizeof(outp), "%s/%s.stdout", s->workdir, rev->label);
	snprintf(errp, sizeof(errp), "%s/%s.stderr", s->workdir, rev->label);
	unlink(out);
	pp_results_others(out, NULL, 0, 1);
	err = pp_run(s->opt->command, rev->dir, armed, setup->env_pad, outp, errp, s->timeout_s,
		     s->stop, s->opt->cpu_list ? &s->opt->cpus : NULL, binds, st);
	free(armed);
	if (err && st->bind_failed) {
		pp_session_fail(s, "%s revision, batch %u, run %u: cannot show it layout %d: %s",
				rev->label, batch, index + 1, setup->layout + 1, strerror(-err));
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
		last_line(errp, tail, sizeof(tail));
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
	err = pp_results_read(res, out, &errline);
	if (err == -ENOENT) {
		int werr = results_write_error(errp, s->workdir, tail, sizeof(tail));

		if (werr == -ENOSPC) {
			pp_session_fail(s,
					"no space left on device writing %s (the %s revision's "
					"results, batch %u, run %u)",
					out, rev->label, batch, index + 1);
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
	if (!err && pp_results_others(out, others, 1, 1) > 0) {
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
				rev->label, batch, index + 1, out,
				err == -EPROTO
				    ? "written by another version of the pinpoint runtime"
				    : strerror(-err));
		return -EIO;
	}
	return 0;
}
