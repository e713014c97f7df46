// SPDX-License-Identifier: MIT
/*
 * swap.c - put a revision's layouts in place for its runs (layouts.h).
 *
 * Before a run, each relinked module's path in the build directory becomes
 * the run's layout: a hard link of the layout's file, renamed over the
 * path (atomic: the path always names a complete file).  The first time,
 * the original is kept as a hard link, KEY.build, and a journal (in-place)
 * names what was swapped, before anything is.  The originals are put back
 * by rename when the session ends (pp_layouts_close()), by a second signal
 * (pp_layouts_restore_now(), async-signal-safe), or, when the session was
 * killed, by the next session on the directory (pp_layouts_open()).  Only a
 * path that still holds this session's original or one of its layouts is
 * ever replaced; nothing is followed: the layouts directory is opened
 * O_NOFOLLOW and used through its descriptor, and link(), rename() and
 * lstat() act on the names themselves.  A lock (flock on the directory's
 * lock file) keeps two sessions from swapping the same directory at once,
 * and sessions that measure it as built from running while another swaps:
 * the second waits for the first to end, with a message.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
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
#include "pinpoint/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/protocol.h"

#define JOURNAL "in-place"
#define JOURNAL_MAGIC "pinpoint-in-place 1"
#define KEPT_SUFFIX ".build"
#define MAX_RESTORES 512

/* What a second signal puts back: prepared before the first swap of each module. */
struct restore {
	char path[PATH_MAX]; /* the module in the build directory */
	char kept[PATH_MAX]; /* its original, LAYOUTS/KEY.build */
	char journal[PATH_MAX];
	dev_t dev;
	ino_t ino[PP_MAX_LAYOUTS]; /* its layouts' files: what may be replaced */
	unsigned nino;
	volatile sig_atomic_t armed; /* kept holds the original */
};

static struct restore *restores[MAX_RESTORES];
static volatile sig_atomic_t nrestores;

static bool is_layout(const struct restore *r, const struct stat *st)
{
	if (st->st_dev != r->dev)
		return false;
	for (unsigned i = 0; i < r->nino; i++)
		if (r->ino[i] == st->st_ino)
			return true;
	return false;
}

void pp_layouts_restore_now(void)
{
	bool all = true;

	for (sig_atomic_t i = 0; i < nrestores; i++) {
		struct restore *r = restores[i];
		struct stat st;

		if (!r->armed)
			continue;
		if (!lstat(r->path, &st) && S_ISREG(st.st_mode) && is_layout(r, &st) &&
		    !rename(r->kept, r->path))
			r->armed = 0;
		else
			all = false;
	}
	for (sig_atomic_t i = 0; all && i < nrestores; i++)
		unlink(restores[i]->journal);
}

/* "KEY.build" of @m. */
static void kept_name(const struct pp_layout_module *m, char *buf, size_t len)
{
	snprintf(buf, len, "%.200s%s", m->key, KEPT_SUFFIX);
}

static void write_journal(FILE *f, const void *arg)
{
	const struct pp_layouts *l = arg;
	char kept[NAME_MAX + 1];

	fprintf(f, "%s\n", JOURNAL_MAGIC);
	for (size_t i = 0; i < l->nmodules; i++) {
		const struct pp_layout_module *m = &l->modules[i];
		char *enc;

		if (m->why)
			continue;
		enc = pp_arming_escape(m->path);
		if (!enc)
			return; /* no end line: the next session puts back nothing */
		kept_name(m, kept, sizeof(kept));
		fprintf(f, "%s %s\n", kept, enc);
		free(enc);
	}
	fputs("end\n", f);
}

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
static void restore_stale(struct pp_layouts *l)
{
	char line[3 * PATH_MAX + NAME_MAX + 8], path[PATH_MAX];
	int fd = openat(l->dirfd, JOURNAL, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
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
		    fstatat(l->dirfd, line, &kst, AT_SYMLINK_NOFOLLOW) || !S_ISREG(kst.st_mode))
			continue;
		if (!lstat(path, &pst) && S_ISREG(pst.st_mode) && pst.st_ino != kst.st_ino &&
		    stale_layout(l->dirfd, line, &pst)) {
			if (!renameat(l->dirfd, line, AT_FDCWD, path)) {
				pr_info("put %s back as it was built: a killed session left it in "
					"another layout",
					path);
				continue;
			}
		}
		/* Put back already, or rebuilt since: the kept copy is no longer needed. */
		unlinkat(l->dirfd, line, 0);
	}
	fclose(f);
	unlinkat(l->dirfd, JOURNAL, 0);
}

/*
 * The lock, @how (LOCK_EX or LOCK_SH): wait, with a message, while another
 * session holds it against us.
 */
static int take_lock(struct pp_layouts *l, int how, const char *revision, volatile int *stop)
{
	bool said = false;

	while (flock(l->lock, how | LOCK_NB)) {
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

/*
 * Open the layouts directory (made first with @create) and take its lock:
 * a session that swaps holds it alone; one that does not shares it with its
 * likes, and puts back what a killed one left only when nobody else holds it.
 */
static int open_locked(struct pp_layouts *l, const char *revision, bool create, bool swap,
		       volatile int *stop)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/.pinpoint", revision);
	if (create &&
	    ((mkdir(path, 0755) && errno != EEXIST) || (mkdir(l->dir, 0755) && errno != EEXIST)))
		return -errno;
	l->dirfd = open(l->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (l->dirfd < 0)
		return -errno;
	l->lock = openat(l->dirfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	err = l->lock < 0 ? -errno : 0;
	if (!err && swap) {
		err = take_lock(l, LOCK_EX, revision, stop);
		if (!err)
			restore_stale(l);
	} else if (!err) {
		if (!flock(l->lock, LOCK_EX | LOCK_NB))
			restore_stale(l);
		err = take_lock(l, LOCK_SH, revision, stop);
	}
	if (err) {
		if (l->lock >= 0)
			close(l->lock);
		close(l->dirfd);
		l->lock = l->dirfd = -1;
	}
	return err;
}

int pp_layouts_open(struct pp_layouts *l, const char *revision, bool swap, volatile int *stop)
{
	int err;

	memset(l, 0, sizeof(*l));
	l->dirfd = l->lock = l->in_place = -1;
	if (asprintf(&l->dir, "%s/.pinpoint/layouts", revision) < 0) {
		l->dir = NULL;
		return -ENOMEM;
	}
	err = open_locked(l, revision, false, swap, stop);
	/* No session made layouts here: nothing to put back, nothing made yet. */
	return err == -ENOENT ? 0 : err;
}

int pp_layouts_open_for_layouts(struct pp_layouts *l, const char *revision, volatile int *stop)
{
	memset(l, 0, sizeof(*l));
	l->dirfd = l->lock = l->in_place = -1;
	if (asprintf(&l->dir, "%s/.pinpoint/layouts", revision) < 0) {
		l->dir = NULL;
		return -ENOMEM;
	}
	return open_locked(l, revision, true, true, stop);
}

int pp_layouts_lock(struct pp_layouts *l, const char *revision, volatile int *stop)
{
	if (l->lock >= 0)
		return 0;
	if (l->dirfd >= 0)
		close(l->dirfd);
	l->dirfd = -1;
	return open_locked(l, revision, true, true, stop);
}

/* Prepare the signal path's entry of @m, whose original is kept as @kept. */
static int prepare_restore(const struct pp_layouts *l, const struct pp_layout_module *m,
			   const char *kept)
{
	struct restore *r;

	if (nrestores == MAX_RESTORES)
		return -E2BIG;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	snprintf(r->path, sizeof(r->path), "%s", m->path);
	snprintf(r->kept, sizeof(r->kept), "%s/%s", l->dir, kept);
	snprintf(r->journal, sizeof(r->journal), "%s/%s", l->dir, JOURNAL);
	r->dev = m->dev;
	r->nino = l->n;
	memcpy(r->ino, m->layout_ino, sizeof(r->ino));
	restores[nrestores] = r;
	nrestores++;
	return 0;
}

static struct restore *find_restore(const struct pp_layout_module *m)
{
	for (sig_atomic_t i = 0; i < nrestores; i++)
		if (!strcmp(restores[i]->path, m->path))
			return restores[i];
	return NULL;
}

/* Keep @m's original as KEY.build, once. */
static int keep_original(struct pp_layouts *l, struct pp_layout_module *m)
{
	char kept[NAME_MAX + 1];
	struct restore *r;
	struct stat st;
	int err;

	if (lstat(m->path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_dev != m->dev || st.st_ino != m->ino)
		return -ESTALE; /* rebuilt since the layouts were made */
	kept_name(m, kept, sizeof(kept));
	unlinkat(l->dirfd, kept, 0);
	r = find_restore(m);
	if (!r) {
		err = prepare_restore(l, m, kept);
		if (err)
			return err;
		r = find_restore(m);
	}
	if (linkat(AT_FDCWD, m->path, l->dirfd, kept, 0))
		return -errno;
	m->swapped = true;
	r->armed = 1;
	return 0;
}

int pp_layouts_use(struct pp_layouts *l, unsigned k, const char **module)
{
	char tmp[NAME_MAX + 1], file[NAME_MAX + 1], path[PATH_MAX];
	int err;

	*module = NULL;
	if (!l->n || k >= l->n || l->in_place == (int)k)
		return 0;
	if (l->in_place < 0) {
		snprintf(path, sizeof(path), "%s/%s", l->dir, JOURNAL);
		err = pp_write_atomic(path, write_journal, l);
		if (err) {
			*module = path;
			return err;
		}
	}
	snprintf(tmp, sizeof(tmp), "swap.tmp.%ld", (long)getpid());
	for (size_t i = 0; i < l->nmodules; i++) {
		struct pp_layout_module *m = &l->modules[i];
		struct stat st;

		if (m->why)
			continue;
		*module = m->path;
		if (!m->swapped) {
			err = keep_original(l, m);
			if (err)
				return err;
		} else if (lstat(m->path, &st) || !S_ISREG(st.st_mode) ||
			   !is_layout(find_restore(m), &st)) {
			return -ESTALE; /* not the layout put there: replaced meanwhile */
		}
		snprintf(file, sizeof(file), "%.200s.%lu", m->key, l->seed[k]);
		unlinkat(l->dirfd, tmp, 0);
		if (linkat(l->dirfd, file, l->dirfd, tmp, 0) ||
		    renameat(l->dirfd, tmp, AT_FDCWD, m->path)) {
			err = -errno;
			unlinkat(l->dirfd, tmp, 0);
			return err;
		}
	}
	*module = NULL;
	l->in_place = (int)k;
	return 0;
}

/* Put @m's original back, unless its path holds something this session did not put there. */
static void put_back(struct pp_layouts *l, struct pp_layout_module *m)
{
	char kept[NAME_MAX + 1];
	struct restore *r = find_restore(m);
	struct stat st;

	kept_name(m, kept, sizeof(kept));
	if (!lstat(m->path, &st) && S_ISREG(st.st_mode) && r && is_layout(r, &st)) {
		if (!renameat(l->dirfd, kept, AT_FDCWD, m->path)) {
			r->armed = 0;
			m->swapped = false;
			return;
		}
		pr_warn("cannot put %s back as it was built (%s): it is in %s", m->path,
			strerror(errno), kept);
		return;
	}
	if (r)
		r->armed = 0;
	m->swapped = false;
	if (lstat(m->path, &st) || st.st_ino != m->ino)
		pr_warn("%s was replaced during the session: left as it is", m->path);
	unlinkat(l->dirfd, kept, 0);
}

void pp_layouts_close(struct pp_layouts *l)
{
	bool all = true;

	if (!l->dir)
		return; /* never opened */
	for (size_t i = 0; i < l->nmodules; i++) {
		if (l->modules[i].swapped)
			put_back(l, &l->modules[i]);
		all &= !l->modules[i].swapped;
	}
	if (l->dirfd >= 0 && all && l->in_place >= 0)
		unlinkat(l->dirfd, JOURNAL, 0);
	l->in_place = -1;
	if (l->lock >= 0)
		close(l->lock);
	if (l->dirfd >= 0)
		close(l->dirfd);
	for (size_t i = 0; i < l->nmodules; i++) {
		free(l->modules[i].path);
		free(l->modules[i].why);
		free(l->modules[i].key);
	}
	free(l->modules);
	free(l->dir);
	memset(l, 0, sizeof(*l));
	l->dirfd = l->lock = l->in_place = -1;
}
