/* SPDX-License-Identifier: MIT */
/*
 * attrib_priv.h - what the files of the attribution search share: its
 * state, the function F being searched (its aligned call list and what is
 * found so far), a settle round's context, and the functions each file
 * gives the others.  Only search_attrib.c and the attrib_*.c files include
 * it; the rest of the driver sees the search as pp_search_attrib (search.h).
 */
#ifndef PINPOINT_ATTRIB_PRIV_H
#define PINPOINT_ATTRIB_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "pinpoint/search/align.h"
#include "pinpoint/search/search.h"

/* Call lists of up to this many places have every call measured at once. */
#define PP_ATTRIB_SHORT 24
/* A longer list's callee groups over the whole of it (pp_attrib_list_groups()): at most so many */
#define PP_ATTRIB_LIST_GROUPS 8

struct pp_attrib {
	struct pp_session *s;
	bool off_chain;	      /* the search has left the bottleneck chain */
	int paths;	      /* calls dug into */
	struct pp_fnset seen; /* functions inspected */
};

/* One function being searched: its aligned call list. */
struct pp_fnview {
	const struct pp_prog_fn *fn[2];
	struct pp_unit *u;
	int nu;
	/*
	 * The calls that ran (attrib_count.c): @ran[k], place k's call ran in
	 * the counting runs of either revision, and @execs[r][k] its executions
	 * per execution of the entry there; NULL when the list was not counted
	 * (short enough, or the budget spent).  @listed places have probes,
	 * @nran of them ran, counted in @count_rounds rounds of runs.
	 */
	bool *ran;
	double *execs[2];
	int listed, nran, count_rounds;
	/*
	 * The arming plan (attrib_budget.c), from the counts: @cost[k], what
	 * place k's probes cost per execution of the entry (the runtime's own
	 * estimate, what it took out of the counting run), and @each_ns[k] its
	 * time per call; @untimed[k], left out of the parts (@why[k] says why:
	 * too short to time, or beyond the budget), its time in F's own body;
	 * @planned_ns, what the timed places' probes cost, against @budget_ns;
	 * @no_fn: F's own body is derived even though F may call itself, since
	 * the fn= item (every call timed) would cost beyond the budget.
	 */
	const struct pp_quantity **fig; /* the quantity whose runs hold place k's counts */
	double *cost, *each_ns;
	double *count_diff; /* current less previous in the counting runs, ns an entry execution */
	bool *untimed;
	const char **why;
	int nuntimed;
	double planned_ns, budget_ns, entry_ns;
	bool no_fn;
};

/* F, the function being searched, and what its search has found so far. */
struct pp_fnstate {
	struct pp_attrib *a;
	int layer; /* F's */
	const struct pp_fnview *v;
	int node;  /* F's node */
	int dir;   /* +1: F got slower, -1: faster (an improvement dug into) */
	int group; /* the structural group under it, -1 until needed */
	/* its calls only one revision makes were compared as one part in more
	 * than one range: the group's node has no comparison of its own */
	bool changed_several;
	char *inlined;	/* "g (file:line), ..." */
	char *untimed;	/* the calls the arming plan left untimed, "g (file:line): why, ..." */
	bool one_sided; /* a call is timed in one revision and inlined in the other */
	size_t ninlined;
	struct pp_quantity *total; /* F's whole time, measured with its parts */
	struct pp_qlist parts;	   /* every part of F measured so far */
	/*
	 * A long list's callee groups over the whole of it, measured in its
	 * first batch (attrib_halve.c); @lgroup_shown of them, first in
	 * @lgroup, found slower or faster as groups, have their node at F and
	 * hold their calls wherever the halving reaches them.
	 */
	struct pp_quantity *lgroup[PP_ATTRIB_LIST_GROUPS];
	int nlgroup, lgroup_shown;
	bool chain;	 /* F leads its caller's parts all the way up: the chain */
	double deadline; /* the time plan's for F's parts (pp_attrib_plan_time()), 0: none */
	/*
	 * The ledger (doc/statistics.md, "A session"): @alpha, the alpha of the
	 * comparison that gates F (found slower or faster), shared among the
	 * comparisons made under it; @shared_alpha, the share of it kept for
	 * the shared callees (pp_attrib_shared_callees()) when F's parts were
	 * measured, 0: none kept.
	 */
	double alpha;
	double shared_alpha;
};

/* What a settle round of F's parts needs to know: riders and pp_attrib_matters(). */
struct pp_round_ctx {
	struct pp_fnstate *st;
	int u0, u1;
	int want; /* the direction the places are explored in: F's, or a masking improvement's */
	struct pp_quantity **qs; /* the comparisons being settled */
	size_t nq;
};

/* attrib_count.c: the calls that ran, counted before a long list is searched */
int pp_attrib_count_calls(struct pp_session *s, struct pp_fnview *v, int layer);
void pp_attrib_view_free(struct pp_fnview *v);

/* attrib_budget.c: the arming plan from the counts, the calls beyond it measured alone */
int pp_attrib_plan_arming(struct pp_session *s, struct pp_fnview *v);
struct pp_fnstate;
int pp_attrib_measure_alone(struct pp_session *s, struct pp_fnstate *st);

/* Whether place @k's call ran, as far as it was counted. */
static inline bool pp_attrib_ran(const struct pp_fnview *v, int k)
{
	return !v->ran || v->ran[k];
}

/* The end of @i that bounds it away from 0 in direction @dir, and the other end. */
static inline double pp_attrib_near_end(struct pp_interval i, int dir)
{
	return dir > 0 ? i.low : i.high;
}

static inline double pp_attrib_far_end(struct pp_interval i, int dir)
{
	return dir > 0 ? i.high : i.low;
}

/* Whether place @k is left untimed by the arming plan. */
static inline bool pp_attrib_untimed(const struct pp_fnview *v, int k)
{
	return v->untimed && v->untimed[k];
}

/* attrib_parts.c: the quantities that show F's places, its own body */
/* Whether place @k's call has probes in revision @r, in either; and is timed in @r (it ran,
 * and the arming plan times it) */
bool pp_attrib_probed_in(const struct pp_fnview *v, int k, int r);
bool pp_attrib_probed(const struct pp_fnview *v, int k);
bool pp_attrib_timed_in(const struct pp_fnview *v, int k, int r);
struct pp_quantity *pp_attrib_unit_q(struct pp_session *s, const struct pp_fnview *v, int k,
				     bool *oom);
struct pp_quantity *pp_attrib_unit_q_as(struct pp_session *s, const struct pp_fnview *v, int k,
					bool untimed, bool *oom);
struct pp_quantity *pp_attrib_range_q(struct pp_session *s, const struct pp_fnview *v, int u0,
				      int u1);
struct pp_quantity *pp_attrib_span_q(struct pp_session *s, const struct pp_fnview *v,
				     enum pp_qkind kind, int u0, int u1);
int pp_attrib_push(struct pp_quantity **batch, size_t *n, size_t max, struct pp_quantity *q);
int pp_attrib_timed_places(const struct pp_fnview *v, int u0, int u1);
int pp_attrib_split(const struct pp_fnview *v, int u0, int u1);
int pp_attrib_parts(struct pp_session *s, const struct pp_fnview *v, int u0, int u1,
		    struct pp_quantity *const *except, int nexcept, struct pp_quantity **batch,
		    size_t *n, size_t max);
int pp_attrib_derive_self(struct pp_session *s, const struct pp_fnview *v, struct pp_quantity *self,
			  struct pp_quantity *total);
void pp_attrib_share_alpha(struct pp_quantity **batch, size_t from, size_t n, size_t k,
			   double alpha);
int pp_attrib_view(struct pp_fnview *v, const struct pp_prog_fn *const fn[2]);
bool pp_attrib_may_recurse(const struct pp_session *s, const struct pp_prog_fn *const fn[2]);

/* attrib_nodes.c: a call of revision @r only because the revisions inlined differently */
bool pp_attrib_inlined_in_one(const struct pp_fnview *v, int k, int r);

/* attrib_groups.c: a callee's calls from several places, as one part */
int pp_attrib_groups_of(struct pp_session *s, const struct pp_fnview *v, int u0, int u1,
			struct pp_quantity **out, int max, struct pp_quantity *const *except,
			int nexcept);
int pp_attrib_list_groups(struct pp_session *s, const struct pp_fnview *v, int dir,
			  struct pp_quantity **out, int max, int max_calls);
int pp_attrib_groups_in(struct pp_quantity *const *qs, size_t n, struct pp_quantity **out, int max);
struct pp_quantity *pp_attrib_changed_of(struct pp_session *s, const struct pp_fnview *v, int u0,
					 int u1, bool *oom);
bool pp_attrib_in_group(const struct pp_quantity *g, const struct pp_fnview *v, int k);
bool pp_attrib_group_shown(const struct pp_quantity *g);

/* attrib_nodes.c: the nodes of F's parts */
int pp_attrib_beyond(const struct pp_quantity *q);
int pp_attrib_emit_units(struct pp_session *s, struct pp_fnstate *st, int u0, int u1,
			 struct pp_quantity *const *g, int ng);
int pp_attrib_group_node(struct pp_session *s, struct pp_fnstate *st, const struct pp_quantity *g);
void pp_attrib_changed_node(struct pp_session *s, struct pp_fnstate *st,
			    const struct pp_quantity *c);
const char *pp_attrib_open_stop(const struct pp_quantity *q);
int pp_attrib_range_node(struct pp_session *s, struct pp_fnstate *st, int u0, int u1,
			 const struct pp_quantity *q);
bool pp_attrib_lost_runs(const struct pp_session *s);
int pp_attrib_close_fn(struct pp_session *s, struct pp_fnstate *st, struct pp_quantity *self);
int pp_attrib_alone_node(struct pp_session *s, struct pp_fnstate *st, int k, int parent,
			 const struct pp_quantity *q);
int pp_attrib_alone_inflated(struct pp_session *s, struct pp_fnstate *st, int k, int self,
			     const struct pp_quantity *q);

/* attrib_riders.c: what a settle round of F's parts asks (struct pp_settle_how) */
int pp_attrib_ride_next_layer(struct pp_session *s, void *arg, struct pp_quantity **out, size_t *n,
			      size_t max);
bool pp_attrib_single_part(const struct pp_quantity *q);
const char *pp_attrib_matters(struct pp_session *s, void *arg, const struct pp_quantity *q,
			      struct pp_interval look);

/* attrib_halve.c: measuring F's parts, halving a long call list */
int pp_attrib_measure_parts(struct pp_session *s, struct pp_fnstate *st, struct pp_quantity *self);

/* attrib_dig.c: the time plan, digging into F's calls, F's parts taken up again */
/* A node's stop where --max-paths left it (one string: compared by address) */
#define PP_ATTRIB_PATHS_STOP pp_attrib_paths_stop
extern const char pp_attrib_paths_stop[];
double pp_attrib_plan_time(struct pp_session *s, int layer, bool chain);
int pp_attrib_dig_calls(struct pp_attrib *a, struct pp_fnstate *st);
int pp_attrib_resume_parts(struct pp_attrib *a, struct pp_fnstate *st);
int pp_attrib_more(struct pp_session *s);

/* attrib_shared.c: a function several of F's callees call */
bool pp_attrib_may_share(const struct pp_session *s, const struct pp_fnstate *st);
int pp_attrib_shared_callees(struct pp_attrib *a, struct pp_fnstate *st);

/* attrib_targets.c: an indirect call's targets, each dug into */
int pp_attrib_dig_targets(struct pp_attrib *a, struct pp_fnstate *st, int c, const int at[2],
			  bool chain);

/*
 * search_attrib.c: search below F's node @node, F being @fn, at @layer, its
 * parts sharing @alpha (pp_attrib_gate_alpha()'s)
 */
int pp_attrib_search_fn(struct pp_attrib *a, int node, const struct pp_prog_fn *const fn[2],
			int layer, bool chain, double alpha);
double pp_attrib_gate_alpha(const struct pp_session *s, int node);

#endif /* PINPOINT_ATTRIB_PRIV_H */
