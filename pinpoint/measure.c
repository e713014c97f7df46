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
 * entry's count.  No run picks its own rule.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arming.h"
#include "core/results.h"
#include "core/util.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"
#include "pinpoint/protocol.h"
#include "pinpoint/run.h"
#include "pinpoint/schedule.h"

/* The arming variable of one revision for a batch; slot 0 is always the entry. */
static char *arming_string(struct pp_session *s, enum pp_rev_id r, const char *out,
			   struct pp_quantity **qs, size_t nq, int *slot_of)
{
	const struct pp_program *prog = &s->rev[r].prog;
	const struct pp_prog_fn *entry = s->rev[r].entry;
	size_t len = 0, cap = 256;
	char *buf = malloc(cap), *out_arg = pp_arming_escape(out);
	int nslots = 1;

#define APPEND(...)                                                                                \
	do {                                                                                       \
		int need = snprintf(NULL, 0, __VA_ARGS__);                                         \
		if (len + need + 1 > cap) {                                                        \
			char *nb;                                                                  \
			cap = 2 * (len + need + 1);                                                \
			nb = realloc(buf, cap);                                                    \
			if (!nb)                                                                   \
				goto fail;                                                         \
			buf = nb;                                                                  \
		}                                                                                  \
		len += snprintf(buf + len, cap - len, __VA_ARGS__);                                \
	} while (0)

	if (!buf || !out_arg)
		goto fail;
	APPEND(PP_SPEC_KEY_OUT "=%s;" PP_SPEC_KEY_ENTRY "=%s;" PP_SPEC_KEY_SAMPLES "=%llu", out_arg,
	       s->rev[r].entry_spec, s->entry_skip);
	if (s->entry_stop)
		APPEND(";" PP_SPEC_KEY_STOP "=%llu", s->entry_stop);
	if (s->opt->timing_all)
		APPEND(";" PP_SPEC_KEY_TIMING "=" PP_SPEC_TIMING_ALL);
	for (size_t i = 0; i < nq; i++) {
		struct pp_quantity *q = qs[i];
		char *spec;

		if (q->kind == PP_Q_ENTRY || (q->kind == PP_Q_SELF && q->fn[r] == entry)) {
			slot_of[i] = 0;
			continue;
		}
		if (q->absent[r]) { /* a call this revision does not make: 0 */
			slot_of[i] = -1;
			continue;
		}
		spec = pp_arming_fn(prog, q->fn[r]);
		if (!spec)
			goto fail;
		if (q->kind == PP_Q_RANGE)
			APPEND(";" PP_SPEC_KEY_RANGE "=%s:%u-%u", spec,
			       r == PP_PREV ? q->prev_first : q->first,
			       r == PP_PREV ? q->prev_last : q->last);
		else
			APPEND(";" PP_SPEC_KEY_FN "=%s", spec);
		free(spec);
		slot_of[i] = nslots++;
	}
	free(out_arg);
	return buf;
fail:
	free(out_arg);
	free(buf);
	return NULL;
#undef APPEND
}

/*
 * The entry's value in one run: total over count without the first
 * s->entry_skip executions (their durations are the runtime's first
 * samples).  Returns 0, or -EIO after recording why the run cannot give it.
 */
static int entry_value(struct pp_session *s, enum pp_rev_id r, unsigned batch, unsigned index,
		       const struct pp_results *res, const struct pp_slot_result *e, double *v)
{
	unsigned long long k = s->entry_skip;
	double skipped = 0;

	if (!k) {
		*v = (double)e->total_ns / (double)e->count;
		return 0;
	}
	if (e->count <= k || res->nsamples < k) {
		pp_session_fail(s,
				"%s revision, comparison %u, run %u: the entry ran %llu times (%zu "
				"kept), not more than the %llu executions every run skips to its "
				"steady state",
				s->rev[r].label, batch, index + 1, (unsigned long long)e->count,
				res->nsamples, k);
		return -EIO;
	}
	for (unsigned long long i = 0; i < k; i++)
		skipped += (double)res->samples[i];
	*v = ((double)e->total_ns - skipped) / (double)(e->count - k);
	return 0;
}

static void progress(struct pp_session *s, unsigned batch, size_t done, size_t total)
{
	if (s->opt->quiet || !isatty(2))
		return;
	if (done == total)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\r\033[Kpinpoint: comparison batch %u: run %zu of %zu, %.0f s",
			batch, done + 1, total, pp_now() - s->started);
	fflush(stderr);
}

int pp_measure(struct pp_session *s, struct pp_quantity **qs, size_t nq, int runs, bool again)
{
	struct pp_quantity **todo = NULL;
	struct pp_batch *b;
	int *slot_of[2] = {NULL, NULL};
	enum pp_rev_id *order = NULL;
	unsigned next[2] = {0, 0};
	char out[4096];
	size_t n = 0, total;
	int err = 0;

	todo = calloc(nq ? nq : 1, sizeof(*todo));
	slot_of[0] = calloc(nq ? nq : 1, sizeof(int));
	slot_of[1] = calloc(nq ? nq : 1, sizeof(int));
	if (!todo || !slot_of[0] || !slot_of[1]) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nq; i++)
		if (again || !qs[i]->batch)
			todo[n++] = qs[i];
	if (!n)
		goto out;
	/* --max-runs or --max-time spent: nothing more is measured; settle.c calls the
	 * comparisons undecided. */
	if (pp_session_can_run(s, 2 * (size_t)(s->opt->warmups + runs))) {
		pr_dbg("%s spent (%zu runs used): %zu quantities not measured",
		       pp_spent_option(pp_session_can_run(s, 2 * (size_t)(s->opt->warmups + runs))),
		       s->runs_used, n);
		goto out;
	}

	b = realloc(s->batches, (s->nbatches + 1) * sizeof(*b));
	if (!b) {
		err = -ENOMEM;
		goto out;
	}
	s->batches = b;
	b = &s->batches[s->nbatches++];
	memset(b, 0, sizeof(*b));
	b->id = (unsigned)s->nbatches;
	b->nq = n;
	b->qids = calloc(n, sizeof(*b->qids));
	if (!b->qids) {
		err = -ENOMEM;
		goto out;
	}
	pp_session_results_path(s, out, sizeof(out));
	for (int r = 0; r < 2; r++) {
		b->arming[r] = arming_string(s, r, out, todo, n, slot_of[r]);
		if (!b->arming[r]) {
			err = -ENOMEM;
			goto out;
		}
		pr_dbg("batch %u %s: PINPOINT='%s'", b->id, s->rev[r].label, b->arming[r]);
	}
	for (size_t i = 0; i < n; i++) {
		b->qids[i] = todo[i]->id;
		todo[i]->batch = b->id;
	}

	total = 2 * (size_t)(s->opt->warmups + runs);
	/* Warm-ups alternate, measured runs in a random order (schedule.h). */
	order = calloc(total, sizeof(*order));
	if (!order || pp_schedule(s, s->opt->warmups, runs, order)) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t turn = 0; turn < total; turn++) {
		enum pp_rev_id r = order[turn];
		unsigned i = next[r]++;
		struct pp_results res;
		struct pp_run_record *rec;
		const struct pp_slot_result *e;
		struct pp_run_status st;

		progress(s, b->id, turn, total);
		memset(&res, 0, sizeof(res));
		err = pp_run_revision(s, r, b->arming[r], b->id, i, &res, &st);
		s->runs_used++;
		rec = pp_session_add_run(s);
		if (!rec) {
			pp_results_free(&res);
			err = -ENOMEM;
			goto out;
		}
		rec->batch = b->id;
		rec->rev = r;
		rec->index = i;
		rec->warmup = i < (unsigned)s->opt->warmups;
		rec->st = st;
		if (err)
			goto out;
		e = res.nslots ? &res.slots[0] : NULL;
		if (!e || e->kind != PP_SLOT_ENTRY || !e->count) {
			pp_session_fail(s,
					"%s revision, comparison %u, run %u: the entry %s was "
					"never called",
					s->rev[r].label, b->id, i + 1, s->rev[r].entry->name);
			pp_results_free(&res);
			err = -EIO;
			goto out;
		}
		rec->entry_count = e->count;
		for (size_t k = 0; k < res.nslots; k++)
			rec->lost += res.slots[k].lost;
		pr_dbg("batch %u, %s run %u%s: %.3f s, entry executed %llu times", b->id,
		       s->rev[r].label, i + 1, rec->warmup ? " (warm-up)" : "", st.wall_s,
		       (unsigned long long)e->count);
		rec->nvalues = n;
		rec->values = calloc(n, sizeof(double));
		if (!rec->values) {
			pp_results_free(&res);
			err = -ENOMEM;
			goto out;
		}
		for (size_t j = 0; j < n; j++) {
			struct pp_quantity *q = todo[j];
			int slot = slot_of[r][j];
			const struct pp_slot_result *sl;
			double v = 0;

			if (slot < 0)
				goto push;
			if ((size_t)slot >= res.nslots) {
				pp_session_fail(s,
						"%s revision: the runtime measured %zu slots, "
						"%d expected",
						s->rev[r].label, res.nslots, slot + 1);
				pp_results_free(&res);
				err = -EIO;
				goto out;
			}
			sl = &res.slots[slot];
			if (q->kind == PP_Q_ENTRY) {
				if (entry_value(s, r, b->id, i, &res, e, &v)) {
					pp_results_free(&res);
					err = -EIO;
					goto out;
				}
			} else if (q->kind == PP_Q_RANGE)
				v = (double)sl->total_ns / (double)e->count;
			else
				v = ((double)sl->total_ns - (double)sl->calls_ns) /
				    (double)e->count;
		push:
			rec->values[j] = v;
			if (!rec->warmup && pp_series_push(&q->series[r], v)) {
				pp_results_free(&res);
				err = -ENOMEM;
				goto out;
			}
		}
		pp_results_free(&res);
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
	free(todo);
	free(slot_of[0]);
	free(slot_of[1]);
	return err;
}
