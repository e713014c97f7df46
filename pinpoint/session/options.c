// SPDX-License-Identifier: MIT
/*
 * options.c - the driver's command line, from one table of options: each
 * row names the field it fills and the type of its value (how it is parsed,
 * given back as an argument and recorded as JSON), the range or the choices
 * of its value and its default.  getopt_long's tables, the defaults (set
 * through the same setters, as if given), validation, --help, the command
 * line of the sessions --commits starts (pp_options_argv) and the report's
 * "options" (pp_options_json) all come from it; the man page and README's
 * lists are checked against --help (test/driver, help-docs), and
 * --dump-options prints the table for the tests.
 *
 *   pinpoint --entry FUNC --depth N --previous DIR [--current DIR] [options]
 *            [-- COMMAND [ARGS]]
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "pinpoint/measure/duet.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/session/options.h"
#include "core/paths.h"

#ifndef PP_VERSION
#define PP_VERSION "0"
#endif

/* The short options are their letters; the others get values above any char. */
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
	OPT_LONG_ONLY = 256,
};

struct pp_option_desc;

/* Store @arg (from the command line, or the default) for @d: 0, 1 (done: exit 0), or -errno. */
typedef int pp_option_set(struct pp_options *opt, const struct pp_option_desc *d, const char *arg);

#define PUT_LEN 64 /* a number given back */
/*
 * The @i-th value of @d in @opt as the parser reads it ("" for a flag that
 * is set): the field's own string, or one written in @buf; NULL when it has
 * no such value.
 */
typedef const char *pp_option_put(const struct pp_options *opt, const struct pp_option_desc *d,
				  size_t i, char buf[PUT_LEN]);
/* The field of @d in @opt as JSON (NULL: out of memory). */
typedef json_t *pp_option_record(const struct pp_options *opt, const struct pp_option_desc *d);

/* What an option's value is: how it is parsed, given back and recorded. */
struct pp_option_type {
	const char *name;	  /* for --dump-options */
	pp_option_set *set;	  /* parses and stores the value, or acts */
	pp_option_put *put;	  /* NULL: an action, or an option that stores nothing */
	pp_option_record *record; /* NULL likewise */
};

/* One value of an option that takes one of a few words. */
struct pp_choice {
	const char *name;
	int value;
	bool hidden; /* accepted, not offered */
};

enum {
	PP_OPT_LOCAL = 1,  /* of this process only: never passed to the sessions it starts */
	PP_OPT_HIDDEN = 2, /* not offered by --help (nor in the man page and README) */
};

struct pp_option_desc {
	const char *name;
	int val; /* the short option's letter, or 0: a long option only */
	const struct pp_option_type *type;
	size_t off, size; /* the field of struct pp_options it fills (FIELD()) */
	const char *arg;  /* the value's name in --help; NULL: no value, or one of @choices */
	double min, max;  /* the range of a number */
	const struct pp_choice *choices; /* NULL-terminated */
	const char *what;		 /* what an empty value lacks: refused when set */
	const char *def;		 /* the default, as it would be given */
	const char *def_note;		 /* what --help adds to the default, or says instead */
	const char *env;    /* the environment variable whose value is its default, or NULL */
	size_t given;	    /* the bool that records the option was given (GIVEN()), 0: none */
	unsigned flags;	    /* PP_OPT_* */
	const char *report; /* its key in the report's "options"; NULL: not recorded */
	const char *help;
};

#define FIELD(f) .off = offsetof(struct pp_options, f), .size = sizeof(((struct pp_options *)0)->f)
#define GIVEN(f) .given = offsetof(struct pp_options, f)

_Static_assert(sizeof(enum pp_search) == sizeof(int) && sizeof(enum pp_test) == sizeof(int) &&
		   sizeof(enum pp_runs) == sizeof(int),
	       "a choice is stored as an int");

static pp_option_set set_flag, set_int, set_real, set_off_real, set_percent, set_string, set_choice,
    set_executions, set_auto_int, set_cpu, set_seed, set_exclude, set_commits, set_deprecated,
    show_help, show_version, show_plugin_path, show_runtime_path;
static pp_option_put put_flag, put_int, put_real, put_off_real, put_percent, put_string, put_choice,
    put_executions, put_auto_int, put_seed, put_exclude;
static pp_option_record record_flag, record_int, record_real, record_string, record_choice,
    record_seed, record_exclude;

const char *pp_log_where = "";

static const struct pp_option_type type_flag = {"flag", set_flag, put_flag, record_flag};
static const struct pp_option_type type_int = {"int", set_int, put_int, record_int};
static const struct pp_option_type type_real = {"real", set_real, put_real, record_real};
/* off (0) or a number, recorded as the number */
static const struct pp_option_type type_off_real = {"off-real", set_off_real, put_off_real,
						    record_real};
/* a percentage, kept and recorded as a fraction */
static const struct pp_option_type type_percent = {"percent", set_percent, put_percent,
						   record_real};
static const struct pp_option_type type_string = {"string", set_string, put_string, record_string};
/* GOOD..BAD */
static const struct pp_option_type type_range = {"range", set_commits, put_string, record_string};
static const struct pp_option_type type_choice = {"choice", set_choice, put_choice, record_choice};
/* auto (-1), all (0) or N, recorded as the number */
static const struct pp_option_type type_executions = {"executions", set_executions, put_executions,
						      record_int};
/* auto (0) or N, recorded as the number */
static const struct pp_option_type type_auto_int = {"auto-int", set_auto_int, put_auto_int,
						    record_int};
/* the field is the list as given */
static const struct pp_option_type type_cpu = {"cpu", set_cpu, put_string, record_string};
/* null when drawn anew */
static const struct pp_option_type type_seed = {"seed", set_seed, put_seed, record_seed};
static const struct pp_option_type type_exclude = {"list", set_exclude, put_exclude,
						   record_exclude};
static const struct pp_option_type type_deprecated = {.name = "deprecated", .set = set_deprecated};
static const struct pp_option_type type_help = {.name = "action", .set = show_help};
static const struct pp_option_type type_version = {.name = "action", .set = show_version};
static const struct pp_option_type type_plugin_path = {.name = "action", .set = show_plugin_path};
static const struct pp_option_type type_runtime_path = {.name = "action", .set = show_runtime_path};

static const struct pp_choice search_choices[] = {{"attrib", PP_SEARCH_ATTRIB, false},
						  {"seed", PP_SEARCH_SEED, false},
						  {"binary", PP_SEARCH_SEED, true},
						  {"linear", PP_SEARCH_LINEAR, false},
						  {NULL, 0, false}};
static const struct pp_choice test_choices[] = {{"mann-whitney", PP_TEST_MANN_WHITNEY, false},
						{"welch", PP_TEST_WELCH, false},
						{NULL, 0, false}};
static const struct pp_choice runs_choices[] = {{"duet", PP_RUNS_DUET, false},
						{"paired", PP_RUNS_PAIRED, false},
						{"shuffled", PP_RUNS_SHUFFLED, false},
						{NULL, 0, false}};
static const struct pp_choice timing_choices[] = {
    {"sampled", false, false}, {"all", true, false}, {NULL, 0, false}};
static const struct pp_choice groups_choices[] = {
    {"on", true, false}, {"off", false, false}, {NULL, 0, false}};
static const struct pp_choice spoiled_choices[] = {
    {"again", true, false}, {"keep", false, false}, {NULL, 0, false}};

/*
 * A row's .report names it in the JSON report's "options" when it changes
 * what is measured or how it is decided (doc/report.schema.json lists the
 * same keys).  PP_OPT_LOCAL: what --commits leaves out of its sessions'
 * command lines; it sets their directories, depth, threshold, build command
 * and report files itself.
 */
static const struct pp_option_desc options[] = {
    {"entry", OPT_ENTRY, &type_string, FIELD(entry), .arg = "FUNC", .what = "function name",
     .report = "entry",
     .help = "function to inspect (layer 0); FILE:FUNC picks one of several static functions"},
    {"depth", OPT_DEPTH, &type_int, FIELD(depth), .arg = "N", .min = 0, .max = 1000, .def = "3",
     .report = "depth", .help = "deepest layer to dig into"},
    {"previous", OPT_PREVIOUS, &type_string, FIELD(previous), .arg = "DIR", .report = "previous",
     .help = "build directory of the previous (accepted) revision"},
    {"baseline", 0, &type_string, FIELD(baseline), .arg = "DIR", .what = "directory name",
     .report = "baseline",
     .help = "build directory of a fixed accepted revision that every night is compared with: "
	     "--previous DIR, recorded in --history as the baseline, so that --changes reads the "
	     "nights against it as one series (the current time over the baseline's, both from "
	     "the same runs)"},
    {"current", OPT_CURRENT, &type_string, FIELD(current), .arg = "DIR", .def = ".",
     .report = "current", .help = "build directory of the current revision"},
    {"measurements", OPT_MEASUREMENTS, &type_int, FIELD(measurements), .arg = "N", .min = 3,
     .max = 100000, .def = "10", .report = "measurements",
     .help = "runs per revision at a comparison's first look (each later look about 1.4 "
	     "times the last)"},
    {"max-runs", 0, &type_int, FIELD(max_runs), .arg = "N", .min = 0, .max = 100000000,
     .def = "30000", .def_note = ", 0: no limit", .report = "max_runs",
     .help = "runs the whole session may use, both revisions and warm-ups"},
    {"max-runs-per-comparison", 0, &type_auto_int, FIELD(max_runs_comparison), .arg = "auto|N",
     .min = 3, .max = 1000000, .def = "auto", .report = "max_runs_per_comparison",
     .help = "runs per revision after which a comparison is undecided; auto: what --max-time "
	     "and --max-runs leave at the first comparison's first look, at the pace of the "
	     "pairs so far (3000 without either)"},
    {"max-time", 0, &type_real, FIELD(max_time), .arg = "S", .min = 0, .max = 1e9, .def = "300",
     .def_note = ", 0: no limit", .report = "max_time_s",
     .help = "seconds the session may measure for (after the builds and the first code "
	     "layouts; those linked while measuring count): "
	     "one budget for the bottleneck chain, searched first, then shares for further "
	     "contributors; what it cannot pay for is left open or undecided"},
    {"executions", 0, &type_executions, FIELD(executions), .arg = "auto|all|N", .def = "auto",
     .report = "executions",
     .help = "end each run after the entry's N-th execution; auto: as many as measure best for "
	     "the time, from the first runs; all: never"},
    /* 0: the discovery runs are each revision's first; a warm-up run after them
     * measured like any other (bench/README.md, "Warm-up runs"). */
    {"warmups", OPT_WARMUPS, &type_int, FIELD(warmups), .arg = "N", .min = 0, .max = 100000,
     .def = "0", .def_note = ": the discovery runs warm up", .report = "warmups",
     .help = "runs per revision discarded before each round of runs"},
    {"confidence", 0, &type_percent, FIELD(confidence), .arg = "P", .min = 50, .max = 99.999,
     .def = "95", .report = "confidence", .help = "confidence level in percent"},
    {"precision-threshold", 0, &type_real, FIELD(precision), .arg = "P", .min = 0, .max = 1000,
     .def = "1", GIVEN(precision_given), .report = "precision_threshold",
     .help = "smallest slowdown reported, in percent of the entry's time"},
    {"arm-budget", 0, &type_off_real, FIELD(arm_budget), .arg = "P|off", .min = 0.1, .max = 1000,
     .def = "5", .report = "arm_budget",
     .help = "what the probes armed inside a function may add to a run, in percent of the "
	     "entry's time as built: its calls are counted first, and a call too short to time, "
	     "or one beyond the budget, is left untimed, its time in the function's own body; "
	     "off: every call that ran is timed"},
    {"re-measurement", 0, &type_deprecated, .arg = "N", .min = 0, .max = 100,
     .help = "deprecated, ignored: comparisons are measured until decided (see --max-runs)"},
    {"timeout", 0, &type_real, FIELD(timeout), .arg = "S", .min = 0.001, .max = 1e7,
     .def_note = "20x the first run, at least 60", .report = "timeout",
     .help = "seconds one run may take"},
    {"cpu", 0, &type_cpu, FIELD(cpu_list), .arg = "LIST", .report = "cpu",
     .help = "pin every run to these CPUs, e.g. 2 or 0,2-3"},
    {"layouts", 0, &type_int, FIELD(layouts), .arg = "N", .min = 1, .max = PP_MAX_LAYOUTS,
     .def = "16", .def_note = "; 1: each revision as built", .report = "layouts",
     .help = "code layouts each revision starts in: its modules linked again with their "
	     "functions in random orders, each run in one of them (kept in the cache for later "
	     "sessions)"},
    {"max-layouts", 0, &type_int, FIELD(max_layouts), .arg = "N", .min = 1, .max = PP_MAX_LAYOUTS,
     .def = "4096", .def_note = "; at most --layouts: a fixed set", .report = "max_layouts",
     .help = "code layouts a revision may be measured in: a new one is linked every "
	     "--pairs-per-layout pairs, up to this many, then the runs go round them again"},
    {"pairs-per-layout", 0, &type_auto_int, FIELD(pairs_per_layout), .arg = "auto|M", .min = 1,
     .max = 1000000, .def = "auto", .report = "pairs_per_layout",
     .help = "measured pairs in each layout before the next: a schedule fixed before any "
	     "value is seen; auto: what linking a layout costs over what a pair of runs "
	     "costs, at least 1 (16 times that where layout k of both revisions is the same "
	     "file)"},
    {"runs", 0, &type_choice, FIELD(runs), .choices = runs_choices, .def = "duet",
     .def_note = " where two CPUs are free for it, else paired", GIVEN(runs_given),
     .report = "runs",
     .help = "duet: each previous run beside a current one at the same time, each on a CPU of "
	     "its own; paired: the two one after the other; both in layouts of the same index, "
	     "compared through their differences (what moves both cancels); shuffled: one at a "
	     "time in a random order, compared as independent samples"},
    {"cpu-term", 0, &type_choice, FIELD(cpu_term), .choices = groups_choices, .def = "on",
     .report = "cpu_term",
     .help = "on: in duet runs, what a run on one CPU takes more than on the other is taken "
	     "out of each comparison's pairs (a term of its model), so that two CPUs that differ "
	     "do not widen its interval; off: the pairs as they ran"},
    {"spoiled-rounds", 0, &type_choice, FIELD(spoiled_again), .choices = spoiled_choices,
     .def = "again", .def_note = "; PINPOINT_SPOILED_ROUNDS sets the default",
     .env = "PINPOINT_SPOILED_ROUNDS", .report = "spoiled_rounds",
     .help = "again: a round with a run that waited for its CPU a fifth of its time or more "
	     "while other work had it is measured again, its values in no comparison, and a "
	     "session whose rounds are mostly so stops undecided; keep: such rounds are compared "
	     "as they are (the report still says the load)"},
    {"seed", 0, &type_seed, FIELD(seed), .arg = "N", .min = 0, .max = 4294967295.0,
     .def_note = "drawn anew; the report records it", .report = "seed",
     .help = "seed of the runs' random order"},
    {"exclude", 0, &type_exclude, FIELD(exclude), .arg = "PATTERN", .report = "exclude",
     .help = "never dig into functions matching this glob (repeatable)"},
    {"search", 0, &type_choice, FIELD(search), .choices = search_choices, .def = "attrib",
     .report = "search",
     .help = "attrib: the attribution search; seed, linear: the method's DiggingFind with "
	     "BinaryFind or LinearFind"},
    {"max-paths", 0, &type_int, FIELD(max_paths), .arg = "N", .min = 0, .max = 100000, .def = "8",
     .report = "max_paths",
     .help = "calls the attribution search digs into, at most (and as many again off the "
	     "chain after a what-if that explains only a share)"},
    {"test", 0, &type_choice, FIELD(test), .choices = test_choices, .def = "mann-whitney",
     .report = "test",
     .help = "statistical test: mann-whitney, a rank test (on the pairs' differences, the "
	     "Wilcoxon signed-rank test with duet or paired runs; Mann-Whitney U with --runs "
	     "shuffled); welch, a t test (the paired t; Welch's t with --runs shuffled)"},
    {"timing", 0, &type_choice, FIELD(timing_all), .choices = timing_choices, .def = "sampled",
     .report = "timing",
     .help = "how armed calls are timed: sampled times a random one in 8 executions of a short "
	     "call site made thousands of times, counting every one; all times every execution"},
    {"groups", 0, &type_choice, FIELD(groups), .choices = groups_choices, .def = "on",
     .report = "groups",
     .help = "on: a function's calls to one callee are also measured together (from the "
	     "same runs), and such a group found slower is followed into its callee; where no "
	     "part is slower by the threshold but several calls are by less, the functions they "
	     "all call are measured whole; off: call sites only"},
    {"confirm", 0, &type_choice, FIELD(confirm), .choices = groups_choices, .def = "on",
     .report = "confirm",
     .help = "on: when a regression's chain names a part, the previous revision is run again "
	     "with that part delayed by what the chain says it got slower, and compared with the "
	     "current one at the entry: confirmed, explains only a share, or overshoots"},
    {"json", 0, &type_string, FIELD(json), .arg = "FILE",
     .help = "write the whole session as JSON"},
    {"html", 0, &type_string, FIELD(html), .arg = "FILE",
     .help = "write a self-contained HTML report with every comparison plotted"},
    {"no-save-command", 0, &type_flag, FIELD(no_save_command),
     .help = "do not remember COMMAND for later sessions on DIR (kept in "
	     "$XDG_CACHE_HOME/pinpoint/commands)"},
    {"build-cmd", 0, &type_string, FIELD(build_cmd), .arg = "CMD", .what = "command",
     .help = "build each revision with `sh -c CMD` in its directory, CC/CXX set to "
	     "pinpoint-cc/-c++"},
    {"build-root", 0, &type_string, FIELD(build_root), .arg = "DIR",
     .def_note = "$XDG_CACHE_HOME/pinpoint/builds, else ~/.cache/pinpoint/builds",
     .help = "where instrumented copies of CMake builds go"},
    {"no-build", 0, &type_flag, FIELD(no_build),
     .help = "use the build directories as they are, build nothing"},
    {"bisect", 0, &type_flag, FIELD(bisect), .flags = PP_OPT_LOCAL,
     .help = "exit status for `git bisect run`: 0 good, 1 bad (slower), 125 skip (no build, "
	     "no decision), 128 abort; without --precision-threshold every step compares at "
	     "half the slowdown of the bisection's bad commit, measured once"},
    {"commits", 0, &type_range, FIELD(commits), .arg = "GOOD..BAD", .flags = PP_OPT_LOCAL,
     .help = "find the first commit of a git range that made FUNC slower, then the call"},
    {"build-jobs", 0, &type_int, FIELD(build_jobs), .arg = "N", .min = 1, .max = 8,
     .def_note = "1, each commit when it is tried", .flags = PP_OPT_LOCAL,
     .help = "--commits: commits built at once, before the sessions that measure them: GOOD "
	     "and BAD, then those the next steps of the bisection may try (worth it where a "
	     "distributed compiler, distcc or icecream, builds them elsewhere); nothing is "
	     "measured while they build"},
    {"build-only", 0, &type_flag, FIELD(build_only), .flags = PP_OPT_LOCAL | PP_OPT_HIDDEN,
     .help = "build --current as a session would, measure nothing (--build-jobs' builds)"},
    {"replay", 0, &type_string, FIELD(replay), .arg = "REPORT", .what = "file name",
     .flags = PP_OPT_LOCAL,
     .help = "the session a --json REPORT recorded, again: its runs' values through the same "
	     "search and the same report (with --json and --html, written again); nothing runs"},
    {"model", 0, &type_string, FIELD(model), .arg = "FILE", .what = "file name",
     .flags = PP_OPT_LOCAL,
     .help = "measure the program model in FILE (doc/model.md) instead of running a "
	     "benchmark: a call tree with its times in both revisions; no builds, no COMMAND"},
    {"history", 0, &type_string, FIELD(history), .arg = "FILE", .what = "file name",
     .help = "append the entry's figures and the verdict to FILE (JSON lines) for trends, with "
	     "each revision's commit where git or the CMake cache knows it, the machine, and "
	     "this command line (for --investigate)"},
    {"label", 0, &type_string, FIELD(label), .arg = "TEXT", .what = "label", .report = "label",
     .help = "a name for the current revision in the reports and --history (a build number, "
	     "a tag); a full commit hash is taken as its commit where git does not know one"},
    {"changes", 0, &type_string, FIELD(changes), .arg = "FILE", .what = "file name",
     .flags = PP_OPT_LOCAL,
     .help = "the change points of each entry's time over the nights of a --history FILE, "
	     "per machine (E-Divisive means, each kept by a t-test): when, by how much, between "
	     "which commits; with --entry, that entry's only; nothing runs"},
    {"investigate", 0, &type_flag, FIELD(investigate), .flags = PP_OPT_LOCAL,
     .help = "with --changes: each slower change point not investigated before is run through "
	     "--commits over its commits, with the options its night was measured with, and "
	     "the first slower commit and the call are appended to the history"},
    {"quiet", OPT_QUIET, &type_flag, FIELD(quiet),
     .help = "print only the report at the end: the verdict, with the bottleneck chain and the "
	     "attribution tree of a regression (no comparison lines, progress, noise summary or "
	     "build messages)"},
    {"verbose", OPT_VERBOSE, &type_flag, FIELD(verbose), .help = "print every run"},
    {"help", OPT_HELP, &type_help, .help = "print this help"},
    {"version", 0, &type_version, .help = "print the version"},
    {"print-plugin-path", 0, &type_plugin_path,
     .help = "print the path of the pass plugin (for clang -fpass-plugin=)"},
    {"print-runtime-path", 0, &type_runtime_path,
     .help = "print the path of the shared runtime instrumented programs link"},
    {"dump-options", 0, &type_flag, FIELD(dump), .flags = PP_OPT_LOCAL | PP_OPT_HIDDEN,
     .help = "print this table and the options parsed as JSON, and exit (for the tests)"},
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))
_Static_assert(NOPTIONS <= 64, "struct pp_options' given has a bit per option");

/* What getopt_long returns for @d. */
static int option_val(const struct pp_option_desc *d)
{
	return d->val ? d->val : OPT_LONG_ONLY + (int)(d - options);
}

static bool takes_value(const struct pp_option_desc *d)
{
	return d->arg || d->choices;
}

/* An integer value or choice into its field: an int (or enum), a long or a bool. */
static void store(struct pp_options *opt, const struct pp_option_desc *d, long v)
{
	char *field = (char *)opt + d->off;

	if (d->size == sizeof(long))
		*(long *)field = v;
	else if (d->size == sizeof(int))
		*(int *)field = (int)v;
	else
		*(bool *)field = v != 0;
}

/* The integer, enum or bool in @d's field. */
static long load(const struct pp_options *opt, const struct pp_option_desc *d)
{
	const char *field = (const char *)opt + d->off;

	if (d->size == sizeof(long))
		return *(const long *)field;
	if (d->size == sizeof(int))
		return *(const int *)field;
	return *(const bool *)field;
}

static double load_real(const struct pp_options *opt, const struct pp_option_desc *d)
{
	return *(const double *)((const char *)opt + d->off);
}

static const char *load_string(const struct pp_options *opt, const struct pp_option_desc *d)
{
	return *(const char *const *)((const char *)opt + d->off);
}

static int parse_long(const struct pp_option_desc *d, const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < (long)d->min || v > (long)d->max) {
		pr_err("--%s: '%s' is not an integer in [%ld, %ld]", d->name, s, (long)d->min,
		       (long)d->max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_double(const struct pp_option_desc *d, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= d->min && v <= d->max)) {
		pr_err("--%s: '%s' is not a number in [%g, %g]", d->name, s, d->min, d->max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int set_flag(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	(void)arg;
	store(opt, d, true);
	return 0;
}

static int set_int(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	long v;
	int err = parse_long(d, arg, &v);

	if (!err)
		store(opt, d, v);
	return err;
}

/* auto (0, as a report records it) or a number within @d's bounds. */
static int set_auto_int(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	if (!strcmp(arg, "auto") || !strcmp(arg, "0")) {
		store(opt, d, 0);
		return 0;
	}
	return set_int(opt, d, arg);
}

static int set_real(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	return parse_double(d, arg, (double *)((char *)opt + d->off));
}

static int set_off_real(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	if (!strcmp(arg, "off")) {
		*(double *)((char *)opt + d->off) = 0;
		return 0;
	}
	return set_real(opt, d, arg);
}

/* A percentage, kept as a fraction. */
static int set_percent(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	double pct;
	int err = parse_double(d, arg, &pct);

	if (!err)
		*(double *)((char *)opt + d->off) = pct / 100.0;
	return err;
}

static int set_string(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	if (d->what && !*arg) {
		pr_err("--%s: empty %s", d->name, d->what);
		return -EINVAL;
	}
	*(const char **)((char *)opt + d->off) = arg;
	return 0;
}

/* "'a', 'b' or 'c'", or "a|b|c" with @sep "|": the choices offered. */
static void choice_list(const struct pp_choice *c, const char *sep, char *buf, size_t len)
{
	size_t n = 0, shown = 0, at = 0;

	for (const struct pp_choice *k = c; k->name; k++)
		n += !k->hidden;
	buf[0] = 0;
	for (; c->name && at < len; c++) {
		if (c->hidden)
			continue;
		shown++;
		at += (size_t)snprintf(buf + at, len - at,
				       sep	    ? "%s%s"
				       : shown == 1 ? "%s'%s'"
				       : shown == n ? "%s or '%s'"
						    : "%s, '%s'",
				       sep && shown > 1 ? sep : "", c->name);
	}
}

static int set_choice(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	char list[128];

	for (const struct pp_choice *c = d->choices; c->name; c++)
		if (!strcmp(arg, c->name)) {
			store(opt, d, c->value);
			return 0;
		}
	choice_list(d->choices, NULL, list, sizeof(list));
	pr_err("--%s: '%s' is not %s", d->name, arg, list);
	return -EINVAL;
}

/* --executions auto|all|N */
static int set_executions(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	char *end;
	long v;

	(void)d;
	if (!strcmp(arg, "auto")) {
		opt->executions = PP_EXECUTIONS_AUTO;
		return 0;
	}
	if (!strcmp(arg, "all")) {
		opt->executions = PP_EXECUTIONS_ALL;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1) {
		pr_err("--executions: '%s' is not auto, all or a number of executions from 1", arg);
		return -EINVAL;
	}
	opt->executions = v;
	return 0;
}

/*
 * --cpu LIST: comma-separated CPU numbers and ranges (0,2-3), each CPU one
 * this process may run on.
 */
static int set_cpu(struct pp_options *opt, const struct pp_option_desc *d, const char *list)
{
	cpu_set_t allowed;
	const char *p = list;

	(void)d;
	opt->cpu_list = list;
	CPU_ZERO(&opt->cpus);
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
			CPU_SET(c, &opt->cpus);
		}
		p = *end ? end + 1 : end;
	} while (*p || p[-1] == ',');
	return 0;
bad:
	pr_err("--cpu: '%s' is not a list of CPU numbers and ranges such as 0,2-3", list);
	return -EINVAL;
}

static int set_seed(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	char *end;

	errno = 0;
	opt->seed = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || opt->seed > (unsigned long)d->max) {
		pr_err("--seed: '%s' is not a number from %.0f to %.0f", arg, d->min, d->max);
		return -EINVAL;
	}
	opt->have_seed = true;
	return 0;
}

static int set_exclude(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	const char **n = realloc(opt->exclude, (opt->nexclude + 1) * sizeof(*n));

	(void)d;
	if (!n)
		return -ENOMEM;
	opt->exclude = n;
	opt->exclude[opt->nexclude++] = arg;
	return 0;
}

/* --commits GOOD..BAD: two names around two dots. */
static int set_commits(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	const char *dots = strstr(arg, "..");

	if (!dots || dots == arg || !dots[2] || strstr(arg, "...")) {
		pr_err("--%s: '%s' is not GOOD..BAD", d->name, arg);
		return -EINVAL;
	}
	return set_string(opt, d, arg);
}

/* An option that is still accepted, checked, and ignored with a warning. */
static int set_deprecated(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	long ignored;
	int err = parse_long(d, arg, &ignored);

	(void)opt;
	if (!err)
		pr_warn("--re-measurement is deprecated and ignored: each comparison is measured "
			"in rounds until it is decided (--max-runs, --max-runs-per-comparison)");
	return err;
}

static const char *put_flag(const struct pp_options *opt, const struct pp_option_desc *d, size_t i,
			    char buf[PUT_LEN])
{
	(void)buf;
	return !i && load(opt, d) ? "" : NULL;
}

static const char *put_int(const struct pp_options *opt, const struct pp_option_desc *d, size_t i,
			   char buf[PUT_LEN])
{
	if (i)
		return NULL;
	snprintf(buf, PUT_LEN, "%ld", load(opt, d));
	return buf;
}

/* @v in the fewest significant digits, 15 to 17, that strtod() reads back as @v. */
static void format_real(double v, char buf[PUT_LEN])
{
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, PUT_LEN, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static const char *put_real(const struct pp_options *opt, const struct pp_option_desc *d, size_t i,
			    char buf[PUT_LEN])
{
	if (i)
		return NULL;
	format_real(load_real(opt, d), buf);
	return buf;
}

static const char *put_off_real(const struct pp_options *opt, const struct pp_option_desc *d,
				size_t i, char buf[PUT_LEN])
{
	if (i)
		return NULL;
	return load_real(opt, d) > 0 ? put_real(opt, d, i, buf) : "off";
}

/* The percentage that divides back to the very fraction @f: 100 @f, moved by an ulp or two. */
static double percent_of(double f)
{
	double pct = f * 100.0;

	for (int k = 0; k < 16 && pct / 100.0 != f; k++)
		pct = nextafter(pct, pct / 100.0 < f ? INFINITY : -INFINITY);
	return pct;
}

static const char *put_percent(const struct pp_options *opt, const struct pp_option_desc *d,
			       size_t i, char buf[PUT_LEN])
{
	if (i)
		return NULL;
	format_real(percent_of(load_real(opt, d)), buf);
	return buf;
}

static const char *put_string(const struct pp_options *opt, const struct pp_option_desc *d,
			      size_t i, char buf[PUT_LEN])
{
	(void)buf;
	return i ? NULL : load_string(opt, d);
}

/* The word that selects @value among @c (the offered one, not a hidden synonym). */
static const char *choice_name(const struct pp_choice *c, long value)
{
	for (const struct pp_choice *k = c; k->name; k++)
		if (k->value == value && !k->hidden)
			return k->name;
	return c[0].name;
}

static const char *put_choice(const struct pp_options *opt, const struct pp_option_desc *d,
			      size_t i, char buf[PUT_LEN])
{
	(void)buf;
	return i ? NULL : choice_name(d->choices, load(opt, d));
}

static const char *put_executions(const struct pp_options *opt, const struct pp_option_desc *d,
				  size_t i, char buf[PUT_LEN])
{
	if (i)
		return NULL;
	if (opt->executions == PP_EXECUTIONS_AUTO)
		return "auto";
	if (opt->executions == PP_EXECUTIONS_ALL)
		return "all";
	return put_int(opt, d, i, buf);
}

static const char *put_auto_int(const struct pp_options *opt, const struct pp_option_desc *d,
				size_t i, char buf[PUT_LEN])
{
	if (i)
		return NULL;
	return load(opt, d) ? put_int(opt, d, i, buf) : "auto";
}

static const char *put_seed(const struct pp_options *opt, const struct pp_option_desc *d, size_t i,
			    char buf[PUT_LEN])
{
	(void)d;
	if (i || !opt->have_seed)
		return NULL;
	snprintf(buf, PUT_LEN, "%lu", opt->seed);
	return buf;
}

/* One --exclude per pattern. */
static const char *put_exclude(const struct pp_options *opt, const struct pp_option_desc *d,
			       size_t i, char buf[PUT_LEN])
{
	(void)d, (void)buf;
	return i < opt->nexclude ? opt->exclude[i] : NULL;
}

static json_t *record_flag(const struct pp_options *opt, const struct pp_option_desc *d)
{
	return pp_json_bool(load(opt, d));
}

static json_t *record_int(const struct pp_options *opt, const struct pp_option_desc *d)
{
	return pp_json_int(load(opt, d));
}

static json_t *record_real(const struct pp_options *opt, const struct pp_option_desc *d)
{
	return pp_json_real(load_real(opt, d));
}

static json_t *record_string(const struct pp_options *opt, const struct pp_option_desc *d)
{
	return pp_json_str(load_string(opt, d));
}

static json_t *record_choice(const struct pp_options *opt, const struct pp_option_desc *d)
{
	return pp_json_str(choice_name(d->choices, load(opt, d)));
}

static json_t *record_seed(const struct pp_options *opt, const struct pp_option_desc *d)
{
	(void)d;
	return opt->have_seed ? pp_json_int((long long)opt->seed) : json_null();
}

static json_t *record_exclude(const struct pp_options *opt, const struct pp_option_desc *d)
{
	json_t *a = json_array();

	(void)d;
	for (size_t i = 0; i < opt->nexclude; i++)
		a = pp_json_push(a, pp_json_str(opt->exclude[i]));
	return a;
}

/* "-e, --entry FUNC" */
static void option_left(const struct pp_option_desc *d, char *buf, size_t len)
{
	char arg[64] = "";

	if (d->choices)
		choice_list(d->choices, "|", arg, sizeof(arg));
	else if (d->arg)
		snprintf(arg, sizeof(arg), "%s", d->arg);
	if (d->val)
		snprintf(buf, len, "-%c, --%s%s%s", d->val, d->name, *arg ? " " : "", arg);
	else
		snprintf(buf, len, "    --%s%s%s", d->name, *arg ? " " : "", arg);
}

static int show_help(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	(void)opt, (void)d, (void)arg;
	printf("usage: pinpoint --entry FUNC --previous DIR [--current DIR] [options] "
	       "[-- COMMAND [ARGS...]]\n"
	       "       pinpoint --changes FILE [--entry FUNC] [--json FILE] [--investigate]\n\n"
	       "Measures FUNC in the previous and current builds and, if it got slower,\n"
	       "narrows the slowdown down through its calls, layer by layer, to the call\n"
	       "that costs it.  COMMAND runs in each build directory; when omitted, the\n"
	       "command of the last session on the current directory is reused.\n\n"
	       "options:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct pp_option_desc *o = &options[i];
		char left[80];

		if (o->flags & PP_OPT_HIDDEN)
			continue;
		option_left(o, left, sizeof(left));
		printf("  %-36s %s", left, o->help);
		if (o->def)
			printf(" (default %s%s)", o->def, o->def_note ? o->def_note : "");
		else if (o->def_note)
			printf(" (default: %s)", o->def_note);
		putchar('\n');
	}
	printf("\nexit status: 0 no regression, 1 regression pinpointed, 2 usage or input error,\n"
	       "3 measurement failed, 4 undecided (the entry's comparison could not be decided\n"
	       "within its runs), 130 interrupted; with --bisect: 0 good, 1 bad, 125 skip,\n"
	       "128 abort; with --changes: 0 no slower change point, 1 one or more, 2 the\n"
	       "history cannot be read, 4 no series has the nights a change point needs;\n"
	       "with --investigate: 0 nothing new, 1 a new slower change point investigated,\n"
	       "3 an investigation could not build or measure, 4 one stayed undecided.\n");
	return 1;
}

static int show_version(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	(void)opt, (void)d, (void)arg;
	printf("pinpoint %s\n", PP_VERSION);
	return 1;
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

static int show_plugin_path(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	(void)opt, (void)d, (void)arg;
	return print_path(PP_PATH_PLUGIN);
}

static int show_runtime_path(struct pp_options *opt, const struct pp_option_desc *d,
			     const char *arg)
{
	(void)opt, (void)d, (void)arg;
	return print_path(PP_PATH_RUNTIME_SHARED);
}

/* Whether @v, from option @d's environment variable, is one of its choices: else one line. */
static int env_choice(const struct pp_option_desc *d, const char *v)
{
	for (const struct pp_choice *c = d->choices; c && c->name; c++)
		if (!strcmp(c->name, v))
			return 0;
	pr_err("%s: '%s' is not one of --%s's values (see --help)", d->env, v, d->name);
	return -EINVAL;
}

/*
 * Every option's default, set as if given; with @env, an option's
 * environment variable, where set, gives its default instead (a bad value
 * is one error line that names the variable).  A value the environment
 * gave is not given: a remembered command line leaves it out.
 */
static int set_defaults(struct pp_options *opt, bool env)
{
	int err = 0;

	memset(opt, 0, sizeof(*opt));
	for (size_t i = 0; i < NOPTIONS && !err; i++) {
		const char *v = env && options[i].env ? getenv(options[i].env) : NULL;

		if (options[i].def)
			err = options[i].type->set(opt, &options[i], options[i].def);
		if (!err && v && *v) {
			err = env_choice(&options[i], v);
			if (!err)
				err = options[i].type->set(opt, &options[i], v);
		}
	}
	return err;
}

static const struct pp_option_desc *find_option(int val)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (option_val(&options[i]) == val)
			return &options[i];
	return NULL;
}

/* getopt_long's tables: @shortopts holds at least 2 * NOPTIONS + 3 chars. */
static void getopt_tables(struct option *longopts, char *shortopts)
{
	size_t ns = 0;

	shortopts[ns++] = '+'; /* stop at the first non-option: COMMAND */
	shortopts[ns++] = ':'; /* report a missing value as ':' */
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct pp_option_desc *d = &options[i];

		longopts[i] = (struct option){
		    d->name, takes_value(d) ? required_argument : no_argument, NULL, option_val(d)};
		if (d->val) {
			shortopts[ns++] = (char)d->val;
			if (takes_value(d))
				shortopts[ns++] = ':';
		}
	}
	shortopts[ns] = 0;
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[0]));
}

/* --replay takes the session's options from its report: only how it is reported goes with it. */
static int check_replay(const struct pp_options *opt)
{
	static const char *const with[] = {"replay", "json",	"html", "history",
					   "quiet",  "verbose", NULL};

	for (size_t i = 0; i < NOPTIONS; i++) {
		size_t k;

		for (k = 0; with[k] && strcmp(with[k], options[i].name); k++)
			;
		if ((opt->given >> i & 1) && !with[k]) {
			pr_err("--replay takes the session's options from its report: only --json, "
			       "--html, --history, --quiet and --verbose go with it, not --%s",
			       options[i].name);
			return -EINVAL;
		}
	}
	if (opt->command) {
		pr_err("--replay runs nothing: no COMMAND goes with it");
		return -EINVAL;
	}
	return 0;
}

/* --changes reads a history: only which entry and how it is reported go with it. */
static int check_changes(const struct pp_options *opt)
{
	static const char *const with[] = {"changes",	 "entry",      "json",
					   "quiet",	 "verbose",    "investigate",
					   "build-root", "build-jobs", NULL};

	for (size_t i = 0; i < NOPTIONS; i++) {
		size_t k;

		for (k = 0; with[k] && strcmp(with[k], options[i].name); k++)
			;
		if ((opt->given >> i & 1) && !with[k]) {
			pr_err("--changes reads a history: only --entry, --json, --investigate, "
			       "--build-root, --build-jobs, --quiet and --verbose go with it, not "
			       "--%s",
			       options[i].name);
			return -EINVAL;
		}
	}
	if (opt->command) {
		pr_err("--changes runs nothing: no COMMAND goes with it");
		return -EINVAL;
	}
	if (opt->quiet && opt->verbose) {
		pr_err("--quiet and --verbose exclude each other");
		return -EINVAL;
	}
	return 0;
}

/* What the options given say together. */
static int check_together(const struct pp_options *opt)
{
	if (opt->replay)
		return check_replay(opt);
	if (opt->changes)
		return check_changes(opt);
	if (opt->investigate) {
		pr_err("--investigate goes with --changes FILE");
		return -EINVAL;
	}
	if (opt->build_only)
		return 0;
	if (!opt->entry) {
		pr_err("--entry FUNC is required (see --help)");
		return -EINVAL;
	}
	if (opt->label && strlen(opt->label) > PP_LABEL_MAX) {
		pr_err("--label: longer than %d bytes", PP_LABEL_MAX);
		return -EINVAL;
	}
	if (opt->baseline && opt->previous && strcmp(opt->baseline, opt->previous)) {
		pr_err("--baseline DIR is the previous revision: it excludes another --previous");
		return -EINVAL;
	}
	if (opt->commits && (opt->previous || opt->bisect || opt->no_build)) {
		pr_err("--commits builds its own revisions: it excludes --previous, --bisect and "
		       "--no-build");
		return -EINVAL;
	}
	if (opt->model && (opt->previous || opt->commits || opt->bisect || opt->command)) {
		pr_err("--model measures a model, not builds: it excludes --previous, --commits, "
		       "--bisect and a COMMAND");
		return -EINVAL;
	}
	if (!opt->previous && !opt->commits && !opt->model) {
		pr_err("--previous DIR is required (see --help)");
		return -EINVAL;
	}
	if (opt->no_build && opt->build_cmd) {
		pr_err("--no-build and --build-cmd exclude each other");
		return -EINVAL;
	}
	if (opt->max_runs_comparison && opt->max_runs_comparison < opt->measurements) {
		pr_err("--max-runs-per-comparison %d is below --measurements %d",
		       opt->max_runs_comparison, opt->measurements);
		return -EINVAL;
	}
	if (opt->quiet && opt->verbose) {
		pr_err("--quiet and --verbose exclude each other");
		return -EINVAL;
	}
	if (opt->runs_given && opt->runs == PP_RUNS_DUET) {
		cpu_set_t allowed;

		if (pp_duet_allowed(opt, &allowed) < 2) {
			pr_err("--runs duet: two runs at once need two CPUs, and only one is free "
			       "for them (%s)",
			       opt->cpu_list ? "--cpu" : "pinpoint's CPU affinity");
			return -EINVAL;
		}
	}
	return 0;
}

/* Whether @d has the same values in @a and @b. */
static bool same_values(const struct pp_options *a, const struct pp_options *b,
			const struct pp_option_desc *d)
{
	char bufa[PUT_LEN], bufb[PUT_LEN];

	for (size_t i = 0;; i++) {
		const char *va = d->type->put(a, d, i, bufa), *vb = d->type->put(b, d, i, bufb);

		if (!va || !vb)
			return !va && !vb;
		if (strcmp(va, vb))
			return false;
	}
}

int pp_options_argv(const struct pp_options *opt, struct pp_argv *a)
{
	struct pp_options def;
	int err = set_defaults(&def, true);

	for (size_t i = 0; i < NOPTIONS && !err; i++) {
		const struct pp_option_desc *d = &options[i];
		char buf[PUT_LEN];
		const char *v;

		if (!d->type->put || (d->flags & PP_OPT_LOCAL))
			continue;
		if (!(opt->given >> i & 1) && same_values(opt, &def, d))
			continue;
		for (size_t k = 0; !err && (v = d->type->put(opt, d, k, buf)); k++)
			err = takes_value(d) ? pp_argv_add(a, "--%s=%s", d->name, v)
					     : pp_argv_add(a, "--%s", d->name);
	}
	if (!err && opt->command) {
		err = pp_argv_add(a, "--");
		for (char **c = opt->command; *c && !err; c++)
			err = pp_argv_add(a, "%s", *c);
	}
	pp_options_free(&def);
	return err;
}

/* @d's value @v, as the report recorded it, as one word of a command line (added to @a). */
static int recorded_word(struct pp_argv *a, const struct pp_option_desc *d, const json_t *v)
{
	char buf[PUT_LEN];

	if (json_is_true(v) && d->type == &type_flag)
		return pp_argv_add(a, "--%s", d->name);
	if (json_is_false(v) && d->type == &type_flag)
		return 0;
	if (json_is_string(v) &&
	    (d->type == &type_string || d->type == &type_choice || d->type == &type_cpu ||
	     d->type == &type_range || d->type == &type_exclude))
		return pp_argv_add(a, "--%s=%s", d->name, json_string_value(v));
	if (!json_is_number(v))
		return -EINVAL;
	if (json_is_integer(v) && d->type == &type_executions && json_integer_value(v) < 1)
		return pp_argv_add(a, "--%s=%s", d->name,
				   json_integer_value(v) == PP_EXECUTIONS_AUTO ? "auto" : "all");
	if (d->type == &type_off_real && !(json_number_value(v) > 0))
		return pp_argv_add(a, "--%s=off", d->name);
	if (json_is_integer(v) && d->type != &type_real && d->type != &type_percent &&
	    d->type != &type_off_real)
		return pp_argv_add(a, "--%s=%lld", d->name, (long long)json_integer_value(v));
	if (json_is_number(v) && d->type == &type_percent) {
		format_real(percent_of(json_number_value(v)), buf);
		return pp_argv_add(a, "--%s=%s", d->name, buf);
	}
	if (json_is_number(v) && (d->type == &type_real || d->type == &type_off_real)) {
		format_real(json_number_value(v), buf);
		return pp_argv_add(a, "--%s=%s", d->name, buf);
	}
	return -EINVAL;
}

int pp_options_recorded(const json_t *rec, const char *const *skip, struct pp_argv *a,
			const char **bad)
{
	const json_t *command = json_object_get(rec, "command");
	int err = 0;

	*bad = NULL;
	for (size_t i = 0; i < NOPTIONS && !err; i++) {
		const struct pp_option_desc *d = &options[i];
		const json_t *v = d->report ? json_object_get(rec, d->report) : NULL;
		size_t k;

		for (k = 0; skip && skip[k] && strcmp(skip[k], d->name); k++)
			;
		if (!v || json_is_null(v) || (skip && skip[k]))
			continue;
		if (json_is_array(v)) {
			const json_t *e;
			size_t j;

			json_array_foreach(v, j, e)
			{
				err = json_is_string(e) ? recorded_word(a, d, e) : -EINVAL;
				if (err)
					break;
			}
		} else {
			err = recorded_word(a, d, v);
		}
		if (err == -EINVAL)
			*bad = d->report;
	}
	for (size_t k = 0; skip && skip[k]; k++)
		if (!strcmp(skip[k], "command"))
			command = NULL;
	if (err || !json_is_array(command) || !json_array_size(command))
		return err;
	err = pp_argv_add(a, "--");
	for (size_t j = 0; j < json_array_size(command) && !err; j++) {
		const json_t *e = json_array_get(command, j);

		if (!json_is_string(e)) {
			*bad = "command";
			return -EINVAL;
		}
		err = pp_argv_add(a, "%s", json_string_value(e));
	}
	return err;
}

json_t *pp_options_json(const struct pp_options *opt)
{
	json_t *o = json_object(), *command = json_array();

	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].report)
			o = pp_json_set(o, options[i].report,
					options[i].type->record(opt, &options[i]));
	for (char **c = opt->command; c && *c; c++)
		command = pp_json_push(command, pp_json_str(*c));
	return pp_json_set(o, "command", command);
}

/* The words offered for @d's value, or null. */
static json_t *choices_json(const struct pp_option_desc *d)
{
	json_t *a;

	if (!d->choices)
		return json_null();
	a = json_array();
	for (const struct pp_choice *c = d->choices; c->name; c++)
		if (!c->hidden)
			a = pp_json_push(a, pp_json_str(c->name));
	return a;
}

/* A row of the table, with its value in @opt. */
static json_t *row_json(const struct pp_options *opt, const struct pp_option_desc *d)
{
	char letter[2] = {(char)d->val, 0};
	bool number = d->min != 0 || d->max != 0;

	return pp_json_object(
	    "name", pp_json_str(d->name), "letter", pp_json_str(d->val ? letter : NULL), "type",
	    pp_json_str(d->type->name), "arg", pp_json_str(d->arg), "choices", choices_json(d),
	    "min", number ? pp_json_real(d->min) : json_null(), "max",
	    number ? pp_json_real(d->max) : json_null(), "default", pp_json_str(d->def), "given",
	    pp_json_bool(opt->given >> (d - options) & 1), "local",
	    pp_json_bool(d->flags & PP_OPT_LOCAL), "hidden", pp_json_bool(d->flags & PP_OPT_HIDDEN),
	    "report", pp_json_str(d->report), "value",
	    d->type->record ? d->type->record(opt, d) : json_null(), NULL);
}

/*
 * --dump-options: every row of the table with its value in @opt, the
 * command line pp_options_argv() makes of @opt and what the report records,
 * as JSON on stdout.  1 (done), or -ENOMEM.
 */
static int dump(const struct pp_options *opt)
{
	struct pp_argv a = {0};
	json_t *rows = json_array(), *argv = json_array(), *root;
	int err = pp_options_argv(opt, &a);

	for (size_t i = 0; i < NOPTIONS; i++)
		rows = pp_json_push(rows, row_json(opt, &options[i]));
	for (size_t i = 0; i < a.n; i++)
		argv = pp_json_push(argv, pp_json_str(a.v[i]));
	pp_argv_free(&a);
	root = pp_json_object("options", rows, "argv", argv, "report", pp_options_json(opt), NULL);
	if (!err && root)
		err = pp_json_dumpf(root, stdout, JSON_INDENT(1));
	else if (!err)
		err = -ENOMEM;
	json_decref(root);
	if (err) {
		pr_err("--dump-options: %s", strerror(-err));
		return err;
	}
	putchar('\n');
	return 1;
}

int pp_options_parse(struct pp_options *opt, int argc, char **argv)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 3];
	int c, err;

	err = set_defaults(opt, true);
	if (err)
		return err;
	getopt_tables(longopts, shortopts);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct pp_option_desc *d = find_option(c);

		if (c == ':') {
			pr_err("option %s needs a value (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
		if (!d) {
			if (optopt && optopt < OPT_LONG_ONLY)
				pr_err("unknown option '-%c' (see --help)", optopt);
			else
				pr_err("unknown option '%s' (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
		err = d->type->set(opt, d, optarg);
		if (err)
			return err;
		if (d->given)
			*(bool *)((char *)opt + d->given) = true;
		opt->given |= 1ull << (d - options);
	}
	if (optind < argc)
		opt->command = &argv[optind];
	if (opt->baseline && !opt->previous)
		opt->previous = opt->baseline;
	err = check_together(opt);
	if (!err && opt->dump)
		err = dump(opt);
	return err;
}

void pp_options_free(struct pp_options *opt)
{
	free(opt->exclude);
	opt->exclude = NULL;
	opt->nexclude = 0;
}

const char *pp_runs_name(enum pp_runs runs)
{
	return choice_name(runs_choices, runs);
}

const char *pp_test_name(enum pp_test test)
{
	return choice_name(test_choices, test);
}
