// SPDX-License-Identifier: MIT
/*
 * command.c - COMMAND remembered for the next session on a build
 * directory, in the private cache (core/private_dir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/private_dir.h"
#include "core/util.h"
#include "pinpoint/session/command.h"

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
int pp_command_remember(const char *dir, char **argv, char *path, size_t len, char *why,
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
char **pp_command_recall(const char *dir, char **storage, char *why, size_t wlen)
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
