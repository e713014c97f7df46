/* SPDX-License-Identifier: MIT */
/*
 * report.h - the report stage: text on stdout (a line per comparison as it
 * is decided, then the verdict and the bottleneck chain), JSON (json.h) and
 * HTML (html.h).  All of them format the outcome (session/outcome.h) and
 * compute nothing of their own.
 */
#ifndef PINPOINT_REPORT_H
#define PINPOINT_REPORT_H

#include <stdio.h>

#include "pinpoint/session/outcome.h"

/* ---- text.c ---- */

/*
 * The line of decided comparison @q of session @s (s->on_decided; nothing
 * with --quiet): pp_outcome_live() makes it, text.c prints it.
 */
struct pp_session;
struct pp_quantity;
void pp_report_comparison(const struct pp_session *s, const struct pp_quantity *q);
/* The line of comparison @c as decided, on @f. */
void pp_report_cmp_line(const struct pp_outcome_cmp *c, FILE *f);
/* The verdict: no regression, or the bottleneck chain; dropped executions. */
void pp_report_verdict(const struct pp_outcome *o, FILE *f);

/* ---- common.c: what every format prints the same way ---- */

/* A time, or "-inf"/"+inf" for the open end of an interval. */
const char *pp_fmt_end(double ns, char *buf, unsigned len);

/*
 * What the count and the arming plan of searched function @n came to, in
 * words ("48 of its 505 calls ran; counted in 7 rounds of runs"; "armed: its
 * parts' probes +0.4 % of the run, 25 calls untimed"), and what the probes
 * of call or callee group @n were planned to cost ("armed: its probes +1.2 %
 * of the run", where 0.1 % or more; before the former where it is both), into
 * @buf; NULL where there is nothing to say.
 */
const char *pp_fmt_counted(const struct pp_outcome_node *n, char *buf, unsigned len);
const char *pp_fmt_armed(const struct pp_outcome_node *n, char *buf, unsigned len);

#endif /* PINPOINT_REPORT_H */
