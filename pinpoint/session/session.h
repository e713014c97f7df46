/* SPDX-License-Identifier: MIT */
/*
 * session.h - the state of one pinpoint session: the two revisions, what was
 * measured, every comparison and the bottleneck chain.  The stages read and
 * extend it (discover -> plan -> measure -> decide); the outcome (outcome.h)
 * copies what the reports print from it.
 */
#ifndef PINPOINT_SESSION_H
#define PINPOINT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "pinpoint/build/git.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/session/kinds.h"
#include "pinpoint/session/options.h"
#include "core/process.h"
#include "core/stats.h"
#include "core/stats_seq.h"
#include "core/table.h"

struct pp_revision {
	const char *label; /* "previous" or "current" */
	char *dir;	   /* absolute: where it runs */
	char *built_from;  /* the directory named, when it runs in an instrumented copy; or NULL */
	char commit[PP_GIT_HASH_LEN]; /* checked out where it was built from; "" when not known */
	struct pp_program prog;
	const struct pp_prog_fn *entry;
	char *entry_spec; /* how the entry is armed in this revision */
	uint64_t output_hash;
	bool output_differs_warned;
	struct pp_layouts lay; /* the code layouts its runs are measured in */
};

struct pp_series {
	double *v;
	unsigned *layout;  /* the code layout of each value's run (0: the only one) */
	signed char *side; /* the duet side of each value's run: 0, 1, or -1: not a duet run */
	size_t n, cap;
};

/* Append one value measured in @layout, by a run on duet side @side (-1: none); 0 or -ENOMEM. */
int pp_series_push_run(struct pp_series *s, double v, unsigned layout, int side);

/* Append one value measured in @layout, not by a duet run; 0 or -ENOMEM. */
int pp_series_push_in(struct pp_series *s, double v, unsigned layout);

/* Append one value of the only layout; 0 or -ENOMEM. */
int pp_series_push(struct pp_series *s, double v);

struct pp_decision;
struct pp_targets;

struct pp_quantity {
	unsigned id;
	enum pp_qkind kind;
	const struct pp_prog_fn *fn[2]; /* the function in each revision */
	unsigned first, last;		/* PP_Q_RANGE: calls of fn[PP_CUR] */
	/* PP_Q_RANGE: the same calls in fn[PP_PREV] (the call lists aligned);
	 * absent[r]: revision r has none of them (a call only one revision
	 * makes), nothing is armed there and its value is 0. */
	unsigned prev_first, prev_last;
	bool absent[2];
	/*
	 * PP_Q_GROUP: the callee its calls go to, by name, and resolved in each
	 * revision (NULL: no table for it there); first..last and
	 * prev_first..prev_last are its first and last call, its terms its
	 * calls, each a range of one call.
	 */
	const char *callee;
	const struct pp_prog_fn *callee_fn[2];
	/*
	 * PP_Q_TARGET: @target is the target's key (session.h's run targets),
	 * @of the call's quantity whose runs hold its values (measure.c).
	 */
	char *target;
	struct pp_quantity *of;
	/*
	 * PP_Q_CONFIRM: what the previous revision's runs delay (the arming's
	 * delay= value, encoded), by how much at each delayed execution, and
	 * which executions (every delay_every-th); as the reports name it.
	 */
	char *delay;
	unsigned long long delay_ns;
	unsigned delay_every;
	char *delay_what;
	/* decided by its estimate's precision, not its interval's place (decide.c) */
	bool by_estimate;
	/* measured before its function's arming plan left some of its calls
	 * untimed (attrib_budget.c): kept as it was, never made again */
	bool retired;
	struct pp_series series[2]; /* per-run values, per revision */
	/* per-run executions of its calls (or function) per execution of the
	 * entry, in the runs of series[]; NaN where not counted (derived) */
	struct pp_series execs[2];
	/*
	 * Derived (nterms > 0): not armed, its value in a run is the sum of its
	 * terms' values in that run, each times its sign (an own body is its
	 * function's whole less its calls; a range, its calls or quarters), so
	 * that no call site feeds two counters (measure.c).  The terms are
	 * measured whenever it is.
	 */
	struct pp_quantity **terms;
	signed char *signs;
	size_t nterms;
	unsigned batch; /* measured in this batch (1-based), 0 = not yet */
	/* The error rate this comparison may spend, set by the plan (0: not set,
	 * 1 - confidence): the entry's is 1 - confidence, the parts measured
	 * under a comparison share its alpha (pp_seq_child_alpha). */
	double alpha;
	/* The sequential decision, decide.c's own (decide_priv.h); NULL until its first look. */
	struct pp_decision *dec;
	struct pp_last_look final_look; /* what its last look saw, set when it is decided */
	/* undecided because the session's --max-runs or --max-time was spent, not its own budget */
	enum pp_spent truncated;
	char *left; /* PP_V_BOUNDED: why no more runs were spent on it (malloc'ed) */
	/* Filled by pp_decide(): */
	bool decided;
	int rounds; /* rounds after its first, shared with the others of its batch still open */
	struct pp_summary sum[2];
	/* each revision's centre and interval as the test sees them (median and
	 * its order-statistic interval, or the mean's with welch) */
	struct pp_interval ci[2];
	/*
	 * Runs in several code layouts (decide_layout.c): how much of each
	 * revision's spread comes from layout, and whether the difference is
	 * within what layouts alone move the quantity.
	 */
	bool has_layout;
	struct pp_layout_var layout[2];
	double layout_sd;    /* sd of the difference two single layouts make */
	double layout_floor; /* half-width no run in these layouts can shrink (0: not known) */
	/* The duet's CPUs taken out of its pairs at its last look (decide_cpu.c):
	 * what a run on the second CPU took more than on the first; NaN: nothing
	 * taken out */
	double cpu_term_ns;
	bool layout_sensitive;
	struct pp_comparison cmp;
	double threshold_ns;
	enum pp_verdict verdict;
	unsigned order; /* 1-based order of decision (pp_session_decided()), 0 = not decided */
};

/* How one run is made besides its arming (doc/semantics.md). */
struct pp_run_setup {
	int layout;	  /* index in the revision's layouts, -1: the build as it is */
	unsigned env_pad; /* bytes of the PINPOINT_PAD variable */
	unsigned heap;	  /* bytes the runtime moves the heap's start by (heap=) */
};

/* The layout a run in @setup is counted in: the build as it is is layout 0, the only one. */
static inline unsigned pp_setup_layout(const struct pp_run_setup *setup)
{
	return setup->layout < 0 ? 0 : (unsigned)setup->layout;
}

/*
 * Where an indirect call went in one run: a quantity of the batch that
 * times one indirect call (a range of one call), per target.
 */
struct pp_run_target {
	unsigned qi;	/* the quantity's index in the batch */
	char *key;	/* the target's function (linkage) name, "ext:<symbol>" or "other" */
	double v;	/* its time, ns per entry execution, as the quantity's value */
	uint64_t count; /* its executions in the run, after the session's skip */
};

/* One run of the benchmark. */
struct pp_run_record {
	unsigned batch;
	enum pp_rev_id rev;
	unsigned index; /* within the batch and revision, warm-ups included */
	bool warmup;
	struct pp_run_setup setup;
	struct pp_run_status st;
	double turn_s; /* the session's time it took: its wall time, half its pair's in a duet */
	int cpu;       /* the CPU of a duet run, -1: none of its own */
	int side;      /* a duet run's side (s->duet_cpus[side]), -1: not a duet run */
	uint64_t entry_count;
	uint64_t lost; /* executions of its slots abandoned without their exit probe */
	size_t nvalues;
	double *values;	 /* per quantity of the batch, in batch order */
	double *removed; /* the probes' cost the runtime took out of each value, same order */
	/* executions of each quantity's calls (or function) per execution of the
	 * entry, same order; NaN: not counted (derived); NULL: none recorded */
	double *execs;
	size_t ntargets;
	struct pp_run_target *targets; /* the indirect calls' targets, by quantity */
	/* its round (its pair) had a run kept from its CPU by other work: its
	 * values are in no series, and the round was measured again */
	bool spoiled;
};

/*
 * A run that waited for its CPU this share of its wall time or more, while
 * other work had it, spoils its round (a quiet 2-vCPU VM: 1-2 % of a run's
 * time, 8 % at most in nine runs of ten; beside a busy loop: 35-50 %).
 */
#define PP_WAITED_SPOILS 0.2
/*
 * The session stops measuring, its open comparisons undecided, once this
 * many rounds were spoiled and they are PP_SPOILED_RATIO times the rounds
 * that were not: a machine that busy decides nothing.
 */
#define PP_SPOILED_MIN 32
#define PP_SPOILED_RATIO 3
#define PP_STR_(x) #x
#define PP_STR(x) PP_STR_(x)

/* Whether run @r waited for its CPU PP_WAITED_SPOILS of its time or more (known only where
 * the kernel keeps schedstats). */
static inline bool pp_run_waited_long(const struct pp_run_record *r)
{
	return r->st.waited_s >= 0 && r->st.wall_s > 0 &&
	       r->st.waited_s >= PP_WAITED_SPOILS * r->st.wall_s;
}

/* The layer of a batch of the what-if on the chain's claim (confirm.c). */
#define PP_LAYER_CONFIRM (-1)

struct pp_batch {
	unsigned id;
	int layer; /* of the quantities it measures: 0 the entry, k the parts of a layer k-1
		      function, PP_LAYER_CONFIRM the what-if */
	size_t nq;
	unsigned *qids;
	char *arming[2];
	double clock_s; /* the session's clock when it began, from the session's start */
};

struct pp_node {
	enum pp_node_kind kind;
	const struct pp_prog_fn
	    *fn[2]; /* the function the node is in (NULL: not in that revision) */
	/* The calls, in each revision's call list (CALL, RANGE, ADDED, REMOVED);
	 * first[r] > last[r] when the revision has none. */
	unsigned first[2], last[2];
	const struct pp_quantity *q; /* the comparison that shows it, or NULL */
	int parent;		     /* index in s->nodes, -1 for the root */
	int child, next; /* first child and next sibling, largest difference first; -1 = none */
	unsigned depth;	 /* layer: 0 at the entry's node and its parts */
	struct pp_interval diff;     /* current - previous, ns per entry execution */
	double share;		     /* diff.centre / the parent's diff.centre (point estimates) */
	struct pp_interval share_ci; /* diff's interval as a share of the parent's centre */
	int sign;	  /* +1 significantly slower, -1 significantly faster, 0 neither */
	bool chain;	  /* on the bottleneck chain */
	bool alone;	  /* a call measured alone, under its function's own body */
	unsigned rank;	  /* 1-based rank among the further contributors, 0 = none */
	const char *stop; /* why the search stopped here, or NULL */
	bool recursive;	  /* stopped at a call to a function the search inspects already */
	char *detail;	  /* what changed, or which calls are inlined here; or NULL */
	char *stop_own;	  /* the stop reason when made for this node (stop points to it) */
	/* An indirect call dug into: the target it went to, in each revision */
	const struct pp_prog_fn *into[2];
	/*
	 * An indirect call: its targets as the search found them when it
	 * decided where to dig (search.c; targets.h), with their own
	 * comparisons where it made them; owned, NULL: it did not look.
	 */
	struct pp_targets *targets;
	/*
	 * A function searched whose calls were counted first (attrib_count.c):
	 * its places with probes, how many of them ran, and the rounds of runs
	 * that counted them; 0 listed: not counted.
	 */
	int calls_listed, calls_ran, count_rounds;
	/* Its arming plan (attrib_budget.c): what its parts' probes were planned to
	 * add, as a share of the entry's time as built (NaN: no plan), and the
	 * calls it left untimed. */
	double armed_share;
	int untimed;
	/* A call or callee group of a function whose arming was planned: what
	 * its own probes were planned to add, as a share of the entry's time as
	 * built (NaN: no plan) */
	double probes_share;
	/*
	 * A function searched (account.c): its whole time measured with its
	 * parts, the difference of that in the runs of its parts, how many runs
	 * per revision measured them all (0: none, the children's numbers are
	 * their comparisons' own), and the child that leads in its direction
	 * and the runner-up the same runs do not tell it from (-1: none).
	 */
	const struct pp_quantity *total;
	struct pp_interval whole, parts; /* the whole's difference and its parts' together */
	double whole_mean[2];		 /* its whole's mean over those runs, per revision */
	/*
	 * The probes' cost (account.c): what the runtime took out of its whole
	 * on average, per revision, and what is left in: its whole with its
	 * parts armed less it with nothing armed inside (clean[]), Welch's
	 * interval (NaN: no clean runs).
	 */
	double removed[2];
	struct pp_interval left_in[2];
	double clean[2]; /* its mean with nothing armed inside, per revision; NaN: none */
	bool paired;	 /* its numbers are the pairs' (the paired design) */
	/*
	 * A part: its mean over those runs, per revision; how far the probe
	 * cost left in could move its difference (NaN: not known), reaching
	 * half the threshold; where its share is above 1, the rest of its
	 * function (the whole less it), which then got faster.
	 */
	double mean[2];
	double part_removed[2]; /* the probes' cost taken out of it, mean per revision */
	double probe_unc;
	bool probe_uncertain;
	struct pp_interval others;
	double entry_share; /* its share of the entry: the shares along its path multiplied */
	/* and its interval: the product of the shares' intervals along the path, from
	 * entry_steps of them (NaN: a step without one) */
	struct pp_interval entry_share_ci;
	unsigned entry_steps;
	/* the confidence of its accounting's intervals (diff, share_ci): its
	 * verdict's level, else its function's (NaN: none); entry_alpha: the
	 * 1 - level of the shares along its path added up (Bonferroni) */
	double level, entry_alpha;
	size_t runs[2];
	int lead, tie;
};

/*
 * The what-if that checks the chain's claim (confirm.c): the previous
 * revision with the chain's last part delayed by its difference, against
 * the current one, at the entry.
 */
enum pp_confirm_verdict {
	PP_CONFIRM_NONE,       /* not asked (--confirm off, no regression) */
	PP_CONFIRM_NOT_TRIED,  /* asked, not made: why says why */
	PP_CONFIRM_CONFIRMED,  /* what is left is within the threshold */
	PP_CONFIRM_EXPLAINS,   /* the current revision is still slower: something else too */
	PP_CONFIRM_OVERSHOOTS, /* the delayed previous is slower: the claim is inflated */
	/* the delayed previous is slower, and parts decided faster may be why */
	PP_CONFIRM_OFFSET,
	PP_CONFIRM_UNDECIDED, /* the runs allowed ran out first */
};

struct pp_confirm {
	enum pp_confirm_verdict verdict;
	const char *why; /* PP_CONFIRM_NOT_TRIED: why (static) */
	/* the chain's last node, whose difference is the claim, and the chain
	 * node the delay is put at: the same, or the nearest above it that can
	 * be delayed at little cost (confirm.c); -1: none */
	int claim_node, node;
	const char *moved; /* why node is not claim_node (static), NULL: it is */
	struct pp_quantity *q;
	double claim_ns; /* the claim: the delay per execution of the entry */
	double execs;	 /* the delayed node's executions per execution of the entry (previous) */
	/* the delayed executions per execution of the entry its runs counted (NaN: none) */
	double delayed;
	/* of the entry's difference, what the delay explains: 1 - the difference left
	 * over the entry's */
	struct pp_interval explained;
	/* "explains": the calls off the chain --max-paths had left that the
	 * search dug into after it (plan.c) */
	unsigned continued;
};

struct pp_backend;

struct pp_session {
	struct pp_options *opt;
	/* where its runs and tables come from (measure/backend.h); NULL: processes */
	const struct pp_backend *backend;
	void *backend_data;
	/* the session's clock is the backend's (a model's runs take no real time): clock_s */
	bool virtual_clock;
	double clock_s;
	struct pp_revision rev[2];
	char *workdir;
	double timeout_s;
	size_t nq;
	struct pp_quantity **q;
	size_t nbatches;
	struct pp_batch *batches;
	size_t nruns;
	struct pp_run_record *runs;
	size_t nnodes;
	struct pp_node *nodes; /* the attribution tree, the entry's node first */
	struct pp_confirm confirm;
	bool budget_cut; /* --max-paths left slower calls unexamined */
	char *failure;	 /* what failed to measure (the first failure) */
	bool interrupted;
	bool outputs_differ_warned; /* previous and current printed different output */
	double started, finished;   /* monotonic clock, s */
	double measuring;	    /* when measuring began (after the builds); 0 until then */
	double started_wall;	    /* seconds since the epoch */
	volatile int *stop;
	unsigned ndecided; /* comparisons decided so far */
	/*
	 * Fixed by the discover stage, the same for every run and quantity:
	 * entry executions each run skips before the entry's value (its steady
	 * state begins there).
	 */
	unsigned long long entry_skip;
	bool entry_skip_setup; /* one execution skipped to leave out the run's set-up */
	/*
	 * Also fixed by the discover stage: each run ends when the entry's
	 * entry_stop-th execution returns (the runtime's stop=), 0: runs go to
	 * their end.  entry_count is the fewest executions a discovery run made.
	 */
	unsigned long long entry_stop, entry_count;
	/*
	 * The threshold of every comparison: --precision of the centre of the
	 * entry's previous values at its first look, fixed then (pp_decide());
	 * until then, of the previous revision's discovery run.
	 */
	double threshold_ns;
	bool threshold_fixed;
	/*
	 * Runs per revision at every comparison's last look, fixed once when
	 * the first comparison's first look is due (decide_budget.c):
	 * --max-runs-per-comparison, else what --max-time and --max-runs leave
	 * then at comparison_pair_s a measured pair; 0 until then.
	 */
	size_t comparison_runs;
	double comparison_pair_s;
	size_t runs_used; /* comparison runs so far, warm-ups included (--max-runs) */
	/* measured rounds (pairs) kept and spoiled by other work (measure.c), and
	 * whether their count stopped the measuring (PP_SPENT_LOAD) */
	size_t rounds_kept, rounds_spoiled;
	bool load_spent;
	/* The runs' random order (schedule.c): its generator, made on first use, and seed. */
	gsl_rng *rng;
	/* the layouts' seeds' generator, of the same seed: the runs' order does not
	 * depend on how many layouts the cache had (pp_session_layout_rng()) */
	gsl_rng *layout_rng;
	unsigned long seed;
	bool seeded;
	/*
	 * Duet runs (duet.h): the two runs of a pair at the same time, the
	 * first of the pair on duet_cpus[0], the second on duet_cpus[1];
	 * duet_cpu[i] is the one CPU of side i, -1 when it has several.
	 */
	bool duet;
	cpu_set_t duet_cpus[2];
	int duet_cpu[2];
	/* duet_smt: a duet on hardware threads of one core (--runs duet given);
	 * duet_note: what the runs sentence adds about the CPUs, or "" */
	bool duet_smt;
	char duet_note[256];
	/*
	 * The code layouts' schedule (schedule.c), fixed before any value is
	 * seen: a new layout every layout_every measured pairs (--pairs-per-layout,
	 * else from layout_link_s, what linking one layout took, against
	 * layout_pair_s, what a pair of runs takes), up to layouts_cap a
	 * revision (--max-layouts, lowered to what it has when making more
	 * failed or found no room), then round them again; layout_runs, each
	 * revision's measured runs scheduled so far.  layouts_first, each
	 * revision's count before the schedule added any; layouts_more_s, the
	 * seconds adding them took (measuring time: --max-time pays for them).
	 */
	unsigned layouts_cap, layouts_first, layout_every;
	/* layout k of both revisions the same file (pp_layouts_same_code()) when
	 * layout_every was fixed: it is larger */
	bool layouts_same;
	/* the layouts of both revisions the cache held, made or not, when the
	 * first were made: none of them needs a link (pp_layouts_reusable()) */
	unsigned layouts_cached;
	unsigned long long layout_runs[2];
	/* the first run's of the pair being run: in the paired design its second
	 * run has the same env_pad and heap (measure.c), unless pairs_apart (the
	 * replay of a session whose pairs drew them apart) */
	struct pp_run_setup pair_setup;
	bool pairs_apart;
	double layout_link_s, layout_pair_s;
	double layouts_more_s;
	/* Told of each comparison as it is decided (the live report line), or NULL. */
	void (*on_decided)(const struct pp_session *s, const struct pp_quantity *q);
};

/*
 * A new PP_Q_CONFIRM on the entry @entry[2]: the previous revision's runs
 * delay @delay (taken) by @ns at every @every-th execution, @what naming it
 * (taken).  NULL when out of memory (@delay and @what freed).
 */
struct pp_quantity *pp_quantity_confirm(struct pp_session *s,
					const struct pp_prog_fn *const entry[2], char *delay,
					unsigned long long ns, unsigned every, char *what);

/* A list of quantities, each at most once. */
struct pp_qlist {
	struct pp_quantity **q;
	size_t n, cap;
};

/* Append @q unless it is there already; -ENOMEM when @q is NULL or out of memory. */
int pp_qlist_add(struct pp_qlist *l, struct pp_quantity *q);
void pp_qlist_free(struct pp_qlist *l);

/*
 * Make @q derived: its value is the sum of @terms[i]'s times @signs[i]
 * (+1 or -1) in the same run.  A quantity already derived keeps its terms,
 * and one that is its one term stays as it is.  Returns 0, -EINVAL (a term
 * that is @q or is derived from @q), -ENOMEM.
 */
int pp_quantity_derive(struct pp_quantity *q, struct pp_quantity *const *terms,
		       const signed char *signs, size_t n);

/* The quantity (@kind, @fn in both revisions, calls @first..@last), made once. */
struct pp_quantity *pp_quantity_get(struct pp_session *s, enum pp_qkind kind,
				    const struct pp_prog_fn *const fn[2], unsigned first,
				    unsigned last);

/*
 * Target @key of indirect call @call (a range of one call): a PP_Q_TARGET,
 * made once, its series those of @call's runs so far (a run @key did not
 * reach counts 0); measuring it measures @call (measure.c).
 */
struct pp_quantity *pp_quantity_target(struct pp_session *s, struct pp_quantity *call,
				       const char *key);
/* Append target @q's value in run @rec, where its call is quantity @qi; 0 or -ENOMEM. */
int pp_quantity_push_target(struct pp_quantity *q, const struct pp_run_record *rec, int qi);

/*
 * A range whose calls sit at different places in the two revisions' call
 * lists: @first[r]..@last[r] in revision r, or none there when @absent[r].
 */
struct pp_quantity *pp_quantity_range(struct pp_session *s, const struct pp_prog_fn *const fn[2],
				      const unsigned first[2], const unsigned last[2],
				      const bool absent[2]);
/* The same calls, armed only to count them (PP_Q_COUNT): never the range's quantity. */
struct pp_quantity *pp_quantity_count(struct pp_session *s, const struct pp_prog_fn *const fn[2],
				      const unsigned first[2], const unsigned last[2],
				      const bool absent[2]);

/*
 * The calls of @fn to @callee from call @first[r] to @last[r] of revision
 * r, together: a PP_Q_GROUP, made once; the caller derives it from its
 * calls.  @callee_fn: the callee in each revision, or NULL.
 */
struct pp_quantity *pp_quantity_group(struct pp_session *s, const struct pp_prog_fn *const fn[2],
				      const char *callee,
				      const struct pp_prog_fn *const callee_fn[2],
				      const unsigned first[2], const unsigned last[2]);

/*
 * The calls of @fn that one revision makes and the other does not, among
 * calls @first[r]..@last[r] of revision r (@nterms of them), together: a
 * PP_Q_CHANGED, made once; the caller derives it from its calls.
 */
struct pp_quantity *pp_quantity_changed(struct pp_session *s, const struct pp_prog_fn *const fn[2],
					const unsigned first[2], const unsigned last[2]);

/*
 * Whether node @n's numbers come from the runs that measured its function's
 * parts together with its whole (account.c): its function (a structural
 * group's parent) was measured so in 2 runs a revision or more.
 */
bool pp_node_accounted(const struct pp_session *s, const struct pp_node *n);

/*
 * The node whose difference @n is a part of: its parent, or a structural
 * group's parent for the calls in the group (the group has no quantity of
 * its own); -1 for the root.
 */
int pp_node_whole(const struct pp_session *s, const struct pp_node *n);

/*
 * The current run of previous run @i's pair: the same batch and turn, not a
 * warm-up; its index in s->runs, or -1.
 */
long pp_run_pair(const struct pp_session *s, size_t i);

/* Where @q's value is in run @rec's values (its batch's order), or -1: not measured there. */
int pp_run_value_at(const struct pp_session *s, const struct pp_run_record *rec,
		    const struct pp_quantity *q);

/* A new node of the tree under @parent (-1: the root), or -1 when out of memory. */
int pp_node_add(struct pp_session *s, enum pp_node_kind kind, int parent,
		const struct pp_prog_fn *const fn[2], const struct pp_quantity *q);

/*
 * Whether the session can pay for @runs more runs (both revisions, warm-ups
 * included): within --max-runs, and within --max-time at the mean wall time
 * of the runs so far, and when @deadline > 0 (monotonic clock, s) before
 * it.  Returns PP_SPENT_NONE, or the budget that cannot.
 */
enum pp_spent pp_session_can_run(const struct pp_session *s, size_t runs, double deadline);
/* Seconds of --max-time left (INFINITY without a limit). */
double pp_session_time_left(const struct pp_session *s);

/* The session's clock in seconds: monotonic (pp_now()), or the backend's when virtual. */
double pp_session_now(const struct pp_session *s);

/* How the session's runs are made: --runs, duet falling back to paired where it cannot be. */
enum pp_runs pp_session_runs(const struct pp_session *s);

/* Whether a pair's two runs share their env_pad and heap draws (measure.c): paired, not apart. */
bool pp_session_pairs_share(const struct pp_session *s);

/* A new, zeroed run record, or NULL when out of memory. */
struct pp_run_record *pp_session_add_run(struct pp_session *s);

/* Free what @r holds (its values, removed costs and targets); @r is left empty. */
void pp_run_record_clear(struct pp_run_record *r);

/* Record what failed (kept: the first failure is the cause). */
void pp_session_fail(struct pp_session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* @q was decided: number it (q->order) and tell s->on_decided. */
void pp_session_decided(struct pp_session *s, struct pp_quantity *q);

/* Where the runtime writes revision @r's results during the session (each its own:
 * duet runs of both revisions write at the same time). */
void pp_session_results_path(const struct pp_session *s, enum pp_rev_id r, char *buf, size_t len);

/* The verdict of a sequential design's answer (a look's, or a fixed interval's). */
enum pp_verdict pp_verdict_of(enum pp_seq_verdict v);

void pp_session_free(struct pp_session *s);

#endif /* PINPOINT_SESSION_H */
