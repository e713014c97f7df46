/* SPDX-License-Identifier: MIT */
/*
 * measure.h - the measure stage: the arming variable of a run and the value
 * each quantity gets from the run's results, both by one rule for the whole
 * session (doc/semantics.md), and a round of runs of both revisions.
 */
#ifndef PINPOINT_MEASURE_H
#define PINPOINT_MEASURE_H

#include "core/results.h"
#include "pinpoint/protocol.h"
#include "pinpoint/session/session.h"

/* Slots measured in one run (the runtime's limit is larger). */
#define PP_BATCH_MAX_SLOTS (PP_MAX_SLOTS * 3 / 4)

/* slot_of[] of a quantity derived from others in the same run (session.h, terms). */
#define PP_SLOT_DERIVED (-2)

/* How a run arms the entry (slot 0) besides the quantities. */
struct pp_arm_how {
	const char *entry; /* the entry's [FILE:]NAME, encoded; NULL: the revision's entry_spec */
	unsigned samples;  /* entry durations the runtime keeps (samples=) */
	bool session_rule; /* the session's stop= and timing= (not for discovery) */
};

/*
 * The PINPOINT variable of revision @r for a run measuring @qs[0..@nq) with
 * results written to @out: slot 0 is the entry, then one slot a quantity
 * (the entry's quantity and its whole time share slot 0; a function's whole
 * and its own body share one; a call the revision does not make has none,
 * a derived quantity none); @slot_of[i] gets @qs[i]'s slot, -1 for none,
 * PP_SLOT_DERIVED for a derived one.  NULL when out of memory.
 */
char *pp_arming(const struct pp_session *s, enum pp_rev_id r, const char *out,
		const struct pp_arm_how *how, struct pp_quantity *const *qs, size_t nq,
		int *slot_of);

/*
 * The value of @q in run @res of revision @r, measured in slot @slot (-1:
 * none, the value is 0), in ns per execution of the entry, and in *@removed
 * the cost of the probes the runtime took out of it (the same unit).  Returns 0, or
 * -EIO after recording why the run cannot give it (@what names the run).
 */
int pp_run_value(struct pp_session *s, enum pp_rev_id r, const char *what,
		 const struct pp_results *res, const struct pp_quantity *q, int slot, double *v,
		 double *removed);

/*
 * One round: measure @qs[0..@nq) (and the terms of the derived ones) in a
 * new batch of runs of @layer (pp_settle_how), --warmups discarded
 * then @runs kept per revision, in the order pp_schedule() draws; each run's
 * values are appended to q->series and recorded in s->runs.  Nothing is
 * measured when the round would take the session beyond --max-runs or
 * --max-time.  Returns 0, -EIO (s->failure says which run failed and how),
 * -EINTR, -ENOMEM.
 */
int pp_measure(struct pp_session *s, struct pp_quantity **qs, size_t nq, int runs, int layer);

#endif /* PINPOINT_MEASURE_H */
