/* SPDX-License-Identifier: MIT */
/*
 * options.h - the driver's command line.
 */
#ifndef PINPOINT_OPTIONS_H
#define PINPOINT_OPTIONS_H

#include <jansson.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/stats.h"
#include "core/util.h"

/*
 * How the runs of a round are made (schedule.h): DUET, in pairs of one run
 * of each revision at the same time on CPUs of their own (where two are
 * free for it, else as PAIRED); PAIRED, in pairs one after the other;
 * SHUFFLED, one at a time in a random order, compared as independent samples.
 */
enum pp_runs { PP_RUNS_DUET, PP_RUNS_PAIRED, PP_RUNS_SHUFFLED };

/* ATTRIB: the attribution search; SEED: DiggingFind with BinaryFind; LINEAR: with LinearFind. */
enum pp_search { PP_SEARCH_ATTRIB, PP_SEARCH_SEED, PP_SEARCH_LINEAR };

/* The longest --label, in bytes. */
#define PP_LABEL_MAX 127

struct pp_options {
	const char *entry;
	int depth;
	const char *previous;
	const char *baseline; /* --baseline: previous is it, and the history says so */
	const char *current;
	const char *label;	 /* --label: the current revision's name */
	int measurements;	 /* runs per revision in each round of a comparison */
	int max_runs_comparison; /* runs per revision one comparison may use, 0: auto */
	long max_runs;	 /* comparison runs of the whole session, both revisions, 0 = no limit */
	double max_time; /* seconds the session may measure for, 0 = no limit */
	long executions; /* each run ends after the entry's N-th execution, or: */
#define PP_EXECUTIONS_AUTO (-1L) /* as many as the discover stage finds best */
#define PP_EXECUTIONS_ALL 0L	 /* never: runs go to their end */
	const char *cpu_list;	 /* --cpu as given, NULL = runs go anywhere */
	cpu_set_t cpus;		 /* --cpu: the CPUs runs are pinned to */
	int warmups;		 /* runs per revision discarded before each comparison */
	unsigned long seed;	 /* --seed: of the runs' random order (schedule.h) */
	int layouts;		 /* code layouts per revision (layouts.h); 1: the build's own */
	int max_layouts;	 /* the schedule makes more, up to this many (schedule.c) */
	int pairs_per_layout;	 /* measured pairs in a layout before the next; 0: auto */
	bool have_seed;
	enum pp_runs runs; /* --runs */
	bool runs_given;   /* --runs was on the command line */
	double confidence; /* 0..1 */
	double precision;  /* percent of the entry's time */
	double arm_budget; /* --arm-budget: percent of the entry's time the armed probes may add */
	bool precision_given; /* --precision-threshold was on the command line */
	double timeout;	      /* seconds per run, 0 = automatic */
	const char **exclude;
	size_t nexclude;
	enum pp_search search;
	int max_paths; /* calls the attribution search digs into, at most */
	enum pp_test test;
	const char *json;
	const char *html;
	bool quiet;
	bool verbose;
	bool no_save_command;
	bool timing_all;	/* --timing all: no sampling of armed calls */
	bool groups;		/* --groups on: callee groups measured and followed */
	bool confirm;		/* --confirm on: the chain's claim checked by a what-if */
	bool cpu_term;		/* --cpu-term on: a duet's CPUs taken out of each comparison */
	bool spoiled_again;	/* --spoiled-rounds again: rounds a load spoiled measured again */
	const char *build_cmd;	/* builds each revision in its directory */
	const char *build_root; /* where instrumented copies of CMake builds go */
	bool no_build;		/* use the directories as they are */
	bool bisect;		/* exit status for `git bisect run`: 0 good, 1 bad, 125 skip */
	const char *commits;	/* GOOD..BAD: bisect the range, then pinpoint the call */
	int build_jobs;		/* --commits: commits built at once (0: 1) */
	bool build_only;	/* build --current, measure nothing */
	const char *replay;	/* a --json report whose session is made again from its runs */
	const char *model;	/* a program model measured instead of processes (doc/model.md) */
	const char *history;	/* append the session's entry figures (JSON lines) */
	const char *changes;	/* a --history file whose change points are looked for */
	bool investigate;	/* --changes: new slower change points through --commits */
	bool dump;		/* --dump-options: print the table and these options, exit */
	char **command;		/* NULL-terminated, NULL when not given */
	uint64_t given;		/* bit i: the table's i-th option was on the command line */
};

/*
 * Parse argv.  Returns 0 to go on, 1 when --help, --version or a
 * --print-*-path was handled, -EINVAL after printing one error line.
 */
int pp_options_parse(struct pp_options *opt, int argc, char **argv);
void pp_options_free(struct pp_options *opt);
/*
 * @opt back as a command line, appended to @a: every option that was given
 * or is not at its default, as --NAME or --NAME=VALUE (the parser reads them
 * back to the same options), then "--" and COMMAND when there is one.  The
 * options of this process only (--commits, --bisect, ...) are left out: the
 * argv of a session this one starts.  0 or -ENOMEM.
 */
int pp_options_argv(const struct pp_options *opt, struct pp_argv *a);
/*
 * The options that make a measurement what it is, as the report records
 * them (doc/report.schema.json, "options"), then "command".  NULL when out
 * of memory.
 */
json_t *pp_options_json(const struct pp_options *opt);
/* The --runs value that selects @runs: "duet", "paired" or "shuffled". */
const char *pp_runs_name(enum pp_runs runs);
/* The --test value that selects @test: "mann-whitney" or "welch". */
const char *pp_test_name(enum pp_test test);

/*
 * The command line that gives the options a report recorded (its
 * "options" object @rec: options_json() in report/json.c), appended to @a:
 * "--name=value" for each option of the table it names, but those named in
 * @skip (NULL-ended, "command" for the benchmark's), then "--" and the
 * command.  0, -ENOMEM, or -EINVAL with *@bad the key whose value no option
 * of that name takes.
 */
int pp_options_recorded(const json_t *rec, const char *const *skip, struct pp_argv *a,
			const char **bad);

#endif