/* SPDX-License-Identifier: MIT */
/*
 * layouts.h - each revision measured in several code layouts: its
 * instrumented modules linked again, from their link records
 * (core/linkrec.h), with their functions in other orders (relink.c), and
 * each run shown its layout at the modules' paths, in a mount namespace of
 * its own (layouts.c, core/process.c): the build directory is never
 * written.  Where the linker puts the code moves a program by several per
 * cent by itself; measured in one layout per revision, that becomes part
 * of the difference (doc/limits.md).
 *
 * A revision's layouts live in the cache, $XDG_CACHE_HOME/pinpoint/layouts/
 * DEV-INO (else ~/.cache/pinpoint/layouts/DEV-INO; the build directory's
 * device and inode): the relinked files KEY.SEED (KEY: the module's name
 * and a hash of its link record, the objects it names and the module
 * itself, so later sessions reuse them while nothing changed), each with
 * KEY.SEED.sum (its size and hash, checked before it is used again), the
 * seeds, what linking one layout took (link_s), the relink log and a lock.  The cache is private
 * (core/private_dir.h): a directory someone else can write is refused, and
 * each run is shown the very file that was checked (below).
 */
#ifndef PINPOINT_LAYOUTS_H
#define PINPOINT_LAYOUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "pinpoint/layouts/direct.h"

/* --layouts and --max-layouts: at most this many per revision. */
#define PP_MAX_LAYOUTS 4096

/* A layout file as it was checked against its sum (make_module()). */
struct pp_layout_file {
	ino_t ino;
	off_t size;
	struct timespec mtime;
	uint64_t hash; /* its content's (FNV-1a 64), as its sum says */
};

struct pp_layout_module {
	char *path; /* as the runtime named it, resolved: inside the revision's directory */
	char *why;  /* NULL: relinked in every layout; else why it runs as built */
	char *key;  /* its files are KEY.SEED in the layouts directory */
	dev_t dev;  /* the original (path) when the layouts were made */
	ino_t ino;
	off_t size;
	struct timespec mtime;
	double relink_s;	      /* seconds its relinking took in this session */
	struct pp_layout_file *files; /* PP_MAX_LAYOUTS: each layout's file, as checked */
	/* the linker's own command, asked of the driver once a session (direct.h) */
	struct pp_link_direct direct;
	bool direct_asked;
};

struct pp_layouts {
	char *dir;		/* in the cache (above), NULL: no layouts asked for */
	int dirfd;		/* open on dir (O_NOFOLLOW), -1: none */
	int lock;		/* flock'ed alone for the session, -1: none */
	unsigned n;		/* layouts measured: 0 = not varied, the build as it is */
	const char *not_varied; /* with n == 0 and more asked: why (static text) */
	bool as_other;		/* not varied because the other revision could not be */
	unsigned first_new;	/* while growing (pp_layouts_grow()): the first new layout */
	unsigned long seed[PP_MAX_LAYOUTS];
	unsigned nseed; /* seeds set in seed[] */
	/*
	 * The layouts whose seeds these take, layout k of each linked with one
	 * seed (the previous revision's, for the current one in the paired
	 * design: common random numbers); NULL: the revision's own.
	 */
	const struct pp_layouts *seeds_of;
	/* The layouts none of whose seeds these take (the previous revision's,
	 * unpaired: Welch's interval on the layouts needs them independent). */
	const struct pp_layouts *seeds_not;
	double relink_s[PP_MAX_LAYOUTS]; /* what each layout's relinking took (0: reused) */
	bool reused[PP_MAX_LAYOUTS];	 /* every file of it was there from an earlier session */
	double link_s; /* one layout's link, s: this session's mean, else the cache's (link_s); 0:
			  not known */
	size_t nmodules;
	struct pp_layout_module *modules;
	char **binds;  /* 2 * nmodules + 1: a run's (layout file, module path) pairs */
	int *bind_fds; /* a run's layout files, one per pair of binds, -1: none */
};

/*
 * Open @revision's layouts.  With @layouts (the session will make and use
 * layouts), the cache directory is made (private: core/private_dir.h) and
 * its lock taken alone, waiting with a message while another session holds
 * it, until *@stop.  0, -EINTR, or -errno when it cannot be made, is
 * refused or cannot be locked, with one line in @why (@l stays closed, its
 * dir set when known).
 */
int pp_layouts_open(struct pp_layouts *l, const char *revision, bool layouts, volatile int *stop,
		    char *why, size_t wlen);

/*
 * Make @want layouts of the revision @label (@want < 2: none) by linking
 * again each module of @modules[0..@n) that has a link record, with
 * ld.lld's --shuffle-sections and a seed of the revision's (reused from the
 * layouts directory, or drawn from @rng and kept there; l->seeds_of's when
 * set, none of l->seeds_not's), the build's own shuffle left out.  A module that
 * cannot be linked again runs as built, with one line saying why.  0, or
 * -ENOMEM / -EINTR.
 */
int pp_layouts_make(struct pp_layouts *l, const char *label, const char *revision,
		    char *const *modules, size_t n, unsigned want, gsl_rng *rng,
		    volatile int *stop);

/*
 * Whether module @m's file, as @st shows it now, is no longer the build its
 * layouts were made of (rebuilt, copied over or stripped since).
 */
bool pp_layout_module_changed(const struct pp_layout_module *m, const struct stat *st);

/*
 * Make more of @l's layouts, up to @want in all, during a session: the
 * layouts made so far keep their seeds and files; the new ones are linked
 * as pp_layouts_make() links them, as many at once as there are CPUs, and
 * within a quarter of the cache's free space.  A module that cannot be
 * linked in the new layouts leaves @l as it was, with one line saying why
 * (it ran in its layouts so far: it cannot run as built from now on).  The
 * layouts @l has now (l->n), or -ENOMEM / -EINTR.
 */
int pp_layouts_grow(struct pp_layouts *l, const char *label, const char *revision, unsigned want,
		    gsl_rng *rng, volatile int *stop);

/*
 * What a run in layout @k sees: *@binds, NULL-terminated pairs (layout
 * file, module path) for core/process.c's pp_process.binds (NULL: the
 * build as it is), valid until the next call.  Each layout file is opened
 * from the cache's descriptor and found to be the file checked against its
 * sum; *@fds holds those descriptors, one per pair, for the child to check
 * that what it mounted is that file (pp_process.bind_fds).  0, or -errno with *@module naming the
 * file, after which the caller fails the run: -ESTALE, a module's path no longer holds the build
 * the layouts were made of; -EPERM, a layout file is no longer the one checked.
 */
int pp_layouts_use(struct pp_layouts *l, unsigned k, const char *const **binds, const int **fds,
		   const char **module);

/* Release the lock and free @l.  Nothing to put back: no run changed a file. */
void pp_layouts_close(struct pp_layouts *l);

/* Seconds all layouts of @l took to make in this session. */
double pp_layouts_relink_s(const struct pp_layouts *l);

/*
 * How many layouts @l has without a link: the first ones its seeds list
 * (l->seeds_of's, where it follows another revision) names whose file is in
 * the cache for every module it relinks, at least l->n.
 */
unsigned pp_layouts_reusable(const struct pp_layouts *l);

#endif /* PINPOINT_LAYOUTS_H */
