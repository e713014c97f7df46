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
 * Sessions of pinpoint before this put layouts in place in the build
 * directory itself, and a killed one could leave one there with a journal
 * (DIR/.pinpoint/layouts/in-place): the original is put back, once, when a
 * session opens the directory.
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

#include "core/arming.h"
#include "core/util.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/protocol.h"

/* What sessions of an earlier pinpoint left in a build directory. */
#define JOURNAL "in-place"
#define JOURNAL_MAGIC "pinpoint-in-place 1"
#define KEPT_SUFFIX ".build"

/*
 * Whether @st is one of the layout files KEY.SEED of the module kept as
 * @kept (KEY.build) in the layouts directory.
 */
static bool stale_layout(int dirfd, const char *kept, const struct stat *st)
{
	size_t klen = strlen(kept) - strlen(KEPT_SUFFIX);
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	bool found = false;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (!found && (e = readdir(d))) {
		struct stat fs;

		if (strncmp(e->d_name, kept, klen) || e->d_name[klen] != '.' ||
		    !e->d_name[klen + 1] ||
		    strspn(e->d_name + klen + 1, "0123456789") != strlen(e->d_name + klen + 1))
			continue;
		found = !fstatat(dirfd, e->d_name, &fs, AT_SYMLINK_NOFOLLOW) &&
			S_ISREG(fs.st_mode) && fs.st_dev == st->st_dev && fs.st_ino == st->st_ino;
	}
	closedir(d);
	return found;
}

/* Put back what a killed session left in place, as its journal says. */
static void restore_stale(int dirfd)
{
	char line[3 * PATH_MAX + NAME_MAX + 8], path[PATH_MAX];
	int fd = openat(dirfd, JOURNAL, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (!fgets(line, sizeof(line), f) || strncmp(line, JOURNAL_MAGIC "\n", sizeof(line))) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f) && strcmp(line, "end\n")) {
		char *sp = strchr(line, ' ');
		size_t n = strcspn(line, "\n");
		struct stat kst, pst;

		if (!sp || !n || line[n] != '\n' || memchr(line, '/', (size_t)(sp - line)))
			break;
		*sp = 0;
		line[n] = 0;
		if (pp_spec_decode(sp + 1, strlen(sp + 1), path, sizeof(path)) < 0 ||
		    fstatat(dirfd, line, &kst, AT_SYMLINK_NOFOLLOW) || !S_ISREG(kst.st_mode))
			continue;
		if (!lstat(path, &pst) && S_ISREG(pst.st_mode) && pst.st_ino != kst.st_ino &&
		    stale_layout(dirfd, line, &pst)) {
			if (!renameat(dirfd, line, AT_FDCWD, path)) {
				pr_info("put %s back as it was built: a killed session left it in "
					"another layout",
					path);
				continue;
			}
		}
		/* Put back already, or rebuilt since: the kept copy is no longer needed. */
		unlinkat(dirfd, line, 0);
	}
	fclose(f);
	unlinkat(dirfd, JOURNAL, 0);
}

/* Put back what an earlier pinpoint's killed session left in @revision. */
static void restore_legacy(const char *revision)
{
	char path[PATH_MAX];
	int dirfd, lock;

	snprintf(path, sizeof(path), "%s/.pinpoint/layouts", revision);
	dirfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return;
	lock = openat(dirfd, "lock", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (lock >= 0 && !flock(lock, LOCK_EX | LOCK_NB))
		restore_stale(dirfd);
	if (lock >= 0)
		close(lock);
	close(dirfd);
}

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

/* Make the layouts' directory in the cache, open it and take its lock alone. */
static int open_locked(struct pp_layouts *l, const char *revision, volatile int *stop)
{
	int err = pp_mkdir_p(l->dir);

	if (err)
		return err;
	l->dirfd = open(l->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (l->dirfd < 0)
		return -errno;
	l->lock = openat(l->dirfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	err = l->lock < 0 ? -errno : 0;
	if (!err)
		err = take_lock(l, revision, stop);
	if (err) {
		if (l->lock >= 0)
			close(l->lock);
		close(l->dirfd);
		l->lock = l->dirfd = -1;
	}
	return err;
}

/* Remove @name in @parentfd, a layouts directory (files only), unless it is locked. */
static void remove_cache(int parentfd, const char *name)
{
	int fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int lock = fd >= 0 ? openat(fd, "lock", O_RDWR | O_NOFOLLOW | O_CLOEXEC) : -1;
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

/*
 * The layouts of build directories that are gone: each cache directory
 * DEV-INO whose "dir" no longer names a directory of that device and inode.
 */
static void remove_orphans(const char *cache)
{
	char parent[PATH_MAX], *slash;
	int pfd;
	DIR *d;
	struct dirent *e;

	snprintf(parent, sizeof(parent), "%s", cache);
	slash = strrchr(parent, '/');
	if (!slash)
		return;
	*slash = 0;
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = pfd >= 0 ? fdopendir(dup(pfd)) : NULL;
	while (d && (e = readdir(d))) {
		unsigned long long dev, ino;
		char path[PATH_MAX], name[NAME_MAX + 8];
		struct stat st;
		ssize_t n;
		int fd;

		if (sscanf(e->d_name, "%llx-%llx", &dev, &ino) != 2 ||
		    !strcmp(e->d_name, slash + 1))
			continue;
		snprintf(name, sizeof(name), "%s/dir", e->d_name);
		fd = openat(pfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue; /* being made, or not ours */
		n = read(fd, path, sizeof(path) - 1);
		close(fd);
		if (n <= 0)
			continue;
		path[n] = 0;
		path[strcspn(path, "\n")] = 0;
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

int pp_layouts_open(struct pp_layouts *l, const char *revision, bool layouts, volatile int *stop)
{
	char dir[PATH_MAX];
	int err;

	memset(l, 0, sizeof(*l));
	l->dirfd = l->lock = -1;
	restore_legacy(revision);
	if (!layouts)
		return 0;
	err = pp_dir_cache_path("layouts", revision, dir, sizeof(dir));
	if (err)
		return err;
	l->dir = strdup(dir);
	if (!l->dir)
		return -ENOMEM;
	err = open_locked(l, revision, stop);
	if (!err) {
		char *real = realpath(revision, NULL), path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/dir", l->dir);
		if (real)
			pp_write_atomic(path, write_dir, real);
		free(real);
		remove_orphans(l->dir);
	}
	return err;
}

bool pp_layout_module_changed(const struct pp_layout_module *m, const struct stat *st)
{
	return st->st_dev != m->dev || st->st_ino != m->ino || st->st_size != m->size ||
	       st->st_mtim.tv_sec != m->mtime.tv_sec || st->st_mtim.tv_nsec != m->mtime.tv_nsec;
}

int pp_layouts_use(struct pp_layouts *l, unsigned k, const char *const **binds, const char **module)
{
	size_t n = 0;

	*binds = NULL;
	*module = NULL;
	if (!l->n || k >= l->n)
		return 0;
	for (size_t i = 0; i < l->nmodules; i++) {
		struct pp_layout_module *m = &l->modules[i];
		struct stat st;

		if (m->why)
			continue;
		/* rebuilt, copied over or stripped during the session: the layouts are
		 * of another build */
		if (stat(m->path, &st) || pp_layout_module_changed(m, &st)) {
			*module = m->path;
			return -ESTALE;
		}
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
	return 0;
}

void pp_layouts_close(struct pp_layouts *l)
{
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
	}
	free(l->modules);
	free(l->dir);
	memset(l, 0, sizeof(*l));
	l->dirfd = l->lock = -1;
}
