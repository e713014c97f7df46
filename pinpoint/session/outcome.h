/* SPDX-License-Identifier: MIT */
/*
 * outcome.h - what a session established, read-only: the verdict and exit
 * status, every comparison with its figures, the attribution tree with the
 * bottleneck chain, the further contributors and the improvements, how the
 * runs were made, the options as run and the platform.  pp_outcome_build()
 * makes it once, after the search; the text, JSON and HTML reports and
 * --history render it and compute nothing of their own that another writer
 * could compute differently.
 */
#ifndef PINPOINT_OUTCOME_H
#define PINPOINT_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/names.h"
#include "pinpoint/report/platform.h"
#include "pinpoint/report/report.h"
#include "pinpoint/session/session.h"

/* One comparison as its decision left it. */
struct pp_outcome_cmp {
	const struct pp_quantity *q; /* its values (series) and identity, read-only */
	char *label;		     /* "bridge: calls 0-1 (foo .. failure_run)", JSON's */
	char *shown;		     /* the same as text and HTML print it: short names */
	enum pp_verdict verdict;
	const char *verdict_name; /* as JSON spells it: "slower", "not-slower", ... */
	const char *verdict_word; /* as text prints it: "SLOWER", "not slower", ... */
	bool decided;
	unsigned order;		  /* 1-based order of decision, 0: not decided */
	struct pp_interval ci[2]; /* each revision's centre and interval */
	struct pp_comparison cmp; /* the difference, at the last look's level */
	struct pp_last_look look; /* what its last look saw */
	double threshold_ns;	  /* the threshold it was decided against */
	enum pp_spent truncated;  /* a session budget left it undecided */
	const char *left;	  /* why it was left open (PP_V_BOUNDED), or NULL */
	double share_of_entry;	  /* its difference over the entry's previous centre */
	size_t runs_per_revision; /* values per revision its last look saw */
	bool layout_sensitive;	  /* two layouts alone differ by 2 x layout_sd or more */
	double layout_sd, layout_floor;
};

/* Where an indirect call went, in the current revision's runs that timed it. */
struct pp_outcome_target {
	const char *key;   /* as the run records keep it (targets.h) */
	const char *name;  /* demangled whole (JSON's), "ext:strcmp", "other" */
	const char *shown; /* as text and HTML print it: a short name (names.h) */
	double share;	   /* of the call's time */
	double diff_share; /* of the call's difference (targets.h), NaN: none */
	/* its own comparison (pp_targets_compare()); compared false: none */
	bool compared;
	struct pp_interval diff;
	const char *verdict_name; /* as JSON spells verdicts: "slower", "same", ... */
};

/*
 * One call of a callee group, as its own comparison (measured in the same
 * runs as the group) saw it.
 */
struct pp_outcome_site {
	unsigned call; /* its index in the current revision's call list */
	const struct pp_prog_call *c;
	struct pp_interval diff; /* NaN: not decided */
	double share;		 /* of the group's difference (point estimates), NaN: none */
	int sign;		 /* +1 shown slower, -1 faster, 0 neither */
};

/* One node of the attribution tree, entry first (index 0). */
struct pp_outcome_node {
	const struct pp_node *n; /* its calls, functions and accounting, read-only */
	enum pp_node_kind kind;
	/* as text and HTML print them, with short names (core/names.h) */
	char *name;		 /* "failure_run", "own body of bridge", "added call audit" */
	char *where;		 /* "call 1 of bridge at demo.c:12:3", "demo.c:40", or "" */
	int parent, child, next; /* indices in the outcome's nodes; -1: none */
	unsigned depth;
	const struct pp_outcome_cmp *cmp; /* the comparison that shows it, or NULL */
	struct pp_interval diff;	  /* current - previous, ns per entry execution */
	double share;			  /* of its parent's difference */
	struct pp_interval share_ci;
	double entry_share; /* of the entry's: the shares along its path multiplied */
	/* its share is above 1: the rest of its parent, which got faster (else NaN) */
	struct pp_interval others;
	/* how far the probe cost left in its function could move it (NaN: not
	 * known), and whether that reaches half the threshold */
	double probe_unc;
	bool probe_uncertain;
	bool share_shown;    /* share_ci is an interval (else a point share, or none) */
	bool point;	     /* diff is a point estimate (a remainder without accounting) */
	bool zero;	     /* a remainder that is zero by construction: not printed */
	int sign;	     /* +1 shown slower, -1 shown faster, 0 neither */
	bool chain;	     /* on the bottleneck chain */
	unsigned rank;	     /* 1-based among the further contributors, 0: none */
	const char *stop;    /* why the search stopped here, or NULL */
	const char *detail;  /* what changed, or the calls inlined here, or NULL */
	bool whole_measured; /* a function measured with its parts: whole, runs */
	int tie;	     /* the runner-up the same runs do not tell it from, -1: none */
	/* An indirect call: the targets observed, largest share first, and the
	 * function dug into as its target (current revision), or NULL */
	size_t ntargets;
	struct pp_outcome_target *targets;
	const struct pp_prog_fn *into;
	/* A callee group: its calls, in call list order */
	size_t nsites;
	struct pp_outcome_site *sites;
};

struct pp_outcome {
	const struct pp_session *s; /* what was measured (runs, programs), read-only */
	const struct pp_options *opt;
	const char *dir[2]; /* each revision's directory, as measured */
	int status;	    /* the exit status (enum pp_exit), final */
	bool interrupted;
	const char *failure; /* what failed to measure, or NULL */
	/* The entry's comparison and verdict (NULL: not compared) */
	const struct pp_outcome_cmp *entry;
	enum pp_verdict verdict;
	bool decided;
	const char *verdict_name; /* "none" when the entry was not decided */
	/* Every function the text and HTML reports name, settled: the forms
	 * they print (short, with parameters only where two would read the same) */
	struct pp_names names;
	const char *entry_name; /* the entry function so named, or NULL (not compared) */
	size_t ncmp;
	struct pp_outcome_cmp *cmp; /* in the session's order of quantities */
	size_t nnodes;
	struct pp_outcome_node *nodes;
	size_t nchain;
	int *chain; /* node indices, the entry first, the bottleneck last */
	/* The call the chain ends at, for --history: the deepest chain node with a
	 * comparison of its own, or NULL */
	const struct pp_outcome_cmp *chain_call;
	size_t ncontrib;
	int *contrib; /* node indices by rank */
	size_t nimproved;
	int *improved; /* node indices shown faster, in tree order */
	bool tree;     /* an attribution tree to show (--search attrib, parts measured) */
	bool budget_cut;
	/* How much the runs varied and what they bought */
	double cov[2]; /* the entry's coefficient of variation per revision, NaN: none */
	unsigned ndecided, nundecided, nleft;
	unsigned long long lost; /* executions abandoned without their exit probe */
	size_t lost_runs;
	struct pp_time_use time;
	char runs_sentence[256];
	char layouts_sentence[1024];
	bool layouts_varied;
	bool has_spread;
	char spread_sentence[512];
	struct pp_platform platform;
};

/*
 * Make @o from the finished session @s: every figure and list the writers
 * print, and the exit status: @failed's when the pipeline failed (usage,
 * measurement, interrupted; 0: it did not), else the entry's verdict's.
 * Returns 0 or -ENOMEM (then @o holds nothing to free).
 */
int pp_outcome_build(struct pp_outcome *o, const struct pp_session *s, int failed);

/* A view of @q as decided so far (the live line of each decided comparison),
 * its shown label naming functions as @nm does (NULL: whole);
 * pp_outcome_cmp_clear() frees it.  0 or -ENOMEM. */
int pp_outcome_cmp_make(const struct pp_session *s, const struct pp_quantity *q,
			struct pp_outcome_cmp *c, struct pp_names *nm);
void pp_outcome_cmp_clear(struct pp_outcome_cmp *c);

/* An exit status as the JSON report names it: "regression", "undecided", ... */
const char *pp_status_name(int status);

/* The comparison view of @q in @o, or NULL. */
const struct pp_outcome_cmp *pp_outcome_cmp_of(const struct pp_outcome *o,
					       const struct pp_quantity *q);

void pp_outcome_free(struct pp_outcome *o);

#endif /* PINPOINT_OUTCOME_H */
