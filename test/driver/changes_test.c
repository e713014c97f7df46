// SPDX-License-Identifier: MIT
/*
 * changes_test.c - the statistics of --changes (pinpoint/changes/edivisive.c):
 * the E-Divisive statistic on series small enough to compute by hand, the
 * t-test between two segments against scipy, and change points found where
 * they were planted; and the commit a --history line records for a revision
 * directory (pinpoint/build/git.c), in a repository made here.
 *
 * The t-test's reference values were made with Debian 12's python3-scipy
 * 1.10.1 (apt-get install python3-scipy), by
 *
 *   /usr/bin/python3 -c "
 *   from scipy import stats
 *   import numpy as np
 *   for a, b in [([10.1,9.8,10.4,10.0,9.9], [10.9,11.2,10.7,11.0]),
 *                ([1.0,1.2,0.9], [1.1,1.0,1.3]),
 *                ([100,103,98,101,99,102,100], [104,101,105,103,106,102,104,105])]:
 *       r = stats.ttest_ind(b, a)
 *       m, n = len(a), len(b); df = m + n - 2
 *       sp = np.sqrt(((m-1)*np.var(a,ddof=1) + (n-1)*np.var(b,ddof=1)) / df)
 *       se = sp * np.sqrt(1/m + 1/n); d = np.mean(b) - np.mean(a)
 *       h = stats.t.ppf(0.975, df) * se
 *       print(repr(r.statistic), repr(r.pvalue), repr(d - h), repr(d + h))"
 *
 * (Student's t, pooled variance, after minus before, and its 95 % interval);
 * the numbers below are its output.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "pinpoint/build/git.h"
#include "pinpoint/changes/edivisive.h"

#include "check.h"

int pp_verbose;

/*
 * By hand (edivisive.h's Q, alpha = 1):
 *   0 0 | 1 1     across 4 x 1, within 0 and 0: Q = 4/4 * (2*4/4) = 2
 *   1 2 | 4 8     across 3+7+2+6 = 18, within 1 and 4: Q = 1 * (9 - 1 - 4) = 4
 *   0 0 0 | 3 3   across 6 x 3 = 18, within 0: Q = 6/5 * (2*18/6) = 7.2
 *   5 5 | 5 5     nothing differs: Q = 0
 */
static void statistic(void)
{
	static const double a[] = {0, 0, 1, 1}, b[] = {1, 2, 4, 8}, c[] = {0, 0, 0, 3, 3},
			    d[] = {5, 5, 5, 5};

	CHECK_CLOSE("0 0 | 1 1", "Q", pp_edivisive_q(a, 0, 2, 4), 2, 1e-12, 0);
	CHECK_CLOSE("1 2 | 4 8", "Q", pp_edivisive_q(b, 0, 2, 4), 4, 1e-12, 0);
	CHECK_CLOSE("0 0 0 | 3 3", "Q", pp_edivisive_q(c, 0, 3, 5), 7.2, 1e-12, 0);
	CHECK_CLOSE("5 5 | 5 5", "Q", pp_edivisive_q(d, 0, 2, 4), 0, 0, 1e-12);
	/* a side of one point has no within-side distance */
	CHECK(isnan(pp_edivisive_q(c, 0, 1, 5)), "Q of a one-point side is not NaN");
	/* a part of a longer series: x[1, 5) of 9 0 0 | 1 1 9 is the first case */
	{
		static const double e[] = {9, 0, 0, 1, 1, 9};

		CHECK_CLOSE("9 [0 0 | 1 1] 9", "Q", pp_edivisive_q(e, 1, 3, 5), 2, 1e-12, 0);
	}
}

static void ttest_case(const char *name, const double *a, size_t m, const double *b, size_t n,
		       double t, double p, double low, double high)
{
	double x[32];
	struct pp_cp cp;

	memcpy(x, a, m * sizeof(*x));
	memcpy(x + m, b, n * sizeof(*x));
	pp_cpd_ttest(x, 0, m, m + n, 0.95, &cp);
	CHECK_CLOSE(name, "t", cp.t, t, 1e-9, 0);
	CHECK_CLOSE(name, "p", cp.p, p, 1e-7, 0);
	CHECK_CLOSE(name, "low", cp.low, low, 1e-9, 1e-12);
	CHECK_CLOSE(name, "high", cp.high, high, 1e-9, 1e-12);
	CHECK(cp.df == (double)(m + n - 2), "%s: df %g", name, cp.df);
	CHECK(cp.index == m && cp.lo == 0 && cp.hi == m + n, "%s: segments", name);
}

static void ttest(void)
{
	static const double a1[] = {10.1, 9.8, 10.4, 10.0, 9.9}, b1[] = {10.9, 11.2, 10.7, 11.0};
	static const double a2[] = {1.0, 1.2, 0.9}, b2[] = {1.1, 1.0, 1.3};
	static const double a3[] = {100, 103, 98, 101, 99, 102, 100},
			    b3[] = {104, 101, 105, 103, 106, 102, 104, 105};
	static const double flat[] = {4, 4, 4, 6, 6, 6};
	struct pp_cp cp;

	ttest_case("5 | 4", a1, 5, b1, 4, 6.137211673187385, 0.0004734376676268462,
		   0.5593834361587497, 1.2606165638412505);
	ttest_case("3 | 3", a2, 3, b2, 3, 0.801783725737274, 0.4676047546093971,
		   -0.24628354456118978, 0.44628354456118996);
	ttest_case("7 | 8", a3, 7, b3, 8, 3.7930636764682433, 0.002236614237069374,
		   1.4296833247287979, 5.213173818128341);
	/* both sides constant: the difference is certain */
	pp_cpd_ttest(flat, 0, 3, 6, 0.95, &cp);
	CHECK(cp.p == 0 && cp.diff == 2 && cp.low == 2 && cp.high == 2,
	      "constant sides: p %g, diff %g [%g, %g]", cp.p, cp.diff, cp.low, cp.high);
}

/* A reproducible standard normal: Box-Muller on a 64-bit LCG. */
static double gauss(unsigned long long *s)
{
	double u, v;

	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	u = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	v = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void detect(void)
{
	struct pp_cpd_params par = PP_CPD_DEFAULTS;
	static const double steps[] = {0, 0, 0, 3, 3, 3};
	unsigned long long seed = 42;
	double x[80];
	struct pp_cp *cp;
	long k;

	/* two constant steps: one change point, between them */
	k = pp_edivisive(steps, 6, &par, &cp);
	CHECK(k == 1 && cp[0].index == 3 && cp[0].diff == 3, "0 0 0 3 3 3: %ld change points", k);
	free(cp);
	/* too short for a change point */
	k = pp_edivisive(steps, 5, &par, &cp);
	CHECK(k == 0 && !cp, "5 points: %ld change points", k);
	/* 80 points, 1 % noise, steps of +5 % at 30 and -4 % at 55 */
	for (int i = 0; i < 80; i++)
		x[i] =
		    100 * (1 + 0.01 * gauss(&seed)) * (i >= 30 ? 1.05 : 1) * (i >= 55 ? 0.96 : 1);
	k = pp_edivisive(x, 80, &par, &cp);
	CHECK(k == 2, "two steps: %ld change points", k);
	if (k == 2) {
		CHECK(cp[0].index == 30 && cp[1].index == 55, "two steps at %zu and %zu",
		      cp[0].index, cp[1].index);
		CHECK(cp[0].low < 5 && cp[0].high > 5 && cp[0].p <= par.p_max, "+5: [%g, %g] p %g",
		      cp[0].low, cp[0].high, cp[0].p);
		CHECK(cp[0].lo == 0 && cp[0].hi == 55 && cp[1].lo == 30 && cp[1].hi == 80,
		      "segments [%zu, %zu), [%zu, %zu)", cp[0].lo, cp[0].hi, cp[1].lo, cp[1].hi);
	}
	free(cp);
	/* no change: none */
	for (int i = 0; i < 80; i++)
		x[i] = 100 * (1 + 0.01 * gauss(&seed));
	k = pp_edivisive(x, 80, &par, &cp);
	CHECK(k == 0, "no change: %ld change points", k);
	free(cp);
	/* a value that is not finite is refused */
	x[3] = NAN;
	CHECK(pp_edivisive(x, 80, &par, &cp) == -EINVAL, "NaN accepted");
}

/* pp_git_head() in a repository of one commit, in a directory under it, and outside one. */
static void git_head(void)
{
	char dir[] = "/tmp/pp-changes-git.XXXXXX", cmd[512], sub[64], want[PP_GIT_HASH_LEN] = "";
	char got[PP_GIT_HASH_LEN];
	FILE *p;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %m");
		return;
	}
	snprintf(sub, sizeof(sub), "%s/build/current", dir);
	snprintf(cmd, sizeof(cmd),
		 "git init -q %s && git -C %s -c user.name=t -c user.email=t@example.com commit -q "
		 "--allow-empty -m night && mkdir -p %s && git -C %s rev-parse HEAD",
		 dir, dir, sub, dir);
	p = popen(cmd, "r");
	if (!p || !fgets(want, sizeof(want), p)) {
		printf(
		    "changes_test: no git to make a repository with: the commit is not checked\n");
	} else {
		want[strcspn(want, "\n")] = 0;
		CHECK(pp_git_head(dir, got) == 0 && !strcmp(got, want), "HEAD of %s: %s, not %s",
		      dir, got, want);
		CHECK(pp_git_head(sub, got) == 0 && !strcmp(got, want), "HEAD of %s: %s, not %s",
		      sub, got, want);
	}
	if (p)
		pclose(p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/.git", dir);
	CHECK(system(cmd) == 0, "%s", cmd);
	CHECK(pp_git_head(dir, got) == -ENOENT && !*got, "HEAD outside a work tree: %s", got);
	CHECK(pp_git_head("/nonexistent/pinpoint", got) == -ENOENT, "HEAD of a missing directory");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "%s", cmd);
}

int main(void)
{
	statistic();
	ttest();
	detect();
	git_head();
	return report("changes_test");
}
