// SPDX-License-Identifier: MIT
/*
 * stats_nested.c - runs nested in code layouts.
 *
 * A revision measured under several code layouts gives runs whose values
 * share their layout's effect: runs of one layout are not independent
 * draws, and an interval that treats them so is too narrow whenever the
 * layout moves the program (Kalibera and Jones, "Rigorous benchmarking in
 * reasonable time", ISMM 2013, where a build is a random level of the
 * experiment).  The unit of comparison is then the layout: the mean of
 * each layout's runs (pp_layout_means), compared between the revisions by
 * the session's test as runs were (the layouts of a revision are drawn at
 * random and independently of the other revision's, so its layout means are
 * independent draws).  pp_layout_components tells how much of a revision's
 * spread comes from layout: the one-way random-effects model x = mu + L_j +
 * e_ij, its variance components by the method of moments with unequal
 * numbers of runs per layout (Searle, Casella and McCulloch, Variance
 * Components, Wiley 1992, section 3.6: n0 = (N - sum n_j^2 / N) / (k - 1)).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/stats.h"
#include "core/stats_internal.h"

int pp_layout_means(const double *x, const unsigned *layout, size_t n, double *means,
		    size_t *nmeans)
{
	unsigned top = 0;
	double *sum;
	size_t *cnt, k = 0;

	if (!x || !layout || !means || !nmeans || !pp_all_finite(x, n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		top = layout[i] > top ? layout[i] : top;
	sum = calloc((size_t)top + 1, sizeof(*sum));
	cnt = calloc((size_t)top + 1, sizeof(*cnt));
	if (!sum || !cnt) {
		free(sum);
		free(cnt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		sum[layout[i]] += x[i];
		cnt[layout[i]]++;
	}
	/* in the order the layouts first appear */
	for (size_t i = 0; i < n; i++) {
		unsigned j = layout[i];

		if (!cnt[j])
			continue;
		means[k++] = sum[j] / (double)cnt[j];
		cnt[j] = 0;
	}
	*nmeans = k;
	free(sum);
	free(cnt);
	return 0;
}

int pp_layout_components(const double *x, const unsigned *layout, size_t n,
			 struct pp_layout_var *out)
{
	unsigned top = 0;
	double *sum = NULL, grand = 0, ssb = 0, ssw = 0, sumsq_n = 0;
	size_t *cnt = NULL, k = 0;
	int ret = 0;

	if (!x || !layout || !out || n < 2 || !pp_all_finite(x, n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		top = layout[i] > top ? layout[i] : top;
	sum = calloc((size_t)top + 1, sizeof(*sum));
	cnt = calloc((size_t)top + 1, sizeof(*cnt));
	if (!sum || !cnt) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		sum[layout[i]] += x[i];
		cnt[layout[i]]++;
		grand += x[i];
	}
	grand /= (double)n;
	for (unsigned j = 0; j <= top; j++) {
		double m;

		if (!cnt[j])
			continue;
		k++;
		m = sum[j] / (double)cnt[j];
		ssb += (double)cnt[j] * (m - grand) * (m - grand);
		sumsq_n += (double)cnt[j] * (double)cnt[j];
	}
	for (size_t i = 0; i < n; i++) {
		double m = sum[layout[i]] / (double)cnt[layout[i]];

		ssw += (x[i] - m) * (x[i] - m);
	}
	out->layouts = k;
	out->runs = n;
	if (k < 2 || n <= k) {
		ret = -ENODATA; /* one layout, or one run a layout: the parts cannot be told */
		goto out;
	}
	{
		double msb = ssb / (double)(k - 1), msw = ssw / (double)(n - k);
		double n0 = ((double)n - sumsq_n / (double)n) / (double)(k - 1);

		out->within = msw;
		out->between = (msb - msw) / n0;
		if (out->between < 0)
			out->between = 0; /* the estimate can come out negative: none seen */
		out->share = out->between + out->within > 0
				 ? out->between / (out->between + out->within)
				 : 0;
	}
out:
	free(sum);
	free(cnt);
	return ret;
}
