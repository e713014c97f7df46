// SPDX-License-Identifier: MIT
/*
 * stats_sample.c - what the statistics files (stats.c, stats_rank.c,
 * stats_paired.c) need of a sample: finite values, a sorted copy, its ties,
 * GSL set to report errors instead of aborting.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>

#include "core/stats_internal.h"

static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

static void gsl_quiet(void)
{
	/* GSL's default handler aborts; we check every result instead. */
	gsl_set_error_handler_off();
}

void pp_stats_init(void)
{
	pthread_once(&gsl_once, gsl_quiet);
}

bool pp_all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

double pp_tie_sum(const double *s, size_t n)
{
	double sum = 0.0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && s[j] == s[i]; j++)
			;
		sum += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
	}
	return sum;
}

double *pp_sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		s[i] = x[i];
	gsl_sort(s, 1, n);
	return s;
}
