// SPDX-License-Identifier: MIT
/*
 * private_dir_test.c - the rules of core/private_dir.h, on directories made
 * in a temporary directory: what is made and its mode, and each way a
 * directory is refused (a link on the way, a directory its group or others
 * can write, a writable directory above the base that is not sticky, and,
 * run as root, directories and files of another user's: uid 65534).
 *
 *   test-private-dir
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/private_dir.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);                                \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
		}                                                                                  \
	} while (0)

static char top[256]; /* short: the paths built from it fit PATH_MAX */

/* pp_private_dir(top/@base, @rel): its result, the message in @why. */
static int open_dir(const char *base, const char *rel, char *path, char *why)
{
	char b[PATH_MAX];
	int fd;

	snprintf(b, sizeof(b), "%s/%s", top, base);
	*why = 0;
	fd = pp_private_dir(b, rel, path, PATH_MAX, why, PP_REFUSAL_MAX);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

static mode_t mode_of(const char *fmt, const char *a)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), fmt, top, a);
	return stat(p, &st) ? (mode_t)-1 : st.st_mode & 07777;
}

static void sh(const char *fmt)
{
	char cmd[3 * PATH_MAX];

	/* every %s is the top directory */
	snprintf(cmd, sizeof(cmd), fmt, top, top, top, top);
	if (system(cmd))
		printf("(setup command failed: %s)\n", cmd);
}

int main(void)
{
	char path[PATH_MAX], why[PP_REFUSAL_MAX], want[PATH_MAX];
	int err, fd, dfd;

	umask(022);
	snprintf(top, sizeof(top), "%s/pp-private-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	{
		char *real = realpath(top, NULL);

		if (!real || strlen(real) >= sizeof(top)) {
			printf("FAIL: %s: cannot resolve it\n", top);
			return 1;
		}
		memcpy(top, real, strlen(real) + 1);
		free(real);
	}

	/* Made where missing, mode 0700, whatever the umask; the path is the real one. */
	err = open_dir("base/cache", "pinpoint/layouts/1-2", path, why);
	snprintf(want, sizeof(want), "%s/base/cache/pinpoint/layouts/1-2", top);
	CHECK(!err && !strcmp(path, want), "fresh: %d %s (%s)", err, path, why);
	CHECK(mode_of("%s/base/cache/pinpoint/%s", "layouts") == 0700, "mode %o",
	      (unsigned)mode_of("%s/base/cache/pinpoint/%s", "layouts"));
	CHECK(mode_of("%s/%s", "base/cache") == 0700, "base made 0700");
	/* Again: an existing private directory, and one made 0755, are the user's. */
	sh("chmod 0755 %s/base/cache/pinpoint");
	err = open_dir("base/cache", "pinpoint/layouts/1-2", path, why);
	CHECK(!err, "existing: %d (%s)", err, why);

	/* A directory its group or others can write: refused, and named. */
	sh("chmod 0775 %s/base/cache/pinpoint/layouts");
	err = open_dir("base/cache", "pinpoint/layouts/1-2", path, why);
	CHECK(err == -EPERM && strstr(why, "/pinpoint/layouts can be written by its group"),
	      "group-writable: %d (%s)", err, why);
	sh("chmod 0707 %s/base/cache/pinpoint/layouts");
	err = open_dir("base/cache", "pinpoint/layouts/1-2", path, why);
	CHECK(err == -EPERM && strstr(why, "can be written by others (mode 0707)"),
	      "other-writable: %d (%s)", err, why);
	sh("chmod 0700 %s/base/cache/pinpoint/layouts");

	/* A link in the middle of the path: refused, and nothing made through it. */
	sh("mkdir -m 0777 %s/elsewhere && mv %s/base/cache/pinpoint/layouts %s/moved");
	sh("ln -s %s/elsewhere %s/base/cache/pinpoint/layouts");
	err = open_dir("base/cache", "pinpoint/layouts/1-2", path, why);
	CHECK(err == -ELOOP && strstr(why, "/pinpoint/layouts is a symbolic link"), "link: %d (%s)",
	      err, why);
	CHECK(mode_of("%s/elsewhere/%s", "1-2") == (mode_t)-1, "made through the link");
	sh("rm %s/base/cache/pinpoint/layouts && mv %s/moved %s/base/cache/pinpoint/layouts");
	/* '..' cannot climb out of it. */
	err = open_dir("base/cache", "pinpoint/../../x", path, why);
	CHECK(err == -EINVAL, "dot-dot: %d (%s)", err, why);

	/* The base is the user's choice: a link to it is followed. */
	sh("ln -s %s/base/cache %s/linked");
	err = open_dir("linked", "pinpoint/layouts/1-2", path, why);
	CHECK(!err && !strcmp(path, want), "base through a link: %d %s (%s)", err, path, why);

	/* Above the base: writable by others and not sticky, refused; sticky (as /tmp), fine. */
	sh("mkdir -m 0777 %s/open && chmod 0777 %s/open");
	err = open_dir("open/cache", "pinpoint", path, why);
	CHECK(err == -EPERM && strstr(why, "/open can be written by others and is not sticky"),
	      "non-sticky: %d (%s)", err, why);
	sh("chmod 1777 %s/open");
	err = open_dir("open/cache", "pinpoint", path, why);
	CHECK(!err, "sticky: %d (%s)", err, why);

	/* Files: a private one opens; one others can write, or a link, does not. */
	snprintf(path, sizeof(path), "%s/base/cache/pinpoint", top);
	dfd = open(path, O_RDONLY | O_DIRECTORY);
	fd = pp_private_file(dfd, "f", O_RDWR | O_CREAT, 0644, NULL);
	CHECK(fd >= 0, "own file: %d", fd);
	if (fd >= 0)
		close(fd);
	sh("chmod 0666 %s/base/cache/pinpoint/f");
	fd = pp_private_file(dfd, "f", O_RDONLY, 0, NULL);
	CHECK(fd == -EPERM, "others' writable file: %d", fd);
	sh("ln -s %s/base/cache/pinpoint/f %s/base/cache/pinpoint/g");
	fd = pp_private_file(dfd, "g", O_RDONLY, 0, NULL);
	CHECK(fd == -ELOOP, "link: %d", fd);

	if (geteuid() == 0) {
		/* Another user's directory below the base, or above it, or another's file. */
		sh("chown 65534 %s/base/cache/pinpoint/layouts");
		err = open_dir("base/cache", "pinpoint/layouts/1-2", path, why);
		CHECK(err == -EPERM && strstr(why, "belongs to uid 65534, not to you (uid 0)"),
		      "another's directory: %d (%s)", err, why);
		sh("chown 0 %s/base/cache/pinpoint/layouts && chown 65534 %s/base");
		err = open_dir("base/cache", "pinpoint/layouts/1-2", path, why);
		CHECK(err == -EPERM && strstr(why, "belongs to uid 65534, neither to you (uid 0) "
						   "nor to root"),
		      "another's directory above the base: %d (%s)", err, why);
		sh("chown 0 %s/base && chmod 0600 %s/base/cache/pinpoint/f && chown 65534 "
		   "%s/base/cache/pinpoint/f");
		fd = pp_private_file(dfd, "f", O_RDONLY, 0, NULL);
		CHECK(fd == -EPERM, "another's file: %d", fd);
	} else {
		printf("(not root: another user's directories not tried)\n");
	}
	close(dfd);

	/* Neither variable: one line, no path of garbage. */
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	err = pp_cache_open("layouts", path, sizeof(path), why, sizeof(why));
	CHECK(err == -ENOENT && !strcmp(why, "no cache: $XDG_CACHE_HOME and $HOME are unset"),
	      "no base: %d (%s)", err, why);

	sh("chmod -R u+rwx %s; rm -rf %s");
	printf("%s\n", failures ? "FAIL" : "PASS");
	return failures != 0;
}
