// SPDX-License-Identifier: MIT
/*
 * discover.c - the discover stage: the first run of each revision arms only
 * the entry, names the instrumented binaries the benchmark loads (their
 * tables make the program model), finds the entry in it and how it is
 * armed, and sets the time limit of later runs from the slowest first run.
 *
 * The same runs fix what every later run of the session measures the same
 * way (doc/semantics.md): the entry executions each run skips before its
 * steady state (none when the entry runs too few times per process or shows
 * no warm-up).  It is not taken from any comparison's values.  The
 * previous revision's entry time in its discovery run also gives a first
 * threshold, which the decide stage replaces by the entry's own at its first
 * look (one run, often cold, is a poor scale on a loaded machine).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arming.h"
#include "core/results.h"
#include "pinpoint/discover.h"
#include "pinpoint/log.h"
#include "pinpoint/measure.h"
#include "pinpoint/protocol.h"
#include "pinpoint/run.h"

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

/* Run revision @r once with only the entry armed, as @spec. */
static int discover_run(struct pp_session *s, enum pp_rev_id r, const char *out, const char *spec,
			struct pp_results *res, double *slowest)
{
	struct pp_run_status st;
	struct pp_run_record *rec;
	char *arming, *out_arg;
	int err;

	pp_results_free(res);
	memset(res, 0, sizeof(*res));
	out_arg = pp_arming_escape(out);
	if (!out_arg)
		return -ENOMEM;
	err = asprintf(&arming,
		       PP_SPEC_KEY_OUT "=%s;" PP_SPEC_KEY_ENTRY "=%s;" PP_SPEC_KEY_SAMPLES "=%d",
		       out_arg, spec, PP_STEADY_SAMPLES);
	free(out_arg);
	if (err < 0)
		return -ENOMEM;
	err = pp_run_revision(s, r, arming, 0, 0, res, &st);
	free(arming);
	rec = pp_session_add_run(s);
	if (rec) {
		rec->rev = r;
		rec->warmup = true;
		rec->st = st;
	}
	if (!err && st.wall_s > *slowest)
		*slowest = st.wall_s;
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

/*
 * Where the entry's steady state begins in one run: the executions MSER
 * drops as warm-up over batch medians of PP_WARMUP_BATCH (pp_warmup_mser).
 * Returns false when the run kept too few executions for the rule.
 */
static bool steady_start(const struct pp_results *res, size_t *start)
{
	double *x;
	int err;

	x = malloc((res->nsamples ? res->nsamples : 1) * sizeof(*x));
	if (!x)
		return false;
	for (size_t i = 0; i < res->nsamples; i++)
		x[i] = (double)res->samples[i];
	err = pp_warmup_mser(x, res->nsamples, PP_WARMUP_BATCH, start);
	free(x);
	return !err;
}

/* The session's rule, from the discovery run of each revision (@res[2]). */
static void fix_rule(struct pp_session *s, const struct pp_results *res)
{
	const struct pp_slot_result *e = &res[PP_PREV].slots[0];
	unsigned long long skip = 0;
	double skipped = 0;

	for (int r = 0; r < 2; r++) {
		size_t start;

		if (steady_start(&res[r], &start) && start > skip)
			skip = start;
	}
	for (int r = 0; r < 2; r++)
		if (skip && skip >= res[r].slots[0].count)
			skip = 0;
	for (unsigned long long i = 0; i < skip; i++)
		skipped += (double)res[PP_PREV].samples[i];
	s->entry_skip = skip;
	s->threshold_ns =
	    ((double)e->total_ns - skipped) / (double)(e->count - skip) * s->opt->precision / 100.0;
	pr_dbg("the entry ran %llu and %llu times per process; every run skips its first %llu "
	       "executions; threshold %.1f ns",
	       (unsigned long long)res[PP_PREV].slots[0].count,
	       (unsigned long long)res[PP_CUR].slots[0].count, skip, s->threshold_ns);
}

int pp_discover(struct pp_session *s)
{
	struct pp_results kept[2];
	double slowest = 0;
	char out[4096], *user_entry;
	int err = 0;

	snprintf(out, sizeof(out), "%s/results", s->workdir);
	user_entry = pp_arming_user_target(s->opt->entry);
	if (!user_entry)
		return -ENOMEM;
	memset(kept, 0, sizeof(kept));
	/* A benchmark that hangs on its first run must be stopped too. */
	s->timeout_s = s->opt->timeout;
	for (int r = 0; r < 2; r++) {
		struct pp_revision *rev = &s->rev[r];
		const struct pp_prog_fn *m[16];
		struct pp_results res;
		size_t nm;

		memset(&res, 0, sizeof(res));
		err = discover_run(s, r, out, user_entry, &res, &slowest);
		if (err)
			goto fail;
		for (size_t i = 0; i < res.nmodules; i++) {
			int e = pp_program_add_file(&rev->prog, res.modules[i]);

			if (e && e != -ENOENT) {
				const char *why = pp_program_error(&rev->prog);

				if (why && *why)
					pr_err("%s", why);
				else
					pr_err("%s: %s", res.modules[i], pp_table_strerror(e));
				err = -EINVAL;
				goto fail;
			}
		}
		if (!rev->prog.nfuncs) {
			pr_err("the %s revision's '%s' (in %s) carries no pinpoint table: build it "
			       "with pinpoint-cc, or clang -g -fpass-plugin=$(pinpoint "
			       "--print-plugin-path) and the pinpoint runtime",
			       rev->label, s->opt->command[0], rev->dir);
			err = -EINVAL;
			goto fail;
		}
		nm = pp_program_lookup(&rev->prog, s->opt->entry, m, 16);
		if (nm != 1) {
			err = entry_problem(s, rev, nm < 16 ? nm : 16, m);
			goto fail;
		}
		rev->entry = m[0];
		rev->entry_spec = pp_arming_fn(&rev->prog, m[0]);
		if (!rev->entry_spec) {
			err = -ENOMEM;
			goto fail;
		}
		/*
		 * The runtime matches linkage names: an entry given as a C++ name
		 * ("run" for _Z3runv) is armed again by the name the table gives it.
		 */
		if (res.nslots && !res.slots[0].found && strcmp(rev->entry_spec, user_entry)) {
			err = discover_run(s, r, out, rev->entry_spec, &res, &slowest);
			if (err)
				goto fail;
		}
		if (!res.nslots || !res.slots[0].count) {
			const struct pp_prog_call *at = inlined_at(&rev->prog, rev->entry);
			char where[512] = "";

			if (!(rev->entry->flags & PP_FUNC_EMITTED) || at) {
				/* Not a measuring problem: the build has no call of it to time. */
				if (at)
					snprintf(where, sizeof(where), " (at %s:%u)", at->file,
						 at->line);
				pr_err(
				    "the %s revision's entry %s was inlined into its callers%s and "
				    "never ran as a function: mark it __attribute__((noinline)), "
				    "or give its caller as --entry",
				    rev->label, pp_demangle(rev->entry->name), where);
				err = -EINVAL;
				goto fail;
			}
			pp_session_fail(s, "%s revision: the entry %s was never called by '%s'",
					rev->label, pp_demangle(rev->entry->name),
					s->opt->command[0]);
			err = -EIO;
			goto fail;
		}
		kept[r] = res;
		continue;
	fail:
		pp_results_free(&res);
		pp_results_free(&kept[PP_PREV]);
		free(user_entry);
		return err;
	}
	free(user_entry);
	fix_rule(s, kept);
	pp_results_free(&kept[PP_PREV]);
	pp_results_free(&kept[PP_CUR]);
	if (!s->opt->timeout)
		s->timeout_s = fmax(60.0, 20.0 * slowest);
	else
		s->timeout_s = s->opt->timeout;
	return 0;
}
