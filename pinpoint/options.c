// SPDX-License-Identifier: MIT
/*
 * options.c - the driver's command line, from one table of options: each
 * row names the field it fills and how (a setter), the range or the choices
 * of its value and its default.  getopt_long's tables, the defaults (set
 * through the same setters, as if given), validation and --help all come
 * from it.
 *
 *   pinpoint --entry FUNC --depth N --previous DIR [--current DIR] [options]
 *            [-- COMMAND [ARGS]]
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/duet.h"
#include "pinpoint/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/options.h"
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

/* One value of an option that takes one of a few words. */
struct pp_choice {
	const char *name;
	int value;
	bool hidden; /* accepted, not offered */
};

struct pp_option_desc {
	const char *name;
	int val;	    /* the short option's letter, or 0: a long option only */
	pp_option_set *set; /* stores the value */
	size_t off, size;   /* the field of struct pp_options it fills (FIELD()) */
	const char *arg;    /* the value's name in --help; NULL: no value, or one of @choices */
	double min, max;    /* the range of a number */
	const struct pp_choice *choices; /* NULL-terminated */
	const char *what;		 /* what an empty value lacks: refused when set */
	const char *def;		 /* the default, as it would be given */
	const char *def_note;		 /* what --help adds to the default, or says instead */
	size_t given; /* the bool that records the option was given (GIVEN()), 0: none */
	const char *help;
};

#define FIELD(f) .off = offsetof(struct pp_options, f), .size = sizeof(((struct pp_options *)0)->f)
#define GIVEN(f) .given = offsetof(struct pp_options, f)

_Static_assert(sizeof(enum pp_search) == sizeof(int) && sizeof(enum pp_test) == sizeof(int) &&
		   sizeof(enum pp_runs) == sizeof(int),
	       "a choice is stored as an int");

static pp_option_set set_flag, set_int, set_real, set_percent, set_string, set_choice,
    set_executions, set_cpu, set_seed, set_exclude, set_commits, set_deprecated, show_help,
    show_version, show_plugin_path, show_runtime_path;

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

static const struct pp_option_desc options[] = {
    {"entry", OPT_ENTRY, set_string, FIELD(entry), .arg = "FUNC", .what = "function name",
     .help = "function to inspect (layer 0); FILE:FUNC picks one of several static functions"},
    {"depth", OPT_DEPTH, set_int, FIELD(depth), .arg = "N", .min = 0, .max = 1000, .def = "3",
     .help = "deepest layer to dig into"},
    {"previous", OPT_PREVIOUS, set_string, FIELD(previous), .arg = "DIR",
     .help = "build directory of the previous (accepted) revision"},
    {"current", OPT_CURRENT, set_string, FIELD(current), .arg = "DIR", .def = ".",
     .help = "build directory of the current revision"},
    {"measurements", OPT_MEASUREMENTS, set_int, FIELD(measurements), .arg = "N", .min = 3,
     .max = 100000, .def = "10",
     .help = "runs per revision at a comparison's first look (each later look about 1.4 "
	     "times the last)"},
    {"max-runs", 0, set_int, FIELD(max_runs), .arg = "N", .min = 0, .max = 100000000,
     .def = "30000", .def_note = ", 0: no limit",
     .help = "runs the whole session may use, both revisions and warm-ups"},
    {"max-runs-per-comparison", 0, set_int, FIELD(max_runs_comparison), .arg = "N", .min = 3,
     .max = 1000000, .def = "3000",
     .help = "runs per revision after which a comparison is undecided"},
    {"max-time", 0, set_real, FIELD(max_time), .arg = "S", .min = 0, .max = 1e9, .def = "300",
     .def_note = ", 0: no limit",
     .help = "seconds the session may measure for (after the builds and the code layouts): "
	     "one budget for the bottleneck chain, searched first, then shares for further "
	     "contributors; what it cannot pay for is left open or undecided"},
    {"executions", 0, set_executions, .arg = "auto|all|N", .def = "auto",
     .help = "end each run after the entry's N-th execution; auto: as many as measure best for "
	     "the time, from the first runs; all: never"},
    /* 0: the discovery runs are each revision's first; a warm-up run after them
     * measured like any other (bench/README.md, "Warm-up runs"). */
    {"warmups", OPT_WARMUPS, set_int, FIELD(warmups), .arg = "N", .min = 0, .max = 100000,
     .def = "0", .def_note = ": the discovery runs warm up",
     .help = "runs per revision discarded before each round of runs"},
    {"confidence", 0, set_percent, FIELD(confidence), .arg = "P", .min = 50, .max = 99.999,
     .def = "95", .help = "confidence level in percent"},
    {"precision-threshold", 0, set_real, FIELD(precision), .arg = "P", .min = 0, .max = 1000,
     .def = "1", GIVEN(precision_given),
     .help = "smallest slowdown reported, in percent of the entry's time"},
    {"re-measurement", 0, set_deprecated, .arg = "N", .min = 0, .max = 100,
     .help = "deprecated, ignored: comparisons are measured until decided (see --max-runs)"},
    {"timeout", 0, set_real, FIELD(timeout), .arg = "S", .min = 0.001, .max = 1e7,
     .def_note = "20x the first run, at least 60", .help = "seconds one run may take"},
    {"cpu", 0, set_cpu, .arg = "LIST", .help = "pin every run to these CPUs, e.g. 2 or 0,2-3"},
    {"layouts", 0, set_int, FIELD(layouts), .arg = "N", .min = 1, .max = PP_MAX_LAYOUTS,
     .def = "64", .def_note = "; 1: each revision as built",
     .help = "code layouts each revision is measured in: its modules linked again with their "
	     "functions in random orders, each run in one of them"},
    {"runs", 0, set_choice, FIELD(runs), .choices = runs_choices, .def = "duet",
     .def_note = " where two CPUs are free for it, else paired", GIVEN(runs_given),
     .help = "duet: each previous run beside a current one at the same time, each on a CPU of "
	     "its own; paired: the two one after the other; both in layouts of the same index, "
	     "compared through their differences (what moves both cancels); shuffled: one at a "
	     "time in a random order, compared as independent samples"},
    {"seed", 0, set_seed, .arg = "N", .min = 0, .max = 4294967295.0,
     .def_note = "drawn anew; the report records it", .help = "seed of the runs' random order"},
    {"exclude", 0, set_exclude, .arg = "PATTERN",
     .help = "never dig into functions matching this glob (repeatable)"},
    {"search", 0, set_choice, FIELD(search), .choices = search_choices, .def = "attrib",
     .help = "attrib: the attribution search; seed, linear: the method's DiggingFind with "
	     "BinaryFind or LinearFind"},
    {"max-paths", 0, set_int, FIELD(max_paths), .arg = "N", .min = 0, .max = 100000, .def = "8",
     .help = "calls the attribution search digs into, at most"},
    {"test", 0, set_choice, FIELD(test), .choices = test_choices, .def = "mann-whitney",
     .help = "statistical test"},
    {"timing", 0, set_choice, FIELD(timing_all), .choices = timing_choices, .def = "sampled",
     .help = "how armed calls are timed: sampled times a random one in 8 executions of a short "
	     "call site made thousands of times, counting every one; all times every execution"},
    {"json", 0, set_string, FIELD(json), .arg = "FILE", .help = "write the whole session as JSON"},
    {"html", 0, set_string, FIELD(html), .arg = "FILE",
     .help = "write a self-contained HTML report with every comparison plotted"},
    {"no-save-command", 0, set_flag, FIELD(no_save_command),
     .help = "do not remember COMMAND for later sessions on DIR (kept in "
	     "$XDG_CACHE_HOME/pinpoint/commands)"},
    {"build-cmd", 0, set_string, FIELD(build_cmd), .arg = "CMD", .what = "command",
     .help = "build each revision with `sh -c CMD` in its directory, CC/CXX set to "
	     "pinpoint-cc/-c++"},
    {"build-root", 0, set_string, FIELD(build_root), .arg = "DIR",
     .def_note = "$XDG_CACHE_HOME/pinpoint/builds, else ~/.cache/pinpoint/builds",
     .help = "where instrumented copies of CMake builds go"},
    {"no-build", 0, set_flag, FIELD(no_build),
     .help = "use the build directories as they are, build nothing"},
    {"bisect", 0, set_flag, FIELD(bisect),
     .help = "exit status for `git bisect run`: 0 good, 1 bad (slower), 125 skip (no build, "
	     "no decision), 128 abort"},
    {"commits", 0, set_commits, FIELD(commits), .arg = "GOOD..BAD",
     .help = "find the first commit of a git range that made FUNC slower, then the call"},
    {"history", 0, set_string, FIELD(history), .arg = "FILE", .what = "file name",
     .help = "append the entry's figures and the verdict to FILE (JSON lines) for trends"},
    {"quiet", OPT_QUIET, set_flag, FIELD(quiet),
     .help = "print only the report at the end: the verdict, with the bottleneck chain and the "
	     "attribution tree of a regression (no comparison lines, progress, noise summary or "
	     "build messages)"},
    {"verbose", OPT_VERBOSE, set_flag, FIELD(verbose), .help = "print every run"},
    {"help", OPT_HELP, show_help, .help = "print this help"},
    {"version", 0, show_version, .help = "print the version"},
    {"print-plugin-path", 0, show_plugin_path,
     .help = "print the path of the pass plugin (for clang -fpass-plugin=)"},
    {"print-runtime-path", 0, show_runtime_path,
     .help = "print the path of the shared runtime instrumented programs link"},
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

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

static int set_real(struct pp_options *opt, const struct pp_option_desc *d, const char *arg)
{
	return parse_double(d, arg, (double *)((char *)opt + d->off));
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
	       "[-- COMMAND [ARGS...]]\n\n"
	       "Measures FUNC in the previous and current builds and, if it got slower,\n"
	       "narrows the slowdown down through its calls, layer by layer, to the call\n"
	       "that costs it.  COMMAND runs in each build directory; when omitted, the\n"
	       "command of the last session on the current directory is reused.\n\n"
	       "options:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct pp_option_desc *o = &options[i];
		char left[80];

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
	       "128 abort.\n");
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

/* Every option's default, set as if given. */
static int set_defaults(struct pp_options *opt)
{
	int err = 0;

	memset(opt, 0, sizeof(*opt));
	for (size_t i = 0; i < NOPTIONS && !err; i++)
		if (options[i].def)
			err = options[i].set(opt, &options[i], options[i].def);
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

/* What the options given say together. */
static int check_together(const struct pp_options *opt)
{
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

int pp_options_parse(struct pp_options *opt, int argc, char **argv)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 3];
	int c, err;

	err = set_defaults(opt);
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
		err = d->set(opt, d, optarg);
		if (err)
			return err;
		if (d->given)
			*(bool *)((char *)opt + d->given) = true;
	}
	if (optind < argc)
		opt->command = &argv[optind];
	return check_together(opt);
}

void pp_options_free(struct pp_options *opt)
{
	free(opt->exclude);
	opt->exclude = NULL;
	opt->nexclude = 0;
}

const char *pp_runs_name(enum pp_runs runs)
{
	for (const struct pp_choice *c = runs_choices; c->name; c++)
		if (c->value == (int)runs)
			return c->name;
	return runs_choices[0].name;
}

const char *pp_search_name(enum pp_search search)
{
	for (const struct pp_choice *c = search_choices; c->name; c++)
		if (c->value == (int)search && !c->hidden)
			return c->name;
	return search_choices[0].name;
}
