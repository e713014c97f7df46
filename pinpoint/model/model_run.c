// SPDX-License-Identifier: MIT
/*
 * model_run.c - a program model as a session's backend: the results the
 * runtime would write for an arming (doc/formats.md, 2 and 3), computed
 * from the model's call tree.  A run draws a factor on all its times
 * (noise), one on each function's own time (jitter), and runs on the
 * second duet side slower by the model's asymmetry; the first executions
 * of a run can be slower (warm-up).  Every slot is exact for those draws:
 * what varies is the run, as it does between processes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "core/arming.h"
#include "pinpoint/abi.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/model/model.h"
#include "pinpoint/protocol.h"

/* The function [FILE:]NAME (@len bytes at @spec, encoded) of revision @r, or -1. */
static int resolve(const struct pp_model *m, int r, const char *spec, size_t len)
{
	const char *colon = memchr(spec, ':', len);
	char *file = colon ? pp_arming_unescape(spec, (size_t)(colon - spec)) : NULL;
	char *name = colon ? pp_arming_unescape(colon + 1, len - (size_t)(colon - spec) - 1)
			   : pp_arming_unescape(spec, len);
	int found = -1;

	for (size_t i = 0; name && (!colon || file) && i < m->nfns && found < 0; i++) {
		const struct pp_model_fn *f = &m->fns[i];

		if (f->in[r] && !f->external && !strcmp(f->name, name) &&
		    (!file || !strcmp(f->file, file)))
			found = (int)i;
	}
	free(file);
	free(name);
	return found;
}

/* One armed item: a slot, or a setting. */
struct item {
	enum pp_slot_kind kind;
	int fn;
	unsigned first, last; /* PP_SLOT_RANGE */
	char *spec;
};

struct arming {
	struct item items[PP_MAX_SLOTS];
	size_t n;
	unsigned long long samples, skip, stop;
	/* delay=: a function's body (first > last) or calls first..last of it,
	 * delay_ns at one execution in delay_every (doc/formats.md, 2) */
	bool delay;
	struct item delayed;
	unsigned long long delay_ns, delay_every;
};

static void arming_free(struct arming *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->items[i].spec);
	free(a->delayed.spec);
}

/* Whether @v (@vlen bytes) ends in :I-J (a name's ':' is encoded). */
static bool range_tail(const char *v, size_t vlen)
{
	size_t i = vlen, dash = 0;

	while (i > 0 && v[i - 1] != ':')
		i--;
	if (!i || i == vlen)
		return false;
	for (size_t k = i; k < vlen; k++) {
		if (v[k] == '-' && !dash && k > i)
			dash = k;
		else if (v[k] < '0' || v[k] > '9')
			return false;
	}
	return dash && dash + 1 < vlen;
}

/* @v (@vlen bytes) as [FILE:]NAME or [FILE:]NAME:I-J into @it for revision @r: 0 or -EINVAL. */
static int parse_place(const struct pp_model *m, int r, const char *v, size_t vlen, bool range,
		       struct item *it)
{
	size_t flen = vlen;

	if (range) {
		const char *c = v + vlen;

		while (c > v && c[-1] != ':')
			c--;
		if (c == v || sscanf(c, "%u-%u", &it->first, &it->last) != 2)
			return -EINVAL;
		flen = (size_t)(c - 1 - v);
	}
	it->spec = strndup(v, vlen);
	if (!it->spec)
		return -ENOMEM;
	it->fn = resolve(m, r, v, flen);
	return 0;
}

static bool key_is(const char *p, size_t klen, const char *key)
{
	return strlen(key) == klen && !memcmp(p, key, klen);
}

/* Parse @spec as the runtime would (runtime/spec.c), for revision @r: 0 or -EINVAL. */
static int parse(const struct pp_model *m, int r, const char *spec, struct arming *a)
{
	memset(a, 0, sizeof(*a));
	for (const char *p = spec; *p;) {
		const char *end = strchr(p, PP_SPEC_SEP), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p), klen, vlen;
		const char *v;

		eq = memchr(p, '=', len);
		if (!eq)
			return -EINVAL;
		klen = (size_t)(eq - p);
		v = eq + 1;
		vlen = len - klen - 1;
		if (key_is(p, klen, PP_SPEC_KEY_SAMPLES)) {
			a->samples = strtoull(v, NULL, 10);
		} else if (key_is(p, klen, PP_SPEC_KEY_SKIP)) {
			a->skip = strtoull(v, NULL, 10);
		} else if (key_is(p, klen, PP_SPEC_KEY_STOP)) {
			a->stop = strtoull(v, NULL, 10);
		} else if (key_is(p, klen, PP_SPEC_KEY_DELAY_NS)) {
			a->delay_ns = strtoull(v, NULL, 10);
		} else if (key_is(p, klen, PP_SPEC_KEY_DELAY_EVERY)) {
			a->delay_every = strtoull(v, NULL, 10);
		} else if (key_is(p, klen, PP_SPEC_KEY_DELAY)) {
			bool range = range_tail(v, vlen);
			int err = parse_place(m, r, v, vlen, range, &a->delayed);

			if (err)
				return err;
			a->delayed.kind = range ? PP_SLOT_RANGE : PP_SLOT_FN;
			a->delay = true;
		} else if (key_is(p, klen, PP_SPEC_KEY_ENTRY) || key_is(p, klen, PP_SPEC_KEY_FN) ||
			   key_is(p, klen, PP_SPEC_KEY_WHOLE) ||
			   key_is(p, klen, PP_SPEC_KEY_RANGE)) {
			struct item *it = &a->items[a->n];

			if (a->n == PP_MAX_SLOTS)
				return -EINVAL;
			int err;

			it->kind = key_is(p, klen, PP_SPEC_KEY_ENTRY)	? PP_SLOT_ENTRY
				   : key_is(p, klen, PP_SPEC_KEY_FN)	? PP_SLOT_FN
				   : key_is(p, klen, PP_SPEC_KEY_WHOLE) ? PP_SLOT_WHOLE
									: PP_SLOT_RANGE;
			err = parse_place(m, r, v, vlen, it->kind == PP_SLOT_RANGE, it);
			if (err)
				return err;
			a->n++;
		}
		p += len + (end != NULL);
	}
	if (a->delay != (a->delay_ns > 0))
		return -EINVAL; /* as the runtime: both or neither */
	if (a->delay && !a->delay_every)
		a->delay_every = 1;
	return a->n && a->items[0].kind == PP_SLOT_ENTRY ? 0 : -EINVAL;
}

/* One run's times: each function's, and its executions per execution of the entry. */
struct draw {
	double *self, *time, *execs;
};

/* The index in @f's calls of call @k of revision @r's list, or -1. */
static int call_at(const struct pp_model_fn *f, int r, unsigned k)
{
	for (size_t i = 0; i < f->ncalls; i++)
		if (f->calls[i].in[r] && k-- == 0)
			return (int)i;
	return -1;
}

/* The time of call @c of revision @r per execution of its caller. */
static double call_time(const struct pp_model_call *c, int r, const double *time)
{
	double t = 0;

	if (!c->in[r])
		return 0;
	if (c->fn >= 0)
		return c->count[r] * time[c->fn];
	for (size_t k = 0; k < c->ntargets; k++)
		t += c->targets[k].share[r] * time[c->targets[k].fn];
	return c->count[r] * t;
}

/* The calls @first..@last of @f in revision @r: their executions per execution of @f. */
static double calls_in(const struct pp_model_fn *f, int r, unsigned first, unsigned last)
{
	double n = 0;

	for (unsigned k = first; k <= last; k++) {
		int ci = call_at(f, r, k);

		if (ci < 0)
			break;
		n += f->calls[ci].count[r];
	}
	return n;
}

/* What the runtime takes out of one timed execution of call @c as its probes' cost. */
static double call_probe(const struct pp_model *m, const struct pp_model_call *c, int r)
{
	double p = 0;

	if (c->fn >= 0)
		return m->fns[c->fn].probe_ns[r];
	for (size_t t = 0; t < c->ntargets; t++)
		p += c->targets[t].share[r] * m->fns[c->targets[t].fn].probe_ns[r];
	return p;
}

/* Whether a slot of @a times function @fn's executions itself (entry=, fn=, whole=). */
static bool fn_timed(const struct arming *a, int fn)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->items[i].kind != PP_SLOT_RANGE && a->items[i].fn == fn)
			return true;
	return false;
}

/*
 * What timing adds to call @ci (call @k of revision @r's list) of function
 * @fn per execution of @fn: its callee's armed_ns at each of its
 * executions, where a range= slot of @a holds the call and no slot of the
 * callee's own already adds it.
 */
static double call_armed(const struct pp_model *m, const struct arming *a, int r, int fn, size_t ci,
			 unsigned k)
{
	const struct pp_model_call *c = &m->fns[fn].calls[ci];

	if (c->fn < 0 || !(m->fns[c->fn].armed_ns[r] > 0) || fn_timed(a, c->fn))
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct item *it = &a->items[i];

		if (it->kind == PP_SLOT_RANGE && it->fn == fn && it->first <= k && k <= it->last)
			return c->count[r] * m->fns[c->fn].armed_ns[r];
	}
	return 0;
}

/*
 * One run's draws; @a's delay (when armed) waits its delay_ns at one
 * execution in delay_every of its place, on average delay_ns / delay_every
 * at each: a function's is its own time, a range's its function's.
 */
static void draw_run(struct pp_model *m, int r, int layout, double factor, const struct arming *a,
		     struct draw *d)
{
	const double *lay = m->lay[r] + (size_t)(layout + 1) * m->nfns;
	int at = a->delay ? a->delayed.fn : -1;
	double wait = at >= 0 ? (double)a->delay_ns / (double)a->delay_every : 0;

	for (size_t i = 0; i < m->nfns; i++) {
		d->self[i] = m->fns[i].self_ns[r] * factor * lay[i];
		if (m->jitter > 0)
			d->self[i] *= exp(gsl_ran_gaussian(m->rng, m->jitter));
		/* what timing it costs in place, beyond what the removal takes out */
		if (fn_timed(a, (int)i))
			d->self[i] += m->fns[i].armed_ns[r];
		d->execs[i] = 0;
	}
	if (at >= 0)
		d->self[at] +=
		    a->delayed.kind == PP_SLOT_RANGE
			? wait * calls_in(&m->fns[at], r, a->delayed.first, a->delayed.last)
			: wait;
	/* callees first: a function's time is its own and its calls' */
	for (size_t j = 0; j < m->nfns; j++) {
		int i = m->order[j];
		const struct pp_model_fn *f = &m->fns[i];

		unsigned listed = 0;

		d->time[i] = d->self[i];
		for (size_t k = 0; k < f->ncalls; k++) {
			if (!f->calls[k].in[r])
				continue;
			d->time[i] += call_time(&f->calls[k], r, d->time) +
				      call_armed(m, a, r, (int)i, k, listed++);
		}
	}
	/* callers first: how often each function runs */
	d->execs[m->entry] = 1;
	for (size_t j = m->nfns; j-- > 0;) {
		int i = m->order[j];
		const struct pp_model_fn *f = &m->fns[i];

		for (size_t k = 0; k < f->ncalls; k++) {
			const struct pp_model_call *c = &f->calls[k];

			if (!c->in[r])
				continue;
			if (c->fn >= 0)
				d->execs[c->fn] += d->execs[i] * c->count[r];
			for (size_t t = 0; t < c->ntargets; t++)
				d->execs[c->targets[t].fn] +=
				    d->execs[i] * c->count[r] * c->targets[t].share[r];
		}
	}
}

static uint64_t ns(double v)
{
	return v <= 0 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(v);
}

/* Slot @it's results, @counted executions of the entry after the skip, times @scale. */
static int fill_slot(const struct pp_model *m, int r, const struct arming *a, const struct item *it,
		     size_t index, const struct draw *d, double counted, double scale,
		     struct pp_slot_result *sr)
{
	const struct pp_model_fn *f = it->fn >= 0 ? &m->fns[it->fn] : NULL;
	double runs = f ? d->execs[it->fn] * counted : 0, total = 0, calls = 0, probes = 0;

	sr->index = (unsigned)index;
	sr->kind = it->kind;
	sr->spec = strdup(it->spec);
	if (!sr->spec)
		return -ENOMEM;
	sr->found = f != NULL;
	if (!f)
		return 0;
	if (it->kind != PP_SLOT_RANGE) {
		total = runs * d->time[it->fn];
		if (it->kind == PP_SLOT_FN) {
			double cp = 0;

			for (size_t ci = 0; ci < f->ncalls; ci++)
				if (f->calls[ci].in[r])
					cp += runs * f->calls[ci].count[r] *
					      call_probe(m, &f->calls[ci], r);
			sr->has_calls = 1;
			sr->calls_ns = ns(runs * (d->time[it->fn] - d->self[it->fn]) * scale);
			sr->calls_probes_ns = ns(cp);
			probes += cp;
		}
	} else {
		for (unsigned k = it->first; k <= it->last; k++) {
			int ci = call_at(f, r, k);

			if (ci < 0) /* past the call list: nothing armed there */
				break;
			total += runs * (call_time(&f->calls[ci], r, d->time) +
					 call_armed(m, a, r, it->fn, (size_t)ci, k));
			calls += runs * f->calls[ci].count[r];
			probes += runs * f->calls[ci].count[r] * call_probe(m, &f->calls[ci], r);
		}
	}
	sr->probes_ns = ns(probes);
	/* as the runtime counts: a function's executions, a range's calls' */
	sr->count = ns(it->kind == PP_SLOT_RANGE ? calls : runs);
	sr->timed = sr->count;
	sr->total_ns = ns(total * scale);
	if (it->kind == PP_SLOT_RANGE && it->first == it->last) {
		int ci = call_at(f, r, it->first);
		const struct pp_model_call *c = ci >= 0 ? &f->calls[ci] : NULL;

		if (!c || c->fn >= 0)
			return 0;
		sr->targets = calloc(c->ntargets, sizeof(*sr->targets));
		if (!sr->targets)
			return -ENOMEM;
		for (size_t t = 0; t < c->ntargets; t++) {
			const struct pp_model_fn *g = &m->fns[c->targets[t].fn];
			struct pp_target_result *tr = &sr->targets[sr->ntargets++];
			double n = runs * c->count[r] * c->targets[t].share[r];

			tr->kind = g->external ? PP_TGT_EXT : PP_TGT_FN;
			tr->name = strdup(g->name);
			tr->file = g->external ? NULL : strdup(g->file);
			if (!tr->name || (!g->external && !tr->file))
				return -ENOMEM;
			tr->count = ns(n);
			tr->timed = tr->count;
			tr->total_ns = ns(n * d->time[c->targets[t].fn] * scale);
		}
	}
	return 0;
}

/* The results of one run of revision @r with @spec, on duet side @side (-1: none). */
static int model_run1(struct pp_model *m, int r, const char *spec, int layout, int side,
		      struct pp_results *res, struct pp_run_status *st)
{
	double factor = exp(m->noise > 0 ? gsl_ran_gaussian(m->rng, m->noise) : 0);
	unsigned long long execs = m->executions, warm, counted;
	struct draw d = {0};
	struct arming a;
	double scale;
	bool waited = false;
	int err = parse(m, r, spec, &a);

	if (err)
		goto out;
	if (side == 1)
		factor *= 1 + m->asymmetry;
	/* a competing load: the run waits for its CPU, and its times hold the wait */
	if (m->load > 0 && (m->load_rev < 0 || m->load_rev == r) &&
	    gsl_rng_uniform(m->rng) < m->load) {
		factor *= 1 + m->load_factor;
		waited = true;
	}
	d.self = calloc(m->nfns, sizeof(double));
	d.time = calloc(m->nfns, sizeof(double));
	d.execs = calloc(m->nfns, sizeof(double));
	res->slots = calloc(a.n, sizeof(*res->slots));
	res->clock = strdup("model");
	if (!d.self || !d.time || !d.execs || !res->slots || !res->clock) {
		err = -ENOMEM;
		goto out;
	}
	draw_run(m, r, layout, factor, &a, &d);
	if (a.stop && a.stop < execs)
		execs = a.stop;
	res->skipped = a.skip < execs ? a.skip : execs;
	counted = execs - res->skipped;
	/* the warm-up's executions after the skip take warmup_factor times as long */
	warm =
	    m->warmup > res->skipped ? (m->warmup < execs ? m->warmup : execs) - res->skipped : 0;
	scale = counted ? (counted + (m->warmup_factor - 1) * (double)warm) / (double)counted : 1;
	res->version = PP_RESULTS_VERSION;
	res->pid = 1;
	res->ticks_per_ns = 1;
	res->complete = 1;
	for (size_t i = 0; i < a.n && !err; i++) {
		err =
		    fill_slot(m, r, &a, &a.items[i], i, &d, (double)counted, scale, &res->slots[i]);
		res->nslots = i + 1;
	}
	if (!err && a.delay && a.delayed.fn >= 0) { /* as the runtime counts them: after the skip */
		const struct pp_model_fn *f = &m->fns[a.delayed.fn];
		double per =
		    d.execs[a.delayed.fn] * (a.delayed.kind == PP_SLOT_RANGE
						 ? calls_in(f, r, a.delayed.first, a.delayed.last)
						 : 1);

		res->delayed_count = ns(per * (double)counted / (double)a.delay_every);
		res->delay_ns = a.delay_ns;
	}
	if (!err && a.samples) {
		size_t n = a.samples < execs ? (size_t)a.samples : (size_t)execs;

		res->samples = calloc(n, sizeof(uint64_t));
		if (!res->samples) {
			err = -ENOMEM;
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			res->samples[i] =
			    ns(d.time[m->entry] * (i < m->warmup ? m->warmup_factor : 1));
		res->nsamples = n;
	}
	memset(st, 0, sizeof(*st));
	st->exited = 1;
	st->wall_s = 1e-3 + (double)execs * d.time[m->entry] * (execs ? scale : 1) / 1e9;
	st->cpu_s = st->wall_s;
	st->waited_s = !m->load_seen ? -1
		       : waited	     ? st->wall_s * m->load_factor / (1 + m->load_factor)
				     : 0;
	st->output_hash = 0x9e3779b97f4a7c15ull;
out:
	arming_free(&a);
	free(d.self);
	free(d.time);
	free(d.execs);
	return err;
}

static int model_run(struct pp_session *s, unsigned batch, const struct pp_run_req *req, size_t n,
		     struct pp_results *res, struct pp_run_status *st, int *each)
{
	struct pp_model *m = s->backend_data;
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		int side = n > 1 ? (req[i].cpus == &s->duet_cpus[1]) : -1, e;

		memset(&res[i], 0, sizeof(res[i]));
		e = model_run1(m, req[i].rev, req[i].arming, req[i].setup.layout, side, &res[i],
			       &st[i]);
		if (e == -EINVAL) {
			pp_session_fail(s,
					"%s revision, batch %u, run %u: the model cannot read "
					"the arming '%s'",
					s->rev[req[i].rev].label, batch, req[i].index + 1,
					req[i].arming);
			e = -EIO;
		} else if (e) {
			pp_session_fail(s, "out of memory");
			e = -EIO;
		}
		if (e)
			pp_results_free(&res[i]);
		if (each)
			each[i] = e;
		if (e && !err)
			err = e;
	}
	return err;
}

static int model_tables(struct pp_session *s, enum pp_rev_id r, const struct pp_results *res)
{
	(void)res;
	return pp_model_tables(s->backend_data, r, &s->rev[r].prog);
}

/* Duet runs as the model says, on two sides that are labels, not CPUs. */
static int model_duet(struct pp_session *s)
{
	struct pp_model *m = s->backend_data;

	s->duet = m->duet;
	for (int k = 0; k < 2; k++) {
		CPU_ZERO(&s->duet_cpus[k]);
		CPU_SET(k, &s->duet_cpus[k]);
		s->duet_cpu[k] = k;
	}
	return 0;
}

/* Layouts are the model's rows: as many as asked, up to PP_MAX_LAYOUTS, layout k's seed k + 1. */
static int model_layouts(struct pp_session *s, enum pp_rev_id r, unsigned want)
{
	unsigned n = want < PP_MAX_LAYOUTS ? want : PP_MAX_LAYOUTS;

	for (unsigned k = 0; k < n; k++)
		s->rev[r].lay.seed[k] = k + 1;
	return (int)n;
}

const struct pp_backend pp_backend_model = {
    .name = "model",
    .tables = model_tables,
    .run = model_run,
    .duet = model_duet,
    .layouts = model_layouts,
};

int pp_model_attach(struct pp_session *s, struct pp_model *m)
{
	unsigned long seed = s->opt->have_seed ? s->opt->seed : m->seed;
	size_t rows = (size_t)(PP_MAX_LAYOUTS + 1) * m->nfns;

	m->rng = gsl_rng_alloc(gsl_rng_mt19937);
	m->lay[0] = malloc(rows * sizeof(double));
	m->lay[1] = malloc(rows * sizeof(double));
	if (!m->rng || !m->lay[0] || !m->lay[1])
		return -ENOMEM;
	/* the layouts first, from the seed alone: the same whatever the runs draw */
	gsl_rng_set(m->rng, seed ^ 0x6c61796fUL);
	for (int r = 0; r < 2; r++)
		for (size_t i = 0; i < rows; i++)
			m->lay[r][i] =
			    m->layout_sd > 0 ? exp(gsl_ran_gaussian(m->rng, m->layout_sd)) : 1;
	/* layout k of the current revision with the previous one's seed: its
	 * log factors correlated by layout_shared (the builds as they are, row
	 * 0, stay apart) */
	for (size_t i = m->nfns; m->layout_shared > 0 && m->layout_sd > 0 && i < rows; i++) {
		double p = log(m->lay[PP_PREV][i]), c = log(m->lay[PP_CUR][i]),
		       rho = m->layout_shared;

		m->lay[PP_CUR][i] = exp(rho * p + sqrt(1 - rho * rho) * c);
	}
	gsl_rng_set(m->rng, seed);
	s->backend = &pp_backend_model;
	s->virtual_clock = true;
	s->backend_data = m;
	return 0;
}
