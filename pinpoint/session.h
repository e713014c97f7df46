/* SPDX-License-Identifier: MIT */
/*
 * session.h - the state of one pinpoint session: the two revisions, what was
 * measured, every comparison and the bottleneck chain.  The stages read and
 * extend it (discover -> plan -> measure -> decide); the report reads it.
 */
#ifndef PINPOINT_SESSION_H
#define PINPOINT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pinpoint/options.h"
#include "core/process.h"
#include "core/stats.h"
#include "core/table.h"

enum pp_rev_id { PP_PREV = 0, PP_CUR = 1 };

struct pp_revision {
	const char *label; /* "previous" or "current" */
	char *dir; /* absolute */
	struct pp_program prog;
	const struct pp_prog_fn *entry;
	char *entry_spec; /* how the entry is armed in this revision */
	uint64_t output_hash;
	bool output_differs_warned;
};

/* Something measured in both revisions, in ns per execution of the entry. */
enum pp_qkind {
	PP_Q_ENTRY, /* the entry function as a whole */
	PP_Q_RANGE, /* calls first..last of a function */
	PP_Q_SELF, /* a function's own body: its time minus its calls' */
};

struct pp_series {
	double *v;
	size_t n, cap;
};

/* UNDECIDED: the budget was spent before the interval could decide; never "same". */
enum pp_verdict { PP_V_SAME, PP_V_SLOWER, PP_V_FASTER, PP_V_UNDECIDED };

struct pp_quantity {
	unsigned id;
	enum pp_qkind kind;
	const struct pp_prog_fn *fn[2]; /* the function in each revision */
	unsigned first, last; /* PP_Q_RANGE */
	struct pp_series series[2]; /* per-run values, per revision */
	unsigned batch; /* measured in this batch (1-based), 0 = not yet */
	/* Filled by pp_decide(): */
	bool decided;
	int rounds; /* re-measurement rounds used */
	struct pp_summary sum[2];
	struct pp_comparison cmp;
	double threshold_ns;
	enum pp_verdict verdict;
	unsigned order; /* 1-based order of decision (pp_session_decided()), 0 = not decided */
};

/* One run of the benchmark. */
struct pp_run_record {
	unsigned batch;
	enum pp_rev_id rev;
	unsigned index; /* within the batch and revision, warm-ups included */
	bool warmup;
	struct pp_run_status st;
	uint64_t entry_count;
	uint64_t lost; /* executions of its slots abandoned without their exit probe */
	size_t nvalues;
	double *values; /* per quantity of the batch, in batch order */
};

struct pp_batch {
	unsigned id;
	size_t nq;
	unsigned *qids;
	char *arming[2];
};

/* A step of the bottleneck chain. */
enum pp_step_kind {
	PP_STEP_ENTRY, /* the entry as a whole */
	PP_STEP_CALL, /* a single call, dug into or named */
	PP_STEP_RANGE, /* a range of calls that is slower as a whole only */
	PP_STEP_SELF, /* the function's own body */
	PP_STEP_STRUCTURAL, /* the function's call list changed */
};

struct pp_chain_step {
	enum pp_step_kind kind;
	const struct pp_prog_fn *fn[2]; /* the function the step is in */
	unsigned first, last; /* calls */
	const struct pp_quantity *q; /* the comparison that shows it */
	const char *stop; /* why digging stopped here, or NULL */
	char *detail; /* structural change description */
};

struct pp_session {
	struct pp_options *opt;
	struct pp_revision rev[2];
	char *workdir;
	double timeout_s;
	size_t nq;
	struct pp_quantity **q;
	size_t nbatches;
	struct pp_batch *batches;
	size_t nruns;
	struct pp_run_record *runs;
	size_t nsteps;
	struct pp_chain_step *steps; /* entry first */
	int outcome; /* enum pp_exit */
	char *failure; /* what failed, when outcome is PP_EXIT_MEASUREMENT */
	bool interrupted;
	bool outputs_differ_warned; /* previous and current printed different output */
	double started, finished; /* monotonic clock, s */
	double started_wall; /* seconds since the epoch */
	volatile int *stop;
	unsigned ndecided; /* comparisons decided so far */
	/* Told of each comparison as it is decided (the live report line), or NULL. */
	void (*on_decided)(const struct pp_session *s, const struct pp_quantity *q);
};

/* The quantity (@kind, @fn in both revisions, calls @first..@last), made once. */
struct pp_quantity *pp_quantity_get(struct pp_session *s, enum pp_qkind kind,
				    const struct pp_prog_fn *const fn[2], unsigned first,
				    unsigned last);

/* A new, zeroed run record, or NULL when out of memory. */
struct pp_run_record *pp_session_add_run(struct pp_session *s);

/* Record what failed (kept: the first failure is the cause). */
void pp_session_fail(struct pp_session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* @q was decided: number it (q->order) and tell s->on_decided. */
void pp_session_decided(struct pp_session *s, struct pp_quantity *q);

/* Where the runtime writes its results during the session. */
void pp_session_results_path(const struct pp_session *s, char *buf, size_t len);

/* "slower", "faster", "same" or "undecided", as the JSON report spells verdicts. */
const char *pp_verdict_name(enum pp_verdict v);

void pp_session_free(struct pp_session *s);

#endif /* PINPOINT_SESSION_H */
