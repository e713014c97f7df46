/* SPDX-License-Identifier: MIT */
/*
 * check.h - the few assertion helpers the statistics tests share: each failed
 * check prints one line and is counted; main() returns non-zero if any failed.
 */
#ifndef PP_TEST_STATS_CHECK_H
#define PP_TEST_STATS_CHECK_H

#include <math.h>
#include <stdio.h>

static int failures;
static int checks;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		checks++;                                                                          \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                      \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

/* |got - want| within rel * |want| + abs; both infinite of the same sign also match. */
static inline int close_to(double got, double want, double rel, double abs)
{
	if (isinf(want))
		return got == want;
	return isfinite(got) && fabs(got - want) <= rel * fabs(want) + abs;
}

#define CHECK_CLOSE(name, field, got, want, rel, abs)                                              \
	CHECK(close_to((got), (want), (rel), (abs)), "%s: %s = %.17g, want %.17g (diff %.3g)",     \
	      (name), (field), (double)(got), (double)(want), (double)(got) - (double)(want))

static inline int report(const char *prog)
{
	printf("%s: %d checks, %d failed\n", prog, checks, failures);
	return failures ? 1 : 0;
}

#endif /* PP_TEST_STATS_CHECK_H */
