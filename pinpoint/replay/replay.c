// SPDX-License-Identifier: MIT
/*
 * replay.c - a recorded session as a measurement backend: its options and
 * tables, its discover stage's rule, then each run's values as the search
 * asks for them, checked against the recording (the batch's armings, the
 * run's revision, index, layout and environment) so that a replay that
 * goes another way than the session stops where it does.  The session's
 * clock is the recording's: each batch begins when it began, each run
 * takes what it took, and so does each code layout's link.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arming.h"
#include "pinpoint/layouts/layouts.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/discover.h"
#include "pinpoint/measure/schedule.h"
#include "pinpoint/replay/replay.h"

static int bad(const struct pp_replay *rp, const char *what)
{
	pr_err("%s: %s", rp->path, what);
	return -EINVAL;
}

static const char *str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double num(const json_t *o, const char *key, double def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

static long long integer(const json_t *o, const char *key, long long def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : def;
}

/* The report options that go with --replay: how the session is reported again. */
static int given_words(struct pp_argv *a, const struct pp_options *given)
{
	int err = 0;

	if (given->json)
		err = pp_argv_add(a, "--json=%s", given->json);
	if (!err && given->html)
		err = pp_argv_add(a, "--html=%s", given->html);
	if (!err && given->history)
		err = pp_argv_add(a, "--history=%s", given->history);
	if (!err && given->quiet)
		err = pp_argv_add(a, "--quiet");
	if (!err && given->verbose)
		err = pp_argv_add(a, "--verbose");
	return err;
}

/* The recorded options as a command line, parsed into rp->opt. */
static int make_options(struct pp_replay *rp, const json_t *options, const struct pp_options *given)
{
	static const char *const skip_processes[] = {"timeout", NULL};
	static const char *const skip_model[] = {"timeout", "previous", "current", "command", NULL};
	const char *badkey, *model = str(rp->measurement, "model");
	static char where[4096 + 32];
	char **argv;
	size_t argc, cmd;
	int err;

	err = pp_argv_add(&rp->words, "pinpoint");
	if (!err)
		err = pp_options_recorded(options, rp->is_model ? skip_model : skip_processes,
					  &rp->words, &badkey);
	if (err == -EINVAL) {
		pr_err("%s: the option \"%s\" has a value no option of this pinpoint takes",
		       rp->path, badkey);
		return err;
	}
	if (!err && rp->is_model)
		err = pp_argv_add(&rp->words, "--model=%s", model);
	if (err)
		return err;
	/* the report options go before the command's "--" */
	for (cmd = 0; cmd < rp->words.n && strcmp(rp->words.v[cmd], "--"); cmd++)
		;
	argc = rp->words.n;
	err = given_words(&rp->words, given);
	/* a session recorded before the what-if made none */
	if (!err && !json_object_get(options, "confirm"))
		err = pp_argv_add(&rp->words, "--confirm=off");
	if (err)
		return err;
	if (cmd < argc) {
		size_t added = rp->words.n - argc;
		char *moved[8];

		memcpy(moved, &rp->words.v[argc], added * sizeof(char *));
		memmove(&rp->words.v[cmd + added], &rp->words.v[cmd],
			(argc - cmd) * sizeof(char *));
		memcpy(&rp->words.v[cmd], moved, added * sizeof(char *));
	}
	argv = rp->words.v;
	snprintf(where, sizeof(where), "%s: the recorded options: ", rp->path);
	pp_log_where = where;
	err = pp_options_parse(&rp->opt, (int)rp->words.n, argv);
	pp_log_where = "";
	if (err)
		return -EINVAL;
	if (rp->is_model) { /* as --model made it */
		rp->model_command[0] = (char *)rp->opt.model;
		rp->opt.command = rp->model_command;
	}
	return 0;
}

int pp_replay_load(struct pp_replay *rp, const struct pp_options *given)
{
	const char *format, *backend;
	json_error_t jerr;
	json_t *options;
	char line[512];

	memset(rp, 0, sizeof(*rp));
	rp->path = strdup(given->replay);
	if (!rp->path)
		return -ENOMEM;
	rp->root = json_load_file(rp->path, 0, &jerr);
	if (!rp->root) {
		if (jerr.line > 0)
			snprintf(line, sizeof(line), "line %d: %s", jerr.line, jerr.text);
		else
			snprintf(line, sizeof(line), "%s", jerr.text);
		return bad(rp, line);
	}
	format = str(rp->root, "format");
	if (!format || strcmp(format, "pinpoint-report") || integer(rp->root, "version", 0) != 1)
		return bad(rp, "not a pinpoint JSON report of version 1 (--json)");
	options = json_object_get(rp->root, "options");
	rp->runs = json_object_get(rp->root, "runs");
	rp->batches = json_object_get(rp->root, "batches");
	rp->measurement = json_object_get(rp->root, "measurement");
	rp->revisions = json_object_get(rp->root, "revisions");
	rp->layouts = json_object_get(rp->root, "layouts");
	rp->time = json_object_get(rp->root, "time");
	if (!json_is_object(options) || !json_is_array(rp->runs) || !json_is_array(rp->batches) ||
	    !json_is_object(rp->measurement) || !json_is_array(rp->revisions) ||
	    json_array_size(rp->revisions) != 2 || !json_is_object(rp->layouts) ||
	    !json_is_object(rp->time))
		return bad(rp, "a report without its options, measurement, revisions, layouts, "
			       "batches, runs and time");
	backend = str(rp->measurement, "backend");
	if (!backend)
		return bad(rp, "recorded by a pinpoint that did not record its runs' backend: "
			       "it cannot be replayed");
	rp->is_model = !strcmp(backend, "model");
	if (rp->is_model && !str(rp->measurement, "model"))
		return bad(rp, "a model's session that does not name its model");
	rp->ops.name = rp->is_model ? "model" : "processes";
	if (rp->is_model && pp_model_load(&rp->model, str(rp->measurement, "model")))
		return -EINVAL;
	return make_options(rp, options, given);
}

/* The directory of the session's work files, as its first batch's arming names it. */
static char *recorded_workdir(const struct pp_replay *rp)
{
	const char *arming = str(json_array_get(rp->batches, 0), "arming_previous");
	const char *end = arming ? strchr(arming, ';') : NULL;
	char *out, *slash;

	if (!arming || strncmp(arming, "out=", 4) || !end)
		return strdup("/nonexistent");
	out = pp_arming_unescape(arming + 4, (size_t)(end - arming - 4));
	slash = out ? strrchr(out, '/') : NULL;
	if (slash)
		*slash = '\0';
	return out;
}

/* Stop the replay: the session went another way here. */
static int diverged(struct pp_session *s, const char *fmt, const char *a, const char *b)
{
	struct pp_replay *rp = s->backend_data;
	char what[512];

	snprintf(what, sizeof(what), fmt, a, b);
	pp_session_fail(s, "the replay of %s went another way than the session: %s", rp->path,
			what);
	return -EIO;
}

static int replay_tables(struct pp_session *s, enum pp_rev_id r, const struct pp_results *res)
{
	struct pp_replay *rp = s->backend_data;
	const json_t *bins = json_object_get(json_array_get(rp->revisions, r), "binaries");
	struct pp_program *prog = &s->rev[r].prog;
	size_t nwarned = 0;

	(void)res;
	if (rp->is_model)
		return pp_model_tables(&rp->model, r, prog);
	for (size_t i = 0; i < json_array_size(bins); i++) {
		const char *path = json_string_value(json_array_get(bins, i));
		int e = path ? pp_program_add_file(prog, path) : -EINVAL;

		nwarned = pp_program_print_warnings(prog, nwarned, "pinpoint", stderr);
		if (e) {
			pr_err("%s: cannot read the tables of %s (a replay needs the revisions' "
			       "binaries as they were): %s",
			       rp->path, path ? path : "?", pp_table_strerror(e));
			return -EINVAL;
		}
	}
	return 0;
}

/* A run's status from its description (pp_run_describe()). */
static void status_of(const char *how, struct pp_run_status *st)
{
	st->exited = 1;
	if (!how || !strcmp(how, "succeeded"))
		return;
	if (sscanf(how, "exited with status %d", &st->exit_code) == 1)
		return;
	st->exited = 0;
	if (sscanf(how, "was killed by signal %d", &st->signal) == 1)
		return;
	if (!strncmp(how, "timed out", 9))
		st->timed_out = true;
	else
		st->interrupted = true;
}

/* The discovery runs (batch 0) as recorded, each drawing its setup as the session did. */
static int replay_discovery_runs(struct pp_session *s, struct pp_replay *rp)
{
	for (; rp->next < json_array_size(rp->runs); rp->next++) {
		const json_t *run = json_array_get(rp->runs, rp->next);
		const char *label = str(run, "revision");
		struct pp_run_record *rec;
		struct pp_run_setup setup;

		if (integer(run, "batch", -1) != 0)
			break;
		if (pp_schedule_setup(s, -1, &setup))
			return -ENOMEM;
		if (integer(run, "env_pad", -1) != setup.env_pad ||
		    integer(run, "heap_offset", -1) != setup.heap)
			return diverged(s,
					"a discovery run's environment is %s%s, not the recorded",
					"another", "");
		rec = pp_session_add_run(s);
		if (!rec)
			return -ENOMEM;
		rec->rev = label && !strcmp(label, "current") ? PP_CUR : PP_PREV;
		rec->warmup = true;
		rec->setup = setup;
		status_of(str(run, "status"), &rec->st);
		rec->st.wall_s = num(run, "wall_s", 0);
		rec->st.cpu_s = num(run, "cpu_s", 0);
		rec->st.nivcsw = (long)integer(run, "involuntary_switches", 0);
		rec->st.waited_s = num(run, "waited_s", -1);
		rec->turn_s = rec->st.wall_s;
		rec->cpu = -1;
		s->clock_s += rec->turn_s;
	}
	return 0;
}

static int replay_discover(struct pp_session *s)
{
	struct pp_replay *rp = s->backend_data;
	const json_t *options = json_object_get(rp->root, "options");
	const json_t *seed = json_object_get(rp->measurement, "seed"), *sched;
	int err;

	for (int r = 0; r < 2; r++) {
		err = pp_discover_tables(s, r, NULL);
		if (err)
			return err;
	}
	if (json_is_integer(seed)) {
		s->seed = (unsigned long)json_integer_value(seed);
		s->seeded = true;
	}
	s->entry_skip = (unsigned long long)integer(rp->measurement, "entry_skip", 0);
	s->entry_skip_setup = json_is_true(json_object_get(rp->measurement, "entry_skip_setup"));
	s->entry_stop = (unsigned long long)integer(rp->measurement, "entry_stop", 0);
	s->entry_count = (unsigned long long)integer(rp->measurement, "entry_count", 0);
	s->threshold_ns = num(rp->measurement, "threshold_ns", 0);
	/* the comparisons' budget as the session fixed it (decide_budget.c); a report
	 * without it had --max-runs-per-comparison's, a number */
	s->comparison_runs = (size_t)integer(rp->measurement, "runs_per_comparison", 0);
	s->comparison_pair_s = num(rp->measurement, "pair_s", 0);
	/* the layouts' schedule as the session fixed it (ahead.c) */
	sched = json_object_get(rp->layouts, "schedule");
	s->layout_every = (unsigned)integer(sched, "pairs_per_layout", 0);
	s->layout_link_s = num(sched, "link_s", 0);
	s->layout_pair_s = num(sched, "pair_s", 0);
	s->layouts_same = json_is_true(json_object_get(sched, "same_code"));
	s->timeout_s = num(options, "timeout", 60);
	/* the builds came before measuring; so did the layouts of a session that did not
	 * vary them.  Varied layouts take their recorded link times as the replay is given
	 * them (replay_layouts()): the first ones before measuring, as both.c counts them,
	 * those the schedule added while it measured (ahead.c), within it */
	s->measuring = s->started + num(rp->time, "builds_s", 0);
	if (!integer(rp->layouts, "first", 0))
		s->measuring += num(rp->time, "layouts_s", 0);
	s->clock_s = s->measuring;
	return replay_discovery_runs(s, rp);
}

static int replay_duet(struct pp_session *s)
{
	struct pp_replay *rp = s->backend_data;
	const char *design = str(rp->measurement, "design");
	const json_t *cpus = json_object_get(rp->measurement, "duet_cpus");

	const char *note = str(rp->measurement, "duet_note");

	s->duet = design && !strcmp(design, "duet");
	s->duet_smt = json_is_true(json_object_get(rp->measurement, "duet_smt"));
	/* a session before pairs shared their draws recorded none: its pairs drew them apart */
	s->pairs_apart = !json_is_true(json_object_get(rp->measurement, "pairs_share_draws"));
	snprintf(s->duet_note, sizeof(s->duet_note), "%s", note ? note : "");
	for (int k = 0; k < 2 && s->duet; k++) {
		const json_t *c = json_array_get(cpus, (size_t)k);

		CPU_ZERO(&s->duet_cpus[k]);
		s->duet_cpu[k] = json_is_integer(c) ? (int)json_integer_value(c) : -1;
		if (s->duet_cpu[k] >= 0 && s->duet_cpu[k] < CPU_SETSIZE)
			CPU_SET(s->duet_cpu[k], &s->duet_cpus[k]);
	}
	return 0;
}

/* Revision @r's layouts as recorded: their seeds, link times and modules. */
static int replay_layouts(struct pp_session *s, enum pp_rev_id r, unsigned want)
{
	struct pp_replay *rp = s->backend_data;
	const json_t *rev = json_array_get(json_object_get(rp->layouts, "revisions"), r);
	const json_t *lays = json_object_get(rev, "layouts"),
		     *mods = json_object_get(rev, "modules");
	struct pp_layouts *l = &s->rev[r].lay;
	unsigned n = (unsigned)json_array_size(lays), had = l->n;

	if (n > PP_MAX_LAYOUTS)
		n = PP_MAX_LAYOUTS;
	for (unsigned k = 0; k < n; k++) {
		const json_t *o = json_array_get(lays, k);

		l->seed[k] = (unsigned long)integer(o, "seed", 0);
		l->relink_s[k] = num(o, "relink_s", 0);
		l->reused[k] = json_is_true(json_object_get(o, "reused"));
	}
	/* the links of the layouts given now took the session's time then */
	for (unsigned k = had; k < n && k < want; k++)
		s->clock_s += l->relink_s[k];
	if (!l->modules && json_array_size(mods)) {
		l->modules = calloc(json_array_size(mods), sizeof(*l->modules));
		if (!l->modules)
			return -ENOMEM;
		for (size_t i = 0; i < json_array_size(mods); i++) {
			const json_t *o = json_array_get(mods, i);
			struct pp_layout_module *m = &l->modules[l->nmodules++];

			m->path = strdup(str(o, "path") ? str(o, "path") : "");
			m->why = str(o, "why") ? strdup(str(o, "why")) : NULL;
			m->relink_s = num(o, "relink_s", 0);
			if (!m->path || (str(o, "why") && !m->why))
				return -ENOMEM;
		}
	}
	if (!n)
		l->not_varied = str(rev, "not_varied");
	return (int)(want < n ? want : n);
}

static int replay_batch(struct pp_session *s, struct pp_batch *b)
{
	struct pp_replay *rp = s->backend_data;
	const json_t *o = json_array_get(rp->batches, b->id - 1);
	char id[32];

	snprintf(id, sizeof(id), "%u", b->id);
	if (!o)
		return diverged(s, "it asked for batch %s, the session made %s fewer", id, "");
	for (int r = 0; r < 2; r++) {
		const char *want = str(o, r ? "arming_current" : "arming_previous");

		if (!want || strcmp(want, b->arming[r]))
			return diverged(s, "it armed '%s' where the session armed '%s'",
					b->arming[r], want ? want : "nothing");
	}
	b->clock_s = num(o, "clock_s", b->clock_s);
	s->clock_s = s->started + b->clock_s;
	return 0;
}

static double value_at(const json_t *a, size_t i)
{
	const json_t *v = json_array_get(a, i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int replay_targets(struct pp_run_record *rec, const json_t *a, size_t nq)
{
	size_t n = json_array_size(a);

	if (!n)
		return 0;
	rec->targets = calloc(n, sizeof(*rec->targets));
	if (!rec->targets)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const json_t *o = json_array_get(a, i);
		struct pp_run_target *t = &rec->targets[rec->ntargets];
		long long qi = integer(o, "value", -1);

		if (qi < 0 || (size_t)qi >= nq || !str(o, "target"))
			continue;
		t->qi = (unsigned)qi;
		t->key = strdup(str(o, "target"));
		if (!t->key)
			return -ENOMEM;
		t->v = num(o, "value_ns", 0);
		t->count = (uint64_t)integer(o, "count", 0);
		rec->ntargets++;
	}
	return 0;
}

static int replay_values(struct pp_session *s, const struct pp_batch *b,
			 const struct pp_run_req *req, struct pp_run_record *rec, size_t nq)
{
	struct pp_replay *rp = s->backend_data;
	const json_t *run = json_array_get(rp->runs, rp->next);
	const json_t *values = json_object_get(run, "values_ns");
	const json_t *removed = json_object_get(run, "removed_ns");
	const json_t *execs = json_object_get(run, "executions");
	const char *label = str(run, "revision");
	long long layout = integer(run, "layout", -1);
	char want[96], got[96];

	snprintf(got, sizeof(got), "batch %u, %s run %u", b->id, s->rev[req->rev].label,
		 req->index + 1);
	if (!run)
		return diverged(s, "it asked for %s%s, after the session's last run", got, "");
	snprintf(want, sizeof(want), "batch %lld, %s run %lld", integer(run, "batch", -1),
		 label ? label : "?", integer(run, "index", -1) + 1);
	if (strcmp(want, got))
		return diverged(s, "it asked for %s where the session made %s", got, want);
	if (layout != req->setup.layout || integer(run, "env_pad", -1) != req->setup.env_pad ||
	    integer(run, "heap_offset", -1) != req->setup.heap)
		return diverged(s, "%s ran in another layout or environment than %s", got,
				"the session's");
	if (json_array_size(values) != nq)
		return diverged(s, "%s measured other quantities than %s", got, "the session's");
	/* after its last run the session only stopped: whatever it weighed to stop (its time
	 * left, say) it weighed later than the runs' own times add up to, after computing its
	 * looks, so the replay's clock stands at the session's end from here */
	if (++rp->next == json_array_size(rp->runs))
		s->clock_s = fmax(s->clock_s, s->started + num(rp->time, "total_s", 0));
	status_of(str(run, "status"), &rec->st);
	rec->st.wall_s = num(run, "wall_s", 0);
	rec->st.cpu_s = num(run, "cpu_s", 0);
	rec->st.nivcsw = (long)integer(run, "involuntary_switches", 0);
	rec->st.waited_s = num(run, "waited_s", -1);
	rec->entry_count = (uint64_t)integer(run, "entry_count", 0);
	rec->lost = (uint64_t)integer(run, "lost_executions", 0);
	rec->nvalues = nq;
	rec->values = calloc(nq ? nq : 1, sizeof(double));
	rec->removed = calloc(nq ? nq : 1, sizeof(double));
	rec->execs = calloc(nq ? nq : 1, sizeof(double));
	if (!rec->values || !rec->removed || !rec->execs ||
	    replay_targets(rec, json_object_get(run, "targets"), nq))
		return -ENOMEM;
	for (size_t i = 0; i < nq; i++) {
		rec->values[i] = value_at(values, i);
		rec->removed[i] = i < json_array_size(removed) ? value_at(removed, i) : 0;
		/* NaN: a derived quantity's null, or a report without them */
		rec->execs[i] = value_at(execs, i);
	}
	if (rec->st.exited && !rec->st.exit_code)
		return 0;
	pp_session_fail(s, "%s", str(rp->root, "failure") ? str(rp->root, "failure") : got);
	return -EIO;
}

static void replay_finish(struct pp_session *s)
{
	struct pp_replay *rp = s->backend_data;
	const json_t *added = json_object_get(rp->layouts, "added");

	s->clock_s = s->started + num(rp->time, "total_s", s->clock_s - s->started);
	s->started_wall = num(rp->root, "started", s->started_wall);
	/* what making the layouts the schedule added took, links and all, as it took */
	if (json_is_object(added))
		s->layouts_more_s = num(added, "seconds", s->layouts_more_s);
}

int pp_replay_attach(struct pp_session *s, struct pp_replay *rp)
{
	rp->ops.tables = replay_tables;
	rp->ops.discover = replay_discover;
	rp->ops.duet = replay_duet;
	rp->ops.layouts = replay_layouts;
	rp->ops.batch = replay_batch;
	rp->ops.values = replay_values;
	rp->ops.finish = replay_finish;
	s->opt = &rp->opt;
	for (int r = 0; r < 2; r++) {
		const json_t *rev = json_array_get(rp->revisions, r);
		const char *dir = str(rev, "dir"), *from = str(rev, "built_from");
		const char *commit = str(rev, "commit");

		s->rev[r].dir = strdup(dir ? dir : "");
		s->rev[r].built_from = from ? strdup(from) : NULL;
		if (!s->rev[r].dir || (from && !s->rev[r].built_from))
			return -ENOMEM;
		if (commit && pp_git_full_hash(commit))
			snprintf(s->rev[r].commit, sizeof(s->rev[r].commit), "%s", commit);
	}
	rp->workdir = recorded_workdir(rp);
	if (!rp->workdir)
		return -ENOMEM;
	s->workdir = rp->workdir;
	s->backend = &rp->ops;
	s->backend_data = rp;
	s->virtual_clock = true;
	return 0;
}

void pp_replay_platform(const struct pp_replay *rp, struct pp_platform *p)
{
	const json_t *o = json_object_get(rp->root, "platform");
	const char *v;

	if (!json_is_object(o))
		return;
	if ((v = str(o, "cpu")))
		snprintf(p->cpu, sizeof(p->cpu), "%s", v);
	p->cpus = integer(o, "cpus", p->cpus);
	if ((v = str(o, "kernel")))
		snprintf(p->kernel, sizeof(p->kernel), "%s", v);
	if ((v = str(o, "machine")))
		snprintf(p->machine, sizeof(p->machine), "%s", v);
	if ((v = str(o, "llvm")))
		snprintf(p->llvm, sizeof(p->llvm), "%s", v);
	if ((v = str(o, "compiler_previous")))
		snprintf(p->compiler[0], sizeof(p->compiler[0]), "%s", v);
	if ((v = str(o, "compiler_current")))
		snprintf(p->compiler[1], sizeof(p->compiler[1]), "%s", v);
}

void pp_replay_free(struct pp_replay *rp)
{
	pp_options_free(&rp->opt);
	pp_argv_free(&rp->words);
	pp_model_free(&rp->model);
	if (rp->root)
		json_decref(rp->root);
	free(rp->workdir);
	free(rp->path);
	memset(rp, 0, sizeof(*rp));
}
