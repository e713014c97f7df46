/* SPDX-License-Identifier: MIT */
/*
 * lookup.c - find functions of a pp_program by the names people type, and
 * suggest names when nothing matches.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/names.h"
#include "core/table_priv.h"
#include "pinpoint/protocol.h"

enum match_mode { MATCH_LINKAGE, MATCH_DEMANGLED, MATCH_BASE };

const char *pp_prog_call_name(const struct pp_prog_call *call)
{
	return call->callee[0] ? call->callee : "<indirect>";
}

uint32_t pp_prog_call_chain(const struct pp_prog_fn *fn, uint32_t k, uint32_t *out, uint32_t max)
{
	uint32_t n = 0, via;

	/* Count first: the outermost goes first. */
	for (via = k < fn->ncalls ? fn->calls[k].via : 0; via; via = fn->calls[via - 1].via)
		n++;
	via = k < fn->ncalls ? fn->calls[k].via : 0;
	for (uint32_t i = n; via; via = fn->calls[via - 1].via)
		if (--i < max)
			out[i] = via - 1;
	return n;
}

char *pp_prog_call_label_named(const struct pp_prog_fn *fn, uint32_t k, struct pp_names *nm)
{
	uint32_t n = k < fn->ncalls ? pp_prog_call_chain(fn, k, NULL, 0) : 0, *chain;
	size_t len = 1, used = 0;
	char *s;

	if (k >= fn->ncalls)
		return strdup("?");
	chain = calloc(n + 1, sizeof(*chain));
	if (!chain)
		return NULL;
	pp_prog_call_chain(fn, k, chain, n);
	for (uint32_t i = 0; i < n; i++)
		len += strlen(pp_names_get(nm, pp_prog_call_name(&fn->calls[chain[i]]))) + 16;
	len += strlen(pp_names_get(nm, pp_prog_call_name(&fn->calls[k])));
	s = malloc(len);
	if (s) {
		for (uint32_t i = 0; i < n; i++)
			used += (size_t)snprintf(
			    s + used, len - used, "(inlined %s) → ",
			    pp_names_get(nm, pp_prog_call_name(&fn->calls[chain[i]])));
		snprintf(s + used, len - used, "%s",
			 pp_names_get(nm, pp_prog_call_name(&fn->calls[k])));
	}
	free(chain);
	return s;
}

char *pp_prog_call_label(const struct pp_prog_fn *fn, uint32_t k)
{
	return pp_prog_call_label_named(fn, k, NULL);
}

/* First function named @name (or where it would be) in the sorted array. */
static size_t lower_bound(const struct pp_program *prog, const char *name)
{
	size_t lo = 0, hi = prog->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(prog->funcs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Length of demangled @s without its parameter list and the qualifiers after
 * it: "ns::f(int) const" -> "ns::f".
 */
static size_t base_len(const char *s)
{
	static const char *const quals[] = {" const", " volatile", " &&", " &"};
	size_t len = strlen(s), i;
	int depth = 0, again = 1;

	while (again) {
		again = 0;
		for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			size_t ql = strlen(quals[i]);

			if (len > ql && !memcmp(s + len - ql, quals[i], ql)) {
				len -= ql;
				again = 1;
			}
		}
	}
	if (!len || s[len - 1] != ')')
		return len;
	for (i = len; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i ? i : len;
	}
	return len;
}

static int name_matches(const char *linkage, const char *name, enum match_mode mode)
{
	const char *dem;

	if (mode == MATCH_LINKAGE)
		return !strcmp(linkage, name);
	if (strncmp(linkage, "_Z", 2))
		return 0;
	dem = pp_demangle(linkage);
	if (dem == linkage)
		return 0;
	if (mode == MATCH_DEMANGLED)
		return !strcmp(dem, name);
	return base_len(dem) == strlen(name) && !strncmp(dem, name, strlen(name));
}

static size_t match(const struct pp_program *prog, const char *file, const char *name,
		    enum match_mode mode, const struct pp_prog_fn **out, size_t max)
{
	size_t i, n = 0, end = prog->nfuncs;

	i = 0;
	if (mode == MATCH_LINKAGE) {
		i = lower_bound(prog, name);
		end = i;
		while (end < prog->nfuncs && !strcmp(prog->funcs[end].name, name))
			end++;
	}
	for (; i < end; i++) {
		const struct pp_prog_fn *f = &prog->funcs[i];

		if (file && !pp_file_matches(f->file, file))
			continue;
		if (!name_matches(f->name, name, mode))
			continue;
		if (n < max)
			out[n] = f;
		n++;
	}
	return n;
}

size_t pp_program_lookup(const struct pp_program *prog, const char *spec,
			 const struct pp_prog_fn **out, size_t max)
{
	const char *file = NULL, *name = spec;
	char *copy = NULL;
	long sep;
	size_t n = 0;
	int mode;

	if (!prog->nfuncs || !spec[0])
		return 0;
	for (mode = MATCH_LINKAGE; mode <= MATCH_DEMANGLED && !n; mode++)
		n = match(prog, NULL, spec, mode, out, max);
	sep = pp_name_split(spec, strlen(spec));
	if (!n && sep > 0 && spec[sep + 1]) {
		copy = strdup(spec);
		if (!copy)
			return 0;
		copy[sep] = '\0';
		file = copy;
		name = copy + sep + 1;
		for (mode = MATCH_LINKAGE; mode <= MATCH_DEMANGLED && !n; mode++)
			n = match(prog, file, name, mode, out, max);
	}
	if (!n)
		n = match(prog, file, name, MATCH_BASE, out, max);
	free(copy);
	return n;
}

const struct pp_prog_fn *pp_program_resolve(const struct pp_program *prog,
					    const struct pp_prog_fn *caller,
					    const struct pp_prog_call *call)
{
	const struct pp_prog_fn *nonstatic = NULL, *same_file = NULL;
	size_t i, first, end;

	if (!call->callee[0])
		return NULL;
	first = lower_bound(prog, call->callee);
	for (end = first; end < prog->nfuncs && !strcmp(prog->funcs[end].name, call->callee); end++)
		;
	if (end - first <= 1)
		return end > first ? &prog->funcs[first] : NULL;
	for (i = first; i < end; i++) {
		const struct pp_prog_fn *f = &prog->funcs[i];

		if (caller && f->linkage == PP_LINK_INTERNAL &&
		    !strcmp(f->object, caller->object) && !strcmp(f->module, caller->module))
			return f;
		if (!nonstatic && f->linkage != PP_LINK_INTERNAL)
			nonstatic = f;
		if (caller && !same_file && !strcmp(f->file, caller->file))
			same_file = f;
	}
	if (nonstatic)
		return nonstatic;
	return same_file ? same_file : &prog->funcs[first];
}

/* Edit distance of @a and @b, or @cap + 1 when it exceeds @cap. */
static size_t levenshtein(const char *a, size_t la, const char *b, size_t lb, size_t cap)
{
	size_t row[256], i, j;

	if (la > lb ? la - lb > cap : lb - la > cap)
		return cap + 1;
	if (lb >= sizeof(row) / sizeof(row[0]))
		return cap + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], v;

			v = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (best > cap)
			return cap + 1;
	}
	return row[lb];
}

struct cand {
	const char *text;
	size_t score, lendiff;
};

static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->score != b->score)
		return a->score < b->score ? -1 : 1;
	if (a->lendiff != b->lendiff)
		return a->lendiff < b->lendiff ? -1 : 1;
	return strcmp(a->text, b->text);
}

/* Score of @name against candidate @s (its first @len bytes), or SIZE_MAX. */
static size_t score(const char *name, size_t nl, const char *s, size_t len)
{
	size_t cap = nl / 3 ? nl / 3 : 1, d;

	if (nl >= 3 && ((len >= nl && memmem(s, len, name, nl)) ||
			(len >= 3 && len < nl && memmem(name, nl, s, len))))
		return 0;
	d = levenshtein(name, nl, s, len, cap);
	return d <= cap ? d : SIZE_MAX;
}

size_t pp_program_suggest(const struct pp_program *prog, const char *name, const char **out,
			  size_t max)
{
	size_t nl = strlen(name), i, n = 0, ncands = 0;
	struct cand *cands;

	if (!prog->nfuncs || !max)
		return 0;
	cands = calloc(prog->nfuncs, sizeof(*cands));
	if (!cands)
		return 0;
	for (i = 0; i < prog->nfuncs; i++) {
		const char *text = prog->funcs[i].name, *dem = pp_demangle(text);
		size_t s = score(name, nl, text, strlen(text)), len = strlen(text);

		if (dem != text) {
			size_t sd = score(name, nl, dem, strlen(dem));
			size_t sb = score(name, nl, dem, base_len(dem));

			s = sd < s ? sd : s;
			s = sb < s ? sb : s;
			text = dem;
			len = strlen(dem);
		}
		if (s == SIZE_MAX)
			continue;
		cands[ncands].text = text;
		cands[ncands].score = s;
		cands[ncands].lendiff = len > nl ? len - nl : nl - len;
		ncands++;
	}
	qsort(cands, ncands, sizeof(*cands), cmp_cand);
	for (i = 0; i < ncands && n < max; i++) {
		size_t k;
		int dup = 0;

		for (k = 0; k < n; k++)
			dup |= out[k] == cands[i].text;
		if (!dup)
			out[n++] = cands[i].text;
	}
	free(cands);
	return n;
}

/* The shortest suffix of @f's file that tells it from the other matches. */
static const char *file_suffix(const struct pp_prog_fn *f, const struct pp_prog_fn *const *m,
			       size_t n)
{
	const char *s = f->file + strlen(f->file);

	while (s > f->file) {
		size_t j;
		bool unique = true;

		do
			s--;
		while (s > f->file && s[-1] != '/');
		for (j = 0; j < n; j++)
			if (m[j] != f && strcmp(m[j]->file, f->file) &&
			    pp_file_matches(m[j]->file, s))
				unique = false;
		if (unique)
			break;
	}
	return s;
}

/*
 * The name to offer for @f among the matches: demangled, unless another
 * match demangles the same (a C++ constructor or destructor's variants).
 */
static const char *candidate_name(const struct pp_prog_fn *f, const struct pp_prog_fn *const *m,
				  size_t n)
{
	const char *dem = pp_demangle(f->name);
	size_t j;

	for (j = 0; j < n; j++)
		if (m[j] != f && strcmp(m[j]->name, f->name) &&
		    !strcmp(pp_demangle(m[j]->name), dem))
			return f->name;
	return dem;
}

/* The NAME of a FILE:NAME spec, split as pp_program_lookup() does. */
static const char *spec_name(const char *spec)
{
	long sep = pp_name_split(spec, strlen(spec));

	return sep > 0 && spec[sep + 1] ? spec + sep + 1 : spec;
}

size_t pp_program_suggest_list(const struct pp_program *prog, const char *spec, size_t max,
			       char *buf, size_t len)
{
	const char *sugg[16];
	size_t n = pp_program_suggest(prog, spec_name(spec), sugg, max < 16 ? max : 16), used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", sugg[i]);
	return n;
}

void pp_program_candidates(const struct pp_prog_fn *const *m, size_t n, char *buf, size_t len)
{
	size_t used = 0;
	bool one_file = true;

	buf[0] = '\0';
	for (size_t i = 1; i < n; i++)
		one_file &= !strcmp(m[i]->file, m[0]->file);
	for (size_t i = 0; i < n && used < len; i++) {
		const char *file = one_file ? "" : file_suffix(m[i], m, n);

		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", i ? ", " : "", file,
					 file[0] ? ":" : "", candidate_name(m[i], m, n));
	}
}
