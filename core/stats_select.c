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
 * storing and sorting millions of them: each pivot, a random candidate,
 * is placed by one pass over the rows, until few enough candidates are
 * left to read out and select among directly.
 *
 * Differences: rows are y (ascending); in row j, column c holds
 * ys[j] - xs[nx - 1 - c], ascending in c.  Walsh averages: row j holds
 * (ds[c] + ds[j]) / 2 for c <= j, ascending in c.  Rounding of the
 * subtraction or of the halved sum is monotone, so the computed values keep
 * that order and the result is exactly one of them.
 */
#include <errno.h>
#include <stddef.h>
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
 * Per row, how many cells are below @p into @lt[j], and how many are at or
 * below it into @le[j]; returns their sums in @below and @upto.  Over the
 * full width each boundary only moves one way from row to row (rows grow
 * with j, so the counts can only shrink); the triangle cuts them at its
 * row's length.
 */
static void count_below(const struct cells *m, double p, size_t *lt, size_t *le, uint64_t *below,
			uint64_t *upto)
{
	uint64_t nlt = 0, nle = 0;
	size_t a = m->nx, b = m->nx; /* cells [0, a) are < p, [0, b) <= p */

	for (size_t j = 0; j < m->ny; j++) {
		size_t len = row_len(m, j);

		while (b > 0 && cell(m, j, b - 1) > p)
			b--;
		if (a > b)
			a = b;
		while (a > 0 && cell(m, j, a - 1) >= p)
			a--;
		lt[j] = a < len ? a : len;
		le[j] = b < len ? b : len;
		nlt += lt[j];
		nle += le[j];
	}
	*below = nlt;
	*upto = nle;
}

/* The @k-th smallest (from 0) of @v[0..n), reordering it (Wirth's select). */
static double nth(double *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i++] = v[j];
				v[j--] = t;
			}
		}
		/* [lo, j] <= pivot <= [i, hi]; between them, the pivot's value */
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break;
	}
	return v[kk];
}

/* splitmix64: a fixed seed keeps every result reproducible. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Candidates left when the rest is read out and selected among directly:
 * the last halvings cost a pass over every row each, reading the few cells
 * left costs less.
 */
#define PP_SELECT_GATHER(ny) ((ny) < 1024 ? 4096 : 4 * (uint64_t)(ny))

static int select_kth(const struct cells *m, size_t k, double *out)
{
	size_t ny = m->ny, *lo = malloc(4 * (ny ? ny : 1) * sizeof(*lo)), *hi, *lt, *le;
	uint64_t state = 0x70696e706f696e74ULL;
	double *v;

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
		uint64_t left = 0, base = 0, r, below, upto;
		size_t j;
		double p;

		for (j = 0; j < ny; j++) {
			left += hi[j] - lo[j];
			base += lo[j];
		}
		/*
		 * The answer always stays among the candidates, so left >= 1;
		 * the cells left of them are those at or below the greatest
		 * pivot found below it (le grows with the pivot, row by row),
		 * so it is the (k - base)-th of them.
		 */
		if (left <= PP_SELECT_GATHER(ny) && (v = malloc(left * sizeof(*v)))) {
			size_t n = 0;

			for (j = 0; j < ny; j++)
				for (size_t c = lo[j]; c < hi[j]; c++)
					v[n++] = cell(m, j, c);
			*out = nth(v, n, (size_t)(k - base));
			free(v);
			break;
		}
		r = next_random(&state) % left;
		for (j = 0; r >= hi[j] - lo[j]; j++)
			r -= hi[j] - lo[j];
		p = cell(m, j, lo[j] + (size_t)r);
		count_below(m, p, lt, le, &below, &upto);
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
