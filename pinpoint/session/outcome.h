/* SPDX-License-Identifier: MIT */
/*
 * outcome.h - what a session established, as plain data: the verdict and
 * exit status, every comparison with its identity, values and figures, the
 * attribution tree with the bottleneck chain, the further contributors and
 * the improvements, the runs and batches, the revisions and their code
 * layouts, the options as run, the measurement, the time and the platform.
 * pp_outcome_build() makes it once, after the search, and it holds no
 * pointer into the session: every string and array is its own (o->mem),
 * freed by pp_outcome_free().  The text, JSON and HTML reports and
 * --history format it (report/), and compute nothing of their own that
 * another writer could compute differently.
 */
#ifndef PINPOINT_OUTCOME_H
#define PINPOINT_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/names.h"
#include "core/stats.h"
#include "pinpoint/session/kinds.h"
#include "pinpoint/session/options.h"
#include "pinpoint/session/platform.h"

/* A function as the reports name it; name NULL: none. */
struct pp_outcome_fn {
	const char *name;      /* linkage name, as the table has it */
	const char *demangled; /* demangled whole */
	const char *file;
	unsigned line;
};

/* A call of a function's list: its index there, its callee and place. */
struct pp_outcome_call {
	unsigned index;
	const char *callee, *callee_demangled;
	const char *file;
	unsigned line, col;
};

/* One revision's values of a comparison, in run order, with each run's code layout. */
struct pp_outcome_series {
	size_t n;
	const double *v;
	const unsigned *layout;
};

/* A revision's values as a box plot: quartiles (type 7), whiskers' ends at 1.5 IQR; NaN: none. */
struct pp_outcome_box {
	double q1, median, q3;
	double low, high; /* values outside are drawn one by one */
	size_t n;
	const double *sorted; /* the values in increasing order */
};

/* One comparison as its decision left it. */
struct pp_outcome_cmp {
	/* What it compares */
	unsigned id; /* its index in the outcome's comparisons */
	enum pp_qkind kind;
	struct pp_outcome_fn fn; /* the function, current revision */
	unsigned first, last;	 /* PP_Q_RANGE, PP_Q_GROUP: calls of the current revision */
	const char *callee;	 /* PP_Q_GROUP: the callee of its calls */
	size_t nterms;		 /* PP_Q_GROUP: how many calls */
	const char *label;	 /* "bridge: calls 0-1 (foo .. failure_run)", JSON's */
	const char *shown;	 /* the same as text and HTML print it: short names */
	/* Its values and how they were measured */
	unsigned batch; /* the batch that first measured it (1-based), 0: none */
	int rounds;
	struct pp_outcome_series series[2];
	struct pp_outcome_box box[2];
	/* Its decision */
	enum pp_verdict verdict;
	const char *verdict_name; /* as JSON spells it: "slower", "not-slower", ... */
	const char *verdict_word; /* as text prints it: "SLOWER", "not slower", ... */
	bool decided;
	unsigned order;		  /* 1-based order of decision, 0: not decided */
	struct pp_summary sum[2]; /* each revision's values summed up */
	struct pp_interval ci[2]; /* each revision's centre and interval */
	struct pp_comparison cmp; /* the difference, at the last look's level */
	struct pp_last_look look; /* what its last look saw */
	double threshold_ns;	  /* the threshold it was decided against */
	enum pp_spent truncated;  /* a session budget left it undecided */
	const char *spent_option; /* the option that budget is: "--max-runs", ... */
	const char *left;	  /* why it was left open (PP_V_BOUNDED), or NULL */
	double share_of_entry;	  /* its difference over the entry's previous centre */
	size_t runs_per_revision; /* values per revision its last look saw */
	/* The code layouts' part (has_layout: its runs were in several) */
	bool has_layout;
	struct pp_layout_var layout[2];
	bool layout_sensitive; /* two layouts alone differ by 2 x layout_sd or more */
	double layout_sd, layout_floor;
	/* what a run on the duet's second CPU took more than on the first, taken
	 * out of its pairs at its last look (decide_cpu.c); NaN: nothing taken out */
	double cpu_term_ns;
	/* How often its calls ran (counts.c): executions per execution of the
	 * entry, each revision's median (NaN: not counted, a derived part) */
	double execs[2];
	bool execs_changed;
	/* its time per execution, current - previous (NaN: none), and whether
	 * that adds half the threshold or more at the current count */
	struct pp_interval per_exec;
	bool per_exec_changed;
	/* "more calls", "fewer calls", "slower calls", "faster calls" or
	 * "both" for a difference the comparison shows; NULL: none */
	const char *cause;
	/* "called 1.15x as often (100 → 115 per execution of render), each
	 * call the same", where the count changed; NULL otherwise */
	const char *counts_said;
};

/* Where an indirect call went, in the current revision's runs that timed it. */
struct pp_outcome_target {
	const char *key;   /* as the run records keep it (targets.h) */
	const char *name;  /* demangled whole (JSON's), "ext:strcmp", "other" */
	const char *shown; /* as text and HTML print it: a short name (names.h) */
	double share;	   /* of the call's time */
	double diff_share; /* of the call's difference (targets.h), NaN: none */
	/* its own comparison, as the search made it (targets.h); compared false:
	 * the search made none */
	bool compared;
	struct pp_interval diff;
	const char *verdict_name; /* as JSON spells verdicts: "slower", "same", ... */
	int comparison;		  /* that comparison's id, -1: none */
};

/*
 * One call of a callee group, as its own comparison (measured in the same
 * runs as the group) saw it.
 */
struct pp_outcome_site {
	unsigned call;	  /* its index in the current revision's call list */
	const char *file; /* its place */
	unsigned line, col;
	const char *where;	 /* "a.c:12:3", or "(no debug info)" */
	struct pp_interval diff; /* NaN: not decided */
	double share;		 /* of the group's difference (point estimates), NaN: none */
	int sign;		 /* +1 shown slower, -1 faster, 0 neither */
};

/* One node of the attribution tree, entry first (index 0). */
struct pp_outcome_node {
	enum pp_node_kind kind;
	/* as text and HTML print them, with short names (core/names.h) */
	const char *name;	 /* "failure_run", "own body of bridge", "added call audit" */
	const char *where;	 /* "call 1 of bridge at demo.c:12:3", "demo.c:40", or "" */
	int parent, child, next; /* indices in the outcome's nodes; -1: none */
	unsigned depth;
	/* What it names, as JSON has it: the function it is in (the revision
	 * that has its call), its call, what the call came through inlined,
	 * a group's callee, the function dug into through a pointer or a
	 * callback, and the function the contributors list names */
	struct pp_outcome_fn fn;
	bool has_call; /* a call or range: the fields below */
	unsigned first_call, last_call;
	struct pp_outcome_call call; /* the first call */
	const char *call_label;	     /* "(inlined SHA512_Pad) → SHA512_Transform" */
	size_t ninlined;
	const struct pp_outcome_call *inlined; /* the outermost first */
	const char *callee;		       /* PP_NODE_GROUP */
	struct pp_outcome_fn into;	       /* name NULL: none */
	const char *function;
	int comparison;			  /* its comparison's id, -1: none */
	const struct pp_outcome_cmp *cmp; /* the comparison that shows it, or NULL */
	struct pp_interval diff;	  /* current - previous, ns per entry execution */
	double level; /* the confidence of diff and share_ci: its verdict's (NaN: none) */
	double share; /* of its parent's difference */
	struct pp_interval share_ci;
	double entry_share; /* of the entry's: the shares along its path multiplied */
	/* its interval, the product of theirs, which holds at entry_share_level at
	 * least (1 - k (1 - confidence) for k steps); NaN: none */
	struct pp_interval entry_share_ci;
	double entry_share_level;
	/* its share is above 1: the rest of its parent, which got faster (else NaN) */
	struct pp_interval others;
	int whole_of; /* the node its difference is a part of (pp_node_whole()), -1: none */
	/* how far the probe cost left in its function could move it (NaN: not
	 * known), and whether that reaches half the threshold */
	double probe_unc;
	bool probe_uncertain;
	bool share_shown;   /* share_ci is an interval (else a point share, or none) */
	bool point;	    /* diff is a point estimate (a remainder without accounting) */
	bool zero;	    /* a remainder that is zero by construction: not printed */
	int sign;	    /* +1 shown slower, -1 shown faster, 0 neither */
	bool chain;	    /* on the bottleneck chain */
	bool alone;	    /* a call measured alone, under its function's own body */
	unsigned rank;	    /* 1-based among the further contributors, 0: none */
	const char *stop;   /* why the search stopped here, or NULL */
	const char *detail; /* what changed, or the calls inlined here, or NULL */
	int tie;	    /* the runner-up the same runs do not tell it from, -1: none */
	/* why its figure is more than it can cost (outcome_inflated.c), NULL: it is
	 * not; then entry_share is NaN, and so are those of the nodes under it */
	const char *inflated;
	/* where a what-if refuted it: the most it can explain, the entry's difference (else NaN) */
	struct pp_interval at_most;
	/*
	 * A function searched (account.c): its whole measured with its parts
	 * in runs[] runs per revision (whole_measured: 2 or more each), and
	 * the accounting's figures; as a part, its own (mean, part_removed).
	 */
	bool whole_measured;
	size_t runs[2];
	bool paired;
	struct pp_interval whole, parts;
	double whole_mean[2];
	double removed[2];
	struct pp_interval left_in[2];
	double clean[2];
	double mean[2];
	double part_removed[2];
	int lead, lead_tie; /* the accounting's lead child and its runner-up, -1: none */
	/* A function whose calls were counted before its search (attrib_count.c):
	 * its calls with probes, those that ran, the rounds of runs; 0 listed: not */
	int calls_listed, calls_ran, count_rounds;
	/* its arming plan: its parts' probes, as a share of the entry's time as
	 * built (NaN: no plan), and the calls left untimed */
	double armed_share;
	int untimed;
	/* a call or callee group: its own probes, a share of the entry as built (NaN: no plan) */
	double probes_share;
	/* An indirect call: the targets observed, largest share first */
	size_t ntargets;
	struct pp_outcome_target *targets;
	/* A callee group: its calls, in call list order */
	size_t nsites;
	struct pp_outcome_site *sites;
};

/*
 * The what-if that checked the chain's claim (confirm.c): the previous
 * revision with the chain's last part delayed, against the current one.
 */
struct pp_outcome_confirm {
	/* "confirmed", "explains", "overshoots", "offset", "undecided", "not tried"; NULL: not
	 * asked */
	const char *verdict_name;
	const char *why;   /* "not tried": why */
	int claim_node;	   /* the chain's last node, whose difference is the claim, -1: none */
	int node;	   /* the chain's node it delayed (claim_node, or one above), -1: none */
	int comparison;	   /* its comparison's id, -1: none */
	const char *what;  /* "paint (call 1 of render)" */
	const char *moved; /* why it was not claim_node's own place, NULL: it was */
	double claim_ns;   /* the node's difference, per execution of the entry */
	double execs;	   /* the part's executions per execution of the entry (previous) */
	double delay_ns;   /* the wait at each delayed execution */
	unsigned every;	   /* one execution in every delayed */
	double delayed;	   /* delayed executions per execution of the entry, counted (NaN: none) */
	struct pp_interval diff;      /* current - the delayed previous, at the entry */
	struct pp_interval explained; /* of the entry's difference (NaN: none) */
	/* decided by its estimate's precision: centre within the threshold, +-half of it */
	bool by_estimate;
	/* the entry's slowdown in its runs: the delay it added less diff (NaN: none) */
	struct pp_interval slowdown;
	size_t runs; /* per revision */
	/* "explains": the calls off the chain --max-paths had left that the search
	 * dug into after the what-if (plan.c) */
	unsigned continued;
	const char *sentence; /* as text and HTML print it, "" when not asked */
};

/* One run, as the JSON report lists it. */
struct pp_outcome_run_target {
	unsigned qi;	 /* the quantity's index in the batch */
	const char *key; /* the target */
	double v;	 /* ns per entry execution */
	uint64_t count;
};

struct pp_outcome_run {
	unsigned batch; /* 0: a discovery run */
	enum pp_rev_id rev;
	unsigned index;
	bool warmup;
	const char *status; /* "exit 0", "killed by SIGKILL", ... */
	double wall_s, cpu_s;
	long nivcsw;	 /* involuntary context switches */
	double waited_s; /* ready to run while other work had its CPU, < 0: not known */
	bool spoiled;	 /* its round was spoiled by other work: its values in no series */
	int cpu;	 /* -1: none of its own */
	int layout;	 /* -1: the build as it is */
	unsigned env_pad, heap;
	uint64_t entry_count, lost;
	size_t nvalues;
	const double *values;  /* per quantity of its batch */
	const double *removed; /* the same order, or NULL */
	const double *execs;   /* executions per entry execution, same order (NaN: none), or NULL */
	size_t ntargets;
	const struct pp_outcome_run_target *targets;
};

struct pp_outcome_batch {
	unsigned id;
	size_t nq;
	const unsigned *qids;
	const char *arming[2];
	double clock_s;
};

/* A code layout of a revision, and a module its layouts link again. */
struct pp_outcome_layout {
	unsigned long seed;
	double relink_s;
	bool reused;
	size_t runs; /* measured runs (no discovery, no warm-up) in it */
};

struct pp_outcome_module {
	const char *path;
	const char *why; /* why it was not linked again, NULL: it was */
	double relink_s;
};

/* A revision: its directory, binaries and entry, its code layouts. */
struct pp_outcome_rev {
	const char *label; /* "previous", "current" */
	const char *dir;
	const char *built_from; /* the directory named, when dir is an instrumented copy; or NULL */
	const char *commit;	/* checked out where it was built from; NULL when not known */
	size_t nbinaries;
	const char *const *binaries;
	size_t nfuncs;
	struct pp_outcome_fn entry; /* name NULL: not found */
	const char *not_varied;	    /* no layouts: why, or NULL */
	unsigned nlayouts;
	const struct pp_outcome_layout *layouts;
	size_t nmodules;
	const struct pp_outcome_module *modules;
};

/* Where a session's time went: builds, discovery runs, and the runs of each layer. */
#define PP_TIME_LAYERS 16 /* layers told apart; deeper ones count in the last */
struct pp_time_use {
	double total_s, builds_s, discovery_s, other_s; /* other: the driver's own work */
	double layouts_s;				/* linking the code layouts */
	size_t discovery_runs;
	unsigned nlayers; /* layers that ran: 0 the entry, k the parts of layer k-1 functions */
	double layer_s[PP_TIME_LAYERS];
	size_t layer_runs[PP_TIME_LAYERS];
	double confirm_s; /* the what-if on the chain's claim */
	size_t confirm_runs;
};

/* The session's measurement rule, what it used, and how noisy the runs were. */
struct pp_outcome_measurement {
	unsigned long long entry_skip, entry_stop, entry_count;
	bool entry_skip_setup; /* the skip leaves out the runs' set-up (discover.c) */
	bool threshold_fixed;
	double threshold_ns;
	/* runs per revision at every comparison's last look, and the pace a
	 * measured pair had when it was fixed (0: given, or no pace) */
	size_t comparison_runs;
	double comparison_pair_s;
	size_t runs_used;
	const char *design; /* "duet", "paired", "shuffled", as they ran */
	bool duet;
	int duet_cpu[2];
	bool duet_smt;	       /* a duet on hardware threads of one core */
	bool pairs_share;      /* a pair's two runs had one env_pad and heap (measure.c) */
	const char *duet_note; /* what the runs sentence says of the CPUs, or NULL */
	bool seeded;
	unsigned long seed;
	const char *backend; /* "processes", "model", "replay" */
	double timeout_s;
};

/*
 * The check of a duet's two CPUs (outcome_cpus.c): from the entry's pairs,
 * how much longer a run takes on the second CPU than on the first.
 */
struct pp_outcome_cpus {
	bool checked;		      /* a duet with enough pairs of each assignment */
	int cpu[2];		      /* the duet's CPUs (-1: a side of several) */
	size_t pairs[2];	      /* the entry's pairs whose previous run had CPU 0, CPU 1 */
	struct pp_interval slower_ns; /* on cpu[1] less on cpu[0], per run, 95 % */
	bool differ;		      /* the interval excludes 0 */
	double share;		      /* of the pairs' differences' variance, c^2 / var, <= 0.99 */
	double widened;	    /* how much wider the intervals are for it: 1/sqrt(1-share) - 1 */
	bool matters;	    /* differ, and share >= 0.1 */
	char sentence[512]; /* "CPU check: ...", "" when not checked */
};

struct pp_outcome {
	struct pp_arena mem;   /* every string and array below */
	struct pp_options opt; /* the options as run (its strings are the caller's) */
	struct pp_outcome_rev rev[2];
	int status; /* the exit status (enum pp_exit), final */
	bool interrupted;
	const char *failure; /* what failed to measure, or NULL */
	double started_wall; /* seconds since the epoch */
	double duration_s;   /* from start to finish */
	/* The entry's comparison and verdict (NULL: not compared) */
	const struct pp_outcome_cmp *entry;
	enum pp_verdict verdict;
	bool decided;
	const char *verdict_name; /* "none" when the entry was not decided */
	const char *entry_name;	  /* the entry function as text names it, or NULL */
	/* What the entry's undecided interval would need, runs per revision (NaN: not known) */
	double runs_needed;
	size_t ncmp;
	struct pp_outcome_cmp *cmp; /* in the session's order of quantities */
	size_t nnodes;
	struct pp_outcome_node *nodes;
	size_t nchain;
	int *chain; /* node indices, the entry first, the bottleneck last */
	/* The call the chain ends at, for --history: the deepest chain node with a
	 * comparison of its own, or NULL */
	const struct pp_outcome_cmp *chain_call;
	struct pp_outcome_confirm confirm;
	size_t ncontrib;
	int *contrib; /* node indices by rank */
	size_t nimproved;
	int *improved; /* node indices shown faster, in tree order */
	bool tree;     /* an attribution tree to show (--search attrib, parts measured) */
	bool budget_cut;
	/* The runs and batches, in the session's order */
	size_t nruns;
	const struct pp_outcome_run *runs;
	size_t nbatches;
	const struct pp_outcome_batch *batches;
	struct pp_outcome_measurement measurement;
	/* How much the runs varied and what they bought */
	double cov[2]; /* the entry's coefficient of variation per revision, NaN: none */
	unsigned ndecided, nundecided, nleft;
	unsigned long long lost; /* executions abandoned without their exit probe */
	size_t lost_runs;
	/* A competing load: the runs (of nruns) that waited for their CPU a
	 * fifth of their time or more while other work had it, what all the
	 * runs waited over their time (NaN: not known), their involuntary
	 * context switches; the rounds such runs spoiled (measured again, in no
	 * comparison) and those kept, and whether the spoiled ones stopped the
	 * measuring (PP_SPENT_LOAD); with a round spoiled, or one run in ten or
	 * more of ten or more waiting so, the sentence the reports print
	 * ("Competing load: ..."), else "" */
	size_t preempted_runs;
	double waited_share;
	long long switches;
	size_t rounds_spoiled, rounds_kept;
	bool load_spent;
	char preempted_sentence[640];
	struct pp_outcome_cpus cpus;
	struct pp_time_use time;
	char runs_sentence[256];
	/* The code layouts: the sentence every format prints, and their figures */
	char layouts_sentence[1024];
	bool layouts_varied;
	bool has_spread;
	char spread_sentence[512];
	unsigned layouts_first; /* each revision's count before any were added, 0: none */
	double layouts_relink_s;
	bool layouts_added; /* more were made during the session: */
	unsigned layouts_more;
	double layouts_more_s;
	/* the schedule (ahead.c): a new layout every layouts_every pairs, up to
	 * layouts_cap; what linking one of each revision and a pair of runs took */
	unsigned layouts_every, layouts_cap;
	double layouts_link_s, layouts_pair_s;
	bool layouts_same; /* layout k of both revisions the same file */
	struct pp_platform platform;
};

struct pp_session;
struct pp_quantity;

/*
 * Make @o from the finished session @s: every figure and list the writers
 * print, and the exit status: @failed's when the pipeline failed (usage,
 * measurement, interrupted; 0: it did not), else the entry's verdict's.
 * Returns 0 or -ENOMEM (then @o holds nothing to free).
 */
int pp_outcome_build(struct pp_outcome *o, const struct pp_session *s, int failed);

/*
 * The live line's view of @q, decided in @s, into @c (its strings and
 * values in @mem), naming functions as the report will: short, with
 * parameters where two of the comparisons made so far would read the same.
 * 0, 1 with --quiet (no line), or -ENOMEM.
 */
int pp_outcome_live(const struct pp_session *s, const struct pp_quantity *q,
		    struct pp_outcome_cmp *c, struct pp_arena *mem);

/*
 * Whether node @k of @o is a call measured alone under its function's own
 * body: on the chain and on the paths the writers print, a step of the
 * function itself, the own body skipped (outcome.c, text.c).
 */
static inline bool pp_outcome_alone_step(const struct pp_outcome *o, int k)
{
	const struct pp_outcome_node *n = &o->nodes[k];

	return n->alone && n->parent >= 0 && o->nodes[n->parent].kind == PP_NODE_SELF;
}

/* An exit status as the JSON report names it: "regression", "undecided", ... */
const char *pp_status_name(int status);

void pp_outcome_free(struct pp_outcome *o);

#endif /* PINPOINT_OUTCOME_H */
