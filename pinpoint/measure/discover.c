// SPDX-License-Identifier: MIT
/*
 * discover.c - the discover stage: the first run of each revision arms only
 * the entry, names the instrumented binaries the benchmark loads (their
 * tables make the program model), finds the entry in it and how it is
 * armed, and sets the time limit of later runs from the slowest first run.
 *
 * When the entry runs many times per process, a few more discovery runs of
 * each revision follow, alternately.  These runs fix what every later run of
 * the session measures the same way (doc/semantics.md): the entry
 * executions each run skips before its steady state (MSER over the median
 * of each execution across the discovery runs: a warm-up is where every run
 * starts, a slow episode where one run happens to be), and the execution
 * after which each run ends (--executions: by default the two-stage
 * sampling optimum of executions per run, from the variance of executions
 * within runs and of runs, and what a run costs besides its executions).
 * Neither is taken from any comparison's values.  The runs are armed by the
 * measure stage's code (pp_arming), with the entry alone.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arming.h"
#include "core/results.h"
#include "core/stats.h"
#include "core/util.h"
#include "pinpoint/measure/backend.h"
#include "pinpoint/measure/discover.h"
#include "pinpoint/log.h"
#include "pinpoint/measure/measure.h"
#include "pinpoint/measure/run.h"
#include "pinpoint/measure/schedule.h"

/* Report an entry that is unknown or ambiguous in @rev; returns -ENOENT or -EINVAL. */
static int entry_problem(struct pp_session *s, struct pp_revision *rev, size_t nmatch,
			 const struct pp_prog_fn *const *m)
{
	char list[2048];

	if (nmatch == 0) {
		size_t ns =
		    pp_program_suggest_list(&rev->prog, s->opt->entry, 5, list, sizeof(list));

		pr_err("unknown entry '%s' in the %s revision (%s)%s%s", s->opt->entry, rev->label,
		       rev->dir, ns ? "; did you mean: " : "", list);
		return -ENOENT;
	}
	pp_program_candidates(m, nmatch, list, sizeof(list));
	pr_err("ambiguous entry '%s' in the %s revision: give one of %s", s->opt->entry, rev->label,
	       list);
	return -EINVAL;
}

/* A discovery run's results and wall time. */
struct pp_disc {
	struct pp_results res;
	enum pp_rev_id rev;
	double wall_s;
};

/* Run revision @r once with only the entry armed, as @spec (encoded). */
static int discover_run(struct pp_session *s, enum pp_rev_id r, const char *spec,
			struct pp_results *res, double *slowest, double *wall)
{
	const struct pp_arm_how how = {.entry = spec, .samples = PP_STEADY_SAMPLES};
	struct pp_run_setup setup;
	struct pp_run_status st;
	struct pp_run_record *rec;
	char *arming, out[4096];
	int err;

	pp_session_results_path(s, r, out, sizeof(out));
	pp_results_free(res);
	memset(res, 0, sizeof(*res));
	/* The build as it is: the layouts are made from the modules these runs name. */
	if (pp_schedule_setup(s, -1, &setup))
		return -ENOMEM;
	arming = pp_arming(s, r, out, &how, NULL, 0, NULL);
	if (!arming)
		return -ENOMEM;
	err = pp_run_revision(s, r, arming, 0, 0, &setup, res, &st);
	free(arming);
	rec = pp_session_add_run(s);
	if (rec) {
		rec->rev = r;
		rec->warmup = true;
		rec->setup = setup;
		rec->st = st;
		rec->turn_s = st.wall_s;
		rec->cpu = -1;
		rec->side = -1;
	}
	if (!err && st.wall_s > *slowest)
		*slowest = st.wall_s;
	*wall = st.wall_s;
	return err;
}

/* A call of @fn that the optimiser inlined into its caller, or NULL. */
static const struct pp_prog_call *inlined_at(const struct pp_program *prog,
					     const struct pp_prog_fn *fn)
{
	for (size_t i = 0; i < prog->nfuncs; i++)
		for (uint32_t k = 0; k < prog->funcs[i].ncalls; k++) {
			const struct pp_prog_call *c = &prog->funcs[i].calls[k];

			if (c->fate == PP_FATE_INLINED && !strcmp(c->callee, fn->name))
				return c;
		}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Where the entry's steady state begins: the executions MSER drops as
 * warm-up (pp_warmup_mser, batch medians of PP_WARMUP_BATCH) from the
 * median duration of each execution across the @nd runs' first @n, cut
 * back to the batches that stand out from the steady state by more than
 * its noise and half the threshold, @band (pp_warmup_trim): every run pays
 * for the executions it skips.  0 when there are too few executions for
 * the rule.
 */
static unsigned long long steady_start(const struct pp_disc *d, size_t nd, size_t n, double band)
{
	double *x = malloc((n ? n : 1) * sizeof(*x)), *col = malloc(nd * sizeof(*col));
	size_t start = 0;

	if (!x || !col)
		goto out;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < nd; k++)
			col[k] = (double)d[k].res.samples[i];
		qsort(col, nd, sizeof(*col), cmp_double);
		x[i] = nd % 2 ? col[nd / 2] : (col[nd / 2 - 1] + col[nd / 2]) / 2;
	}
	if (pp_warmup_mser(x, n, PP_WARMUP_BATCH, &start)) {
		start = 0;
	} else {
		size_t mser = start;

		if (pp_warmup_trim(x, n, PP_WARMUP_BATCH, band, &start))
			start = 0;
		pr_dbg("warm-up: MSER drops the first %zu executions, %zu of them stand out from "
		       "the steady state",
		       mser, start);
	}
out:
	free(x);
	free(col);
	return start;
}

/*
 * Over the discovery runs @d[0..@nd), the means of an execution of the
 * entry (@exec_ns) and of a run's wall time outside its executions
 * (@outside_ns: start-up, set-up, the end).
 */
static void run_times(const struct pp_disc *d, size_t nd, double *exec_ns, double *outside_ns)
{
	*exec_ns = *outside_ns = 0;
	for (size_t i = 0; i < nd; i++) {
		const struct pp_slot_result *e = &d[i].res.slots[0];

		if (e->count)
			*exec_ns += (double)e->total_ns / (double)e->count / (double)nd;
		*outside_ns += fmax(0.0, d[i].wall_s * 1e9 - (double)e->total_ns) / (double)nd;
	}
}

/*
 * --executions auto: the execution after which runs end, from the discovery
 * runs' executions skip..n-1 (0: runs go to their end).  Kept executions per
 * run are the two-stage optimum (pp_executions_auto), at least
 * PP_MIN_KEPT; a run's cost besides them is its wall time outside the
 * entry plus its warm-up.  When the session's runs go in pairs (@paired:
 * duet or paired), the spread that counts is that of the pairs'
 * differences, since what both runs of a pair share cancels in the
 * comparison.  The discovery runs alternate, so that runs 2i and 2i + 1
 * are one of each revision one after the other (discover_more), a pair as
 * --runs paired makes them; duet pairs, run at the same time, share more
 * than these runs can show.
 */
static unsigned long long auto_stop(const struct pp_disc *d, size_t nd, size_t n,
				    unsigned long long skip, unsigned long long count, bool paired)
{
	size_t kept = n > skip ? n - (size_t)skip : 0;
	double *x = NULL, exec = 0, other = 0, k;
	unsigned *block = NULL;
	struct pp_varcomp vc;
	unsigned long long stop = 0;

	if (kept < 2 || nd < 3)
		return 0;
	x = malloc(nd * kept * sizeof(*x));
	block = malloc(nd * sizeof(*block));
	if (!x || !block)
		goto out;
	for (size_t i = 0; i < nd; i++) {
		for (size_t j = 0; j < kept; j++)
			x[i * kept + j] = (double)d[i].res.samples[skip + j];
		block[i] = (unsigned)d[i].rev;
	}
	run_times(d, nd, &exec, &other);
	k = pp_executions_auto(x, nd, kept, block, paired, other + (double)skip * exec, exec, &vc);
	if (isnan(k))
		goto out;
	pr_dbg("executions: sd %.0f ns within %s (%.0f ns over halves), %.0f ns between them "
	       "(%.0f%% upper bound), %.0f ns a run besides its executions, %.0f ns an "
	       "execution: %.1f executions per run after the warm-up",
	       sqrt(vc.within), paired ? "the pairs' differences" : "runs", sqrt(vc.within_long),
	       vc.between_long > 0 ? sqrt(vc.between_long) : 0.0, 100 * PP_VARCOMP_HIGH, other,
	       exec, k);
	if (isfinite(k)) {
		double keep = fmax(ceil(k), PP_MIN_KEPT);

		if ((double)skip + keep < (double)count)
			stop = skip + (unsigned long long)keep;
	}
out:
	free(x);
	free(block);
	return stop;
}

/*
 * A run that spends more than this outside the entry's executions, and more
 * than one execution takes, may run the entry's functions there (a set-up):
 * the session skips the entry's first execution, and with it everything
 * before it (the runtime's skip=), wherever two executions at least are left.
 */
#define PP_SETUP_NS 5e6
#define PP_SETUP_MIN_EXECUTIONS 3

/* The session's rule, from the @nd discovery runs. */
static int fix_rule(struct pp_session *s, const struct pp_disc *d, size_t nd)
{
	unsigned long long skip, count = ULLONG_MAX;
	size_t n = SIZE_MAX;

	for (size_t i = 0; i < nd; i++) {
		if (d[i].res.nsamples < n)
			n = d[i].res.nsamples;
		if (d[i].res.slots[0].count < count)
			count = d[i].res.slots[0].count;
	}
	skip = steady_start(d, nd, n, s->opt->precision / 100.0 / 2.0);
	if (skip >= count)
		skip = 0;
	if (!skip && count >= PP_SETUP_MIN_EXECUTIONS && s->opt->executions != 1) {
		double outside, exec;

		run_times(d, nd, &exec, &outside);
		if (nd && outside > PP_SETUP_NS && outside > exec) {
			skip = 1;
			s->entry_skip_setup = true;
			pr_dbg(
			    "a run spends %.1f ms outside the entry's executions (%.1f ms each): "
			    "its first execution and what came before it are skipped",
			    outside / 1e6, exec / 1e6);
		}
	}
	s->entry_skip = skip;
	s->entry_count = count;
	if (s->opt->executions == PP_EXECUTIONS_AUTO) {
		s->entry_stop = auto_stop(d, nd, n, skip, count, s->opt->runs != PP_RUNS_SHUFFLED);
	} else if (s->opt->executions != PP_EXECUTIONS_ALL) {
		if ((unsigned long long)s->opt->executions <= skip) {
			pr_err(
			    "--executions %ld: the first %llu executions of the entry in each run "
			    "are its warm-up; give more than %llu, or all",
			    s->opt->executions, skip, skip);
			return -EINVAL;
		}
		s->entry_stop = (unsigned long long)s->opt->executions;
	}
	pr_dbg("the entry ran at least %llu times per process in %zu discovery runs; every run "
	       "skips its first %llu executions and ends after execution %llu (0: at its end)",
	       count, nd, skip, s->entry_stop);
	return 0;
}

/* The tables of revision @r, whose first run wrote @res, from the session's backend. */
static int read_tables(struct pp_session *s, enum pp_rev_id r, const struct pp_results *res)
{
	struct pp_revision *rev = &s->rev[r];

	if (pp_backend_of(s)->tables(s, r, res))
		return -EINVAL;
	if (!rev->prog.nfuncs) {
		pr_err("the %s revision's '%s' (in %s) carries no pinpoint table: build it with "
		       "pinpoint-cc, or clang -g -fpass-plugin=$(pinpoint --print-plugin-path) and "
		       "the pinpoint runtime",
		       rev->label, s->opt->command[0], rev->dir);
		return -EINVAL;
	}
	return 0;
}

/* The entry did not run in @rev's first run: inlined (a usage error) or never called. */
static int entry_never_ran(struct pp_session *s, struct pp_revision *rev)
{
	const struct pp_prog_call *at = inlined_at(&rev->prog, rev->entry);
	char where[512] = "";

	if (!(rev->entry->flags & PP_FUNC_EMITTED) || at) {
		/* Not a measuring problem: the build has no call of it to time. */
		if (at)
			snprintf(where, sizeof(where), " (at %s:%u)", at->file, at->line);
		pr_err("the %s revision's entry %s was inlined into its callers%s and never ran as "
		       "a function: mark it __attribute__((noinline)), or give its caller as "
		       "--entry",
		       rev->label, pp_demangle(rev->entry->name), where);
		return -EINVAL;
	}
	pp_session_fail(s, "%s revision: the entry %s was never called by '%s'", rev->label,
			pp_demangle(rev->entry->name), s->opt->command[0]);
	return -EIO;
}

int pp_discover_tables(struct pp_session *s, enum pp_rev_id r, const struct pp_results *res)
{
	struct pp_revision *rev = &s->rev[r];
	const struct pp_prog_fn *m[16];
	size_t nm;
	int err = read_tables(s, r, res);

	if (err)
		return err;
	nm = pp_program_lookup(&rev->prog, s->opt->entry, m, 16);
	if (nm != 1)
		return entry_problem(s, rev, nm < 16 ? nm : 16, m);
	rev->entry = m[0];
	rev->entry_spec = pp_arming_fn(&rev->prog, m[0]);
	return rev->entry_spec ? 0 : -ENOMEM;
}

/*
 * The first run of revision @r: its tables, its entry and how the entry is
 * armed.  On 0, @d holds the run.
 */
static int discover_revision(struct pp_session *s, enum pp_rev_id r, const char *user_entry,
			     struct pp_disc *d, double *slowest)
{
	struct pp_revision *rev = &s->rev[r];
	struct pp_results res;
	double wall = 0;
	int err;

	memset(&res, 0, sizeof(res));
	err = discover_run(s, r, user_entry, &res, slowest, &wall);
	if (err)
		goto fail;
	err = pp_discover_tables(s, r, &res);
	if (err)
		goto fail;
	/*
	 * The runtime matches linkage names: an entry given as a C++ name
	 * ("run" for _Z3runv) is armed again by the name the table gives it.
	 */
	if (res.nslots && !res.slots[0].found && strcmp(rev->entry_spec, user_entry)) {
		err = discover_run(s, r, rev->entry_spec, &res, slowest, &wall);
		if (err)
			goto fail;
	}
	if (!res.nslots || !res.slots[0].count) {
		err = entry_never_ran(s, rev);
		goto fail;
	}
	d->res = res;
	d->rev = r;
	d->wall_s = wall;
	return 0;
fail:
	pp_results_free(&res);
	return err;
}

/*
 * More runs, alternately, when the entry runs often enough in each for the
 * rules: after the first two (previous, current), pairs of either order,
 * runs 2i and 2i + 1 one of each revision (auto_stop's pairs).
 */
static int discover_more(struct pp_session *s, struct pp_disc *d, size_t *nd, double *slowest)
{
	if (d[0].res.slots[0].count < 3 * PP_WARMUP_BATCH ||
	    d[1].res.slots[0].count < 3 * PP_WARMUP_BATCH || *slowest > PP_DISCOVER_MAX_S)
		return 0;
	for (int i = 1; i < PP_DISCOVER_RUNS; i++) {
		for (int k = 0; k < 2; k++) {
			enum pp_rev_id r = i % 2 ? (enum pp_rev_id)(1 - k) : (enum pp_rev_id)k;
			struct pp_disc *x = &d[*nd];
			double wall = 0;
			int err;

			err = discover_run(s, r, s->rev[r].entry_spec, &x->res, slowest, &wall);
			if (!err && (!x->res.nslots || !x->res.slots[0].count)) {
				pp_session_fail(s,
						"%s revision: the entry %s was not called in a "
						"later run of '%s'",
						s->rev[r].label, pp_demangle(s->rev[r].entry->name),
						s->opt->command[0]);
				err = -EIO;
			}
			(*nd)++;
			if (err)
				return err;
			x->rev = r;
			x->wall_s = wall;
		}
	}
	return 0;
}

int pp_discover(struct pp_session *s)
{
	struct pp_disc d[2 * PP_DISCOVER_RUNS];
	size_t nd = 0;
	double slowest = 0;
	char *user_entry;
	int err = 0;

	s->measuring = pp_session_now(s);
	if (pp_backend_of(s)->discover)
		return pp_backend_of(s)->discover(s);
	user_entry = pp_arming_user_target(s->opt->entry);
	if (!user_entry)
		return -ENOMEM;
	memset(d, 0, sizeof(d));
	/* A benchmark that hangs on its first run must be stopped too. */
	s->timeout_s = s->opt->timeout;
	for (int r = 0; r < 2 && !err; r++) {
		err = discover_revision(s, r, user_entry, &d[nd], &slowest);
		nd += !err;
	}
	if (!err)
		err = discover_more(s, d, &nd, &slowest);
	if (!err)
		err = fix_rule(s, d, nd);
	if (!err)
		s->timeout_s = s->opt->timeout ? s->opt->timeout : fmax(60.0, 20.0 * slowest);
	for (size_t i = 0; i < nd; i++)
		pp_results_free(&d[i].res);
	free(user_entry);
	return err;
}
