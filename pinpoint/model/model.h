/* SPDX-License-Identifier: MIT */
/*
 * model.h - a program model: a call tree with each function's own time and
 * each call's count in both revisions, the noise of a run, a warm-up, duet
 * sides that differ, indirect calls and their targets (doc/model.md).  As
 * a session's backend (measure/backend.h) it gives the tables the pass
 * would have embedded and, for any arming, the results the runtime would
 * have written, drawn from a seeded generator: a whole session through the
 * real discover, search, decide and report stages, in milliseconds, the
 * same every time for one seed.
 */
#ifndef PINPOINT_MODEL_H
#define PINPOINT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "pinpoint/measure/backend.h"

/* One target of an indirect call: its callee and its share of the call's executions. */
struct pp_model_target {
	int fn; /* index in the model's functions */
	double share[2];
};

struct pp_model_call {
	int fn;		 /* the callee, -1: an indirect call (targets) */
	bool in[2];	 /* made in each revision */
	double count[2]; /* executions per execution of its caller */
	unsigned line, col;
	size_t ntargets;
	struct pp_model_target *targets;
};

struct pp_model_fn {
	char *name, *file;
	unsigned line;
	bool in[2];	   /* in each revision's table */
	bool external;	   /* not in any table: a library's */
	double self_ns[2]; /* its own time per execution */
	/* what timing it (a slot of its own, or a range over a call of it) adds to
	 * each execution beyond what the runtime's removal takes out */
	double armed_ns[2];
	/* what the runtime takes out of a timed execution of it as its probes'
	 * cost (the results' probes_ns), which the net times do not hold */
	double probe_ns[2];
	size_t ncalls;
	struct pp_model_call *calls;
};

struct pp_model {
	char *path;
	size_t nfns;
	struct pp_model_fn *fns;
	int entry;
	unsigned long long executions; /* the entry's, per run */
	double noise;		       /* sd of the log of a run's factor on every time */
	double jitter;		       /* sd of the log of a function's own time, per run */
	bool duet;		       /* pairs of runs at once, one on each side */
	double asymmetry;	       /* the second side's runs slower by this fraction */
	/* a competing load: this share of the runs (of load_rev's, -1: of both)
	 * waits for its CPU, its times load_factor longer; */
	double load, load_factor;
	int load_rev;
	bool load_seen;		   /* false: the waits are not known (no schedstats) */
	unsigned long long warmup; /* the first executions of a run ... */
	double warmup_factor;	   /* ... take this many times as long */
	double layout_sd;	   /* sd of the log of a function's time in a code layout */
	/* the correlation of a function's log factors in layout k of both
	 * revisions (one seed for both: common random numbers); 0: apart */
	double layout_shared;
	unsigned long seed;
	/* derived: functions callees first, the generator */
	int *order;
	gsl_rng *rng;
	/*
	 * Each revision's code layouts: a function's factor in the build as
	 * it is (row 0) and in layout k (row k + 1), PP_MAX_LAYOUTS + 1 rows
	 * of nfns, drawn when the model is attached.
	 */
	double *lay[2];
};

/*
 * Read the model in @path.  0, or -EINVAL after printing one line that
 * names the file and what is wrong, -ENOMEM.  pp_model_free() frees it.
 */
int pp_model_load(struct pp_model *m, const char *path);
void pp_model_free(struct pp_model *m);

/*
 * The tables of revision @r, encoded as one section of the pass's format
 * (abi.h), added to @prog by the binaries' reader.  0, or -EINVAL after
 * one line naming the model.
 */
int pp_model_tables(const struct pp_model *m, int r, struct pp_program *prog);

/*
 * Run @m as @s's backend: its runs and tables from the model, the seed
 * --seed's when given, else the model's.  0 or -ENOMEM.
 */
int pp_model_attach(struct pp_session *s, struct pp_model *m);

extern const struct pp_backend pp_backend_model;

#endif /* PINPOINT_MODEL_H */
