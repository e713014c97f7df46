// SPDX-License-Identifier: MIT
/*
 * outcome_runs.c - the session's runs as the outcome keeps them
 * (outcome.h): every run with its values and targets, the batches, the
 * revisions with their binaries, entry and code layouts, and the
 * measurement's rule, each copied into the outcome's arena.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/layouts/layouts.h"
#include "pinpoint/measure/backend.h"
#include "pinpoint/session/labels.h"
#include "pinpoint/session/outcome_priv.h"
#include "pinpoint/session/summary.h"

const char *pp_copy_str(struct pp_copy *m, const char *s)
{
	const char *c;

	if (!s)
		return NULL;
	c = pp_arena_intern(m->a, s, strlen(s));
	if (!c)
		m->err = -ENOMEM;
	return c;
}

const char *pp_copy_take(struct pp_copy *m, char *s)
{
	const char *c;

	if (!s) {
		m->err = -ENOMEM;
		return NULL;
	}
	c = pp_copy_str(m, s);
	free(s);
	return c;
}

void *pp_copy_mem(struct pp_copy *m, const void *p, size_t size)
{
	void *c;

	if (!size)
		return NULL;
	c = pp_arena_alloc(m->a, size);
	if (!c) {
		m->err = -ENOMEM;
		return NULL;
	}
	if (p)
		memcpy(c, p, size);
	else
		memset(c, 0, size);
	return c;
}

struct pp_outcome_fn pp_copy_fn(struct pp_copy *m, const struct pp_prog_fn *fn)
{
	if (!fn)
		return (struct pp_outcome_fn){0};
	return (struct pp_outcome_fn){
	    .name = pp_copy_str(m, fn->name),
	    .demangled = fn->name ? pp_copy_str(m, pp_demangle(fn->name)) : NULL,
	    .file = pp_copy_str(m, fn->file),
	    .line = fn->line,
	};
}

static void copy_run(struct pp_copy *m, struct pp_outcome_run *v, const struct pp_run_record *r)
{
	struct pp_outcome_run_target *t;
	char how[128];

	*v = (struct pp_outcome_run){
	    .batch = r->batch,
	    .rev = r->rev,
	    .index = r->index,
	    .warmup = r->warmup,
	    .status = pp_copy_str(m, pp_run_describe(&r->st, how, sizeof(how))),
	    .wall_s = r->st.wall_s,
	    .cpu_s = r->st.cpu_s,
	    .nivcsw = r->st.nivcsw,
	    .waited_s = r->st.waited_s,
	    .spoiled = r->spoiled,
	    .cpu = r->cpu,
	    .layout = r->setup.layout,
	    .env_pad = r->setup.env_pad,
	    .heap = r->setup.heap,
	    .entry_count = r->entry_count,
	    .lost = r->lost,
	    .nvalues = r->nvalues,
	    .values = pp_copy_mem(m, r->values, r->nvalues * sizeof(double)),
	    .removed = r->removed ? pp_copy_mem(m, r->removed, r->nvalues * sizeof(double)) : NULL,
	    .execs = r->execs ? pp_copy_mem(m, r->execs, r->nvalues * sizeof(double)) : NULL,
	    .ntargets = r->ntargets,
	};
	t = pp_copy_mem(m, NULL, r->ntargets * sizeof(*t));
	for (size_t k = 0; t && k < r->ntargets; k++)
		t[k] = (struct pp_outcome_run_target){
		    .qi = r->targets[k].qi,
		    .key = pp_copy_str(m, r->targets[k].key),
		    .v = r->targets[k].v,
		    .count = r->targets[k].count,
		};
	v->targets = t;
}

static void copy_runs(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s)
{
	struct pp_outcome_run *runs = pp_copy_mem(m, NULL, s->nruns * sizeof(*runs));
	struct pp_outcome_batch *b = pp_copy_mem(m, NULL, s->nbatches * sizeof(*b));

	for (size_t i = 0; runs && i < s->nruns; i++)
		copy_run(m, &runs[i], &s->runs[i]);
	for (size_t i = 0; b && i < s->nbatches; i++) {
		const struct pp_batch *x = &s->batches[i];

		b[i] = (struct pp_outcome_batch){
		    .id = x->id,
		    .nq = x->nq,
		    .qids = pp_copy_mem(m, x->qids, x->nq * sizeof(*x->qids)),
		    .arming = {pp_copy_str(m, x->arming[PP_PREV]),
			       pp_copy_str(m, x->arming[PP_CUR])},
		    .clock_s = x->clock_s,
		};
	}
	o->runs = runs;
	o->nruns = runs ? s->nruns : 0;
	o->batches = b;
	o->nbatches = b ? s->nbatches : 0;
}

/*
 * Measured runs (no discovery run, no warm-up) of revision @r in each of
 * its @n layouts, in @per[0..@n): one pass over the runs.
 */
static void runs_in(const struct pp_session *s, int r, size_t *per, unsigned n)
{
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *x = &s->runs[i];

		if (x->batch && !x->warmup && x->rev == (enum pp_rev_id)r && x->setup.layout >= 0 &&
		    (unsigned)x->setup.layout < n)
			per[x->setup.layout]++;
	}
}

/* Revision @r: its directory, binaries, entry and code layouts. */
static void copy_revision(struct pp_copy *m, struct pp_outcome_rev *v, const struct pp_session *s,
			  int r)
{
	const struct pp_revision *rev = &s->rev[r];
	const struct pp_layouts *l = &rev->lay;
	const char **bin = pp_copy_mem(m, NULL, rev->prog.nobjects * sizeof(*bin));
	struct pp_outcome_layout *lay = pp_copy_mem(m, NULL, l->n * sizeof(*lay));
	struct pp_outcome_module *mod = pp_copy_mem(m, NULL, l->nmodules * sizeof(*mod));
	size_t *per = calloc(l->n ? l->n : 1, sizeof(*per));

	if (!per)
		m->err = -ENOMEM;
	else
		runs_in(s, r, per, l->n);
	for (size_t i = 0; bin && i < rev->prog.nobjects; i++)
		bin[i] = pp_copy_str(m, rev->prog.objects[i]);
	for (unsigned k = 0; lay && per && k < l->n; k++)
		lay[k] =
		    (struct pp_outcome_layout){l->seed[k], l->relink_s[k], l->reused[k], per[k]};
	free(per);
	for (size_t i = 0; mod && i < l->nmodules; i++)
		mod[i] = (struct pp_outcome_module){pp_copy_str(m, l->modules[i].path),
						    pp_copy_str(m, l->modules[i].why),
						    l->modules[i].relink_s};
	*v = (struct pp_outcome_rev){
	    .label = pp_copy_str(m, rev->label),
	    .dir = pp_copy_str(m, rev->dir),
	    .built_from = pp_copy_str(m, rev->built_from),
	    .commit = *rev->commit ? pp_copy_str(m, rev->commit) : NULL,
	    .nbinaries = bin ? rev->prog.nobjects : 0,
	    .binaries = bin,
	    .nfuncs = rev->prog.nfuncs,
	    .entry = pp_copy_fn(m, rev->entry),
	    .not_varied = l->n ? NULL : pp_copy_str(m, l->not_varied),
	    .nlayouts = lay ? l->n : 0,
	    .layouts = lay,
	    .nmodules = mod ? l->nmodules : 0,
	    .modules = mod,
	};
}

/* The layouts' figures beside their sentence (made in outcome.c). */
static void copy_layouts(struct pp_outcome *o, const struct pp_session *s)
{
	unsigned now = s->rev[PP_PREV].lay.n;

	o->layouts_first = pp_layouts_varied(s) ? s->layouts_first : 0;
	o->layouts_relink_s =
	    pp_layouts_relink_s(&s->rev[PP_PREV].lay) + pp_layouts_relink_s(&s->rev[PP_CUR].lay);
	o->layouts_added = o->layouts_first && now > o->layouts_first;
	if (o->layouts_first) {
		o->layouts_every = s->layout_every;
		o->layouts_cap = s->layouts_cap;
		o->layouts_link_s = s->layout_link_s;
		o->layouts_pair_s = s->layout_pair_s;
		o->layouts_same = s->layouts_same;
	}
	if (!o->layouts_added)
		return;
	o->layouts_more = now - o->layouts_first;
	o->layouts_more_s = s->layouts_more_s;
}

void pp_outcome_runs(struct pp_copy *m, struct pp_outcome *o, const struct pp_session *s)
{
	struct pp_outcome_measurement *x = &o->measurement;

	copy_runs(m, o, s);
	for (int r = 0; r < 2; r++)
		copy_revision(m, &o->rev[r], s, r);
	copy_layouts(o, s);
	*x = (struct pp_outcome_measurement){
	    .entry_skip = s->entry_skip,
	    .entry_skip_setup = s->entry_skip_setup,
	    .entry_stop = s->entry_stop,
	    .entry_count = s->entry_count,
	    .threshold_fixed = s->threshold_fixed,
	    .threshold_ns = s->threshold_ns,
	    .comparison_runs = s->comparison_runs,
	    .comparison_pair_s = s->comparison_pair_s,
	    .runs_used = s->runs_used,
	    .design = pp_runs_name(pp_session_runs(s)),
	    .duet = s->duet,
	    .duet_cpu = {s->duet_cpu[0], s->duet_cpu[1]},
	    .duet_smt = s->duet_smt,
	    .pairs_share = pp_session_pairs_share(s),
	    .duet_note = s->duet_note[0] ? pp_copy_str(m, s->duet_note) : NULL,
	    .seeded = s->seeded,
	    .seed = s->seed,
	    .backend = pp_copy_str(m, s->backend ? s->backend->name : "processes"),
	    .timeout_s = s->timeout_s,
	};
	o->started_wall = s->started_wall;
	o->duration_s = s->finished - s->started;
}
