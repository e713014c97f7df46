// SPDX-License-Identifier: MIT
/*
 * stats_select.c - the k-th smallest of the pairwise differences y_j - x_i,
 * and of the Walsh averages (d_i + d_j) / 2, i <= j, of one sample.
 *
 * The Hodges-Lehmann estimates and the ends of their confidence intervals
 * are order statistics of all nx * ny differences (two samples) or of all
 * n (n + 1) / 2 Walsh averages (pairs).  With sorted samples either forms a
 * matrix sorted along rows and columns, so a randomised selection over it
 * needs O(rows) memory and O(rows log(cells)) expected time, instead of
 * storing and sorting millions of them.
 *
 * Differences: rows are y (ascending); in row j, column c holds
 * ys[j] - xs[nx - 1 - c], ascending in c.  Walsh averages: row j holds
 * (ds[c] + ds[j]) / 2 for c <= j, ascending in c.  Rounding of the
 * subtraction or of the halved sum is monotone, so the computed values keep
 * that order and the result is exactly one of them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/stats_internal.h"

/* The matrix the selection runs over. */
struct cells {
	const double *xs, *ys; /* Walsh: both the sorted sample */
	size_t nx, ny;	       /* columns and rows */
	int walsh;
};

static inline double cell(const struct cells *m, size_t j, size_t c)
{
	return m->walsh ? 0.5 * (m->xs[c] + m->ys[j]) : m->ys[j] - m->xs[m->nx - 1 - c];
}

/* The columns of row @j: all of them, or the triangle's c <= j. */
static inline size_t row_len(const struct cells *m, size_t j)
{
	return m->walsh && j + 1 < m->nx ? j + 1 : m->nx;
}

/*
 * Per row, how many cells are below @p (strictly when @strict) into
 * @cnt[j]; returns their sum.  Over the full width the boundary only moves
 * one way from row to row (rows grow with j, so the count can only shrink);
 * the triangle cuts it at its row's length.
 */
static uint64_t count_below(const struct cells *m, double p, int strict, size_t *cnt)
{
	uint64_t total = 0;
	size_t c = m->nx; /* cells [0, c) of the current row, full width, are below p */

	for (size_t j = 0; j < m->ny; j++) {
		size_t len = row_len(m, j);

		while (c > 0) {
			double v = cell(m, j, c - 1);

			if (strict ? v < p : v <= p)
				break;
			c--;
		}
		cnt[j] = c < len ? c : len;
		total += cnt[j];
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

static int select_kth(const struct cells *m, size_t k, double *out)
{
	size_t ny = m->ny, *lo = malloc(4 * (ny ? ny : 1) * sizeof(*lo)), *hi, *lt, *le;
	uint64_t state = 0x70696e706f696e74ULL;

	if (!lo)
		return -ENOMEM;
	hi = lo + ny;
	lt = hi + ny;
	le = lt + ny;
	for (size_t j = 0; j < ny; j++) {
		lo[j] = 0;
		hi[j] = row_len(m, j);
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
		p = cell(m, j, lo[j] + (size_t)r);
		below = count_below(m, p, 1, lt);
		upto = count_below(m, p, 0, le);
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

int pp_diff_select(const double *xs, size_t nx, const double *ys, size_t ny, size_t k, double *out)
{
	return select_kth(&(struct cells){xs, ys, nx, ny, 0}, k, out);
}

int pp_walsh_select(const double *ds, size_t n, size_t k, double *out)
{
	return select_kth(&(struct cells){ds, ds, n, n, 1}, k, out);
}
