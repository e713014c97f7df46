// SPDX-License-Identifier: MIT
/*
 * direct.c - a layout's link run as ld.lld itself.  Through the compiler
 * driver, a link of a small program takes twice what the linker alone does
 * (the driver starts, finds its toolchain, then starts ld.lld): on a
 * program whose runs are short, that is time the layouts' schedule takes
 * from the runs (ahead.c).  The driver says what it would run with -###;
 * asked once a module, with the first layout's output and seed, its one
 * command is the link, and every layout runs it with its own output and
 * seed in their places: the same linker, the same arguments, the same
 * file.  Anything else it answers (more than one command, another linker,
 * the output or seed not arguments of their own) keeps the driver.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/process.h"
#include "core/util.h"
#include "pinpoint/layouts/direct.h"

/* What is read of the driver's -### output, at most. */
#define PP_DIRECT_OUTPUT_MAX (1 << 20)

static void free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

void pp_link_direct_free(struct pp_link_direct *d)
{
	free_argv(d->argv);
	free(d->why_not);
	d->argv = NULL;
	d->why_not = NULL;
}

int pp_link_direct_parse(const char *line, char ***argv, size_t *n)
{
	size_t len = strlen(line), na = 0;
	char **v = calloc(len / 2 + 2, sizeof(*v)); /* each argument takes two quotes */
	const char *p = line;
	int err = -EINVAL;

	if (!v)
		return -ENOMEM;
	while (*p == ' ')
		p++;
	while (*p == '"') {
		char *a = malloc(len + 1), *o = a;

		if (!a) {
			err = -ENOMEM;
			goto out;
		}
		v[na++] = a;
		for (p++; *p && *p != '"'; p++)
			*o++ = *p == '\\' && p[1] ? *++p : *p;
		*o = '\0';
		if (*p++ != '"')
			goto out; /* not closed */
		if (*p && *p != ' ' && *p != '\n')
			goto out;
		while (*p == ' ')
			p++;
	}
	if (!na || (*p && *p != '\n'))
		goto out;
	*argv = v;
	*n = na;
	return 0;
out:
	free_argv(v);
	return err;
}

/* Why not, into d->why_not.  0 or -ENOMEM. */
static int why_not(struct pp_link_direct *d, const char *why)
{
	free(d->why_not);
	d->why_not = strdup(why);
	return d->why_not ? 0 : -ENOMEM;
}

/* Whether @path names ld.lld (ld.lld, ld.lld-N). */
static bool is_lld(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "ld.lld", 6) && (!base[6] || base[6] == '-');
}

/* The one command of the driver's output @text, checked, into @d. */
static int take_command(char *text, const char *out, const char *shuffle, struct pp_link_direct *d)
{
	char **argv = NULL;
	size_t n = 0, nout = 0, nseed = 0;
	int err;

	for (char *line = text, *next; line && *line; line = next) {
		char **v;
		size_t nv;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[strspn(line, " ")] != '"')
			continue; /* the driver's version, target, warnings */
		err = pp_link_direct_parse(line, &v, &nv);
		if (err == -ENOMEM)
			goto out;
		if (err || argv) {
			if (!err)
				free_argv(v);
			err = why_not(d, err ? "a command line of -### it could not read"
					     : "the driver runs more than one command");
			goto out;
		}
		argv = v;
		n = nv;
	}
	if (!argv) {
		err = why_not(d, "the driver's -### named no command");
		goto out;
	}
	if (!is_lld(argv[0])) {
		err = why_not(d, "the driver's command is not ld.lld");
		goto out;
	}
	for (size_t i = 1; i < n; i++) {
		if (!strcmp(argv[i], out)) {
			d->out = i;
			nout++;
		}
		if (!strcmp(argv[i], shuffle + 4)) {
			d->seed = i; /* the last: the layout's, after any of the build's own */
			nseed++;
		}
	}
	if (nout != 1 || !nseed) {
		err = why_not(d, "the linker's command does not take the output and the seed "
				 "as arguments of their own");
		goto out;
	}
	d->argv = argv;
	argv = NULL;
	err = 0;
out:
	free_argv(argv);
	return err;
}

int pp_link_direct_ask(const char *const *drv, const char *out, const char *shuffle,
		       const char *dir, const char *const *env, volatile int *stop,
		       struct pp_link_direct *d)
{
	const char **argv = NULL;
	struct pp_run_status st;
	size_t n = 0;
	char *text = NULL;
	int fd = -1, err;

	memset(d, 0, sizeof(*d));
	if (strncmp(shuffle, "-Wl,", 4))
		return why_not(d, "the seed is not given to the linker");
	while (drv[n])
		n++;
	argv = calloc(n + 2, sizeof(*argv));
	fd = memfd_create("pinpoint-link", MFD_CLOEXEC);
	if (!argv) {
		err = -ENOMEM;
		goto out;
	}
	if (fd < 0) {
		err = why_not(d, "no file for the driver's -### output");
		goto out;
	}
	/* last: a wrapper (ccache, distcc) passes it on to the compiler */
	for (size_t i = 0; i < n; i++)
		argv[i] = drv[i];
	argv[n] = "-###";
	err = pp_process_run(&(struct pp_process){.argv = (char *const *)argv,
						  .dir = dir,
						  .env = env,
						  .out = fd,
						  .err = fd,
						  .group = true,
						  .timeout_s = 60,
						  .stop = stop},
			     &st);
	if (!err && st.interrupted) {
		err = -EINTR;
		goto out;
	}
	if (err || !st.exited || st.exit_code) {
		err = why_not(d, "the driver's -### failed");
		goto out;
	}
	err = pp_fd_read_all(fd, PP_DIRECT_OUTPUT_MAX, &text, NULL);
	if (err == -ENOMEM)
		goto out;
	err = !err ? take_command(text, out, shuffle, d)
		   : why_not(d, "the driver's -### output could not be read");
out:
	if (fd >= 0)
		close(fd);
	free(text);
	free(argv);
	return err;
}

int pp_link_direct_argv(const struct pp_link_direct *d, const char *out, const char *shuffle,
			const char ***argv)
{
	size_t n = 0;
	const char **v;

	while (d->argv[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		v[i] = i == d->out ? out : i == d->seed ? shuffle + 4 : d->argv[i];
	*argv = v;
	return 0;
}
