/* SPDX-License-Identifier: MIT */
/*
 * layouts.h - each revision measured in several code layouts: its
 * instrumented modules linked again, from their link records
 * (core/linkrec.h), with their functions in other orders (relink.c), and
 * the layout of each run put in place in the build directory, the original
 * put back when the session ends (swap.c).  Where the linker puts the code
 * moves a program by several per cent by itself; measured in one layout per
 * revision, that becomes part of the difference (README, "Known limits").
 *
 * A revision's layouts live in DIR/.pinpoint/layouts: the relinked files
 * KEY.SEED (KEY: the module's name and a hash of its link record, the
 * objects it names and the module itself, so later sessions reuse them while
 * nothing changed), the seeds, a lock, and while a layout is in place the
 * original's hard link KEY.build and the journal in-place.
 */
#ifndef PINPOINT_LAYOUTS_H
#define PINPOINT_LAYOUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <gsl/gsl_rng.h>

/* --layouts: at most this many per revision. */
#define PP_MAX_LAYOUTS 64

struct pp_layout_module {
	char *path; /* as the runtime named it, resolved: inside the revision's directory */
	char *why;  /* NULL: relinked in every layout; else why it runs as built */
	char *key;  /* its files are KEY.SEED in the layouts directory */
	dev_t dev;  /* the original (path) when the layouts were made */
	ino_t ino;
	ino_t layout_ino[PP_MAX_LAYOUTS]; /* each layout's file */
	double relink_s;		  /* seconds its relinking took in this session */
	bool swapped; /* a layout of it is in place: KEY.build is the original */
};

struct pp_layouts {
	char *dir;		/* REVISION/.pinpoint/layouts */
	int dirfd;		/* open on dir (O_NOFOLLOW), -1: none */
	int lock;		/* flock'ed while the session may swap files, -1: none */
	unsigned n;		/* layouts measured: 0 = not varied, the build as it is */
	const char *not_varied; /* with n == 0 and more asked: why (static text) */
	bool as_other;		/* not varied because the other revision could not be */
	unsigned long seed[PP_MAX_LAYOUTS];
	double relink_s[PP_MAX_LAYOUTS]; /* what each layout's relinking took (0: reused) */
	bool reused[PP_MAX_LAYOUTS];	 /* every file of it was there from an earlier session */
	unsigned used[PP_MAX_LAYOUTS];	 /* measured runs in it so far (schedule.c) */
	size_t nmodules;
	struct pp_layout_module *modules;
	int in_place; /* the layout in the build directory, -1: the build's own */
};

/*
 * Where REVISION/.pinpoint/layouts exists (a session made layouts there),
 * take its lock: alone when the session will @swap layouts in, else shared
 * with other sessions that do not; waiting with a message while another
 * session holds it against us and *@stop is false.  Then put back what a
 * session killed while it had a layout in place left there.  Makes nothing.
 * 0 (also when there is no such directory); -EINTR when stopped; -errno
 * when it cannot be opened or locked (@l stays closed).
 */
int pp_layouts_open(struct pp_layouts *l, const char *revision, bool swap, volatile int *stop);

/*
 * pp_layouts_open() for a session that will make layouts: the directory made
 * when missing and its lock taken alone.  0, -EINTR, or -errno when it
 * cannot be made or locked (@l stays closed).
 */
int pp_layouts_open_for_layouts(struct pp_layouts *l, const char *revision, volatile int *stop);

/*
 * The lock alone, before layouts are made: the directory made when missing.
 * 0 (held already), -EINTR, or -errno when it cannot be made or locked.
 */
int pp_layouts_lock(struct pp_layouts *l, const char *revision, volatile int *stop);

/*
 * Make @want layouts of the revision @label (@want < 2: none) by linking
 * again each module of @modules[0..@n) that has a link record, with
 * ld.lld's --shuffle-sections and a seed of the revision's (reused from the
 * layouts directory, or drawn from @rng and kept there).  A module that
 * cannot be linked again runs as built, with one line saying why.  0, or
 * -ENOMEM / -EINTR.
 */
int pp_layouts_make(struct pp_layouts *l, const char *label, const char *revision,
		    char *const *modules, size_t n, unsigned want, gsl_rng *rng,
		    volatile int *stop);

/*
 * Put layout @k in place: every relinked module's path becomes a hard link
 * of its layout file (renamed over it: atomic), the original kept as
 * KEY.build.  0, or -errno (-ESTALE: a module's path no longer holds what
 * this session put there or found there) with *@module naming the file, after
 * which the caller fails the run.
 */
int pp_layouts_use(struct pp_layouts *l, unsigned k, const char **module);

/*
 * Put the originals back (renamed over the layouts; a file that is no
 * layout of this session's, rebuilt meanwhile, is left as it is), remove the
 * journal, release the lock and free @l.
 */
void pp_layouts_close(struct pp_layouts *l);

/*
 * Put every original back now, from a signal handler: rename() and lstat()
 * only, on paths prepared by pp_layouts_use().
 */
void pp_layouts_restore_now(void);

/* Seconds all layouts of @l took to make in this session. */
double pp_layouts_relink_s(const struct pp_layouts *l);

#endif /* PINPOINT_LAYOUTS_H */
