/* SPDX-License-Identifier: MIT */
/*
 * fuzz_linkrec.c - libFuzzer target: any bytes as a link record
 * (pp_linkrec_parse()).  Besides "no crash, no leak", a record that parses
 * names its output once, as the word after -o or --output, and reads back
 * the same once written again.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/linkrec.h"
#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What pp_linkrec_write() writes, in memory instead of util.c's file. */
static char *written;
static size_t nwritten;

int pp_write_atomic(const char *path, void (*write)(FILE *f, const void *arg), const void *arg)
{
	FILE *f = open_memstream(&written, &nwritten);

	(void)path;
	if (!f)
		return -ENOMEM;
	write(f, arg);
	return fclose(f) ? -EIO : 0;
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* A word that names an output, as clang reads it (linkrec.c keeps the rule). */
static int output_word(const char *a)
{
	return !strncmp(a, "-o", 2) || !strcmp(a, "--output") || !strncmp(a, "--output=", 9) ||
	       (!strncmp(a, "-Wl,", 4) && (strstr(a, ",-o") || strstr(a, ",--output")));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_linkrec r, again;
	size_t i;

	if (pp_linkrec_parse((const char *)data, size, &r)) {
		if (r.argv || r.cwd || r.env || r.argc || r.nenv)
			__builtin_trap();
		return 0;
	}
	if (!r.cwd || r.cwd[0] != '/' || !r.argc || r.output == 0 || r.output >= r.argc ||
	    r.argv[r.argc] || !r.argv[r.output][0])
		__builtin_trap();
	/* The output, once: the word after -o (or --output), and no other. */
	if (strcmp(r.argv[r.output - 1], "-o") && strcmp(r.argv[r.output - 1], "--output"))
		__builtin_trap();
	for (i = 1; i < r.argc; i++)
		if (i != r.output - 1 && i != r.output && output_word(r.argv[i]))
			__builtin_trap();
	/* Written again, the same record. */
	if (pp_linkrec_write("fuzz", &r))
		goto out;
	if (pp_linkrec_parse(written, nwritten, &again))
		__builtin_trap();
	if (!same(again.cwd, r.cwd) || again.argc != r.argc || again.output != r.output ||
	    again.nenv != r.nenv)
		__builtin_trap();
	for (i = 0; i < r.argc; i++)
		if (!same(again.argv[i], r.argv[i]))
			__builtin_trap();
	for (i = 0; i < r.nenv; i++)
		if (!same(again.env[i], r.env[i]))
			__builtin_trap();
	pp_linkrec_free(&again);
out:
	free(written);
	written = NULL;
	pp_linkrec_free(&r);
	return 0;
}
