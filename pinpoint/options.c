// SPDX-License-Identifier: MIT
/*
 * options.c - one option table drives getopt_long, --help and validation.
 *
 *   pinpoint --entry FUNC --depth N --previous DIR [--current DIR] [options]
 *            [-- COMMAND [ARGS]]
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/log.h"
#include "pinpoint/options.h"
#include "core/paths.h"

#ifndef PP_VERSION
#define PP_VERSION "0"
#endif

enum {
	OPT_ENTRY = 'e',
	OPT_DEPTH = 'd',
	OPT_PREVIOUS = 'p',
	OPT_CURRENT = 'c',
	OPT_MEASUREMENTS = 'n',
	OPT_WARMUPS = 'w',
	OPT_HELP = 'h',
	OPT_QUIET = 'q',
	OPT_VERBOSE = 'v',
	OPT_CONFIDENCE = 256,
	OPT_PRECISION,
	OPT_REMEASURE,
	OPT_MAX_RUNS,
	OPT_MAX_RUNS_CMP,
	OPT_EXECUTIONS,
	OPT_MAX_TIME,
	OPT_CPU,
	OPT_SEED,
	OPT_TIMEOUT,
	OPT_EXCLUDE,
	OPT_SEARCH,
	OPT_MAX_PATHS,
	OPT_TEST,
	OPT_TIMING,
	OPT_JSON,
	OPT_HTML,
	OPT_VERSION,
	OPT_NO_SAVE,
	OPT_BUILD_CMD,
	OPT_BUILD_ROOT,
	OPT_NO_BUILD,
	OPT_PRINT_PLUGIN,
	OPT_PRINT_RUNTIME,
	OPT_BISECT,
	OPT_COMMITS,
	OPT_HISTORY,
};

struct pp_option_desc {
	const char *name;
	int has_arg;
	int val;
	const char *arg;
	const char *help;
};

static const struct pp_option_desc options[] = {
    {"entry", required_argument, OPT_ENTRY, "FUNC",
     "function to inspect (layer 0); FILE:FUNC picks one of several static functions"},
    {"depth", required_argument, OPT_DEPTH, "N", "deepest layer to dig into (default 3)"},
    {"previous", required_argument, OPT_PREVIOUS, "DIR",
     "build directory of the previous (accepted) revision"},
    {"current", required_argument, OPT_CURRENT, "DIR",
     "build directory of the current revision (default: .)"},
    {"measurements", required_argument, OPT_MEASUREMENTS, "N",
     "runs per revision in each round of a comparison (default 10)"},
    {"max-runs", required_argument, OPT_MAX_RUNS, "N",
     "runs the whole session may use, both revisions and warm-ups (default 30000, 0: no limit)"},
    {"max-runs-per-comparison", required_argument, OPT_MAX_RUNS_CMP, "N",
     "runs per revision after which a comparison is undecided (default 3000)"},
    {"max-time", required_argument, OPT_MAX_TIME, "S",
     "seconds the session may measure for; comparisons it cannot pay for are undecided "
     "(default 1800, 0: no limit)"},
    {"executions", required_argument, OPT_EXECUTIONS, "auto|all|N",
     "end each run after the entry's N-th execution (auto: as many as measure best for "
     "the time, from the first runs; all: never)"},
    {"warmups", required_argument, OPT_WARMUPS, "N",
     "runs per revision discarded before each round of runs (default 0: the discovery runs "
     "warm up)"},
    {"confidence", required_argument, OPT_CONFIDENCE, "P",
     "confidence level in percent (default 95)"},
    {"precision-threshold", required_argument, OPT_PRECISION, "P",
     "smallest slowdown reported, in percent of the entry's time (default 1)"},
    {"re-measurement", required_argument, OPT_REMEASURE, "N",
     "deprecated, ignored: comparisons are measured until decided (see --max-runs)"},
    {"timeout", required_argument, OPT_TIMEOUT, "S",
     "seconds one run may take (default: 20x the first run, at least 60)"},
    {"cpu", required_argument, OPT_CPU, "LIST", "pin every run to these CPUs, e.g. 2 or 0,2-3"},
    {"seed", required_argument, OPT_SEED, "N",
     "seed of the runs' random order (default: drawn anew; the report records it)"},
    {"exclude", required_argument, OPT_EXCLUDE, "PATTERN",
     "never dig into functions matching this glob (repeatable)"},
    {"search", required_argument, OPT_SEARCH, "attrib|seed|linear",
     "attribution search (default), the method's BinaryFind (seed) or LinearFind"},
    {"max-paths", required_argument, OPT_MAX_PATHS, "N",
     "calls the attribution search digs into, at most (default 8)"},
    {"test", required_argument, OPT_TEST, "mann-whitney|welch",
     "statistical test (default mann-whitney)"},
    {"timing", required_argument, OPT_TIMING, "sampled|all",
     "how armed calls are timed: sampled (default) times a random one in 8 executions of a "
     "short call site made thousands of times, counting every one; all times every execution"},
    {"json", required_argument, OPT_JSON, "FILE", "write the whole session as JSON"},
    {"html", required_argument, OPT_HTML, "FILE",
     "write a self-contained HTML report with every comparison plotted"},
    {"no-save-command", no_argument, OPT_NO_SAVE, NULL,
     "do not remember COMMAND in DIR/.pinpoint/command"},
    {"build-cmd", required_argument, OPT_BUILD_CMD, "CMD",
     "build each revision with `sh -c CMD` in its directory, CC/CXX set to pinpoint-cc/-c++"},
    {"build-root", required_argument, OPT_BUILD_ROOT, "DIR",
     "where instrumented copies of CMake builds go (default ~/.cache/pinpoint/builds)"},
    {"no-build", no_argument, OPT_NO_BUILD, NULL,
     "use the build directories as they are, build nothing"},
    {"bisect", no_argument, OPT_BISECT, NULL,
     "exit status for `git bisect run`: 0 good, 1 bad (slower), 125 skip (no build, "
     "no decision), 128 abort"},
    {"commits", required_argument, OPT_COMMITS, "GOOD..BAD",
     "find the first commit of a git range that made FUNC slower, then the call"},
    {"history", required_argument, OPT_HISTORY, "FILE",
     "append the entry's figures and the verdict to FILE (JSON lines) for trends"},
    {"quiet", no_argument, OPT_QUIET, NULL, "print only the verdict"},
    {"verbose", no_argument, OPT_VERBOSE, NULL, "print every run"},
    {"help", no_argument, OPT_HELP, NULL, "print this help"},
    {"version", no_argument, OPT_VERSION, NULL, "print the version"},
    {"print-plugin-path", no_argument, OPT_PRINT_PLUGIN, NULL,
     "print the path of the pass plugin (for clang -fpass-plugin=)"},
    {"print-runtime-path", no_argument, OPT_PRINT_RUNTIME, NULL,
     "print the path of the shared runtime instrumented programs link"},
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static void print_help(void)
{
	printf("usage: pinpoint --entry FUNC --previous DIR [--current DIR] [options] "
	       "[-- COMMAND [ARGS...]]\n\n"
	       "Measures FUNC in the previous and current builds and, if it got slower,\n"
	       "narrows the slowdown down through its calls, layer by layer, to the call\n"
	       "that costs it.  COMMAND runs in each build directory; when omitted, the\n"
	       "command of the last session on the current directory is reused.\n\n"
	       "options:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		char left[64];
		const struct pp_option_desc *o = &options[i];
		int shortopt = o->val < 256 ? o->val : 0;

		if (shortopt)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", shortopt, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		printf("  %-36s %s\n", left, o->help);
	}
	printf("\nexit status: 0 no regression, 1 regression pinpointed, 2 usage or input error,\n"
	       "3 measurement failed, 4 undecided (the entry's comparison could not be decided\n"
	       "within its runs), 130 interrupted; with --bisect: 0 good, 1 bad, 125 skip,\n"
	       "128 abort.\n");
}

/* --print-*-path: 1 when printed, like --help; -ENOENT after one error line. */
static int print_path(enum pp_path_kind kind)
{
	char path[PATH_MAX];
	int err = pp_path_find(kind, path, sizeof(path));

	if (err) {
		pr_err("%s: %s", path, strerror(-err));
		return err;
	}
	printf("%s\n", path);
	return 1;
}

static int parse_int(const char *opt, const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		pr_err("--%s: '%s' is not an integer in [%d, %d]", opt, s, min, max);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

static int parse_double(const char *opt, const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max)) {
		pr_err("--%s: '%s' is not a number in [%g, %g]", opt, s, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/*
 * --cpu LIST: comma-separated CPU numbers and ranges (0,2-3), each CPU one
 * this process may run on.  -EINVAL after one error line.
 */
static int parse_cpus(const char *list, cpu_set_t *set)
{
	cpu_set_t allowed;
	const char *p = list;

	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	do {
		char *end;
		unsigned long a, b;

		errno = 0;
		if (*p < '0' || *p > '9')
			goto bad;
		a = strtoul(p, &end, 10);
		b = a;
		if (!errno && *end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtoul(p, &end, 10);
		}
		if (errno || a > b || b >= CPU_SETSIZE || (*end && *end != ','))
			goto bad;
		for (unsigned long c = a; c <= b; c++) {
			if (!CPU_ISSET(c, &allowed)) {
				pr_err("--cpu: CPU %lu is not available to pinpoint (see "
				       "/sys/devices/system/cpu/online and its affinity)",
				       c);
				return -EINVAL;
			}
			CPU_SET(c, set);
		}
		p = *end ? end + 1 : end;
	} while (*p || p[-1] == ',');
	return 0;
bad:
	pr_err("--cpu: '%s' is not a list of CPU numbers and ranges such as 0,2-3", list);
	return -EINVAL;
}

int pp_options_parse(struct pp_options *opt, int argc, char **argv)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 2];
	size_t ns = 0;
	double pct = 0;
	int c, err;

	memset(opt, 0, sizeof(*opt));
	opt->depth = 3;
	opt->current = ".";
	opt->measurements = 10;
	/* 0: the discovery runs are each revision's first; a warm-up run after them
	 * measured like any other (bench/README.md, "Warm-up runs"). */
	opt->warmups = 0;
	opt->confidence = 0.95;
	opt->precision = 1.0;
	opt->max_runs_comparison = 3000;
	opt->max_runs = 30000;
	opt->max_time = 1800;
	opt->executions = PP_EXECUTIONS_AUTO;
	opt->search = PP_SEARCH_ATTRIB;
	opt->max_paths = 8;
	opt->test = PP_TEST_MANN_WHITNEY;

	shortopts[ns++] = '+'; /* stop at the first non-option: COMMAND */
	shortopts[ns++] = ':'; /* report a missing value as ':' */
	for (size_t i = 0; i < NOPTIONS; i++) {
		longopts[i] =
		    (struct option){options[i].name, options[i].has_arg, NULL, options[i].val};
		if (options[i].val < 256) {
			shortopts[ns++] = (char)options[i].val;
			if (options[i].has_arg)
				shortopts[ns++] = ':';
		}
	}
	shortopts[ns] = 0;
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[0]));

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		err = 0;
		switch (c) {
		case OPT_ENTRY:
			if (!*optarg) {
				pr_err("--entry: empty function name");
				return -EINVAL;
			}
			opt->entry = optarg;
			break;
		case OPT_DEPTH:
			err = parse_int("depth", optarg, 0, 1000, &opt->depth);
			break;
		case OPT_PREVIOUS:
			opt->previous = optarg;
			break;
		case OPT_CURRENT:
			opt->current = optarg;
			break;
		case OPT_MEASUREMENTS:
			err = parse_int("measurements", optarg, 3, 100000, &opt->measurements);
			break;
		case OPT_WARMUPS:
			err = parse_int("warmups", optarg, 0, 100000, &opt->warmups);
			break;
		case OPT_CONFIDENCE:
			err = parse_double("confidence", optarg, 50, 99.999, &pct);
			opt->confidence = pct / 100.0;
			break;
		case OPT_PRECISION:
			err = parse_double("precision-threshold", optarg, 0, 1000, &opt->precision);
			opt->precision_given = true;
			break;
		case OPT_REMEASURE: {
			int ignored;

			err = parse_int("re-measurement", optarg, 0, 100, &ignored);
			if (!err)
				pr_warn(
				    "--re-measurement is deprecated and ignored: each comparison "
				    "is measured in rounds until it is decided (--max-runs, "
				    "--max-runs-per-comparison)");
			break;
		}
		case OPT_MAX_RUNS: {
			int v;

			err = parse_int("max-runs", optarg, 0, 100000000, &v);
			opt->max_runs = v;
			break;
		}
		case OPT_MAX_RUNS_CMP:
			err = parse_int("max-runs-per-comparison", optarg, 3, 1000000,
					&opt->max_runs_comparison);
			break;
		case OPT_MAX_TIME:
			err = parse_double("max-time", optarg, 0, 1e9, &opt->max_time);
			break;
		case OPT_EXECUTIONS:
			if (!strcmp(optarg, "auto")) {
				opt->executions = PP_EXECUTIONS_AUTO;
			} else if (!strcmp(optarg, "all")) {
				opt->executions = PP_EXECUTIONS_ALL;
			} else {
				char *end;
				long v;

				errno = 0;
				v = strtol(optarg, &end, 10);
				if (errno || end == optarg || *end || v < 1) {
					pr_err("--executions: '%s' is not auto, all or a number of "
					       "executions from 1",
					       optarg);
					err = -EINVAL;
				}
				opt->executions = v;
			}
			break;
		case OPT_CPU:
			err = parse_cpus(optarg, &opt->cpus);
			opt->cpu_list = optarg;
			break;
		case OPT_SEED: {
			char *end;

			errno = 0;
			opt->seed = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' ||
			    opt->seed > 0xffffffffUL) {
				pr_err("--seed: '%s' is not a number from 0 to 4294967295", optarg);
				err = -EINVAL;
			}
			opt->have_seed = true;
			break;
		}
		case OPT_TIMEOUT:
			err = parse_double("timeout", optarg, 0.001, 1e7, &opt->timeout);
			break;
		case OPT_EXCLUDE: {
			const char **n = realloc(opt->exclude, (opt->nexclude + 1) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			opt->exclude = n;
			opt->exclude[opt->nexclude++] = optarg;
			break;
		}
		case OPT_SEARCH:
			if (!strcmp(optarg, "attrib")) {
				opt->search = PP_SEARCH_ATTRIB;
			} else if (!strcmp(optarg, "seed") || !strcmp(optarg, "binary")) {
				opt->search = PP_SEARCH_SEED;
			} else if (!strcmp(optarg, "linear")) {
				opt->search = PP_SEARCH_LINEAR;
			} else {
				pr_err("--search: '%s' is not 'attrib', 'seed' or 'linear'",
				       optarg);
				err = -EINVAL;
			}
			break;
		case OPT_MAX_PATHS:
			err = parse_int("max-paths", optarg, 0, 100000, &opt->max_paths);
			break;
		case OPT_TIMING:
			if (!strcmp(optarg, "sampled") || !strcmp(optarg, "all")) {
				opt->timing_all = !strcmp(optarg, "all");
			} else {
				pr_err("--timing: '%s' is not 'sampled' or 'all'", optarg);
				err = -EINVAL;
			}
			break;
		case OPT_TEST:
			if (!strcmp(optarg, "mann-whitney")) {
				opt->test = PP_TEST_MANN_WHITNEY;
			} else if (!strcmp(optarg, "welch")) {
				opt->test = PP_TEST_WELCH;
			} else {
				pr_err("--test: '%s' is not 'mann-whitney' or 'welch'", optarg);
				err = -EINVAL;
			}
			break;
		case OPT_JSON:
			opt->json = optarg;
			break;
		case OPT_HTML:
			opt->html = optarg;
			break;
		case OPT_NO_SAVE:
			opt->no_save_command = true;
			break;
		case OPT_BUILD_CMD:
			if (!*optarg) {
				pr_err("--build-cmd: empty command");
				return -EINVAL;
			}
			opt->build_cmd = optarg;
			break;
		case OPT_BUILD_ROOT:
			opt->build_root = optarg;
			break;
		case OPT_NO_BUILD:
			opt->no_build = true;
			break;
		case OPT_BISECT:
			opt->bisect = true;
			break;
		case OPT_COMMITS:
			if (!strstr(optarg, "..") || !strncmp(optarg, "..", 2) ||
			    !strstr(optarg, "..")[2] || strstr(optarg, "...")) {
				pr_err("--commits: '%s' is not GOOD..BAD", optarg);
				return -EINVAL;
			}
			opt->commits = optarg;
			break;
		case OPT_HISTORY:
			if (!*optarg) {
				pr_err("--history: empty file name");
				return -EINVAL;
			}
			opt->history = optarg;
			break;
		case OPT_QUIET:
			opt->quiet = true;
			break;
		case OPT_VERBOSE:
			opt->verbose = true;
			break;
		case OPT_HELP:
			print_help();
			return 1;
		case OPT_VERSION:
			printf("pinpoint %s\n", PP_VERSION);
			return 1;
		case OPT_PRINT_PLUGIN:
			return print_path(PP_PATH_PLUGIN);
		case OPT_PRINT_RUNTIME:
			return print_path(PP_PATH_RUNTIME_SHARED);
		case ':':
			pr_err("option %s needs a value (see --help)", argv[optind - 1]);
			return -EINVAL;
		default:
			if (optopt && optopt < 256)
				pr_err("unknown option '-%c' (see --help)", optopt);
			else
				pr_err("unknown option '%s' (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
		if (err)
			return err;
	}
	if (optind < argc)
		opt->command = &argv[optind];
	if (!opt->entry) {
		pr_err("--entry FUNC is required (see --help)");
		return -EINVAL;
	}
	if (opt->commits && (opt->previous || opt->bisect || opt->no_build)) {
		pr_err("--commits builds its own revisions: it excludes --previous, --bisect and "
		       "--no-build");
		return -EINVAL;
	}
	if (!opt->previous && !opt->commits) {
		pr_err("--previous DIR is required (see --help)");
		return -EINVAL;
	}
	if (opt->no_build && opt->build_cmd) {
		pr_err("--no-build and --build-cmd exclude each other");
		return -EINVAL;
	}
	if (opt->max_runs_comparison < opt->measurements) {
		pr_err("--max-runs-per-comparison %d is below --measurements %d",
		       opt->max_runs_comparison, opt->measurements);
		return -EINVAL;
	}
	if (opt->quiet && opt->verbose) {
		pr_err("--quiet and --verbose exclude each other");
		return -EINVAL;
	}
	return 0;
}

void pp_options_free(struct pp_options *opt)
{
	free(opt->exclude);
	opt->exclude = NULL;
	opt->nexclude = 0;
}

const char *pp_search_name(enum pp_search search)
{
	return search == PP_SEARCH_LINEAR ? "linear" : search == PP_SEARCH_SEED ? "seed" : "attrib";
}
