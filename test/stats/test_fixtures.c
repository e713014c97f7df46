// SPDX-License-Identifier: MIT
/*
 * test_fixtures.c - check every statistics function against the reference
 * values R computed for the same samples (fixtures.txt, made by
 * make_fixtures.R; the line formats are described there).
 *
 * Usage: test-stats-fixtures FIXTURES
 *
 * Deterministic quantities must agree to 1e-9 relative.  Interval ends that
 * R finds with uniroot (tol.root = 1e-13) agree to 1e-9 relative plus 1e-12
 * of the data's magnitude, since an exact end of 0 comes back from R as
 * some 1e-14.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "check.h"

#define REL 1e-9
#define ROOT_REL 1e-9

struct tokens {
	char *save;
	const char *name;
	int bad;
};

static double num(struct tokens *t)
{
	char *s = strtok_r(NULL, " \t\n", &t->save), *end;
	double v;

	if (!s) {
		t->bad = 1;
		return 0.0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno == EINVAL)
		t->bad = 1;
	return v;
}

static size_t count(struct tokens *t)
{
	double v = num(t);

	if (v < 0 || v != (double)(size_t)v)
		t->bad = 1;
	return t->bad ? 0 : (size_t)v;
}

/* A sample: its length then its values. */
static double *sample(struct tokens *t, size_t *n)
{
	double *x;

	*n = count(t);
	x = malloc((*n ? *n : 1) * sizeof(*x));
	if (!x) {
		t->bad = 1;
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		x[i] = num(t);
	return x;
}

/* Largest magnitude among the values: the scale of the absolute tolerance. */
static double scale(const double *x, size_t n)
{
	double m = 0.0;

	for (size_t i = 0; i < n; i++)
		if (fabs(x[i]) > m)
			m = fabs(x[i]);
	return m;
}

static void check_summary(struct tokens *t)
{
	double conf = num(t), want[7];
	size_t n;
	double *x = sample(t, &n);
	struct pp_summary s;
	int err;

	for (int i = 0; i < 7; i++)
		want[i] = num(t);
	if (t->bad)
		goto out;
	err = pp_summarize(x, n, conf, &s);
	CHECK(err == 0, "%s: pp_summarize returned %d", t->name, err);
	if (err)
		goto out;
	double abs = 1e-13 * scale(x, n);

	CHECK(s.n == n, "%s: n = %zu", t->name, s.n);
	CHECK_CLOSE(t->name, "mean", s.mean, want[0], REL, abs);
	CHECK_CLOSE(t->name, "sd", s.sd, want[1], REL, abs);
	CHECK_CLOSE(t->name, "median", s.median, want[2], REL, abs);
	CHECK_CLOSE(t->name, "min", s.min, want[3], 0, 0);
	CHECK_CLOSE(t->name, "max", s.max, want[4], 0, 0);
	CHECK_CLOSE(t->name, "ci.low", s.ci.low, want[5], REL, abs);
	CHECK_CLOSE(t->name, "ci.high", s.ci.high, want[6], REL, abs);
	CHECK_CLOSE(t->name, "ci.centre", s.ci.centre, want[0], REL, abs);
out:
	free(x);
}

/* A case of two samples: CONF X Y and six wanted values (pairs: as many in X as in Y). */
struct two {
	double conf, want[6], *x, *y, abs;
	size_t nx, ny;
};

static int read_two(struct tokens *t, struct two *c, bool paired)
{
	c->conf = num(t);
	c->x = sample(t, &c->nx);
	c->y = sample(t, &c->ny);
	for (int i = 0; i < 6; i++)
		c->want[i] = num(t);
	if (paired && c->nx != c->ny)
		t->bad = 1;
	c->abs = 1e-13 * fmax(scale(c->x, c->nx), scale(c->y, c->ny));
	return t->bad ? -1 : 0;
}

/* "welch" (pp_compare) and "pt" (pp_compare_paired): DIFF LOW HIGH STATISTIC DF P. */
static void check_means(struct tokens *t, bool paired)
{
	struct two w;
	struct pp_comparison c;
	int err;

	if (read_two(t, &w, paired))
		goto out;
	err = paired ? pp_compare_paired(PP_TEST_WELCH, w.x, w.y, w.nx, w.conf, &c)
		     : pp_compare(PP_TEST_WELCH, w.x, w.nx, w.y, w.ny, w.conf, &c);
	CHECK(err == 0, "%s: comparison returned %d", t->name, err);
	if (err)
		goto out;
	CHECK(c.test == PP_TEST_WELCH && c.confidence == w.conf && c.paired == paired,
	      "%s: test/confidence/pairing not kept", t->name);
	CHECK_CLOSE(t->name, "diff", c.diff.centre, w.want[0], REL, w.abs);
	CHECK_CLOSE(t->name, "low", c.diff.low, w.want[1], REL, w.abs);
	CHECK_CLOSE(t->name, "high", c.diff.high, w.want[2], REL, w.abs);
	CHECK_CLOSE(t->name, "statistic", c.statistic, w.want[3], REL, 1e-13);
	CHECK_CLOSE(t->name, "df", c.df, w.want[4], REL, 0);
	CHECK_CLOSE(t->name, "p", c.p_value, w.want[5], REL, 0);
	CHECK(c.significant == (w.want[1] > 0 || w.want[2] < 0), "%s: significant = %d", t->name,
	      c.significant);
	CHECK(!c.exact, "%s: exact set for Welch", t->name);
out:
	free(w.x);
	free(w.y);
}

/*
 * "mw" (pp_compare) and "sr" (pp_compare_paired): EXACT U|V P HL LOW HIGH.
 * Interval ends are differences or Walsh averages; R's root search stops
 * within 1e-13 of them.
 */
static void check_ranks(struct tokens *t, bool paired)
{
	struct two w;
	struct pp_comparison c;
	int err;

	if (read_two(t, &w, paired))
		goto out;
	err = paired ? pp_compare_paired(PP_TEST_MANN_WHITNEY, w.x, w.y, w.nx, w.conf, &c)
		     : pp_compare(PP_TEST_MANN_WHITNEY, w.x, w.nx, w.y, w.ny, w.conf, &c);
	CHECK(err == 0, "%s: comparison returned %d", t->name, err);
	if (err)
		goto out;
	double spread = scale(w.x, w.nx) + scale(w.y, w.ny);
	double end_abs = w.want[0] != 0.0 ? 1e-13 * spread : 1e-12 * spread;

	CHECK(c.test == PP_TEST_MANN_WHITNEY && c.paired == paired, "%s: test/pairing not kept",
	      t->name);
	CHECK(c.exact == (w.want[0] != 0.0), "%s: exact = %d, want %g", t->name, c.exact,
	      w.want[0]);
	CHECK_CLOSE(t->name, paired ? "V" : "U", c.statistic, w.want[1], 0, 0);
	CHECK_CLOSE(t->name, "p", c.p_value, w.want[2], REL, 0);
	CHECK_CLOSE(t->name, "HL", c.diff.centre, w.want[3], REL, 1e-13 * spread);
	CHECK_CLOSE(t->name, "low", c.diff.low, w.want[4], ROOT_REL, end_abs);
	CHECK_CLOSE(t->name, "high", c.diff.high, w.want[5], ROOT_REL, end_abs);
	CHECK(c.df == 0.0, "%s: df = %g", t->name, c.df);
	CHECK(c.significant == (c.diff.low > 0 || c.diff.high < 0), "%s: significant = %d", t->name,
	      c.significant);
	/* Where an end is zero R's value only approximates it: compare the decision away from 0. */
	if (fabs(w.want[4]) > end_abs && fabs(w.want[5]) > end_abs)
		CHECK(c.significant == (w.want[4] > 0 || w.want[5] < 0), "%s: significance differs",
		      t->name);
out:
	free(w.x);
	free(w.y);
}

static void check_mwtest(struct tokens *t)
{
	size_t nx, ny;
	double *x = sample(t, &nx), *y = sample(t, &ny), want[3];
	struct pp_comparison c;
	int err;

	for (int i = 0; i < 3; i++)
		want[i] = num(t);
	if (t->bad)
		goto out;
	err = pp_compare(PP_TEST_MANN_WHITNEY, x, nx, y, ny, 0.95, &c);
	CHECK(err == 0, "%s: pp_compare returned %d", t->name, err);
	if (err)
		goto out;
	CHECK(c.exact == (want[0] != 0.0), "%s: exact = %d", t->name, c.exact);
	CHECK_CLOSE(t->name, "U", c.statistic, want[1], 0, 0);
	CHECK_CLOSE(t->name, "p", c.p_value, want[2], REL, 0);
	/* Both samples constant: every difference, hence the shift and its interval, is y - x. */
	double d = y[0] - x[0];

	CHECK_CLOSE(t->name, "HL", c.diff.centre, d, 0, 0);
	CHECK_CLOSE(t->name, "low", c.diff.low, d, 0, 0);
	CHECK_CLOSE(t->name, "high", c.diff.high, d, 0, 0);
	CHECK(c.significant == (d != 0.0), "%s: significant = %d", t->name, c.significant);
out:
	free(x);
	free(y);
}

static void check_mser(struct tokens *t)
{
	size_t batch = count(t), n, skip = 0;
	double *x = sample(t, &n);
	double want_rc = num(t), want_skip = num(t);
	int err;

	if (t->bad)
		goto out;
	err = pp_warmup_mser(x, n, batch, &skip);
	if (want_rc != 0.0) {
		CHECK(err == -ENODATA, "%s: pp_warmup_mser returned %d, want -ENODATA", t->name,
		      err);
		goto out;
	}
	CHECK(err == 0, "%s: pp_warmup_mser returned %d", t->name, err);
	CHECK((double)skip == want_skip, "%s: skip = %zu, want %g", t->name, skip, want_skip);
out:
	free(x);
}

static void check_varcomp(struct tokens *t)
{
	size_t rows = count(t), n = count(t), nb, nx;
	double *b = sample(t, &nb), *x = sample(t, &nx), want[7];
	unsigned *block = NULL;
	struct pp_varcomp vc;
	int err;

	for (int i = 0; i < 7; i++)
		want[i] = num(t);
	if (t->bad || !b || !x || nb != rows || nx != rows * n) {
		t->bad = 1;
		goto out;
	}
	block = malloc(rows * sizeof(*block));
	if (!block) {
		t->bad = 1;
		goto out;
	}
	for (size_t i = 0; i < rows; i++)
		block[i] = (unsigned)b[i];
	err = pp_variance_components(x, rows, n, block, &vc);
	CHECK(err == 0, "%s: pp_variance_components returned %d", t->name, err);
	if (err)
		goto out;
	/* Sums of squares of values of size ~s: R's rounding is ~1e-16 * s^2 apart. */
	double abs_tol = 1e-12 * scale(x, nx) * scale(x, nx);

	CHECK_CLOSE(t->name, "ms_within", vc.ms_within, want[0], REL, abs_tol);
	CHECK_CLOSE(t->name, "ms_between", vc.ms_between, want[1], REL, abs_tol);
	CHECK_CLOSE(t->name, "within", vc.within, want[2], REL, abs_tol);
	CHECK_CLOSE(t->name, "between", vc.between, want[3], REL, abs_tol);
	CHECK_CLOSE(t->name, "within_long", vc.within_long, want[4], REL, abs_tol);
	CHECK_CLOSE(t->name, "between_long", vc.between_long, want[5], REL, abs_tol);
	CHECK(vc.df_within == rows * (n - 1), "%s: df_within %zu", t->name, vc.df_within);
	double k = pp_executions_per_run(&vc, 3.0, 2.0);

	if (isinf(want[6]))
		CHECK(isinf(k), "%s: k = %g, want inf", t->name, k);
	else
		CHECK_CLOSE(t->name, "k", k, want[6], 1e-7, 0);
out:
	free(block);
	free(b);
	free(x);
}

int main(int argc, char **argv)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	int cases = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1], strerror(errno));
		return 2;
	}
	while (getline(&line, &cap, f) > 0) {
		struct tokens t = {0};
		char *kind;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		kind = strtok_r(line, " \t\n", &t.save);
		t.name = strtok_r(NULL, " \t\n", &t.save);
		if (!kind || !t.name) {
			CHECK(0, "line %zu: malformed", lineno);
			continue;
		}
		if (!strcmp(kind, "summary"))
			check_summary(&t);
		else if (!strcmp(kind, "welch"))
			check_means(&t, false);
		else if (!strcmp(kind, "mw"))
			check_ranks(&t, false);
		else if (!strcmp(kind, "mwtest"))
			check_mwtest(&t);
		else if (!strcmp(kind, "sr"))
			check_ranks(&t, true);
		else if (!strcmp(kind, "pt"))
			check_means(&t, true);
		else if (!strcmp(kind, "mser"))
			check_mser(&t);
		else if (!strcmp(kind, "varcomp"))
			check_varcomp(&t);
		else
			t.bad = 1;
		if (!t.bad && strtok_r(NULL, " \t\n", &t.save))
			t.bad = 1;
		CHECK(!t.bad, "line %zu (%s %s): malformed fixture", lineno, kind, t.name);
		cases++;
	}
	free(line);
	fclose(f);
	/* An empty or truncated file must not pass silently. */
	CHECK(cases >= 70, "only %d fixture cases read", cases);
	printf("%d fixture cases\n", cases);
	return report(argv[0]);
}
