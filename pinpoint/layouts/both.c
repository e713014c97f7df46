// SPDX-License-Identifier: MIT
/*
 * both.c - the two revisions' code layouts together: their caches opened
 * and locked in one order for every session, then made, both varied or
 * neither.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "core/process.h"
#include "core/private_dir.h"
#include "core/util.h"
#include "pinpoint/layouts/both.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/backend.h"
#include "pinpoint/measure/schedule.h"

/*
 * Each revision's layouts lock, taken before anything runs in it (what a
 * killed session of an earlier pinpoint left in a build directory is put
 * back then).
 */
int pp_layouts_open_both(struct pp_session *s)
{
	bool layouts = s->opt->layouts > 1;
	const char *why = NULL;
	struct stat st[2];
	int first = 0;

	/* One order for every session, by device and inode: two sessions with
	 * the revisions the other way round never each hold the lock the other
	 * waits for. */
	if (!stat(s->rev[PP_PREV].dir, &st[0]) && !stat(s->rev[PP_CUR].dir, &st[1]) &&
	    (st[1].st_dev < st[0].st_dev ||
	     (st[1].st_dev == st[0].st_dev && st[1].st_ino < st[0].st_ino)))
		first = 1;

	/* Each run sees its layout in a mount namespace of its own: can it here? */
	if (layouts && pp_process_binds_work(&why)) {
		pr_warn("both revisions run as built, not in code layouts: %s", why);
		for (int r = 0; r < 2; r++)
			s->rev[r].lay.not_varied = why;
		layouts = false;
	}
	for (int i = 0; i < 2; i++) {
		int r = i ? 1 - first : first;
		struct pp_revision *rev = &s->rev[r];
		const char *nv = rev->lay.not_varied;
		char why[PP_REFUSAL_MAX];
		int err = pp_layouts_open(&rev->lay, rev->dir, layouts, s->stop, why, sizeof(why));

		rev->lay.not_varied = nv;
		if (err == -EINTR || err == -ENOMEM)
			return err;
		if (err && layouts) {
			pr_warn("cannot use the layouts cache: %s; the %s revision runs as built",
				why, rev->label);
			rev->lay.not_varied = "its layouts could not be kept in the cache";
		}
	}
	return 0;
}

/*
 * Both revisions are varied, or neither: one run as built beside the other
 * over layouts compares a draw of the linker's lottery with its average,
 * and identical code came out 7-22 % slower that way.  The revision that
 * could be varied runs as built too, and one line says why.
 */
static void both_or_neither(struct pp_session *s)
{
	for (int r = 0; r < 2; r++) {
		struct pp_revision *rev = &s->rev[r], *other = &s->rev[1 - r];

		if (!rev->lay.n || other->lay.n)
			continue;
		pr_warn("the %s revision runs as built, not in code layouts: %s; the %s revision "
			"runs as built too, so that both are measured alike",
			other->label,
			other->lay.not_varied ? other->lay.not_varied
					      : "it could not be linked again",
			rev->label);
		rev->lay.n = 0;
		rev->lay.as_other = true;
		rev->lay.not_varied = other->label == s->rev[PP_PREV].label
					  ? "the previous revision could not be varied"
					  : "the current revision could not be varied";
		if (!other->lay.not_varied)
			other->lay.not_varied = "it could not be linked again";
	}
}

/* Each revision's --layouts, from the modules its discovery runs named. */
int pp_layouts_make_both(struct pp_session *s)
{
	double t0 = pp_session_now(s);
	gsl_rng *lrng = s->opt->layouts > 1 ? pp_session_layout_rng(s) : NULL;
	int err = s->opt->layouts > 1 && !lrng ? -ENOMEM : 0;

	/*
	 * In the paired design a pair runs in layout k of each revision, the
	 * unit of its analysis (core/stats_nested.c, pp_layout_paired): linked
	 * with one seed, the two draws of a unit are alike where the code is,
	 * and what the layouts move both revisions by leaves their difference
	 * (common random numbers; doc/statistics.md, "Code layouts").  The
	 * previous revision's are made first.  Unpaired, Welch's interval on
	 * each revision's layouts needs them independent: no seed of both.
	 */
	if (!s->backend) {
		if (s->opt->runs != PP_RUNS_SHUFFLED)
			s->rev[PP_CUR].lay.seeds_of = &s->rev[PP_PREV].lay;
		else
			s->rev[PP_CUR].lay.seeds_not = &s->rev[PP_PREV].lay;
	}
	for (int r = 0; r < 2 && !err; r++) {
		struct pp_revision *rev = &s->rev[r];
		int n;

		if (!s->backend) {
			err = pp_layouts_make(&rev->lay, rev->label, rev->dir, rev->prog.objects,
					      rev->prog.nobjects, (unsigned)s->opt->layouts, lrng,
					      s->stop);
			continue;
		}
		n = s->opt->layouts > 1 ? s->backend->layouts(s, r, (unsigned)s->opt->layouts) : 0;
		if (n < 0)
			err = n;
		else
			rev->lay.n = (unsigned)n;
	}
	if (!err)
		both_or_neither(s);
	if (!err && s->rev[PP_PREV].lay.n && s->rev[PP_CUR].lay.n) {
		unsigned np = s->rev[PP_PREV].lay.n, nc = s->rev[PP_CUR].lay.n, cp, cc;

		/* more as the schedule's units need them (ahead.c) */
		s->layouts_first = np < nc ? np : nc;
		s->layouts_cap = (unsigned)s->opt->max_layouts > s->layouts_first
				     ? (unsigned)s->opt->max_layouts
				     : s->layouts_first;
		/* with fewer than asked, the cache had no room for more */
		if (np < (unsigned)s->opt->layouts || nc < (unsigned)s->opt->layouts)
			s->layouts_cap = s->layouts_first;

		if (np == nc)
			pr_info("%u code layouts of each revision, made in %.1f s", np,
				pp_session_now(s) - t0);
		else
			pr_info("%u code layouts of the previous revision and %u of the current "
				"one, made in %.1f s",
				np, nc, pp_session_now(s) - t0);
		/* once: its lock keeps the cache the session's alone from here (layouts.h) */
		cp = pp_layouts_reusable(&s->rev[PP_PREV].lay);
		cc = pp_layouts_reusable(&s->rev[PP_CUR].lay);
		s->layouts_cached = cp < cc ? cp : cc;
	}
	/* Making the layouts is not measuring: --max-time's plan starts after it. */
	if (s->measuring > 0)
		s->measuring += pp_session_now(s) - t0;
	return err;
}

/* The module of @l whose file has @path's name, when exactly one has; else NULL. */
static const struct pp_layout_module *namesake(const struct pp_layouts *l, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const struct pp_layout_module *found = NULL;

	for (size_t i = 0; i < l->nmodules; i++) {
		const char *p = l->modules[i].path, *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;

		if (strcmp(b, base))
			continue;
		if (found)
			return NULL;
		found = &l->modules[i];
	}
	return found;
}

bool pp_layouts_same_code(const struct pp_layouts *a, const struct pp_layouts *b)
{
	unsigned n = a->n < b->n ? a->n : b->n;

	if (n < 2 || !a->nmodules || a->nmodules != b->nmodules || b->seeds_of != a)
		return false;
	for (unsigned k = 0; k < n; k++)
		if (a->seed[k] != b->seed[k])
			return false;
	for (size_t i = 0; i < a->nmodules; i++) {
		const struct pp_layout_module *ma = &a->modules[i], *mb = namesake(b, ma->path);

		if (!mb || ma->why || mb->why || !ma->files || !mb->files)
			return false;
		for (unsigned k = 0; k < n; k++)
			if (!ma->files[k].hash || ma->files[k].hash != mb->files[k].hash ||
			    ma->files[k].size != mb->files[k].size)
				return false;
	}
	return true;
}
