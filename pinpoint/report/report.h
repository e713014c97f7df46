/* SPDX-License-Identifier: MIT */
/*
 * report.h - the report stage: text on stdout (a line per comparison as it
 * is decided, then the verdict and the bottleneck chain), JSON (json.h) and
 * HTML (html.h).  All of them read the session and assign nothing.
 */
#ifndef PINPOINT_REPORT_H
#define PINPOINT_REPORT_H

#include <stdio.h>

#include "pinpoint/session.h"

/* The line of decided comparison @q (s->on_decided); nothing with --quiet. */
void pp_report_comparison(const struct pp_session *s, const struct pp_quantity *q);
/* The verdict: no regression, or the bottleneck chain; dropped executions. */
void pp_report_verdict(const struct pp_session *s, FILE *f);
/* "bridge: calls 0-1 (foo .. failure_run)" */
char *pp_quantity_label(const struct pp_quantity *q);
/* "failure_run", "own body of bridge", "added call audit": what a tree node names. */
char *pp_node_name(const struct pp_session *s, const struct pp_node *n);

/* Coefficient of variation of a series (sd / mean), NaN under 2 values or mean <= 0. */
double pp_series_cov(const struct pp_series *v);

#endif /* PINPOINT_REPORT_H */
