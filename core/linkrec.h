/* SPDX-License-Identifier: MIT */
/*
 * linkrec.h - the link record: how an instrumented executable or shared
 * library was linked, so that the driver can link it again in other code
 * layouts (doc/formats.md, section 5).  pinpoint-cc writes one beside every
 * output it links, OUTPUT.pinpoint-link; the driver reads it.
 */
#ifndef PINPOINT_LINKREC_H
#define PINPOINT_LINKREC_H

#include <stddef.h>

#define PP_LINKREC_SUFFIX ".pinpoint-link"
#define PP_LINKREC_MAGIC "pinpoint-link"
#define PP_LINKREC_VERSION 1

struct pp_linkrec {
	char *cwd;  /* the link's working directory, absolute */
	char **env; /* NAME=VALUE of pp_linkrec_env_names set at the link */
	size_t nenv;
	char **argv; /* the command, NULL-terminated: the compiler driver first */
	size_t argc;
	size_t output; /* argv[output] is the output's path (relative to cwd or absolute) */
};

/* The environment variables a link reads (NULL-terminated): recorded when set. */
#define PP_LINKREC_MAX_ENV 16
extern const char *const pp_linkrec_env_names[];

/*
 * Write @r to @path atomically (pp_write_atomic(): a temporary file created
 * exclusively without following links, renamed over @path).  0 or -errno.
 */
int pp_linkrec_write(const char *path, const struct pp_linkrec *r);

/*
 * Read the record @path (opened O_NOFOLLOW: a link there is refused with
 * -ELOOP).  0; -EPROTO for another version; -EBADMSG for anything else that
 * is not a complete record, and for a command that does not name its
 * output exactly once, as the word after -o or --output that the `output`
 * line marks (-o FILE, -oFILE, --output FILE, --output=FILE or a linker's
 * -o through -Wl, anywhere else would make the link again write there);
 * -errno of reading it; -ENOMEM.  On success free it with
 * pp_linkrec_free().
 */
int pp_linkrec_read(const char *path, struct pp_linkrec *r);

/* Parse the record's text; returns as pp_linkrec_read(). */
int pp_linkrec_parse(const char *text, size_t len, struct pp_linkrec *r);

void pp_linkrec_free(struct pp_linkrec *r);

#endif /* PINPOINT_LINKREC_H */
