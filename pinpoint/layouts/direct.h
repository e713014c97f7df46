/* SPDX-License-Identifier: MIT */
/*
 * direct.h - a layout's link run as the linker itself (direct.c): the
 * compiler driver is asked once, with -###, for the one command it would
 * run, and each layout runs that command with its own output and seed.
 */
#ifndef PINPOINT_LAYOUTS_DIRECT_H
#define PINPOINT_LAYOUTS_DIRECT_H

#include <stddef.h>

struct pp_link_direct {
	char **argv;   /* the linker's command, NULL-terminated (NULL: none) */
	size_t out;    /* argv[out]: the output */
	size_t seed;   /* argv[seed]: --shuffle-sections=.text*=SEED */
	char *why_not; /* none: why (for the relink log) */
};

/*
 * Ask the driver of @drv (a layout's link through it: NULL-terminated, its
 * output @out, its seed given as @shuffle, "-Wl,--shuffle-sections=...")
 * for the linker's command, run in @dir with @env as that link would be.
 * 0 with d->argv set, or with d->why_not set when the driver does not run
 * exactly one command, ld.lld, taking @out and the seed's shuffle as
 * arguments of their own (the layouts are then linked through the driver);
 * -ENOMEM or -EINTR.
 */
int pp_link_direct_ask(const char *const *drv, const char *out, const char *shuffle,
		       const char *dir, const char *const *env, volatile int *stop,
		       struct pp_link_direct *d);

/*
 * The linker's command for one layout: @d's, with @out and @shuffle (the
 * driver's form, as above) in place of the ones it was asked with, in
 * *@argv (its strings @d's or the arguments'; free the array alone).
 * 0 or -ENOMEM.
 */
int pp_link_direct_argv(const struct pp_link_direct *d, const char *out, const char *shuffle,
			const char ***argv);

void pp_link_direct_free(struct pp_link_direct *d);

/*
 * The arguments of one command line of a driver's -### output (each in
 * double quotes, \ escaping the next character) into a NULL-terminated
 * array, added to *@argv of *@n.  0, -EINVAL (not such a line), -ENOMEM.
 */
int pp_link_direct_parse(const char *line, char ***argv, size_t *n);

#endif /* PINPOINT_LAYOUTS_DIRECT_H */
