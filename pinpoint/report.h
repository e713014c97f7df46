/* SPDX-License-Identifier: MIT */
/*
 * report.h - what pinpoint prints on stdout: a line per comparison as it is
 * decided, then the verdict and the bottleneck chain.
 */
#ifndef PINPOINT_REPORT_H
#define PINPOINT_REPORT_H

#include <stdio.h>

#include "pinpoint/session.h"

void pp_report_comparison(struct pp_session *s, struct pp_quantity *q);
void pp_report_verdict(struct pp_session *s, FILE *f);
/* "bridge: calls 0-1 (foo .. failure_run)" */
char *pp_quantity_label(const struct pp_quantity *q);
/* Median of @x with its distribution-free (order statistic) confidence interval. */
struct pp_interval pp_median_interval(const double *x, size_t n, double confidence);
/* The centre and interval of one revision's values as the chosen test sees them. */
struct pp_interval pp_revision_interval(const struct pp_session *s, const struct pp_quantity *q,
					int rev);

#endif /* PINPOINT_REPORT_H */
