/* SPDX-License-Identifier: MIT */
/*
 * log.h - the driver's messages.  Errors are one line on stderr prefixed
 * "pinpoint: "; pr_dbg only prints with --verbose.
 */
#ifndef PINPOINT_LOG_H
#define PINPOINT_LOG_H

#include <stdio.h>

extern int pp_verbose; /* 0 normal, 1 --verbose, -1 --quiet */
/* What an error line is about, before its message ("" but while --replay reads its options). */
extern const char *pp_log_where;

#define pr_err(fmt, ...)                                                                           \
	fprintf(stderr, "pinpoint: error: %s" fmt "\n", pp_log_where, ##__VA_ARGS__)
#define pr_warn(fmt, ...) fprintf(stderr, "pinpoint: warning: " fmt "\n", ##__VA_ARGS__)
#define pr_info(fmt, ...)                                                                          \
	do {                                                                                       \
		if (pp_verbose >= 0)                                                               \
			fprintf(stderr, "pinpoint: " fmt "\n", ##__VA_ARGS__);                     \
	} while (0)
#define pr_dbg(fmt, ...)                                                                           \
	do {                                                                                       \
		if (pp_verbose > 0)                                                                \
			fprintf(stderr, "pinpoint: %s:%d: " fmt "\n", __FILE__, __LINE__,          \
				##__VA_ARGS__);                                                    \
	} while (0)

/* Exit codes, usable by `git bisect run` (0 good, 1 bad, 125 skip is not used). */
enum pp_exit {
	PP_EXIT_NO_REGRESSION = 0,
	PP_EXIT_REGRESSION = 1,
	PP_EXIT_USAGE = 2,
	PP_EXIT_MEASUREMENT = 3,
	PP_EXIT_UNDECIDED = 4,	   /* the entry's comparison spent its runs undecided */
	PP_EXIT_INTERRUPTED = 130, /* a signal stopped it (signals.h) */
};

#endif /* PINPOINT_LOG_H */
