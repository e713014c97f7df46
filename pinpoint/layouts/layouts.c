// SPDX-License-Identifier: MIT
/*
 * layouts.c - a revision's layouts for its runs (layouts.h): where they
 * are kept, their lock, and what each run sees.
 *
 * A revision's layouts are kept outside its build directory, in
 * $XDG_CACHE_HOME/pinpoint/layouts/DEV-INO (else ~/.cache/...; DEV and INO:
 * the build directory's device and inode, so that any path to it, through
 * links or bind mounts, finds the same layouts).  A run sees layout k at
 * each relinked module's path through a bind mount in a mount namespace of
 * its own (core/process.c): the build directory is never written, renamed
 * or linked, and nothing is left to put back however the session ends.  A
 * lock in the cache directory keeps two sessions from making the same
 * revision's layouts at once; the second waits, with a message.  Each
 * cache directory names its build directory (file "dir"); a session removes
 * those whose build directory is gone, or is another directory now.
 *
 * The cache is private (core/private_dir.h): every directory from
 * pinpoint's cache root down is the user's and writable by no one else,
 * reached without following a link, and each file a run sees is opened
 * from the layouts directory's descriptor and checked to be the very file
 * that was checked against its sum; the run's mount is then checked to
 * show that file (core/process.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/private_dir.h"
#include "core/util.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"

/* The lock, alone: wait, with a message, while another session holds it. */
static int take_lock(struct pp_layouts *l, const char *revision, volatile int *stop)
{
	bool said = false;

	while (flock(l->lock, LOCK_EX | LOCK_NB)) {
		struct timespec ts = {0, 100000000L};

		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		if (stop && *stop)
			return -EINTR;
		if (!said)
			pr_info("waiting for another pinpoint session measuring %s in its layouts",
				revision);
		said = true;
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Open the layouts' directory in the cache (made private) and take its lock alone. */
static int open_locked(struct pp_layouts *l, const char *name, const char *revision,
		       volatile int *stop, char *why, size_t wlen)
{
	char rel[NAME_MAX + 16], dir[PATH_MAX];
	int err;

	snprintf(rel, sizeof(rel), "layouts/%s", name);
	l->dirfd = pp_cache_open(rel, dir, sizeof(dir), why, wlen);
	l->dir = strdup(dir);
	if (!l->dir) {
		err = -ENOMEM;
		goto out;
	}
	if (l->dirfd < 0) {
		err = l->dirfd;
		goto out;
	}
	l->lock = pp_private_file(l->dirfd, "lock", O_RDWR | O_CREAT, 0600, NULL);
	if (l->lock < 0) {
		err = l->lock;
		snprintf(why, wlen, "%s/lock: %s", dir,
			 err == -EPERM ? "not a file of yours that only you can write"
				       : strerror(-err));
		goto out;
	}
	err = take_lock(l, revision, stop);
	if (err)
		snprintf(why, wlen, "%s/lock: %s", dir, strerror(-err));
out:
	if (err) {
		if (l->lock >= 0)
			close(l->lock);
		if (l->dirfd >= 0)
			close(l->dirfd);
		l->lock = l->dirfd = -1;
	}
	return err;
}

/* Remove the layouts directory @name in @parentfd (files only), unless it is locked. */
static void remove_cache(int parentfd, const char *name)
{
	int fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int lock = fd >= 0 ? pp_private_file(fd, "lock", O_RDWR, 0, NULL) : -1;
	DIR *d;
	struct dirent *e;

	if (fd < 0 || (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB))) {
		if (lock >= 0)
			close(lock);
		if (fd >= 0)
			close(fd);
		return;
	}
	d = fdopendir(dup(fd));
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(fd, e->d_name, 0);
	if (d)
		closedir(d);
	if (lock >= 0)
		close(lock);
	close(fd);
	unlinkat(parentfd, name, AT_REMOVEDIR);
}

/* The build directory the layouts directory @name in @pfd names (its "dir"), in @path. */
static bool named_dir(int pfd, const char *name, char *path, size_t len)
{
	int dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = dfd >= 0 ? pp_private_file(dfd, "dir", O_RDONLY, 0, NULL) : -1;
	ssize_t n = fd >= 0 ? read(fd, path, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (n <= 0)
		return false; /* being made */
	path[n] = 0;
	path[strcspn(path, "\n")] = 0;
	return true;
}

/*
 * The layouts of build directories that are gone: each cache directory
 * DEV-INO (beside @self) whose "dir" no longer names a directory of that
 * device and inode.
 */
static void remove_orphans(const char *self)
{
	char parent[PATH_MAX], why[PP_REFUSAL_MAX];
	int pfd = pp_cache_open("layouts", parent, sizeof(parent), why, sizeof(why));
	DIR *d = pfd >= 0 ? fdopendir(dup(pfd)) : NULL;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		unsigned long long dev, ino;
		char path[PATH_MAX];
		struct stat st;

		if (sscanf(e->d_name, "%llx-%llx", &dev, &ino) != 2 || !strcmp(e->d_name, self) ||
		    !named_dir(pfd, e->d_name, path, sizeof(path)))
			continue;
		if (stat(path, &st) || (unsigned long long)st.st_dev != dev ||
		    (unsigned long long)st.st_ino != ino)
			remove_cache(pfd, e->d_name);
	}
	if (d)
		closedir(d);
	if (pfd >= 0)
		close(pfd);
}

static void write_dir(FILE *f, const void *arg)
{
	fprintf(f, "%s\n", (const char *)arg);
}

int pp_layouts_open(struct pp_layouts *l, const char *revision, bool layouts, volatile int *stop,
		    char *why, size_t wlen)
{
	char name[64];
	int err;

	memset(l, 0, sizeof(*l));
	l->dirfd = l->lock = -1;
	if (!layouts)
		return 0;
	err = pp_dir_cache_name(revision, name, sizeof(name));
	if (err) {
		snprintf(why, wlen, "%s: %s", revision, strerror(-err));
		return err;
	}
	err = open_locked(l, name, revision, stop, why, wlen);
	if (!err) {
		char *real = realpath(revision, NULL);

		if (real)
			pp_write_atomic_at(l->dirfd, "dir", write_dir, real);
		free(real);
		remove_orphans(name);
	}
	return err;
}

bool pp_layout_module_changed(const struct pp_layout_module *m, const struct stat *st)
{
	return st->st_dev != m->dev || st->st_ino != m->ino || st->st_size != m->size ||
	       st->st_mtim.tv_sec != m->mtime.tv_sec || st->st_mtim.tv_nsec != m->mtime.tv_nsec;
}

/* Close the layout files the last run's binds named. */
static void close_binds(struct pp_layouts *l)
{
	for (size_t i = 0; l->bind_fds && i < l->nmodules; i++) {
		if (l->bind_fds[i] >= 0)
			close(l->bind_fds[i]);
		l->bind_fds[i] = -1;
	}
}

/* Layout @k's file of @m, opened: the one checked against its sum, or -EPERM. */
static int open_layout_file(struct pp_layouts *l, const struct pp_layout_module *m, unsigned k)
{
	const struct pp_layout_file *want = &m->files[k];
	char file[NAME_MAX + 1];
	struct stat st;
	int fd;

	snprintf(file, sizeof(file), "%.200s.%lu", m->key, l->seed[k]);
	fd = pp_private_file(l->dirfd, file, O_RDONLY, 0, &st);
	if (fd < 0)
		return fd == -ENOMEM ? fd : -EPERM;
	if (st.st_ino != want->ino || st.st_size != want->size ||
	    st.st_mtim.tv_sec != want->mtime.tv_sec || st.st_mtim.tv_nsec != want->mtime.tv_nsec) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int pp_layouts_use(struct pp_layouts *l, unsigned k, const char *const **binds, const int **fds,
		   const char **module)
{
	size_t n = 0;

	*binds = NULL;
	*fds = NULL;
	*module = NULL;
	close_binds(l);
	if (!l->n || k >= l->n)
		return 0;
	for (size_t i = 0; i < l->nmodules; i++) {
		struct pp_layout_module *m = &l->modules[i];
		struct stat st;
		int fd;

		if (m->why)
			continue;
		/* rebuilt, copied over or stripped during the session: the layouts are
		 * of another build */
		if (stat(m->path, &st) || pp_layout_module_changed(m, &st)) {
			*module = m->path;
			return -ESTALE;
		}
		fd = open_layout_file(l, m, k);
		if (fd < 0) {
			*module = m->path;
			return fd;
		}
		l->bind_fds[n / 2] = fd;
		free(l->binds[n]);
		if (asprintf(&l->binds[n], "%s/%.200s.%lu", l->dir, m->key, l->seed[k]) < 0) {
			l->binds[n] = NULL;
			return -ENOMEM;
		}
		l->binds[n + 1] = m->path;
		n += 2;
	}
	l->binds[n] = NULL;
	*binds = (const char *const *)l->binds;
	*fds = l->bind_fds;
	return 0;
}

void pp_layouts_close(struct pp_layouts *l)
{
	close_binds(l);
	free(l->bind_fds);
	if (l->lock >= 0)
		close(l->lock);
	if (l->dirfd >= 0)
		close(l->dirfd);
	for (size_t i = 0; l->binds && i < 2 * l->nmodules; i += 2)
		free(l->binds[i]);
	free(l->binds);
	for (size_t i = 0; i < l->nmodules; i++) {
		free(l->modules[i].path);
		free(l->modules[i].why);
		free(l->modules[i].key);
		free(l->modules[i].files);
		pp_link_direct_free(&l->modules[i].direct);
	}
	free(l->modules);
	free(l->dir);
	memset(l, 0, sizeof(*l));
	l->dirfd = l->lock = -1;
}
