// SPDX-License-Identifier: MIT
/*
 * model_load.c - read a program model (doc/model.md) and check it: every
 * callee known, no recursion, shares of an indirect call's targets adding
 * up to 1, times and counts finite and not negative.  Bad input gets one
 * line naming the file and the place.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pinpoint/log.h"
#include "pinpoint/model/model.h"

static const char *const rev_key[2] = {"previous", "current"};

static int bad(const struct pp_model *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int bad(const struct pp_model *m, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s: %s", m->path, msg);
	return -EINVAL;
}

/* @o's only keys are those of @keys (NULL-ended); else the first other one in *@other. */
static bool known_keys(json_t *o, const char *const *keys, const char **other)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v)
	{
		size_t i;

		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (!keys[i]) {
			*other = k;
			return false;
		}
	}
	return true;
}

/* A number of @o's @key, at least 0, or @def when absent: 0 or -EINVAL. */
static int number(const struct pp_model *m, json_t *o, const char *key, double def, double *out,
		  const char *where)
{
	json_t *v = json_object_get(o, key);

	*out = def;
	if (!v)
		return 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return bad(m, "%s: \"%s\" must be a number, 0 or more", where, key);
	*out = json_number_value(v);
	return 0;
}

/* "only": "previous" or "current" (in one revision), or absent (in both). */
static int only(const struct pp_model *m, json_t *o, bool in[2], const char *where)
{
	json_t *v = json_object_get(o, "only");

	in[0] = in[1] = true;
	if (!v)
		return 0;
	for (int r = 0; r < 2; r++)
		if (json_is_string(v) && !strcmp(json_string_value(v), rev_key[r])) {
			in[1 - r] = false;
			return 0;
		}
	return bad(m, "%s: \"only\" must be \"previous\" or \"current\"", where);
}

/*
 * @key of @o in each revision: @o's own (or @def), replaced by that of
 * @o's "previous" or "current" object where one gives it.
 */
static int per_rev(const struct pp_model *m, json_t *o, const char *key, double def, double out[2],
		   const char *where)
{
	static const char *const rev_keys[] = {"self_ns", "armed_ns", "probe_ns",
					       "count",	  "share",    NULL};
	double both;
	int err = number(m, o, key, def, &both, where);

	for (int r = 0; r < 2 && !err; r++) {
		json_t *ro = json_object_get(o, rev_key[r]);
		char in[320];
		const char *other;

		out[r] = both;
		if (!ro)
			continue;
		snprintf(in, sizeof(in), "%s, \"%s\"", where, rev_key[r]);
		if (!json_is_object(ro))
			return bad(m, "%s must be an object", in);
		if (!known_keys(ro, rev_keys, &other))
			return bad(m, "%s: unknown key \"%s\"", in, other);
		err = number(m, ro, key, both, &out[r], in);
	}
	return err;
}

static int find_fn(const struct pp_model *m, const char *name)
{
	for (size_t i = 0; i < m->nfns; i++)
		if (!strcmp(m->fns[i].name, name))
			return (int)i;
	return -1;
}

static int callee(const struct pp_model *m, json_t *o, int *fn, const char *where)
{
	json_t *v = json_object_get(o, "callee");

	if (!json_is_string(v))
		return bad(m, "%s: \"callee\" must be a function's name", where);
	*fn = find_fn(m, json_string_value(v));
	if (*fn < 0)
		return bad(m, "%s: callee \"%s\" is not one of the model's functions", where,
			   json_string_value(v));
	return 0;
}

static int load_targets(struct pp_model *m, struct pp_model_call *c, json_t *a, const char *where)
{
	static const char *const keys[] = {"callee", "share", "previous", "current", NULL};
	double sum[2] = {0, 0};
	size_t i;
	json_t *t;
	int err;

	if (!json_is_array(a) || !json_array_size(a))
		return bad(m, "%s: \"targets\" must be a list of one or more targets", where);
	c->targets = calloc(json_array_size(a), sizeof(*c->targets));
	if (!c->targets)
		return -ENOMEM;
	json_array_foreach(a, i, t)
	{
		struct pp_model_target *x = &c->targets[c->ntargets++];
		char in[320];
		const char *other;

		snprintf(in, sizeof(in), "%s, target %zu", where, i);
		if (!json_is_object(t))
			return bad(m, "%s must be an object", in);
		if (!known_keys(t, keys, &other))
			return bad(m, "%s: unknown key \"%s\"", in, other);
		err = callee(m, t, &x->fn, in);
		if (!err)
			err = per_rev(m, t, "share", NAN, x->share, in);
		if (err)
			return err;
		for (int r = 0; r < 2; r++) {
			if (isnan(x->share[r]))
				return bad(m, "%s: \"share\" is required", in);
			sum[r] += x->share[r];
		}
	}
	for (int r = 0; r < 2; r++)
		if (fabs(sum[r] - 1) > 1e-9)
			return bad(m,
				   "%s: the targets' shares add up to %g in the %s revision, not 1",
				   where, sum[r], rev_key[r]);
	return 0;
}

static int load_call(struct pp_model *m, struct pp_model_call *c, json_t *o, const char *where)
{
	static const char *const keys[] = {"callee", "targets",	 "count",   "line", "col",
					   "only",   "previous", "current", NULL};
	const char *other;
	double line, col;
	int err;

	if (!json_is_object(o))
		return bad(m, "%s must be an object", where);
	if (!known_keys(o, keys, &other))
		return bad(m, "%s: unknown key \"%s\"", where, other);
	if (!json_object_get(o, "callee") == !json_object_get(o, "targets"))
		return bad(m, "%s: a call has a \"callee\" or, indirect, \"targets\"", where);
	c->fn = -1;
	err = json_object_get(o, "callee")
		  ? callee(m, o, &c->fn, where)
		  : load_targets(m, c, json_object_get(o, "targets"), where);
	if (!err)
		err = per_rev(m, o, "count", 1, c->count, where);
	if (!err)
		err = only(m, o, c->in, where);
	if (!err)
		err = number(m, o, "line", 0, &line, where);
	if (!err)
		err = number(m, o, "col", 0, &col, where);
	if (err)
		return err;
	if (line > 1e9 || col > 1e9)
		return bad(m, "%s: \"line\" and \"col\" must be below 10^9", where);
	c->line = (unsigned)line;
	c->col = (unsigned)col;
	return 0;
}

/* Function @i's fields but its calls (the callees must all be known first). */
static int load_fn(struct pp_model *m, size_t i, json_t *o)
{
	static const char *const keys[] = {"name",     "file",	   "line",    "self_ns",
					   "armed_ns", "probe_ns", "calls",   "only",
					   "external", "previous", "current", NULL};
	struct pp_model_fn *f = &m->fns[i];
	json_t *name = json_object_get(o, "name"), *file;
	char where[256];
	const char *other;
	double line;
	int err;

	snprintf(where, sizeof(where), "function %zu", i);
	if (!json_is_object(o))
		return bad(m, "%s must be an object", where);
	if (!known_keys(o, keys, &other))
		return bad(m, "%s: unknown key \"%s\"", where, other);
	if (!json_is_string(name) || !*json_string_value(name))
		return bad(m, "%s: \"name\" must be a non-empty string", where);
	file = json_object_get(o, "file");
	if (file && !json_is_string(file))
		return bad(m, "%s: \"file\" must be a string", where);
	f->name = strdup(json_string_value(name));
	f->file = strdup(file ? json_string_value(file) : "model.c");
	if (!f->name || !f->file)
		return -ENOMEM;
	if (find_fn(m, f->name) != (int)i)
		return bad(m, "two functions are named \"%s\"", f->name);
	snprintf(where, sizeof(where), "function %s", f->name);
	f->external = json_is_true(json_object_get(o, "external"));
	err = number(m, o, "line", 0, &line, where);
	if (!err)
		err = per_rev(m, o, "self_ns", 0, f->self_ns, where);
	if (!err)
		err = per_rev(m, o, "armed_ns", 0, f->armed_ns, where);
	if (!err)
		err = per_rev(m, o, "probe_ns", 0, f->probe_ns, where);
	if (!err)
		err = only(m, o, f->in, where);
	if (err)
		return err;
	f->line = line < 1e9 ? (unsigned)line : 0;
	return 0;
}

static int load_calls(struct pp_model *m, size_t i, json_t *o)
{
	struct pp_model_fn *f = &m->fns[i];
	json_t *a = json_object_get(o, "calls"), *c;
	size_t k;
	int err;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return bad(m, "function %s: \"calls\" must be a list", f->name);
	if (json_array_size(a) && f->external)
		return bad(m, "function %s: an external function has no calls of its own", f->name);
	f->calls = calloc(json_array_size(a) + 1, sizeof(*f->calls));
	if (!f->calls)
		return -ENOMEM;
	json_array_foreach(a, k, c)
	{
		char where[256];

		snprintf(where, sizeof(where), "function %s, call %zu", f->name, k);
		err = load_call(m, &f->calls[f->ncalls++], c, where);
		if (err)
			return err;
	}
	return 0;
}

/* Depth-first: @i after its callees in m->order; a callee on the way is recursion. */
static int visit(struct pp_model *m, int i, char *mark, size_t *n)
{
	const struct pp_model_fn *f = &m->fns[i];
	int err = 0;

	if (mark[i] == 2)
		return 0;
	if (mark[i] == 1)
		return bad(m,
			   "function %s calls itself through its callees: a model has no "
			   "recursion",
			   f->name);
	mark[i] = 1;
	for (size_t k = 0; k < f->ncalls && !err; k++) {
		const struct pp_model_call *c = &f->calls[k];

		if (c->fn >= 0)
			err = visit(m, c->fn, mark, n);
		for (size_t t = 0; t < c->ntargets && !err; t++)
			err = visit(m, c->targets[t].fn, mark, n);
	}
	mark[i] = 2;
	m->order[(*n)++] = i;
	return err;
}

static int load_session(struct pp_model *m, json_t *root)
{
	static const char *const keys[] = {
	    "entry",  "executions",    "noise",		"jitter",	 "duet", "asymmetry",
	    "warmup", "warmup_factor", "layout_sd",	"layout_shared", "seed", "functions",
	    "load",   "load_factor",   "load_revision", "load_seen",	 NULL};
	json_t *load_rev = json_object_get(root, "load_revision");
	json_t *entry = json_object_get(root, "entry");
	double execs, warmup, seed;
	const char *other;
	int err;

	if (!known_keys(root, keys, &other))
		return bad(m, "unknown key \"%s\"", other);
	if (!json_is_string(entry))
		return bad(m, "\"entry\" must name one of the model's functions");
	m->entry = find_fn(m, json_string_value(entry));
	if (m->entry < 0)
		return bad(m, "the entry \"%s\" is not one of the model's functions",
			   json_string_value(entry));
	err = number(m, root, "executions", 100, &execs, "the model");
	if (!err)
		err = number(m, root, "noise", 0.01, &m->noise, "the model");
	if (!err)
		err = number(m, root, "jitter", 0, &m->jitter, "the model");
	if (!err)
		err = number(m, root, "asymmetry", 0, &m->asymmetry, "the model");
	if (!err)
		err = number(m, root, "warmup", 0, &warmup, "the model");
	if (!err)
		err = number(m, root, "warmup_factor", 1, &m->warmup_factor, "the model");
	if (!err)
		err = number(m, root, "layout_sd", 0, &m->layout_sd, "the model");
	if (!err)
		err = number(m, root, "layout_shared", 0, &m->layout_shared, "the model");
	if (!err)
		err = number(m, root, "seed", 1, &seed, "the model");
	if (!err)
		err = number(m, root, "load", 0, &m->load, "the model");
	if (!err)
		err = number(m, root, "load_factor", 0.5, &m->load_factor, "the model");
	if (err)
		return err;
	if (m->load > 1 || m->load_factor > 100)
		return bad(m,
			   "\"load\" (a share of the runs) must be 1 or less, \"load_factor\" 100 "
			   "or less");
	m->load_seen = !json_is_false(json_object_get(root, "load_seen"));
	m->load_rev = -1;
	for (int r = 0; load_rev && r < 2; r++)
		if (json_is_string(load_rev) && !strcmp(json_string_value(load_rev), rev_key[r]))
			m->load_rev = r;
	if (load_rev && m->load_rev < 0)
		return bad(m, "\"load_revision\" must be \"previous\" or \"current\"");
	if (execs < 1 || execs > 1e12 || warmup > 1e12 || seed > 4294967295.0)
		return bad(m,
			   "\"executions\" must be 1 to 10^12, \"warmup\" at most 10^12, \"seed\" "
			   "below 2^32");
	if (m->layout_shared > 1)
		return bad(m, "\"layout_shared\" (a correlation) must be 0 to 1");
	if (m->noise > 2 || m->jitter > 2 || m->layout_sd > 2)
		return bad(m, "\"noise\", \"jitter\" and \"layout_sd\" (sd of a log) must be 2 or "
			      "less");
	m->executions = (unsigned long long)execs;
	m->warmup = (unsigned long long)warmup;
	m->seed = (unsigned long)seed;
	m->duet = !json_is_false(json_object_get(root, "duet"));
	if (m->fns[m->entry].external)
		return bad(m, "the entry %s is external: it has no probes", m->fns[m->entry].name);
	return 0;
}

int pp_model_load(struct pp_model *m, const char *path)
{
	json_error_t jerr;
	json_t *root, *fns, *o;
	char *mark = NULL;
	size_t i, n = 0;
	int err = -EINVAL;

	memset(m, 0, sizeof(*m));
	m->entry = -1;
	m->path = strdup(path);
	if (!m->path)
		return -ENOMEM;
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (jerr.line < 0)
			return bad(m, "%s", jerr.text);
		return bad(m, "line %d: %s", jerr.line, jerr.text);
	}
	fns = json_object_get(root, "functions");
	if (!json_is_object(root) || !json_is_array(fns) || !json_array_size(fns)) {
		bad(m, "a model is an object whose \"functions\" list one or more functions");
		goto out;
	}
	m->fns = calloc(json_array_size(fns), sizeof(*m->fns));
	m->order = calloc(json_array_size(fns), sizeof(*m->order));
	mark = calloc(json_array_size(fns), 1);
	if (!m->fns || !m->order || !mark) {
		err = -ENOMEM;
		goto out;
	}
	json_array_foreach(fns, i, o)
	{
		m->nfns = i + 1;
		err = load_fn(m, i, o);
		if (err)
			goto out;
	}
	json_array_foreach(fns, i, o)
	{
		err = load_calls(m, i, o);
		if (err)
			goto out;
	}
	err = load_session(m, root);
	for (i = 0; i < m->nfns && !err; i++)
		err = visit(m, (int)i, mark, &n);
out:
	free(mark);
	json_decref(root);
	return err;
}

void pp_model_free(struct pp_model *m)
{
	for (size_t i = 0; i < m->nfns; i++) {
		struct pp_model_fn *f = &m->fns[i];

		for (size_t k = 0; k < f->ncalls; k++)
			free(f->calls[k].targets);
		free(f->calls);
		free(f->name);
		free(f->file);
	}
	free(m->fns);
	free(m->order);
	free(m->path);
	free(m->lay[0]);
	free(m->lay[1]);
	if (m->rng)
		gsl_rng_free(m->rng);
	memset(m, 0, sizeof(*m));
}
