/* SPDX-License-Identifier: MIT */
/*
 * results.h - parse the file the runtime writes at exit (doc/formats.md, 3).
 */
#ifndef PINPOINT_RESULTS_H
#define PINPOINT_RESULTS_H

#include <stddef.h>
#include <stdint.h>

enum pp_slot_kind { PP_SLOT_ENTRY, PP_SLOT_FN, PP_SLOT_RANGE, PP_SLOT_WHOLE };

/* Where an indirect call went (doc/formats.md, 3: the target record). */
enum pp_target_kind {
	PP_TGT_FN,    /* an instrumented function: name and file its record's */
	PP_TGT_SYM,   /* in an instrumented module, without a record: its symbol */
	PP_TGT_EXT,   /* outside every instrumented module */
	PP_TGT_OTHER, /* the targets past those the runtime kept apart */
};

struct pp_target_result {
	enum pp_target_kind kind;
	uint64_t addr;
	char *name;   /* decoded; NULL when not given */
	char *file;   /* PP_TGT_FN: the function's file; else NULL */
	char *module; /* the module that maps it, when known; else NULL */
	uint64_t count, total_ns, probes_ns, lost, timed;
};

struct pp_slot_result {
	unsigned index;
	enum pp_slot_kind kind;
	char *spec;	   /* as given in the PINPOINT variable */
	unsigned found;	   /* functions that matched the spec */
	uint64_t total_ns; /* without the armed probes' cost, unless probes=keep */
	uint64_t count;
	uint64_t calls_ns;	  /* fn slots only: time of all its calls */
	int has_calls;		  /* calls_ns was given (fn slots) */
	uint64_t probes_ns;	  /* the probes' cost, taken out of total_ns */
	uint64_t calls_probes_ns; /* ... and out of calls_ns */
	uint64_t lost;		  /* executions abandoned without their exit probe */
	uint64_t timed;		  /* executions timed: count, or fewer when sampled and
				   * total_ns (and calls_ns) are estimates */
	size_t ntargets;	  /* a range of one indirect call: where it went */
	struct pp_target_result *targets;
};

struct pp_results {
	int version;
	long pid;
	char *clock; /* "tsc" or "monotonic" */
	double ticks_per_ns;
	/* "overhead": what an armed probe execution costs, without and with a
	 * clock read, and what a timed execution's own probes add to it, in
	 * ns; has_overhead 0 when the record is absent */
	int has_overhead;
	double plain_ns, clock_ns, bias_ns;
	uint64_t skipped; /* "skipped K": the slots leave out the entry's first K */
	/* "delayed COUNT NS": delay= slowed COUNT executions down by NS ns each,
	 * those that waited (one in delay_every=K per thread; doc/formats.md,
	 * 2); delay_ns 0 when the record is absent */
	uint64_t delayed_count;
	uint64_t delay_ns;
	size_t nmodules;
	char **modules;
	size_t nslots;
	struct pp_slot_result *slots;
	size_t nsamples;
	uint64_t *samples; /* entry's per-execution durations, ns */
	uint64_t dropped;
	int complete; /* the "end" line was seen */
};

/* The name pinpoint gives target kind @k in the results ("fn", "sym", ...). */
const char *pp_target_kind_name(enum pp_target_kind k);

/*
 * Parse results text.  Returns 0, -EPROTO for another format version,
 * -EBADMSG for malformed or truncated input (the error line number is stored
 * in *errline when not NULL), -ENOMEM.  Never crashes on any input.
 *
 * Strict: fields are separated by single spaces, numbers are plain decimals
 * in range, records that may appear once (pid, clock, samples) do, slots are
 * numbered 0, 1, ... in order, a target record follows its slot's record
 * with a known kind and well-encoded names, nothing follows "end".  Lenient where newer
 * writers may add things: unknown key=value pairs of a slot and unknown
 * records (a line starting with a lower-case word) are ignored; pid, clock,
 * overhead, skipped, delayed and a slot's keys are optional (0 or NULL when
 * absent).
 *
 * A text without the final "end" line (a run killed while writing, or a
 * truncated file) is -EBADMSG with *errline one past its last line: treat it
 * as a failed run.  On 0, complete is 1.  On any error @res holds what was
 * parsed before the error (complete 0); call pp_results_free() in all cases.
 */
int pp_results_parse(struct pp_results *res, const char *text, size_t len, int *errline);
/* Read and parse @path; also -errno from reading it (-EFBIG above 256 MiB). */
int pp_results_read(struct pp_results *res, const char *path, int *errline);
void pp_results_free(struct pp_results *res);

/*
 * Results files beside @out named "<out>.<pid>": a runtime writes there when
 * <out> exists already, i.e. when more than one instrumented process claimed
 * the same arming in one run (doc/semantics.md).  Stores up to @max of their
 * pids in @pids (may be NULL), deletes them when @remove (and the temporary
 * files "<out>.tmp.<pid>" a killed writer left), and returns how many there
 * were, or -errno.
 */
int pp_results_others(const char *out, long *pids, size_t max, int remove);

#endif /* PINPOINT_RESULTS_H */
