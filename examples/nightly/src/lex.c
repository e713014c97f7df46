// SPDX-License-Identifier: MIT
/*
 * lex.c - the cursor the parser reads the input with.
 */
#include <string.h>

#include "jot.h"

void lex_init(struct jot_lexer *lx, const char *s, size_t len, char *out)
{
	lx->s = s;
	lx->pos = 0;
	lx->len = len;
	lx->out = out;
}

void lex_skip_ws(struct jot_lexer *lx)
{
	while (lx->pos < lx->len) {
		char c = lx->s[lx->pos];

		if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
			break;
		lx->pos++;
	}
}

/* The next significant character, or -1 at the end. */
int lex_peek(struct jot_lexer *lx)
{
	lex_skip_ws(lx);
	return lx->pos < lx->len ? (unsigned char)lx->s[lx->pos] : -1;
}

int lex_expect(struct jot_lexer *lx, char c)
{
	if (lex_peek(lx) != (unsigned char)c)
		return -1;
	lx->pos++;
	return 0;
}

/* Consume @c if it comes next: 1 when it did. */
int lex_accept(struct jot_lexer *lx, char c)
{
	return lex_expect(lx, c) == 0;
}

int lex_word(struct jot_lexer *lx, const char *word)
{
	size_t n = strlen(word);

	if (lx->len - lx->pos < n || memcmp(lx->s + lx->pos, word, n))
		return -1;
	lx->pos += n;
	return 0;
}
