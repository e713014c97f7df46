// SPDX-License-Identifier: MIT
/*
 * workdir.c - the session's work directory: made with mkdtemp (mode 0700),
 * named for the driver's pid so that a later session can tell whether its
 * owner is still running, and the stale ones removed without following
 * links.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pinpoint/log.h"
#include "pinpoint/build/workdir.h"

#define PREFIX "pinpoint."

/* The owner's pid of a work directory named pinpoint.PID.XXXXXX, or 0. */
static long owner_pid(const char *name)
{
	const char *p = name + strlen(PREFIX);
	char *end;
	long pid;

	if (strncmp(name, PREFIX, strlen(PREFIX)) || *p < '1' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	if (*end != '.' || strlen(end + 1) != 6 || pid <= 0)
		return 0;
	return pid;
}

static int alive(long pid)
{
	return !kill((pid_t)pid, 0) || errno == EPERM;
}

/* Empty and remove @name in the directory @tmpfd, if it is still the directory @st. */
static int remove_stale(int tmpfd, const char *name, const struct stat *st)
{
	struct stat now;
	struct dirent *e;
	DIR *d;
	int fd, err = 0;

	fd = openat(tmpfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &now) || now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
	    now.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		/* Files and links are removed by name; a directory is not the driver's. */
		if (unlinkat(fd, e->d_name, 0) && !err)
			err = -errno;
	}
	closedir(d);
	if (!err && unlinkat(tmpfd, name, AT_REMOVEDIR))
		err = -errno;
	return err;
}

int pp_workdir_clean_stale(const char *tmpdir)
{
	struct dirent *e;
	int tmpfd, removed = 0;
	DIR *d;

	tmpfd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmpfd < 0)
		return 0;
	d = fdopendir(tmpfd);
	if (!d) {
		close(tmpfd);
		return 0;
	}
	while ((e = readdir(d))) {
		long pid = owner_pid(e->d_name);
		struct stat st;

		if (!pid || pid == (long)getpid() || alive(pid))
			continue;
		if (fstatat(tmpfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		if (!remove_stale(tmpfd, e->d_name, &st)) {
			pr_dbg("removed %s/%s, left by process %ld", tmpdir, e->d_name, pid);
			removed++;
		}
	}
	closedir(d);
	return removed;
}

const char *pp_workdir_tmpdir(void)
{
	const char *tmpdir = getenv("TMPDIR");

	return tmpdir && *tmpdir ? tmpdir : "/tmp";
}

int pp_workdir_create(const char *tmpdir, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/" PREFIX "%ld.XXXXXX", tmpdir, (long)getpid());

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return mkdtemp(buf) ? 0 : -errno;
}

/* What a session writes in its work directory (run.c, pp_session_results_path()). */
const char *const pp_work_files[] = {"results-previous",
				     "previous.stdout",
				     "previous.stderr",
				     "results-current",
				     "current.stdout",
				     "current.stderr",
				     NULL};

void pp_workdir_remove(const char *dir)
{
	char path[PATH_MAX];

	if (!dir)
		return;
	for (size_t i = 0; pp_work_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pp_work_files[i]);
		unlink(path);
	}
	rmdir(dir);
}
