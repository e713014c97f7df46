/* SPDX-License-Identifier: MIT */
/*
 * report.h - the report stage: text on stdout (a line per comparison as it
 * is decided, then the verdict and the bottleneck chain), JSON (json.h) and
 * HTML (html.h).  All of them read the session and assign nothing.
 */
#ifndef PINPOINT_REPORT_H
#define PINPOINT_REPORT_H

#include <stdio.h>

#include "pinpoint/session/session.h"

/* ---- text.c ---- */

/* The line of decided comparison @q (s->on_decided); nothing with --quiet. */
void pp_report_comparison(const struct pp_session *s, const struct pp_quantity *q);
struct pp_outcome;
/* The verdict: no regression, or the bottleneck chain; dropped executions. */
void pp_report_verdict(const struct pp_outcome *o, FILE *f);

/* ---- common.c: what every format says the same way ---- */

/*
 * The names below name functions as @nm does (core/names.h: short C++ names
 * for people, gathered and settled per report); NULL @nm: demangled whole,
 * as the JSON report has them.
 */
struct pp_names;
/* A function's name. */
const char *pp_fn_name(const struct pp_prog_fn *fn, struct pp_names *nm);
/* "bridge: calls 0-1 (foo .. failure_run)" (malloc'ed, NULL when out of memory),
 * names demangled whole */
char *pp_quantity_label(const struct pp_quantity *q);
/* The same, names as @nm gives them. */
char *pp_quantity_label_named(const struct pp_quantity *q, struct pp_names *nm);
/* "failure_run", "own body of bridge", "added call audit": what a tree node names. */
char *pp_node_name(const struct pp_session *s, const struct pp_node *n, struct pp_names *nm);
/* The call a node names, in the revision that has it (*@rev, may be NULL), or NULL. */
const struct pp_prog_call *pp_node_call(const struct pp_node *n, int *rev);
/* The function a node names: the callee of a call, else the function it is in. */
const char *pp_node_function(const struct pp_node *n);
/* A time, or "-inf"/"+inf" for the open end of an interval. */
const char *pp_fmt_end(double ns, char *buf, unsigned len);
/* FILE:LINE[:COL], or "(no debug info)". */
void pp_print_loc(FILE *f, const char *file, unsigned line, unsigned col);
/* Where a session's time went: builds, discovery runs, and the runs of each layer. */
#define PP_TIME_LAYERS 16 /* layers told apart; deeper ones count in the last */
struct pp_time_use {
	double total_s, builds_s, discovery_s, other_s; /* other: the driver's own work */
	double layouts_s;				/* linking the code layouts */
	size_t discovery_runs;
	unsigned nlayers; /* layers that ran: 0 the entry, k the parts of layer k-1 functions */
	double layer_s[PP_TIME_LAYERS];
	size_t layer_runs[PP_TIME_LAYERS];
};
void pp_time_use(const struct pp_session *s, struct pp_time_use *u);

/* Coefficient of variation of a series (sd / mean), NaN under 2 values or mean <= 0. */
double pp_series_cov(const struct pp_series *v);

/* Whether both revisions ran in several code layouts (layouts.h). */
bool pp_layouts_varied(const struct pp_session *s);
/*
 * What the layouts were, in one sentence for every format: how many, what
 * was linked again and what that cost; or that they were not varied and
 * the verdict can then include layout effects.
 */
void pp_layouts_sentence(const struct pp_session *s, char *buf, size_t len);
/* How the runs were made (--runs as it could be: duet, paired, shuffled), in one sentence. */
const char *pp_runs_sentence(const struct pp_session *s, char *buf, size_t len);

/*
 * How much of the entry's spread came from layout, in one sentence; false
 * when its runs were not spread over layouts.
 */
bool pp_layouts_spread(const struct pp_session *s, char *buf, size_t len);

#endif /* PINPOINT_REPORT_H */
