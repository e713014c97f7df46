// SPDX-License-Identifier: MIT
/*
 * cxxname.c - a demangled C++ function name as people read it (cxxname.h).
 *
 * The brackets are paired first, "operator<" and its kin being words, not
 * brackets; a name whose brackets do not pair up is left as it came.  Then
 * the parameter list is found (the first top-level "(...)" that ends the
 * name or is followed by a space: not "(anonymous namespace)::"), the name
 * starts after the last top-level space before it (the return type's end),
 * and is copied without the template arguments of library names.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/cxxname.h"

#define MAX_DEPTH 256 /* brackets nested deeper: left as they came */

struct text {
	const char *s;
	size_t n;
	long *pair; /* the index of the matching bracket, -1: not a bracket */
};

struct out {
	char *buf;
	size_t len, size;
};

static bool ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/*
 * Length of the operator name at @i ("operator<<", "operator new[]"), or 0.
 * A conversion operator is "operator" alone: its type follows as a type.
 */
static size_t op_at(const struct text *t, size_t i)
{
	static const char *const sym[] = {"->*", "<=>",	 "<<=", ">>=", "()", "[]", "->", "<<",
					  ">>",	 "<=",	 ">=",	"==",  "!=", "&&", "||", "++",
					  "--",	 "+=",	 "-=",	"*=",  "/=", "%=", "&=", "|=",
					  "^=",	 "\"\"", "<",	">",   "+",  "-",  "*",	 "/",
					  "%",	 "&",	 "|",	"^",   "~",  "!",  "=",	 ","};
	static const char *const word[] = {" new[]", " delete[]", " new", " delete", " co_await"};
	const char *p;

	if (t->n - i < 8 || strncmp(t->s + i, "operator", 8) || (i && ident(t->s[i - 1])))
		return 0;
	p = t->s + i + 8;
	if (ident(*p))
		return 0;
	for (size_t k = 0; k < sizeof(sym) / sizeof(sym[0]); k++)
		if (!strncmp(p, sym[k], strlen(sym[k])))
			return 8 + strlen(sym[k]);
	for (size_t k = 0; k < sizeof(word) / sizeof(word[0]); k++)
		if (!strncmp(p, word[k], strlen(word[k])) && !ident(p[strlen(word[k])]))
			return 8 + strlen(word[k]);
	return 8;
}

static char opener_of(char c)
{
	return c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : c == '>' ? '<' : 0;
}

/*
 * Pair the brackets of @t, @stack holding n longs; -EINVAL when they do not
 * pair up or nest deeper than MAX_DEPTH.
 */
static int pair_up(struct text *t, long *stack)
{
	size_t top = 0;

	for (size_t i = 0; i < t->n; i++)
		t->pair[i] = -1;
	for (size_t i = 0; i < t->n;) {
		size_t k = op_at(t, i);
		char c = t->s[i];

		if (k) {
			i += k;
			continue;
		}
		if (c == '(' || c == '[' || c == '{' || c == '<') {
			if (top == MAX_DEPTH)
				return -EINVAL; /* copy() recurses that deep: no such name */
			stack[top++] = (long)i;
		} else if (opener_of(c) && !(c == '>' && i && t->s[i - 1] == '-')) {
			if (!top || t->s[stack[top - 1]] != opener_of(c))
				return -EINVAL;
			t->pair[i] = stack[--top];
			t->pair[stack[top]] = (long)i;
		}
		i++;
	}
	return top ? -EINVAL : 0;
}

/* The group opened at @i ends at pair[i]: a bracket that opens. */
static bool opens(const struct text *t, size_t i)
{
	return t->pair[i] > (long)i;
}

/*
 * Whether [@i, @e) starts as a pointer or reference declarator does: "*",
 * "&", "Foo::*".  Returns the index after it, or 0.
 */
static size_t pointer_at(const struct text *t, size_t i, size_t e)
{
	size_t k = i;

	while (k < e && (ident(t->s[k]) || t->s[k] == ':' || opens(t, k)))
		k = opens(t, k) ? (size_t)t->pair[k] + 1 : k + 1;
	if (k < e && (t->s[k] == '*' || t->s[k] == '&') && (k == i || t->s[k - 1] == ':'))
		return k + 1;
	return 0;
}

/*
 * The '(' of the parameter list in [@b, @e), or -1.  *@ret_fn: it is instead
 * "(*f(int))" of a function returning a function pointer or an array
 * reference, "void (*f(int))(char)", where the function is inside.
 */
static long params_at(const struct text *t, size_t b, size_t e, bool *ret_fn)
{
	const char *s = t->s;
	bool op = false;

	*ret_fn = false;
	for (size_t i = b; i < e;) {
		size_t k = op_at(t, i);

		if (k) {
			op = true;
			i += k;
			continue;
		}
		if (s[i] == '(' && opens(t, i)) {
			size_t end = (size_t)t->pair[i];

			if (!op && i > b && s[i - 1] == ' ' && pointer_at(t, i + 1, end)) {
				*ret_fn = true;
				return (long)i;
			}
			/* not "'lambda'(int)" (LLVM's style), "(anonymous namespace)::",
			 * nor a return type's "decltype (...)" */
			if (!(i > b && s[i - 1] == '\'') &&
			    !(i >= b + 9 && !strncmp(s + i - 9, "decltype ", 9)) &&
			    (end + 1 == e || s[end + 1] == ' '))
				return (long)i;
			i = end + 1;
		} else if (opens(t, i)) {
			i = (size_t)t->pair[i] + 1;
		} else {
			i++;
		}
	}
	return -1;
}

/* Where the name ends its return type in [@b, @e): after the last top-level space. */
static size_t name_start(const struct text *t, size_t b, size_t e)
{
	size_t start = b;

	for (size_t i = b; i < e;) {
		if (op_at(t, i))
			return start; /* "operator bool", "operator< <int>": all the name's */
		if (t->s[i] == ' ')
			start = i + 1;
		i = opens(t, i) ? (size_t)t->pair[i] + 1 : i + 1;
	}
	return start;
}

/* Writes @c, without a space after a comma or before a '>' ("A<B<int> >"). */
static void put(struct out *o, char c)
{
	if (c == ' ' && o->len && o->buf[o->len - 1] == ',')
		return;
	if (c == '>' && o->len && o->buf[o->len - 1] == ' ')
		o->len--;
	if (o->len + 1 < o->size)
		o->buf[o->len++] = c;
}

/* Whether the qualified name at @p is the library's, whose template arguments go. */
static bool library(const char *p)
{
	return !strncmp(p, "std::", 5) || !strncmp(p, "::std::", 7) ||
	       !strncmp(p, "__gnu_cxx::", 11);
}

/*
 * Whether the group at @i is the parameter list of a function whose local
 * name this is: "f(int)::Local" (not "(anonymous namespace)::", nor LLVM's
 * "'lambda'(int)::").
 */
static bool scope_params(const struct text *t, size_t i)
{
	size_t end = (size_t)t->pair[i];

	return i && (ident(t->s[i - 1]) || t->s[i - 1] == '>') && end + 2 < t->n &&
	       t->s[end + 1] == ':' && t->s[end + 2] == ':';
}

/*
 * Copies [@b, @e) of @t: template arguments of library names and [abi:...]
 * tags dropped, the rest (the user's template arguments, lambdas' and local
 * names' parameters) copied the same way.
 */
static void copy(const struct text *t, size_t b, size_t e, unsigned flags, struct out *o)
{
	const char *s = t->s;
	size_t qs = b; /* where the qualified name being copied starts */
	bool in_name = false;

	for (size_t i = b; i < e;) {
		size_t k = op_at(t, i), end;
		char c = s[i];

		if (k) {
			if (!in_name)
				qs = i;
			in_name = true;
			while (k--)
				put(o, s[i++]);
			/* "operator< <int>": the operator's template arguments */
			if (i + 1 < e && s[i] == ' ' && s[i + 1] == '<' && opens(t, i + 1)) {
				if (library(s + qs)) {
					i = (size_t)t->pair[i + 1] + 1;
					continue;
				}
				put(o, s[i++]);
			}
			continue;
		}
		if (!opens(t, i)) {
			if (ident(c) || c == ':' || c == '~') {
				if (!in_name)
					qs = i;
				in_name = true;
			} else {
				in_name = false;
			}
			put(o, c);
			i++;
			continue;
		}
		end = (size_t)t->pair[i];
		if ((c == '<' && library(s + qs)) || (c == '[' && !strncmp(s + i, "[abi:", 5)) ||
		    (c == '(' && !(flags & PP_CXX_PARAMS) && scope_params(t, i))) {
			i = end + 1;
			continue;
		}
		put(o, c);
		copy(t, i + 1, end, flags, o);
		put(o, s[end]);
		i = end + 1;
		in_name = c == '<' || c == '(' || c == '{';
	}
}

/* The short name of the function in [@b, @e) of @t. */
static void shorten(const struct text *t, size_t b, size_t e, unsigned flags, struct out *o)
{
	bool ret_fn;
	long p = params_at(t, b, e, &ret_fn);
	size_t end, start = p < 0 ? 0 : name_start(t, b, (size_t)p);

	if (p < 0 || (!ret_fn && start == (size_t)p)) { /* not a function: as it is */
		while (b < e)
			put(o, t->s[b++]);
		return;
	}
	end = (size_t)t->pair[p];
	if (ret_fn) {
		size_t i = pointer_at(t, (size_t)p + 1, end);

		while (i < end && (t->s[i] == '*' || t->s[i] == '&' || t->s[i] == ' '))
			i++;
		shorten(t, i, end, flags, o);
		return;
	}
	copy(t, start, (size_t)p, flags, o);
	if (flags & PP_CXX_PARAMS) {
		copy(t, (size_t)p, e, flags, o);
		return;
	}
	/* a clone is other code: "f [clone .cold]" */
	for (size_t i = end + 1; i < e; i = opens(t, i) ? (size_t)t->pair[i] + 1 : i + 1)
		if (t->s[i] == '[' && opens(t, i) && !strncmp(t->s + i, "[clone ", 7)) {
			put(o, ' ');
			copy(t, i, (size_t)t->pair[i] + 1, flags, o);
		}
}

int pp_cxx_short_name(const char *dem, unsigned flags, char *buf, size_t size)
{
	struct text t = {.s = dem, .n = strlen(dem)};
	struct out o;
	long *mem;
	size_t len;

	if (!size)
		return -ENOSPC;
	mem = malloc((2 * t.n + 1) * sizeof(*mem) + t.n + 1);
	if (!mem)
		return -ENOMEM;
	t.pair = mem;
	o = (struct out){.buf = (char *)(mem + 2 * t.n + 1), .size = t.n + 1};
	if (pair_up(&t, mem + t.n))
		memcpy(o.buf, dem, o.len = t.n);
	else
		shorten(&t, 0, t.n, flags, &o);
	o.buf[o.len] = '\0';
	len = o.len < size ? o.len : size - 1;
	memcpy(buf, o.buf, len);
	buf[len] = '\0';
	free(mem);
	return len < o.len ? -ENOSPC : 0;
}
