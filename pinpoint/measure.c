// SPDX-License-Identifier: MIT
/*
 * measure.c - arm the probes, run both revisions alternately, turn the
 * runtime's results into one value per run, decide each comparison.
 *
 * Every value is in ns per execution of the entry: the entry's own time is
 * its steady-state mean when the runtime kept enough per-execution durations
 * (section 2.3.3 of the method), else its total over its count; a range's or
 * a body's time is its total over the entry's count.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pinpoint/log.h"
#include "pinpoint/measure.h"
#include "pinpoint/report.h"
#include "pinpoint/results.h"
#include "pinpoint/util.h"

static int series_push(struct pp_series *s, double v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 32;
		double *n = realloc(s->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->v = n;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

char *pp_func_spec(const struct pp_program *prog, const struct pp_func *fn)
{
	const struct pp_func *m[2];
	char *spec;

	if (pp_program_lookup(prog, fn->name, m, 2) <= 1 || !fn->file[0])
		return strdup(fn->name);
	if (asprintf(&spec, "%s:%s", fn->file, fn->name) < 0)
		return NULL;
	return spec;
}

struct pp_quantity *pp_quantity_get(struct pp_session *s, enum pp_qkind kind,
				    const struct pp_func *const fn[2], unsigned first,
				    unsigned last)
{
	struct pp_quantity *q, **nq;

	for (size_t i = 0; i < s->nq; i++) {
		q = s->q[i];
		if (q->kind == kind && q->fn[0] == fn[0] && q->fn[1] == fn[1] &&
		    (kind != PP_Q_RANGE || (q->first == first && q->last == last)))
			return q;
	}
	q = calloc(1, sizeof(*q));
	nq = realloc(s->q, (s->nq + 1) * sizeof(*nq));
	if (!q || !nq) {
		free(q);
		if (nq)
			s->q = nq;
		return NULL;
	}
	s->q = nq;
	q->id = (unsigned)s->nq;
	q->kind = kind;
	q->fn[0] = fn[0];
	q->fn[1] = fn[1];
	q->first = first;
	q->last = last;
	s->q[s->nq++] = q;
	return q;
}

/* The arming variable of one revision for a batch; slot 0 is always the entry. */
static char *arming_string(struct pp_session *s, enum pp_rev_id r, const char *out,
			   struct pp_quantity **qs, size_t nq, int *slot_of)
{
	const struct pp_program *prog = &s->rev[r].prog;
	const struct pp_func *entry = s->rev[r].entry;
	size_t len = 0, cap = 256;
	char *buf = malloc(cap);
	int nslots = 1;

#define APPEND(...)                                                                                \
	do {                                                                                       \
		int need = snprintf(NULL, 0, __VA_ARGS__);                                         \
		if (len + need + 1 > cap) {                                                        \
			char *nb;                                                                  \
			cap = 2 * (len + need + 1);                                                \
			nb = realloc(buf, cap);                                                    \
			if (!nb)                                                                   \
				goto fail;                                                         \
			buf = nb;                                                                  \
		}                                                                                  \
		len += snprintf(buf + len, cap - len, __VA_ARGS__);                                \
	} while (0)

	if (!buf)
		return NULL;
	APPEND("out=%s;entry=%s;samples=%d", out, s->rev[r].entry_spec, PP_STEADY_SAMPLES);
	for (size_t i = 0; i < nq; i++) {
		struct pp_quantity *q = qs[i];
		char *spec;

		if (q->kind == PP_Q_ENTRY || (q->kind == PP_Q_SELF && q->fn[r] == entry)) {
			slot_of[i] = 0;
			continue;
		}
		spec = pp_func_spec(prog, q->fn[r]);
		if (!spec)
			goto fail;
		if (q->kind == PP_Q_RANGE)
			APPEND(";range=%s:%u-%u", spec, q->first, q->last);
		else
			APPEND(";fn=%s", spec);
		free(spec);
		slot_of[i] = nslots++;
	}
	return buf;
fail:
	free(buf);
	return NULL;
#undef APPEND
}

static double entry_value(const struct pp_results *res, const struct pp_slot_result *e)
{
	if (res->nsamples >= 2 * PP_STEADY_WINDOW && !res->dropped) {
		double *x = malloc(res->nsamples * sizeof(*x));
		double mean;
		size_t start;
		int err = -ENOMEM;

		if (x) {
			for (size_t i = 0; i < res->nsamples; i++)
				x[i] = (double)res->samples[i];
			err = pp_steady_state(x, res->nsamples, PP_STEADY_WINDOW, PP_STEADY_COV,
					      &mean, &start);
			free(x);
		}
		if (!err)
			return mean;
	}
	return (double)e->total_ns / (double)e->count;
}

static void set_failure(struct pp_session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_failure(struct pp_session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->failure)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s->failure, fmt, ap) < 0)
		s->failure = NULL;
	va_end(ap);
}

/* The last non-empty line of a file, for error messages. */
static void last_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

static struct pp_run_record *new_run(struct pp_session *s)
{
	struct pp_run_record *n = realloc(s->runs, (s->nruns + 1) * sizeof(*n));

	if (!n)
		return NULL;
	s->runs = n;
	memset(&s->runs[s->nruns], 0, sizeof(s->runs[0]));
	return &s->runs[s->nruns++];
}

/*
 * One run of revision @r.  Fills @res.  Returns 0, -EIO after recording why
 * the run failed, -EINTR, or -EINVAL after reporting that the first run
 * (batch 0) wrote no results: a build without the plugin and runtime.
 */
static int run_once(struct pp_session *s, enum pp_rev_id r, const char *arming, const char *out,
		    unsigned batch, unsigned index, struct pp_results *res,
		    struct pp_run_status *st)
{
	struct pp_revision *rev = &s->rev[r];
	char outp[4096], errp[4096], how[128], tail[512];
	int err, errline = 0;
	long others[1];

	snprintf(outp, sizeof(outp), "%s/%s.stdout", s->workdir, rev->label);
	snprintf(errp, sizeof(errp), "%s/%s.stderr", s->workdir, rev->label);
	unlink(out);
	pp_results_others(out, NULL, 0, 1);
	err = pp_run(s->opt->command, rev->dir, arming, outp, errp, s->timeout_s, s->stop, st);
	if (err) {
		set_failure(s, "cannot run '%s' in %s: %s", s->opt->command[0], rev->dir,
			    strerror(-err));
		return -EIO;
	}
	if (st->interrupted)
		return -EINTR;
	if (st->timed_out || st->signal || st->exit_code) {
		last_line(errp, tail, sizeof(tail));
		set_failure(s, "%s revision, comparison %u, run %u: '%s' %s%s%s", rev->label, batch,
			    index + 1, s->opt->command[0], pp_run_describe(st, how, sizeof(how)),
			    tail[0] ? "; its last words: " : "", tail);
		return -EIO;
	}
	if (!rev->output_hash) {
		rev->output_hash = st->output_hash;
	} else if (rev->output_hash != st->output_hash && !rev->output_differs_warned) {
		pr_warn("the %s revision's output changed between runs", rev->label);
		rev->output_differs_warned = true;
	}
	if (s->rev[PP_PREV].output_hash && s->rev[PP_CUR].output_hash &&
	    s->rev[PP_PREV].output_hash != s->rev[PP_CUR].output_hash &&
	    !s->outputs_differ_warned) {
		pr_warn("the previous and current revisions print different output: are they "
			"running the same work?");
		s->outputs_differ_warned = true;
	}
	err = pp_results_read(res, out, &errline);
	if (err == -ENOENT && batch == 0) {
		/* The first run: most likely a build without the plugin and runtime. */
		pr_err("the %s revision's '%s' (in %s) wrote no measurements: build it with "
		       "pinpoint-cc, or clang -g -fpass-plugin=$(pinpoint --print-plugin-path) "
		       "and the pinpoint runtime",
		       rev->label, s->opt->command[0], rev->dir);
		return -EINVAL;
	}
	if (err == -ENOENT) {
		set_failure(s,
			    "%s revision, comparison %u, run %u: the benchmark wrote no "
			    "measurements (is it built with the pinpoint runtime, and does it "
			    "end with exit() or a return from main?)",
			    rev->label, batch, index + 1);
		return -EIO;
	}
	if (!err && pp_results_others(out, others, 1, 1) > 0) {
		/* <out> and <out>.<pid>: two processes measured; which one ran what? */
		set_failure(
		    s,
		    "%s revision, comparison %u, run %u: '%s' ran more than one program "
		    "with the pinpoint runtime armed (processes %ld and %ld wrote results): "
		    "pinpoint measures one process per run",
		    rev->label, batch, index + 1, s->opt->command[0], res->pid, others[0]);
		pp_results_free(res);
		return -EIO;
	}
	if (err) {
		set_failure(s, "%s revision, comparison %u, run %u: unreadable results %s: %s",
			    rev->label, batch, index + 1, out,
			    err == -EPROTO ? "written by another version of the pinpoint runtime"
					   : strerror(-err));
		return -EIO;
	}
	return 0;
}

static void progress(struct pp_session *s, unsigned batch, size_t done, size_t total)
{
	if (s->opt->quiet || !isatty(2))
		return;
	if (done == total)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\r\033[Kpinpoint: comparison batch %u: run %zu of %zu, %.0f s",
			batch, done + 1, total, pp_now() - s->started);
	fflush(stderr);
}

int pp_measure(struct pp_session *s, struct pp_quantity **qs, size_t nq, int runs, bool again)
{
	struct pp_quantity **todo = NULL;
	struct pp_batch *b;
	int *slot_of[2] = {NULL, NULL};
	char out[4096];
	size_t n = 0, total, done = 0;
	int err = 0;

	todo = calloc(nq ? nq : 1, sizeof(*todo));
	slot_of[0] = calloc(nq ? nq : 1, sizeof(int));
	slot_of[1] = calloc(nq ? nq : 1, sizeof(int));
	if (!todo || !slot_of[0] || !slot_of[1]) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nq; i++)
		if (again || !qs[i]->batch)
			todo[n++] = qs[i];
	if (!n)
		goto out;

	b = realloc(s->batches, (s->nbatches + 1) * sizeof(*b));
	if (!b) {
		err = -ENOMEM;
		goto out;
	}
	s->batches = b;
	b = &s->batches[s->nbatches++];
	memset(b, 0, sizeof(*b));
	b->id = (unsigned)s->nbatches;
	b->nq = n;
	b->qids = calloc(n, sizeof(*b->qids));
	if (!b->qids) {
		err = -ENOMEM;
		goto out;
	}
	snprintf(out, sizeof(out), "%s/results", s->workdir);
	for (int r = 0; r < 2; r++) {
		b->arming[r] = arming_string(s, r, out, todo, n, slot_of[r]);
		if (!b->arming[r]) {
			err = -ENOMEM;
			goto out;
		}
		pr_dbg("batch %u %s: PINPOINT='%s'", b->id, s->rev[r].label, b->arming[r]);
	}
	for (size_t i = 0; i < n; i++) {
		b->qids[i] = todo[i]->id;
		todo[i]->batch = b->id;
	}

	total = 2 * (size_t)(s->opt->warmups + runs);
	for (int i = 0; i < s->opt->warmups + runs; i++) {
		for (int k = 0; k < 2; k++) {
			/* ABBA order: drift of the machine falls on both revisions alike. */
			enum pp_rev_id r =
			    (i % 2 == 0) ? (enum pp_rev_id)k : (enum pp_rev_id)(1 - k);
			struct pp_results res;
			struct pp_run_record *rec;
			const struct pp_slot_result *e;
			struct pp_run_status st;

			progress(s, b->id, done++, total);
			memset(&res, 0, sizeof(res));
			err = run_once(s, r, b->arming[r], out, b->id, (unsigned)i, &res, &st);
			rec = new_run(s);
			if (!rec) {
				pp_results_free(&res);
				err = -ENOMEM;
				goto out;
			}
			rec->batch = b->id;
			rec->rev = r;
			rec->index = (unsigned)i;
			rec->warmup = i < s->opt->warmups;
			rec->st = st;
			if (err)
				goto out;
			e = res.nslots ? &res.slots[0] : NULL;
			if (!e || e->kind != PP_SLOT_ENTRY || !e->count) {
				set_failure(s,
					    "%s revision, comparison %u, run %u: the entry %s was "
					    "never called",
					    s->rev[r].label, b->id, i + 1, s->rev[r].entry->name);
				pp_results_free(&res);
				err = -EIO;
				goto out;
			}
			rec->entry_count = e->count;
			pr_dbg("batch %u, %s run %d%s: %.3f s, entry executed %llu times", b->id,
			       s->rev[r].label, i + 1, rec->warmup ? " (warm-up)" : "", st.wall_s,
			       (unsigned long long)e->count);
			rec->nvalues = n;
			rec->values = calloc(n, sizeof(double));
			if (!rec->values) {
				pp_results_free(&res);
				err = -ENOMEM;
				goto out;
			}
			for (size_t j = 0; j < n; j++) {
				struct pp_quantity *q = todo[j];
				int slot = slot_of[r][j];
				const struct pp_slot_result *sl;
				double v;

				if ((size_t)slot >= res.nslots) {
					set_failure(s,
						    "%s revision: the runtime measured %zu slots, "
						    "%d expected",
						    s->rev[r].label, res.nslots, slot + 1);
					pp_results_free(&res);
					err = -EIO;
					goto out;
				}
				sl = &res.slots[slot];
				if (q->kind == PP_Q_ENTRY)
					v = entry_value(&res, e);
				else if (q->kind == PP_Q_RANGE)
					v = (double)sl->total_ns / (double)e->count;
				else
					v = ((double)sl->total_ns - (double)sl->calls_ns) /
					    (double)e->count;
				rec->values[j] = v;
				if (!rec->warmup && series_push(&q->s[r], v)) {
					pp_results_free(&res);
					err = -ENOMEM;
					goto out;
				}
			}
			pp_results_free(&res);
		}
	}
	progress(s, b->id, total, total);
out:
	if (err == -EINTR)
		s->interrupted = true;
	if (err && err != -EINTR && err != -ENOMEM)
		err = -EIO;
	if (err == -ENOMEM)
		set_failure(s, "out of memory");
	free(todo);
	free(slot_of[0]);
	free(slot_of[1]);
	return err;
}

double pp_summary_centre(const struct pp_summary *sum, enum pp_test test)
{
	return test == PP_TEST_WELCH ? sum->mean : sum->median;
}

int pp_decide(struct pp_session *s, struct pp_quantity *q)
{
	const struct pp_options *opt = s->opt;
	struct pp_quantity *entry = s->q[0];
	int err;

	if (q->decided)
		return 0;
	for (;;) {
		double thr;

		err = pp_compare(opt->test, q->s[PP_PREV].v, q->s[PP_PREV].n, q->s[PP_CUR].v,
				 q->s[PP_CUR].n, opt->confidence, &q->cmp);
		if (err) {
			set_failure(s, "too few measurements to compare (%zu and %zu)",
				    q->s[PP_PREV].n, q->s[PP_CUR].n);
			return -EIO;
		}
		pp_summarize(q->s[PP_PREV].v, q->s[PP_PREV].n, opt->confidence, &q->sum[PP_PREV]);
		pp_summarize(q->s[PP_CUR].v, q->s[PP_CUR].n, opt->confidence, &q->sum[PP_CUR]);
		if (q == entry)
			thr = fabs(pp_summary_centre(&q->sum[PP_PREV], opt->test));
		else
			thr = fabs(pp_summary_centre(&entry->sum[PP_PREV], opt->test));
		thr *= opt->precision / 100.0;
		q->threshold_ns = thr;
		/* Too wide to decide: the interval holds both "below" and "above" the threshold. */
		if (q->rounds < opt->remeasure && q->cmp.diff.low < thr && q->cmp.diff.high > thr) {
			q->rounds++;
			pr_dbg("comparison of quantity %u too wide, re-measuring (round %d)", q->id,
			       q->rounds);
			err = pp_measure(s, &q, 1, opt->measurements, true);
			if (err)
				return err;
			continue;
		}
		break;
	}
	if (q->cmp.significant && q->cmp.diff.low > 0 && q->cmp.diff.centre > q->threshold_ns)
		q->verdict = PP_V_SLOWER;
	else if (q->cmp.significant && q->cmp.diff.high < 0)
		q->verdict = PP_V_FASTER;
	else
		q->verdict = PP_V_SAME;
	q->decided = true;
	pp_report_comparison(s, q);
	return 0;
}

/* Report an entry that is unknown or ambiguous in @rev; returns -ENOENT or -EINVAL. */
static int entry_problem(struct pp_session *s, struct pp_revision *rev, size_t nmatch,
			 const struct pp_func *const *m)
{
	char list[2048];
	size_t len = 0;

	list[0] = 0;
	if (nmatch == 0) {
		const char *sugg[5];
		size_t ns = pp_program_suggest(&rev->prog, s->opt->entry, sugg, 5);

		for (size_t i = 0; i < ns && len < sizeof(list); i++)
			len += snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
					sugg[i]);
		pr_err("unknown entry '%s' in the %s revision (%s)%s%s", s->opt->entry, rev->label,
		       rev->dir, ns ? "; did you mean: " : "", list);
		return -ENOENT;
	}
	for (size_t i = 0; i < nmatch && len < sizeof(list); i++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s:%s", i ? ", " : "",
				m[i]->file, m[i]->name);
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
	char *arming;
	int err;

	pp_results_free(res);
	memset(res, 0, sizeof(*res));
	if (asprintf(&arming, "out=%s;entry=%s", out, spec) < 0)
		return -ENOMEM;
	err = run_once(s, r, arming, out, 0, 0, res, &st);
	free(arming);
	rec = new_run(s);
	if (rec) {
		rec->rev = r;
		rec->warmup = true;
		rec->st = st;
	}
	if (!err && st.wall_s > *slowest)
		*slowest = st.wall_s;
	return err;
}

int pp_discover(struct pp_session *s)
{
	double slowest = 0;
	char out[4096];
	int err = 0;

	snprintf(out, sizeof(out), "%s/results", s->workdir);
	/* A benchmark that hangs on its first run must be stopped too. */
	s->timeout_s = s->opt->timeout;
	for (int r = 0; r < 2; r++) {
		struct pp_revision *rev = &s->rev[r];
		const struct pp_func *m[16];
		struct pp_results res;
		size_t nm;

		memset(&res, 0, sizeof(res));
		err = discover_run(s, r, out, s->opt->entry, &res, &slowest);
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
			err = entry_problem(s, rev, nm, m);
			goto fail;
		}
		rev->entry = m[0];
		rev->entry_spec = pp_func_spec(&rev->prog, m[0]);
		if (!rev->entry_spec) {
			err = -ENOMEM;
			goto fail;
		}
		/*
		 * The runtime matches linkage names: an entry given as a C++ name
		 * ("run" for _Z3runv) is armed again by the name the table gives it.
		 */
		if (res.nslots && !res.slots[0].found && strcmp(rev->entry_spec, s->opt->entry)) {
			err = discover_run(s, r, out, rev->entry_spec, &res, &slowest);
			if (err)
				goto fail;
		}
		if (!res.nslots || !res.slots[0].count) {
			set_failure(s, "%s revision: the entry %s was never called by '%s'",
				    rev->label, pp_demangle(rev->entry->name), s->opt->command[0]);
			err = -EIO;
			goto fail;
		}
		pp_results_free(&res);
		continue;
	fail:
		pp_results_free(&res);
		return err;
	}
	if (!s->opt->timeout)
		s->timeout_s = fmax(60.0, 20.0 * slowest);
	else
		s->timeout_s = s->opt->timeout;
	return 0;
}
