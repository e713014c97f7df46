/* SPDX-License-Identifier: MIT */
/*
 * kinds.h - the plain types a session and its outcome share: which
 * revision, what a comparison measures, its verdict, the budget that
 * stopped it, what its last look saw, and what a tree node is.  No
 * pointers: the outcome (outcome.h) and the writers (report/) use them
 * without the session's state (session.h).
 */
#ifndef PINPOINT_KINDS_H
#define PINPOINT_KINDS_H

#include <stddef.h>

enum pp_rev_id { PP_PREV = 0, PP_CUR = 1 };

/* Something measured in both revisions, in ns per execution of the entry. */
enum pp_qkind {
	PP_Q_ENTRY, /* the entry function as a whole */
	PP_Q_RANGE, /* calls first..last of a function */
	PP_Q_SELF,  /* a function's own body: its time minus its calls' */
	PP_Q_TOTAL, /* a function's whole time, measured with its parts (the entry's: its slot) */
	PP_Q_GROUP, /* the calls of a range to one callee, added up (derived from each call's) */
	/* the entry as a whole, the previous revision's runs with a part
	 * delayed by what the chain says it got slower (confirm.c) */
	PP_Q_CONFIRM,
	/* one target of an indirect call (a range of one call): its time in the
	 * call's runs, as the runtime splits the call by target (targets.h) */
	PP_Q_TARGET,
	/* the calls of a range that one revision makes and the other does not,
	 * added up (derived from each call's): the added calls' time in the
	 * current revision less the removed ones' in the previous */
	PP_Q_CHANGED,
	/* calls first..last of a function, as PP_Q_RANGE, armed only to count
	 * their executions before the function is searched (attrib_count.c):
	 * never compared */
	PP_Q_COUNT,
};

/* UNDECIDED: the budget was spent before the interval could decide; never "same". */
/*
 * PP_V_SLOWER: slower by the threshold or more (a regression);
 * PP_V_SLOWER_BELOW, PP_V_FASTER_BELOW: shown different, and shown within the
 * threshold; PP_V_NOT_SLOWER: the entry only (its question is one-sided):
 * faster or the same.  PP_V_BOUNDED: left open because no answer could change
 * the search's (q->left says why): its last look's interval is all that is
 * known ("at most" its upper end).
 */
enum pp_verdict {
	PP_V_SAME,
	PP_V_SLOWER,
	PP_V_FASTER,
	PP_V_UNDECIDED,
	PP_V_NOT_SLOWER,
	PP_V_SLOWER_BELOW,
	PP_V_FASTER_BELOW,
	PP_V_BOUNDED,
};

/*
 * Which of the session's budgets stopped a comparison: --max-runs,
 * --max-time, or the time plan's share of --max-time for the part of the
 * search it belongs to (the deadline the search gave pp_settle()).
 */
/* PP_SPENT_LAYOUTS: not spent, but no run its budget buys, in the layouts the schedule
 * would bring it, could decide it (decide_layout.c).  PP_SPENT_LOAD: other work on
 * the machine spoiled most rounds, and the session stopped measuring (measure.c). */
enum pp_spent {
	PP_SPENT_NONE,
	PP_SPENT_RUNS,
	PP_SPENT_TIME,
	PP_SPENT_PLAN,
	PP_SPENT_LAYOUTS,
	PP_SPENT_LOAD
};

/* What a comparison's last look saw, as its decision concluded (decide.c). */
struct pp_last_look {
	unsigned looks;	    /* looks taken, 0: none (undecided before its first) */
	size_t runs;	    /* values it looked at, both revisions together */
	size_t budget;	    /* values its design allowed, both revisions together */
	double alpha;	    /* the error rate it could spend */
	double alpha_spent; /* what its looks spent of it */
	double confidence;  /* the level of the last look's interval */
	double mde;	    /* the smallest difference that look could have told from none */
};

/*
 * The attribution tree: what the search established, entry first.  A node
 * is a function's comparison (the entry, a call dug into), a part of a
 * function's slowdown (a call, a range, its own body, a call only in one
 * revision) or the remainder nothing measured explains.  The plan stage
 * builds it (session.h); the outcome copies it for the writers.
 */
enum pp_node_kind {
	PP_NODE_ENTRY, /* the entry as a whole */
	PP_NODE_CALL,  /* a single call present in both revisions, dug into or named */
	PP_NODE_RANGE, /* a range of calls that is slower as a whole only */
	PP_NODE_GROUP, /* the calls of a range to one callee, together (q: a PP_Q_GROUP) */
	/* a function several of F's calls call, each a little slower: its whole
	 * (q: its PP_Q_TOTAL), beside F's parts, not one of them */
	PP_NODE_SHARED,
	PP_NODE_SELF,	    /* the function's own body (with the calls inlined into it) */
	PP_NODE_STRUCTURAL, /* the calls only one revision makes, together */
	PP_NODE_ADDED,	    /* a call only the current revision makes: its cost there */
	PP_NODE_REMOVED,    /* a call only the previous revision made: its cost there */
	PP_NODE_REST,	    /* the parent's difference its parts do not explain (point estimate) */
};

/* Their names (session.c): */
/*
 * "slower", "faster", "same", "undecided", "not-slower",
 * "slower-below-threshold" or "faster-below-threshold", as the JSON report
 * spells verdicts.
 */
const char *pp_verdict_name(enum pp_verdict v);
/* "SLOWER", "faster", "same", "UNDECIDED", "not slower", "slower, below threshold", ...:
 * as the text report prints verdicts (the same table as pp_verdict_name's). */
const char *pp_verdict_word(enum pp_verdict v);
/* The option or cap that @why names for a comparison of @kind: "--max-runs", "--max-time", ... */
const char *pp_spent_option(enum pp_spent why, enum pp_qkind kind);

#endif /* PINPOINT_KINDS_H */
