// SPDX-License-Identifier: MIT
/*
 * linkrec.c - the link record (doc/formats.md, section 5): written by
 * pinpoint-cc beside what it links, read by the driver to link it again.
 *
 *   pinpoint-link 1
 *   cwd /home/me/proj/build
 *   env PATH=/usr/bin:/bin
 *   arg /usr/lib/llvm-14/bin/clang
 *   arg -O2
 *   arg main.o
 *   arg -o
 *   output app
 *   end
 *
 * Values are percent-encoded as the PINPOINT variable's (protocol.h), so
 * that any byte but NUL fits on one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arming.h"
#include "core/linkrec.h"
#include "core/util.h"
#include "pinpoint/protocol.h"

#define MAX_RECORD (16u << 20)

const char *const pp_linkrec_env_names[] = {
    "PATH",
    "LIBRARY_PATH",
    "COMPILER_PATH",
    "GCC_EXEC_PREFIX",
    "LD_RUN_PATH",
    "PINPOINT_PASS_CLONE",
    "PINPOINT_PASS_STUB",
    "PINPOINT_PASS_JUMPS",
    "PINPOINT_PASS_ENTRY",
    "PINPOINT_PASS_ASM_PROBES",
    NULL,
};

static void put(FILE *f, const char *key, const char *value)
{
	char *enc = pp_arming_escape(value);

	if (!enc) {
		/* out of memory: a record without its end line is refused by readers */
		fputs("\n", f);
		return;
	}
	fprintf(f, "%s %s\n", key, enc);
	free(enc);
}

static void write_record(FILE *f, const void *arg)
{
	const struct pp_linkrec *r = arg;
	bool ok = true;

	fprintf(f, "%s %d\n", PP_LINKREC_MAGIC, PP_LINKREC_VERSION);
	put(f, "cwd", r->cwd);
	for (size_t i = 0; i < r->nenv; i++) {
		const char *eq = strchr(r->env[i], '=');
		char *enc = eq ? pp_arming_escape(eq + 1) : NULL;

		if (!enc) {
			ok = false;
			continue;
		}
		fprintf(f, "env %.*s=%s\n", (int)(eq - r->env[i]), r->env[i], enc);
		free(enc);
	}
	for (size_t i = 0; i < r->argc; i++)
		put(f, i == r->output ? "output" : "arg", r->argv[i]);
	if (ok)
		fputs("end\n", f);
}

int pp_linkrec_write(const char *path, const struct pp_linkrec *r)
{
	return pp_write_atomic(path, write_record, r);
}

/* Decode @len bytes of @s into a new string. */
static char *decode(const char *s, size_t len)
{
	char *out = malloc(len + 1);

	if (out && pp_spec_decode(s, len, out, len + 1) < 0) {
		free(out);
		errno = EBADMSG;
		return NULL;
	}
	if (!out)
		errno = ENOMEM;
	return out;
}

static int append(char ***v, size_t *n, char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(*nv));

	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

/* An environment name: letters, digits and '_', not starting with a digit. */
static bool env_name(const char *s, size_t len)
{
	if (!len || (*s >= '0' && *s <= '9'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

static int parse_line(struct pp_linkrec *r, const char *line, size_t len, bool *have_output)
{
	const char *sp = memchr(line, ' ', len);
	size_t klen = sp ? (size_t)(sp - line) : len;
	const char *val = sp ? sp + 1 : line + len;
	size_t vlen = len - (size_t)(val - line);
	char *v;

	if (!sp || memchr(val, ' ', vlen))
		return -EBADMSG;
	if (klen == 3 && !memcmp(line, "cwd", 3)) {
		if (r->cwd)
			return -EBADMSG;
		r->cwd = decode(val, vlen);
		if (!r->cwd)
			return -errno;
		return *r->cwd == '/' ? 0 : -EBADMSG;
	}
	if (klen == 3 && !memcmp(line, "env", 3)) {
		const char *eq = memchr(val, '=', vlen);
		char *dec;

		if (!eq || !env_name(val, (size_t)(eq - val)))
			return -EBADMSG;
		dec = decode(eq + 1, vlen - (size_t)(eq + 1 - val));
		if (!dec)
			return -errno;
		if (asprintf(&v, "%.*s=%s", (int)(eq - val), val, dec) < 0) {
			free(dec);
			return -ENOMEM;
		}
		free(dec);
		return append(&r->env, &r->nenv, v);
	}
	if ((klen == 3 && !memcmp(line, "arg", 3)) || (klen == 6 && !memcmp(line, "output", 6))) {
		if (klen == 6) {
			if (*have_output || !r->argc)
				return -EBADMSG;
			*have_output = true;
			r->output = r->argc;
		}
		v = decode(val, vlen);
		if (!v)
			return -errno;
		if (klen == 6 && !*v) {
			free(v);
			return -EBADMSG;
		}
		return append(&r->argv, &r->argc, v);
	}
	return -EBADMSG;
}

/*
 * Whether word @a names an output in one of clang's spellings: -o FILE,
 * -oFILE, --output FILE, --output=FILE.  Any word starting with -o counts,
 * as pinpoint-cc has it: no other option of a link does.  *@sep: FILE is
 * the next word.
 */
static bool names_output(const char *a, bool *sep)
{
	*sep = !strcmp(a, "-o") || !strcmp(a, "--output");
	return *sep || !strncmp(a, "-o", 2) || !strncmp(a, "--output=", 9);
}

/*
 * Whether -Wl,ARG,... @a passes the linker an output (-o FILE, -oFILE,
 * --output FILE, --output=FILE, lld's -output), which it would take over
 * the one clang gives it.  (-Xlinker -o is a word of its own.)
 */
static bool linker_output(const char *a)
{
	const char *p = a + 4;

	if (strncmp(a, "-Wl,", 4))
		return false;
	while (*p) {
		size_t n = strcspn(p, ",");

		if ((n >= 2 && !strncmp(p, "-o", 2)) || (n >= 8 && !strncmp(p, "--output", 8)))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/*
 * Whether the command names its output once, as the word after -o (or
 * --output) that the `output` line marks.  The driver replaces that word
 * by a file of its cache: another output named anywhere else would make
 * the link again write there, over the build's own files.
 */
static bool output_once(const struct pp_linkrec *r)
{
	bool sep;

	if (!names_output(r->argv[r->output - 1], &sep) || !sep)
		return false;
	for (size_t i = 1; i < r->argc; i++) {
		if (i == r->output - 1) {
			i++; /* the output, whatever it looks like */
			continue;
		}
		if (names_output(r->argv[i], &sep) || linker_output(r->argv[i]))
			return false;
	}
	return true;
}

int pp_linkrec_parse(const char *text, size_t len, struct pp_linkrec *r)
{
	char head[32];
	const char *p = text, *end = text + len;
	bool have_output = false, ended = false;
	int n, err = 0;

	memset(r, 0, sizeof(*r));
	n = snprintf(head, sizeof(head), "%s ", PP_LINKREC_MAGIC);
	if (len < (size_t)n || memcmp(text, head, (size_t)n))
		return -EBADMSG;
	p += n;
	if (end - p < 2 || memcmp(p, "1\n", 2))
		return memchr(p, '\n', (size_t)(end - p)) ? -EPROTO : -EBADMSG;
	p += 2;
	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl || ended) {
			err = -EBADMSG;
			break;
		}
		if (nl - p == 3 && !memcmp(p, "end", 3))
			ended = true;
		else
			err = parse_line(r, p, (size_t)(nl - p), &have_output);
		p = nl + 1;
	}
	if (!err && (!ended || !r->cwd || !have_output || !output_once(r)))
		err = -EBADMSG;
	if (err)
		pp_linkrec_free(r);
	return err;
}

int pp_linkrec_read(const char *path, struct pp_linkrec *r)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd, err = 0;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t got;

		if (len == cap) {
			char *nb;

			if (cap >= MAX_RECORD) {
				err = -EFBIG;
				break;
			}
			cap = cap ? 2 * cap : 4096;
			nb = realloc(buf, cap);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
		}
		got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			break;
		}
		if (!got)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (!err)
		err = pp_linkrec_parse(buf ? buf : "", len, r);
	free(buf);
	return err;
}

void pp_linkrec_free(struct pp_linkrec *r)
{
	free(r->cwd);
	for (size_t i = 0; i < r->nenv; i++)
		free(r->env[i]);
	free(r->env);
	for (size_t i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	memset(r, 0, sizeof(*r));
}
