// SPDX-License-Identifier: MIT
/*
 * value.c - a record's values: strings, numbers, literals, number arrays.
 */
#include <stdlib.h>
#include <string.h>

#include "jot.h"

/* A string at the cursor, unescaped into the lexer's output buffer. */
int parse_string(struct jot_lexer *lx, const char **str, size_t *len)
{
	size_t end, n;

	if (lex_expect(lx, '"'))
		return -1;
	/* The closing quote: escapes are skipped whole. */
	for (end = lx->pos; end < lx->len && lx->s[end] != '"';)
		end += lx->s[end] == '\\' ? 2 : 1;
	if (end >= lx->len)
		return -1;
	n = unescape_string(lx->s + lx->pos, end - lx->pos, lx->out);
	if (n == (size_t)-1)
		return -1;
	*str = lx->out;
	*len = n;
	lx->out += n + 1;
	lx->pos = end + 1;
	return 0;
}

int parse_number(struct jot_lexer *lx, double *v)
{
	char buf[64], *end;
	size_t n = 0;

	lex_skip_ws(lx);
	while (lx->pos + n < lx->len && n < sizeof(buf) - 1 &&
	       strchr("+-0123456789.eE", lx->s[lx->pos + n]))
		n++;
	if (!n)
		return -1;
	memcpy(buf, lx->s + lx->pos, n);
	buf[n] = 0;
	*v = strtod(buf, &end);
	if (end != buf + n)
		return -1;
	lx->pos += n;
	return 0;
}

int parse_literal(struct jot_lexer *lx, struct jot_field *f)
{
	lex_skip_ws(lx);
	if (!lex_word(lx, "true") || !lex_word(lx, "false")) {
		f->kind = JOT_BOOL;
		f->num = lx->s[lx->pos - 1] == 'e' && lx->s[lx->pos - 2] == 'u';
		return 0;
	}
	if (!lex_word(lx, "null")) {
		f->kind = JOT_NULL;
		return 0;
	}
	return -1;
}

/* [1, 2.5, -3]: kept as its length and sum. */
int parse_number_array(struct jot_lexer *lx, struct jot_field *f)
{
	if (lex_expect(lx, '['))
		return -1;
	f->kind = JOT_ARRAY;
	f->num = 0;
	f->len = 0;
	if (lex_accept(lx, ']'))
		return 0;
	do {
		double v;

		if (parse_number(lx, &v))
			return -1;
		f->num += v;
		f->len++;
	} while (lex_accept(lx, ','));
	return lex_expect(lx, ']');
}

/* A value that is not a string. */
int parse_value(struct jot_lexer *lx, struct jot_field *f)
{
	int c = lex_peek(lx);

	if (c == '[')
		return parse_number_array(lx, f);
	if (c == 't' || c == 'f' || c == 'n')
		return parse_literal(lx, f);
	f->kind = JOT_NUMBER;
	return parse_number(lx, &f->num);
}
