// SPDX-License-Identifier: MIT
/*
 * measure.c - the measure stage: arm the probes for a batch of quantities,
 * run both revisions in a random order (schedule.h) and turn the runtime's
 * results into one value per run, appended to each quantity's series.
 *
 * Every value is in ns per execution of the entry, by one rule for the whole
 * session (doc/semantics.md): the entry's own time is its total over its
 * count, without the first s->entry_skip executions of each run when the
 * discover stage found the entry's steady state to begin there (section
 * 2.3.3 of the method); a range's or a body's time is its total over the
 * entry's count.  No run picks its own rule; the discover stage's runs are
 * armed by the same code.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arming.h"
#include "core/util.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"
#include "pinpoint/run.h"
#include "pinpoint/schedule.h"

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
	return q->kind == PP_Q_ENTRY ||
	       ((q->kind == PP_Q_SELF || q->kind == PP_Q_TOTAL) && q->fn[r] == s->rev[r].entry);
}

/* The slot of an earlier fn item of @qs[0..@i) on the same function, or -1. */
static int fn_slot(struct pp_quantity *const *qs, size_t i, const int *slot_of, enum pp_rev_id r)
{
	for (size_t j = 0; j < i; j++)
		if ((qs[j]->kind == PP_Q_SELF || qs[j]->kind == PP_Q_TOTAL) &&
		    (qs[i]->kind == PP_Q_SELF || qs[i]->kind == PP_Q_TOTAL) &&
		    qs[j]->fn[r] == qs[i]->fn[r])
			return slot_of[j];
	return -1;
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
	if (how->session_rule && s->entry_stop)
		put(&b, ";" PP_SPEC_KEY_STOP "=%llu", s->entry_stop);
	if (how->session_rule && s->opt->timing_all)
		put(&b, ";" PP_SPEC_KEY_TIMING "=" PP_SPEC_TIMING_ALL);
	for (size_t i = 0; i < nq; i++) {
		const struct pp_quantity *q = qs[i];
		char *spec;

		if (in_entry_slot(s, q, r)) {
			slot_of[i] = 0;
			continue;
		}
		if (q->absent[r]) { /* a call this revision does not make: 0 */
			slot_of[i] = -1;
			continue;
		}
		/* a function's own body and its whole time share one fn item */
		slot_of[i] = fn_slot(qs, i, slot_of, r);
		if (slot_of[i] >= 0)
			continue;
		spec = pp_arming_fn(prog, q->fn[r]);
		if (!spec) {
			b.oom = true;
			break;
		}
		if (q->kind == PP_Q_RANGE)
			put(&b, ";" PP_SPEC_KEY_RANGE "=%s:%u-%u", spec,
			    r == PP_PREV ? q->prev_first : q->first,
			    r == PP_PREV ? q->prev_last : q->last);
		else
			put(&b, ";" PP_SPEC_KEY_FN "=%s", spec);
		free(spec);
		slot_of[i] = nslots++;
	}
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/*
 * The entry's value: total over count without the first s->entry_skip
 * executions (their durations are the runtime's first samples).
 */
static int entry_value(struct pp_session *s, enum pp_rev_id r, const char *what,
		       const struct pp_results *res, const struct pp_slot_result *e, double *v)
{
	unsigned long long k = s->entry_skip;
	double skipped = 0;

	if (e->count <= k || res->nsamples < k) {
		pp_session_fail(s,
				"%s revision, %s: the entry ran %llu times (%zu kept), not more "
				"than the %llu executions every run skips to its steady state",
				s->rev[r].label, what, (unsigned long long)e->count, res->nsamples,
				k);
		return -EIO;
	}
	for (unsigned long long i = 0; i < k; i++)
		skipped += (double)res->samples[i];
	*v = ((double)e->total_ns - skipped) / (double)(e->count - k);
	return 0;
}

int pp_run_value(struct pp_session *s, enum pp_rev_id r, const char *what,
		 const struct pp_results *res, const struct pp_quantity *q, int slot, double *v)
{
	const struct pp_slot_result *e = &res->slots[0], *sl;

	*v = 0;
	if (slot < 0)
		return 0;
	if ((size_t)slot >= res->nslots) {
		pp_session_fail(s, "%s revision, %s: the runtime measured %zu slots, %d expected",
				s->rev[r].label, what, res->nslots, slot + 1);
		return -EIO;
	}
	sl = &res->slots[slot];
	if (q->kind == PP_Q_ENTRY)
		return entry_value(s, r, what, res, e, v);
	if (q->kind == PP_Q_TOTAL && slot == 0)
		return entry_value(s, r, what, res, e, v);
	if (q->kind == PP_Q_RANGE || q->kind == PP_Q_TOTAL)
		*v = (double)sl->total_ns / (double)e->count;
	else
		*v = ((double)sl->total_ns - (double)sl->calls_ns) / (double)e->count;
	return 0;
}

static void progress(struct pp_session *s, unsigned batch, size_t done, size_t total)
{
	if (s->opt->quiet || !isatty(2))
		return;
	if (done == total)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\r\033[Kpinpoint: batch %u: run %zu of %zu, %.0f s", batch,
			done + 1, total, pp_now() - s->started);
	fflush(stderr);
}

/* A new batch of @qs, armed for both revisions; NULL when out of memory. */
static struct pp_batch *new_batch(struct pp_session *s, struct pp_quantity **qs, size_t n,
				  int *slot_of[2])
{
	static const struct pp_arm_how how = {.samples = 0, .session_rule = true};
	struct pp_arm_how h = how;
	struct pp_batch *b = realloc(s->batches, (s->nbatches + 1) * sizeof(*b));
	char out[4096];

	if (!b)
		return NULL;
	s->batches = b;
	b = &s->batches[s->nbatches++];
	memset(b, 0, sizeof(*b));
	b->id = (unsigned)s->nbatches;
	b->layer = s->layer;
	b->nq = n;
	b->qids = calloc(n, sizeof(*b->qids));
	if (!b->qids)
		return NULL;
	h.samples = (unsigned)s->entry_skip;
	pp_session_results_path(s, out, sizeof(out));
	for (int r = 0; r < 2; r++) {
		b->arming[r] = pp_arming(s, r, out, &h, qs, n, slot_of[r]);
		if (!b->arming[r])
			return NULL;
		pr_dbg("batch %u %s: PINPOINT='%s'", b->id, s->rev[r].label, b->arming[r]);
	}
	for (size_t i = 0; i < n; i++) {
		b->qids[i] = qs[i]->id;
		qs[i]->batch = b->id;
	}
	return b;
}

/*
 * Run @i of revision @r in batch @b, in layout @layout; its values go to the
 * run record and the series.
 */
static int one_run(struct pp_session *s, const struct pp_batch *b, enum pp_rev_id r, unsigned i,
		   int layout, struct pp_quantity **qs, size_t n, const int *slot_of)
{
	struct pp_run_setup setup;
	struct pp_results res;
	struct pp_run_record *rec;
	struct pp_run_status st;
	char what[64];
	int err;

	memset(&res, 0, sizeof(res));
	snprintf(what, sizeof(what), "batch %u, run %u", b->id, i + 1);
	if (pp_schedule_setup(s, layout, &setup))
		return -ENOMEM;
	err = pp_run_revision(s, r, b->arming[r], b->id, i, &setup, &res, &st);
	s->runs_used++;
	rec = pp_session_add_run(s);
	if (!rec) {
		err = -ENOMEM;
		goto out;
	}
	rec->batch = b->id;
	rec->rev = r;
	rec->index = i;
	rec->warmup = i < (unsigned)s->opt->warmups;
	rec->setup = setup;
	rec->st = st;
	if (err)
		goto out;
	if (!res.nslots || res.slots[0].kind != PP_SLOT_ENTRY || !res.slots[0].count) {
		pp_session_fail(s, "%s revision, %s: the entry %s was never called",
				s->rev[r].label, what, s->rev[r].entry->name);
		err = -EIO;
		goto out;
	}
	rec->entry_count = res.slots[0].count;
	for (size_t k = 0; k < res.nslots; k++)
		rec->lost += res.slots[k].lost;
	pr_dbg("%s, %s%s: %.3f s, entry executed %llu times", what, s->rev[r].label,
	       rec->warmup ? " (warm-up)" : "", st.wall_s, (unsigned long long)res.slots[0].count);
	rec->nvalues = n;
	rec->values = calloc(n ? n : 1, sizeof(double));
	if (!rec->values) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t j = 0; j < n && !err; j++) {
		err = pp_run_value(s, r, what, &res, qs[j], slot_of[j], &rec->values[j]);
		if (!err && !rec->warmup && pp_series_push(&qs[j]->series[r], rec->values[j]))
			err = -ENOMEM;
	}
out:
	pp_results_free(&res);
	return err;
}

int pp_measure(struct pp_session *s, struct pp_quantity **qs, size_t nq, int runs)
{
	size_t total = 2 * (size_t)(s->opt->warmups + runs);
	int *slot_of[2] = {NULL, NULL}, *layout = NULL;
	enum pp_rev_id *order = NULL;
	unsigned next[2] = {0, 0};
	struct pp_batch *b;
	enum pp_spent why;
	int err = 0;

	if (!nq)
		return 0;
	/* --max-runs or --max-time spent: nothing more is measured; settle.c calls the
	 * comparisons undecided. */
	why = pp_session_can_run(s, total);
	if (why) {
		pr_dbg("%s spent (%zu runs used): %zu quantities not measured",
		       pp_spent_option(why), s->runs_used, nq);
		return 0;
	}
	slot_of[0] = calloc(nq, sizeof(int));
	slot_of[1] = calloc(nq, sizeof(int));
	order = calloc(total, sizeof(*order));
	layout = calloc(total, sizeof(*layout));
	if (!slot_of[0] || !slot_of[1] || !order || !layout) {
		err = -ENOMEM;
		goto out;
	}
	b = new_batch(s, qs, nq, slot_of);
	/* Warm-ups alternate, measured runs in a random order and layouts (schedule.h). */
	if (!b || pp_schedule(s, s->opt->warmups, runs, order, layout)) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t turn = 0; turn < total && !err; turn++) {
		enum pp_rev_id r = order[turn];

		progress(s, b->id, turn, total);
		err = one_run(s, b, r, next[r]++, layout[turn], qs, nq, slot_of[r]);
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
	free(slot_of[0]);
	free(slot_of[1]);
	return err;
}
