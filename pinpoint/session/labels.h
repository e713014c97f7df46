/* SPDX-License-Identifier: MIT */
/*
 * labels.h - how the outcome names what a session measured: functions,
 * comparisons and tree nodes.  The names below name functions as @nm does
 * (core/names.h: short C++ names for people, gathered and settled per
 * report); NULL @nm: demangled whole, as the JSON report has them.
 */
#ifndef PINPOINT_LABELS_H
#define PINPOINT_LABELS_H

#include <stdio.h>

#include "pinpoint/session/session.h"

struct pp_names;
/* A function's name. */
const char *pp_fn_name(const struct pp_prog_fn *fn, struct pp_names *nm);
/* "bridge: calls 0-1 (foo .. failure_run)" (malloc'ed, NULL when out of memory),
 * names demangled whole */
char *pp_quantity_label(const struct pp_quantity *q);
/* The same, names as @nm gives them. */
char *pp_quantity_label_named(const struct pp_quantity *q, struct pp_names *nm);
/* "failure_run", "own body of bridge", "added call audit": what a tree node names. */
char *pp_node_name(const struct pp_node *n, struct pp_names *nm);
/* The call a node names, in the revision that has it (*@rev, may be NULL), or NULL. */
const struct pp_prog_call *pp_node_call(const struct pp_node *n, int *rev);
/* The function a node names: the callee of a call, else the function it is in. */
const char *pp_node_function(const struct pp_node *n);
/* FILE:LINE[:COL], or "(no debug info)". */
void pp_print_loc(FILE *f, const char *file, unsigned line, unsigned col);

#endif /* PINPOINT_LABELS_H */
