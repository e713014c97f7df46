// SPDX-License-Identifier: MIT
/*
 * stats_select.c - the k-th smallest of the pairwise differences y_j - x_i,
 * and of the Walsh averages (d_i + d_j) / 2, i <= j, of one sample.
 *
 * The Hodges-Lehmann shift and the ends of its confidence interval are order
 * statistics of all nx * ny differences.  With sorted samples the differences
 * form a matrix sorted along rows and columns, so a randomised selection over
 * it needs O(nx + ny) memory and O((nx + ny) log(nx * ny)) expected time,
 * instead of storing and sorting millions of differences.
 *
 * Rows are y (ascending); in row j, column c holds ys[j] - xs[nx - 1 - c],
 * ascending in c.  Rounding of the subtraction is monotone, so the computed
 * differences keep that order and the result is exactly one of them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/stats_internal.h"

static inline double cell(const double *xs, size_t nx, const double *ys, size_t j, size_t c)
{
	return ys[j] - xs[nx - 1 - c];
}

/*
 * Per row, how many cells are below @p (strictly when @strict) into
 * @cnt[j]; returns their sum.  The boundary only moves one way from row to row.
 */
static uint64_t count_below(const double *xs, size_t nx, const double *ys, size_t ny, double p,
			    int strict, size_t *cnt)
{
	uint64_t total = 0;
	size_t c = nx; /* cells [0, c) of the current row are below p */

	for (size_t j = 0; j < ny; j++) {
		/* Rows grow with j, so the count can only shrink. */
		while (c > 0) {
			double v = cell(xs, nx, ys, j, c - 1);

			if (strict ? v < p : v <= p)
				break;
			c--;
		}
		cnt[j] = c;
		total += c;
	}
	return total;
}

/* splitmix64: a fixed seed keeps every result reproducible. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int pp_diff_select(const double *xs, size_t nx, const double *ys, size_t ny, size_t k, double *out)
{
	size_t *lo = malloc(4 * ny * sizeof(*lo)), *hi, *lt, *le;
	uint64_t state = 0x70696e706f696e74ULL;

	if (!lo)
		return -ENOMEM;
	hi = lo + ny;
	lt = hi + ny;
	le = lt + ny;
	for (size_t j = 0; j < ny; j++) {
		lo[j] = 0;
		hi[j] = nx;
	}
	for (;;) {
		uint64_t left = 0, r, below, upto;
		size_t j;
		double p;

		for (j = 0; j < ny; j++)
			left += hi[j] - lo[j];
		/* The answer always stays among the candidates, so left >= 1. */
		r = next_random(&state) % left;
		for (j = 0; r >= hi[j] - lo[j]; j++)
			r -= hi[j] - lo[j];
		p = cell(xs, nx, ys, j, lo[j] + (size_t)r);
		below = count_below(xs, nx, ys, ny, p, 1, lt);
		upto = count_below(xs, nx, ys, ny, p, 0, le);
		if (k < below) {
			for (j = 0; j < ny; j++)
				if (hi[j] > lt[j])
					hi[j] = lt[j];
		} else if (k >= upto) {
			for (j = 0; j < ny; j++)
				if (lo[j] < le[j])
					lo[j] = le[j];
		} else {
			*out = p;
			break;
		}
	}
	free(lo);
	return 0;
}

/*
 * The Walsh averages of sorted @ds form the lower triangle of a matrix
 * sorted along rows and columns: row j holds (ds[c] + ds[j]) / 2 for
 * c <= j, ascending in c.  Per row, how many are below @p (strictly when
 * @strict) into @cnt[j]; returns their sum.  Over the whole row the count
 * only shrinks as j grows, and the triangle cuts it at j + 1.
 */
static uint64_t walsh_below(const double *ds, size_t n, double p, int strict, size_t *cnt)
{
	uint64_t total = 0;
	size_t c = n; /* (ds[i] + ds[j]) / 2 < p for i < c, over the full row */

	for (size_t j = 0; j < n; j++) {
		while (c > 0) {
			double v = 0.5 * (ds[c - 1] + ds[j]);

			if (strict ? v < p : v <= p)
				break;
			c--;
		}
		cnt[j] = c < j + 1 ? c : j + 1;
		total += cnt[j];
	}
	return total;
}

int pp_walsh_select(const double *ds, size_t n, size_t k, double *out)
{
	size_t *lo = malloc(4 * n * sizeof(*lo)), *hi, *lt, *le;
	uint64_t state = 0x70696e706f696e74ULL;

	if (!lo)
		return -ENOMEM;
	hi = lo + n;
	lt = hi + n;
	le = lt + n;
	for (size_t j = 0; j < n; j++) {
		lo[j] = 0;
		hi[j] = j + 1;
	}
	for (;;) {
		uint64_t left = 0, r, below, upto;
		size_t j;
		double p;

		for (j = 0; j < n; j++)
			left += hi[j] - lo[j];
		r = next_random(&state) % left;
		for (j = 0; r >= hi[j] - lo[j]; j++)
			r -= hi[j] - lo[j];
		p = 0.5 * (ds[lo[j] + (size_t)r] + ds[j]);
		below = walsh_below(ds, n, p, 1, lt);
		upto = walsh_below(ds, n, p, 0, le);
		if (k < below) {
			for (j = 0; j < n; j++)
				if (hi[j] > lt[j])
					hi[j] = lt[j];
		} else if (k >= upto) {
			for (j = 0; j < n; j++)
				if (lo[j] < le[j])
					lo[j] = le[j];
		} else {
			*out = p;
			break;
		}
	}
	free(lo);
	return 0;
}
