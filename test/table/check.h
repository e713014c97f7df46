/* SPDX-License-Identifier: MIT */
/* check.h - the assertions of the table and results tests. */
#ifndef PP_TEST_CHECK_H
#define PP_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#define CHECK_INT(a, b)                                                                            \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		if (a_ != b_) {                                                                    \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__,      \
				__LINE__, #a, a_, #b, b_);                                         \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *a_ = (a), *b_ = (b);                                                   \
		if (!a_ || !b_ || strcmp(a_, b_)) {                                                \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,        \
				__LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");             \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* @hay contains @needle. */
#define CHECK_HAS(hay, needle)                                                                     \
	do {                                                                                       \
		const char *h_ = (hay), *n_ = (needle);                                            \
		if (!h_ || !strstr(h_, n_)) {                                                      \
			fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__,       \
				__LINE__, h_ ? h_ : "(null)", n_);                                 \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

struct test {
	const char *name;
	void (*fn)(void);
};

/* Run the test named argv[1] (or all); the exit status is the verdict. */
static int run_tests(const struct test *tests, size_t n, const char *only)
{
	size_t i;
	int ran = 0;

	for (i = 0; i < n; i++) {
		if (only && strcmp(only, tests[i].name))
			continue;
		int before = failures;

		tests[i].fn();
		ran++;
		printf("%s %s\n", failures == before ? "ok  " : "FAIL", tests[i].name);
	}
	if (!ran) {
		fprintf(stderr, "no test named %s\n", only ? only : "");
		return 2;
	}
	return failures ? 1 : 0;
}

#endif /* PP_TEST_CHECK_H */
