// SPDX-License-Identifier: MIT
/*
 * measure.c - the measure stage: arm the probes for a batch of quantities,
 * run both revisions in a random order (schedule.h) and turn the runtime's
 * results into one value per run, appended to each quantity's series.
 *
 * Every value is in ns per execution of the entry, by one rule for the whole
 * session (doc/semantics.md): every slot leaves out what ran before the end
 * of the entry's first s->entry_skip executions (the runtime's skip=, set
 * where the discover stage found the entry's steady state to begin: section
 * 2.3.3 of the method); the entry's own time is its total over its count, a
 * range's or a body's its total over the entry's count, all of them without
 * the cost of the probes armed inside (the runtime takes it out).  No run
 * picks its own rule; the discover stage's runs are armed by the same code.
 *
 * A call site that feeds two counters takes the probes' slow path, some
 * hundreds of ns a call: so no site is armed twice.  A function's whole time
 * is its body alone (whole=), its calls are ranges, and its own body and any
 * range that holds other measured ranges are derived from them in the same
 * run (the quantity's terms); only a function that may call itself has its
 * own body measured by the runtime (fn=, which arms its calls once more).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arming.h"
#include "core/util.h"
#include "pinpoint/layouts/both.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/decide.h"
#include "pinpoint/measure/backend.h"
#include "pinpoint/measure/measure.h"
#include "pinpoint/measure/run.h"
#include "pinpoint/measure/schedule.h"

struct buf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void __attribute__((format(printf, 2, 3))) put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int need;

	if (b->oom)
		return;
	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (need < 0 || b->len + (size_t)need + 1 > b->cap) {
		size_t cap = 2 * (b->len + (size_t)(need < 0 ? 0 : need) + 1);
		char *p = need < 0 ? NULL : realloc(b->p, cap);

		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	va_start(ap, fmt);
	b->len += (size_t)vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
}

/* Whether @q of revision @r is measured in the entry's slot. */
static bool in_entry_slot(const struct pp_session *s, const struct pp_quantity *q, enum pp_rev_id r)
{
	return q->kind == PP_Q_ENTRY || q->kind == PP_Q_CONFIRM ||
	       (q->kind == PP_Q_TOTAL && q->fn[r] == s->rev[r].entry);
}

/* The slot of an earlier item of @qs[0..@i) that times @qs[i] too (fn and whole), or -1. */
static int shared_slot(struct pp_quantity *const *qs, size_t i, const int *slot_of,
		       enum pp_rev_id r)
{
	for (size_t j = 0; j < i; j++)
		if ((qs[j]->kind == PP_Q_SELF || qs[j]->kind == PP_Q_TOTAL) && !qs[j]->nterms &&
		    (qs[i]->kind == PP_Q_SELF || qs[i]->kind == PP_Q_TOTAL) &&
		    qs[j]->fn[r] == qs[i]->fn[r] && slot_of[j] > 0)
			return slot_of[j];
	return -1;
}

/* Whether the function of @q (of revision @r) has an own body measured by fn= in @qs. */
static bool fn_item(struct pp_quantity *const *qs, size_t nq, const struct pp_quantity *q,
		    enum pp_rev_id r)
{
	for (size_t j = 0; j < nq; j++)
		if (qs[j]->kind == PP_Q_SELF && !qs[j]->nterms && qs[j]->fn[r] == q->fn[r])
			return true;
	return false;
}

char *pp_arming(const struct pp_session *s, enum pp_rev_id r, const char *out,
		const struct pp_arm_how *how, struct pp_quantity *const *qs, size_t nq,
		int *slot_of)
{
	const struct pp_program *prog = &s->rev[r].prog;
	char *out_arg = pp_arming_escape(out);
	struct buf b = {0};
	int nslots = 1;

	if (!out_arg)
		return NULL;
	put(&b, PP_SPEC_KEY_OUT "=%s;" PP_SPEC_KEY_ENTRY "=%s;" PP_SPEC_KEY_SAMPLES "=%u", out_arg,
	    how->entry ? how->entry : s->rev[r].entry_spec, how->samples);
	free(out_arg);
	if (how->session_rule && s->entry_skip)
		put(&b, ";" PP_SPEC_KEY_SKIP "=%llu", s->entry_skip);
	if (how->session_rule && s->entry_stop)
		put(&b, ";" PP_SPEC_KEY_STOP "=%llu", s->entry_stop);
	if (how->session_rule && s->opt->timing_all)
		put(&b, ";" PP_SPEC_KEY_TIMING "=" PP_SPEC_TIMING_ALL);
	for (size_t i = 0; i < nq; i++) {
		const struct pp_quantity *q = qs[i];
		const char *key;
		char *spec;

		if (q->nterms) { /* derived from its terms, measured in the same run */
			slot_of[i] = PP_SLOT_DERIVED;
			continue;
		}
		if (in_entry_slot(s, q, r)) {
			/* a what-if: the previous revision's runs delay a part */
			if (q->kind == PP_Q_CONFIRM && r == PP_PREV) {
				put(&b, ";" PP_SPEC_KEY_DELAY "=%s;" PP_SPEC_KEY_DELAY_NS "=%llu",
				    q->delay, q->delay_ns);
				if (q->delay_every > 1)
					put(&b, ";" PP_SPEC_KEY_DELAY_EVERY "=%u", q->delay_every);
			}
			slot_of[i] = 0;
			continue;
		}
		if (q->absent[r]) { /* a call this revision does not make: 0 */
			slot_of[i] = -1;
			continue;
		}
		/* a function's own body and its whole time share one fn item */
		slot_of[i] = shared_slot(qs, i, slot_of, r);
		if (slot_of[i] >= 0)
			continue;
		spec = pp_arming_fn(prog, q->fn[r]);
		if (!spec) {
			b.oom = true;
			break;
		}
		if (q->kind == PP_Q_RANGE || q->kind == PP_Q_COUNT) {
			put(&b, ";" PP_SPEC_KEY_RANGE "=%s:%u-%u", spec,
			    r == PP_PREV ? q->prev_first : q->first,
			    r == PP_PREV ? q->prev_last : q->last);
		} else {
			/* a whole alone is its body only; with an own body measured, fn= */
			key = q->kind == PP_Q_TOTAL && !fn_item(qs, nq, q, r) ? PP_SPEC_KEY_WHOLE
									      : PP_SPEC_KEY_FN;
			put(&b, ";%s=%s", key, spec);
		}
		free(spec);
		slot_of[i] = nslots++;
	}
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/* The entry's value: its total over its count, both after the session's skip. */
static int entry_value(struct pp_session *s, enum pp_rev_id r, const char *what,
		       const struct pp_results *res, const struct pp_slot_result *e, double *v,
		       double *removed)
{
	unsigned long long k = s->entry_skip;

	if (k && (res->skipped != k || !e->count)) {
		pp_session_fail(s,
				"%s revision, %s: the entry ran %llu times, not more than the %llu "
				"executions every run skips to its steady state",
				s->rev[r].label, what,
				(unsigned long long)(e->count + (res->skipped ? res->skipped : 0)),
				k);
		return -EIO;
	}
	*v = (double)e->total_ns / (double)e->count;
	*removed = (double)e->probes_ns / (double)e->count;
	return 0;
}

int pp_run_value(struct pp_session *s, enum pp_rev_id r, const char *what,
		 const struct pp_results *res, const struct pp_quantity *q, int slot, double *v,
		 double *removed)
{
	const struct pp_slot_result *e = &res->slots[0], *sl;

	*v = 0;
	*removed = 0;
	if (slot < 0)
		return 0;
	if ((size_t)slot >= res->nslots) {
		pp_session_fail(s, "%s revision, %s: the runtime measured %zu slots, %d expected",
				s->rev[r].label, what, res->nslots, slot + 1);
		return -EIO;
	}
	sl = &res->slots[slot];
	if (slot == 0 &&
	    (q->kind == PP_Q_ENTRY || q->kind == PP_Q_TOTAL || q->kind == PP_Q_CONFIRM))
		return entry_value(s, r, what, res, e, v, removed);
	if (!e->count) {
		pp_session_fail(s, "%s revision, %s: the entry's executions were all skipped",
				s->rev[r].label, what);
		return -EIO;
	}
	if (q->kind == PP_Q_RANGE || q->kind == PP_Q_COUNT || q->kind == PP_Q_TOTAL) {
		*v = (double)sl->total_ns / (double)e->count;
		*removed = (double)sl->probes_ns / (double)e->count;
	} else {
		*v = ((double)sl->total_ns - (double)sl->calls_ns) / (double)e->count;
		*removed = ((double)sl->probes_ns - (double)sl->calls_probes_ns) / (double)e->count;
	}
	return 0;
}

/* @qs[0..*@n) and, after them, every term a derived one needs that is not there. */
static int with_terms(struct pp_quantity ***list, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		const struct pp_quantity *q = (*list)[i];

		for (size_t t = 0; t < q->nterms; t++) {
			struct pp_quantity **nl;
			size_t j;

			for (j = 0; j < *n && (*list)[j] != q->terms[t]; j++)
				;
			if (j < *n)
				continue;
			nl = realloc(*list, (*n + 1) * sizeof(*nl));
			if (!nl)
				return -ENOMEM;
			*list = nl;
			(*list)[(*n)++] = q->terms[t];
		}
	}
	return 0;
}

/*
 * The value of derived @q from its terms' values in @values (of @qs[0..n)),
 * each times its sign; with @added, the sum of its added terms' (a range's
 * calls, an own body's whole: what its executions are).
 */
static double derived_value(const struct pp_quantity *q, struct pp_quantity *const *qs,
			    const double *values, const bool *done, size_t n, bool added,
			    bool *ready)
{
	double v = 0;

	*ready = true;
	if (!values)
		return 0;
	for (size_t t = 0; t < q->nterms; t++) {
		size_t j;

		for (j = 0; j < n && qs[j] != q->terms[t]; j++)
			;
		if (j == n || !done[j]) {
			*ready = false;
			return 0;
		}
		if (!added || q->signs[t] > 0)
			v += (added ? 1 : q->signs[t]) * values[j];
	}
	return v;
}

/*
 * The executions of slot @slot per execution of the entry, after the
 * session's skip: 1 for the entry, 0 for calls a revision does not make
 * (no slot), NaN where the runtime gave no such slot.
 */
static double slot_execs(const struct pp_results *res, int slot)
{
	const struct pp_slot_result *e = &res->slots[0];

	if (slot < 0)
		return 0;
	if (!e->count || (size_t)slot >= res->nslots)
		return NAN;
	return (double)res->slots[slot].count / (double)e->count;
}

/*
 * A what-if's executions (PP_Q_CONFIRM, the previous revision): those its
 * delay= slowed down per execution of the entry, both after the session's
 * skip (the runtime takes the skip out of its count as of the slots').
 */
static double delayed_execs(const struct pp_results *res)
{
	uint64_t n = res->nslots ? res->slots[0].count : 0;

	return n ? (double)res->delayed_count / (double)n : NAN;
}

static void progress(struct pp_session *s, unsigned batch, size_t done, size_t total)
{
	if (s->opt->quiet || !isatty(2))
		return;
	if (done == total)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\r\033[Kpinpoint: batch %u: run %zu of %zu, %.0f s", batch,
			done + 1, total, pp_session_now(s) - s->started);
	fflush(stderr);
}

/* A new batch of @qs, armed for both revisions; NULL when out of memory. */
static struct pp_batch *new_batch(struct pp_session *s, struct pp_quantity **qs, size_t n,
				  int *slot_of[2], int layer)
{
	static const struct pp_arm_how how = {.samples = 0, .session_rule = true};
	struct pp_arm_how h = how;
	struct pp_batch *b = realloc(s->batches, (s->nbatches + 1) * sizeof(*b));

	if (!b)
		return NULL;
	s->batches = b;
	b = &s->batches[s->nbatches++];
	memset(b, 0, sizeof(*b));
	b->id = (unsigned)s->nbatches;
	b->layer = layer;
	b->nq = n;
	b->qids = calloc(n, sizeof(*b->qids));
	if (!b->qids)
		return NULL;
	h.samples = 0; /* the runtime's skip= leaves the warm-up out of every slot */
	for (int r = 0; r < 2; r++) {
		char out[4096];

		pp_session_results_path(s, r, out, sizeof(out));
		b->arming[r] = pp_arming(s, r, out, &h, qs, n, slot_of[r]);
		if (!b->arming[r])
			return NULL;
		pr_dbg("batch %u %s: PINPOINT='%s'", b->id, s->rev[r].label, b->arming[r]);
	}
	for (size_t i = 0; i < n; i++) {
		b->qids[i] = qs[i]->id;
		qs[i]->batch = b->id;
	}
	b->clock_s = pp_session_now(s) - s->started;
	if (pp_backend_of(s)->batch && pp_backend_of(s)->batch(s, b))
		return NULL;
	return b;
}

/*
 * The values of @qs[0..@n) in run @res, with the probes' cost removed from
 * each and their executions: the armed ones, then those derived from them.
 */
static int run_values(struct pp_session *s, enum pp_rev_id r, const char *what,
		      const struct pp_results *res, struct pp_quantity **qs, size_t n,
		      const int *slot_of, double *values, double *removed, double *execs)
{
	bool *done = calloc(n ? n : 1, sizeof(*done));
	size_t left = 0;
	int err = 0;

	if (!done)
		return -ENOMEM;
	for (size_t j = 0; j < n && !err; j++) {
		if (slot_of[j] == PP_SLOT_DERIVED) {
			left++;
			continue;
		}
		err = pp_run_value(s, r, what, res, qs[j], slot_of[j], &values[j], &removed[j]);
		execs[j] = qs[j]->kind == PP_Q_CONFIRM && r == PP_PREV
			       ? delayed_execs(res)
			       : slot_execs(res, slot_of[j]);
		done[j] = true;
	}
	/* terms first: a derived range can be a term of a derived own body */
	while (!err && left) {
		size_t before = left;

		for (size_t j = 0; j < n; j++) {
			bool ready;

			if (done[j])
				continue;
			values[j] = derived_value(qs[j], qs, values, done, n, false, &ready);
			removed[j] = derived_value(qs[j], qs, removed, done, n, false, &ready);
			execs[j] = derived_value(qs[j], qs, execs, done, n, true, &ready);
			if (ready) {
				done[j] = true;
				left--;
			}
		}
		if (left == before) {
			pp_session_fail(s,
					"%s revision, %s: a derived quantity's terms were not "
					"measured",
					s->rev[r].label, what);
			err = -EIO;
		}
	}
	free(done);
	return err;
}

/*
 * The name a target is kept under (session.h): an instrumented function's
 * linkage name, the symbol of an address in an instrumented module (the
 * table may know it by name), "ext:" and the symbol or module outside them,
 * or "other".  Malloc'ed, NULL when out of memory.
 */
static char *target_key(const struct pp_target_result *t)
{
	const char *m = t->name;
	char *k;

	if ((t->kind == PP_TGT_FN || t->kind == PP_TGT_SYM) && t->name)
		return strdup(t->name);
	if (t->kind != PP_TGT_EXT)
		return strdup("other");
	if (!m && t->module)
		m = strrchr(t->module, '/') ? strrchr(t->module, '/') + 1 : t->module;
	if (asprintf(&k, "ext:%s", m ? m : "?") < 0)
		return NULL;
	return k;
}

/* Keep target @t of the quantity @qi of the batch in @rec, per entry execution of @e. */
static int keep_target(struct pp_run_record *rec, unsigned qi, const struct pp_target_result *t,
		       const struct pp_slot_result *e)
{
	struct pp_run_target *nt;
	char *key = target_key(t);

	if (!key)
		return -ENOMEM;
	for (size_t i = 0; i < rec->ntargets; i++) {
		nt = &rec->targets[i];
		if (nt->qi == qi && !strcmp(nt->key, key)) { /* two addresses, one name */
			nt->v += (double)t->total_ns / (double)e->count;
			nt->count += t->count;
			free(key);
			return 0;
		}
	}
	nt = realloc(rec->targets, (rec->ntargets + 1) * sizeof(*nt));
	if (!nt) {
		free(key);
		return -ENOMEM;
	}
	rec->targets = nt;
	rec->targets[rec->ntargets++] = (struct pp_run_target){
	    .qi = qi, .key = key, .v = (double)t->total_ns / (double)e->count, .count = t->count};
	return 0;
}

/* The targets of the indirect calls the batch times alone (a range of one call). */
static int keep_targets(struct pp_run_record *rec, const struct pp_results *res,
			struct pp_quantity *const *qs, size_t n, const int *slot_of)
{
	int err = 0;

	for (size_t j = 0; j < n && !err; j++) {
		const struct pp_slot_result *sl;

		if (slot_of[j] <= 0 || (size_t)slot_of[j] >= res->nslots ||
		    qs[j]->kind != PP_Q_RANGE || !res->slots[0].count)
			continue;
		sl = &res->slots[slot_of[j]];
		for (size_t t = 0; t < sl->ntargets && !err; t++)
			err = keep_target(rec, (unsigned)j, &sl->targets[t], &res->slots[0]);
	}
	return err;
}

/*
 * A new record of run @req of batch @b (counted against --max-runs), its
 * session's time @turn_s, CPU @cpu and duet side @side set; NULL when out
 * of memory.
 */
static struct pp_run_record *new_record(struct pp_session *s, const struct pp_batch *b,
					const struct pp_run_req *req, double turn_s, int cpu,
					int side)
{
	struct pp_run_record *rec;

	s->runs_used++;
	rec = pp_session_add_run(s);
	if (!rec)
		return NULL;
	rec->batch = b->id;
	rec->rev = req->rev;
	rec->index = req->index;
	rec->warmup = req->index < (unsigned)s->opt->warmups;
	rec->setup = req->setup;
	rec->turn_s = turn_s;
	rec->cpu = cpu;
	rec->side = side;
	return rec;
}

/*
 * The values and executions of run @rec into the series of @qs[0..@n), and
 * into those of the targets @ts[0..@nt) of the indirect calls among them
 * (none of a warm-up's), each with the run's layout and duet side; 0 or
 * -ENOMEM.
 */
static int push_values(const struct pp_run_record *rec, struct pp_quantity **qs, size_t n,
		       struct pp_quantity *const *ts, size_t nt)
{
	for (size_t i = 0; i < nt && !rec->warmup; i++) {
		size_t j;

		for (j = 0; j < n && qs[j] != ts[i]->of; j++)
			;
		if (j < n && pp_quantity_push_target(ts[i], rec, (int)j))
			return -ENOMEM;
	}
	for (size_t j = 0; j < n && !rec->warmup; j++) {
		unsigned layout = pp_setup_layout(&rec->setup);

		if (pp_series_push_run(&qs[j]->series[rec->rev], rec->values[j], layout,
				       rec->side) ||
		    pp_series_push_run(&qs[j]->execs[rec->rev],
				       rec->execs && j < rec->nvalues ? rec->execs[j] : NAN, layout,
				       rec->side))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Record run @req of batch @b (@err: how pp_run_revisions() ended for it, its
 * results @res, its status @st, the session's time it took @turn_s, its duet
 * side @side or -1); its values go to the run record (to the series when
 * its round ends, finish_round()).
 */
static int record_run(struct pp_session *s, const struct pp_batch *b, const struct pp_run_req *req,
		      int err, struct pp_results *res, const struct pp_run_status *st,
		      double turn_s, int side, struct pp_quantity **qs, size_t n,
		      const int *slot_of)
{
	enum pp_rev_id r = req->rev;
	struct pp_run_record *rec;
	char what[64];

	snprintf(what, sizeof(what), "batch %u, run %u", b->id, req->index + 1);
	rec = new_record(s, b, req, turn_s, side >= 0 ? s->duet_cpu[side] : -1, side);
	if (!rec)
		return -ENOMEM;
	rec->st = *st;
	if (err)
		return err;
	if (!res->nslots || res->slots[0].kind != PP_SLOT_ENTRY || !res->slots[0].count) {
		pp_session_fail(s, "%s revision, %s: the entry %s was never called",
				s->rev[r].label, what, s->rev[r].entry->name);
		return -EIO;
	}
	rec->entry_count = res->slots[0].count + res->skipped; /* all of the run's executions */
	for (size_t k = 0; k < res->nslots; k++)
		rec->lost += res->slots[k].lost;
	pr_dbg("%s, %s%s: %.3f s, entry executed %llu times%s", what, s->rev[r].label,
	       rec->warmup ? " (warm-up)" : "", st->wall_s, (unsigned long long)res->slots[0].count,
	       side >= 0 ? ", duet" : "");
	rec->nvalues = n;
	rec->values = calloc(n ? n : 1, sizeof(double));
	rec->removed = calloc(n ? n : 1, sizeof(double));
	rec->execs = calloc(n ? n : 1, sizeof(double));
	if (!rec->values || !rec->removed || !rec->execs)
		return -ENOMEM;
	err = run_values(s, r, what, res, qs, n, slot_of, rec->values, rec->removed, rec->execs);
	return err ? err : keep_targets(rec, res, qs, n, slot_of);
}

/*
 * The runs @req[0..@n) of batch @b as the backend's values (a recorded
 * session's), recorded as record_run() records a run.
 */
static int values_turn(struct pp_session *s, const struct pp_batch *b, const struct pp_run_req *req,
		       size_t n, size_t nq)
{
	struct pp_run_record got[2];
	double turn_s = 0;
	int err = 0;

	memset(got, 0, sizeof(got));
	for (size_t k = 0; k < n && !err; k++) {
		err = pp_backend_of(s)->values(s, b, &req[k], &got[k], nq);
		if (!err && got[k].st.wall_s > turn_s)
			turn_s = got[k].st.wall_s;
	}
	for (size_t k = 0; k < n; k++) {
		struct pp_run_record *rec =
		    err ? NULL
			: new_record(s, b, &req[k], turn_s / (double)n, n > 1 ? s->duet_cpu[k] : -1,
				     n > 1 ? (int)k : -1);

		if (!rec) {
			pp_run_record_clear(&got[k]);
			err = err ? err : -ENOMEM;
			continue;
		}
		/* the backend's part of the record: how it ended, counts, values, targets */
		rec->st = got[k].st;
		rec->entry_count = got[k].entry_count;
		rec->lost = got[k].lost;
		rec->nvalues = got[k].nvalues;
		rec->values = got[k].values;
		rec->removed = got[k].removed;
		rec->execs = got[k].execs;
		rec->ntargets = got[k].ntargets;
		rec->targets = got[k].targets;
	}
	/* the backend's clock moved by the turn */
	s->clock_s += turn_s;
	return err;
}

/*
 * The end of a round, the runs s->runs[@first..): a round of measured runs
 * one of which waited for its CPU a fifth of its time or more (other work
 * had it) is spoiled: its runs stay in the record, marked, and none of its
 * values goes into a series, so that no comparison is decided on it.
 * Otherwise each run's values go into the series of @qs[0..@nq) and of the
 * targets @ts[0..@nt).  Returns 1 for a spoiled round (s->load_spent set
 * once they are too many), 0 or -ENOMEM.
 */
static int finish_round(struct pp_session *s, size_t first, struct pp_quantity **qs, size_t nq,
			struct pp_quantity *const *ts, size_t nt)
{
	bool spoiled = false, measured = false;

	for (size_t i = first; i < s->nruns; i++) {
		spoiled = spoiled || pp_run_waited_long(&s->runs[i]);
		measured = measured || !s->runs[i].warmup;
	}
	if (measured && spoiled && s->opt->spoiled_again) {
		for (size_t i = first; i < s->nruns; i++)
			s->runs[i].spoiled = true;
		s->rounds_spoiled++;
		if (s->rounds_spoiled >= PP_SPOILED_MIN &&
		    s->rounds_spoiled >= PP_SPOILED_RATIO * s->rounds_kept)
			s->load_spent = true;
		pr_dbg("round spoiled by other work (%zu of %zu so far): measured again",
		       s->rounds_spoiled, s->rounds_spoiled + s->rounds_kept);
		return 1;
	}
	for (size_t i = first; i < s->nruns; i++)
		if (push_values(&s->runs[i], qs, nq, ts, nt))
			return -ENOMEM;
	s->rounds_kept += measured;
	return 0;
}

/*
 * Turns @order[@turn .. @turn + @n) of batch @b: one run (@n = 1), or a duet
 * (@n = 2: the first of the pair on s->duet_cpus[0], the second on [1]).
 */
static int run_turn(struct pp_session *s, const struct pp_batch *b, const enum pp_rev_id *order,
		    const int *layout, size_t turn, size_t n, unsigned next[2],
		    struct pp_quantity **qs, size_t nq, int *slot_of[2])
{
	struct pp_run_req req[2];
	struct pp_results res[2];
	struct pp_run_status st[2];
	double turn_s = 0;
	int err, each[2] = {0, 0};
	bool share = pp_session_pairs_share(s);

	memset(res, 0, sizeof(res));
	for (size_t k = 0; k < n; k++) {
		enum pp_rev_id r = order[turn + k];

		req[k] = (struct pp_run_req){.rev = r,
					     .arming = b->arming[r],
					     .index = next[r]++,
					     .cpus = n > 1 ? &s->duet_cpus[k] : NULL};
		if (pp_schedule_setup(s, layout[turn + k], &req[k].setup))
			return -ENOMEM;
		/*
		 * A pair's two runs see one environment's size and one heap
		 * start, as they run in layout k of each (common random
		 * numbers): where the program is sensitive to them, the same
		 * draw moves both and leaves their difference; the pairs stay
		 * independent draws (doc/statistics.md, "Code layouts").
		 */
		if (share && (turn + k) % 2) {
			req[k].setup.env_pad = s->pair_setup.env_pad;
			req[k].setup.heap = s->pair_setup.heap;
		} else if (share) {
			s->pair_setup = req[k].setup;
		}
	}
	if (pp_backend_of(s)->values)
		return values_turn(s, b, req, n, nq);
	err = pp_run_revisions(s, b->id, req, n, res, st, each);
	for (size_t k = 0; k < n; k++)
		turn_s = st[k].wall_s > turn_s ? st[k].wall_s : turn_s;
	/* each run is recorded, one that failed last; the first error is the batch's */
	for (int failed = 0; failed < 2; failed++)
		for (size_t k = 0; k < n; k++) {
			int rerr;

			if (!each[k] != !failed)
				continue;
			rerr =
			    record_run(s, b, &req[k], each[k], &res[k], &st[k], turn_s / (double)n,
				       n > 1 ? (int)k : -1, qs, nq, slot_of[req[k].rev]);
			if (rerr && !err)
				err = rerr;
		}
	for (size_t k = 0; k < n; k++)
		pp_results_free(&res[k]);
	return err;
}

int pp_measure(struct pp_session *s, struct pp_quantity **given, size_t ngiven, int runs, int layer)
{
	size_t total = 2 * (size_t)(s->opt->warmups + runs), nq = ngiven, nt = 0;
	struct pp_quantity **qs = NULL, **ts = NULL;
	int *slot_of[2] = {NULL, NULL}, *layout = NULL;
	enum pp_rev_id *order = NULL;
	unsigned next[2] = {0, 0};
	size_t step = s->duet ? 2 : 1;
	struct pp_batch *b;
	enum pp_spent spent;
	int err = 0;

	if (!nq)
		return 0;
	/* --max-runs or --max-time spent: nothing more is measured; settle.c calls the
	 * comparisons undecided. */
	spent = pp_session_can_run(s, total, 0);
	if (spent) {
		pr_dbg("%s spent (%zu runs used): %zu quantities not measured",
		       pp_spent_option(spent, given[0]->kind), s->runs_used, nq);
		return 0;
	}
	/* the layouts the schedule's units of these runs need (ahead.c) */
	if ((err = pp_layouts_ahead(s, runs)))
		goto out;
	qs = calloc(nq, sizeof(*qs));
	if (!qs) {
		err = -ENOMEM;
		goto out;
	}
	ts = calloc(nq, sizeof(*ts));
	if (!ts) {
		err = -ENOMEM;
		goto out;
	}
	/* a target is measured as its call: its values are the call's runs' */
	nq = 0;
	for (size_t i = 0; i < ngiven; i++) {
		struct pp_quantity *q = given[i];
		size_t j;

		if (q->kind == PP_Q_TARGET) {
			ts[nt++] = q;
			q = q->of;
		}
		for (j = 0; j < nq && qs[j] != q; j++)
			;
		if (j == nq)
			qs[nq++] = q;
	}
	if (with_terms(&qs, &nq)) {
		err = -ENOMEM;
		goto out;
	}
	slot_of[0] = calloc(nq, sizeof(int));
	slot_of[1] = calloc(nq, sizeof(int));
	order = calloc(total, sizeof(*order));
	layout = calloc(total, sizeof(*layout));
	if (!slot_of[0] || !slot_of[1] || !order || !layout) {
		err = -ENOMEM;
		goto out;
	}
	b = new_batch(s, qs, nq, slot_of, layer);
	for (size_t i = 0; b && i < nt; i++)
		ts[i]->batch = b->id;
	/* Warm-ups alternate, measured runs in a random order and layouts (schedule.h). */
	if (!b || pp_schedule(s, s->opt->warmups, runs, order, layout)) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * Round by round (a pair, or two warm-ups): in a duet the two runs at
	 * once.  A round a competing load spoiled is measured again.
	 */
	for (size_t turn = 0; turn < total && !err;) {
		size_t first = s->nruns;

		progress(s, b->id, turn, total);
		for (size_t k = 0; k < 2 && !err; k += step)
			err = run_turn(s, b, order, layout, turn + k, step, next, qs, nq, slot_of);
		if (err)
			break;
		err = finish_round(s, first, qs, nq, ts, nt);
		if (err > 0) { /* spoiled: the same round again, unless the load stops it */
			err = 0;
			if (s->load_spent || pp_session_can_run(s, 2, 0))
				break;
			continue;
		}
		turn += 2;
	}
	progress(s, b->id, total, total);
out:
	if (err == -EINTR)
		s->interrupted = true;
	if (err && err != -EINTR && err != -ENOMEM)
		err = -EIO;
	if (err == -ENOMEM)
		pp_session_fail(s, "out of memory");
	free(order);
	free(layout);
	free(qs);
	free(ts);
	free(slot_of[0]);
	free(slot_of[1]);
	return err;
}
