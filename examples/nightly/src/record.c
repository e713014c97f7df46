// SPDX-License-Identifier: MIT
/*
 * record.c - one record: {"key": value, ...}.
 */
#include <stdlib.h>
#include <string.h>

#include "jot.h"

int parse_record(struct jot_doc *doc, struct jot_lexer *lx, struct jot_record *rec)
{
	struct jot_field *f;
	size_t cap = 0, klen;

	rec->fields = NULL;
	rec->nfields = 0;
	if (lex_expect(lx, '{'))
		return doc_fail(doc, lx, "expected '{'");
	if (lex_accept(lx, '}'))
		return 0;
	do {
		if (rec->nfields == cap) {
			struct jot_field *n;

			cap = cap ? 2 * cap : 8;
			n = realloc(rec->fields, cap * sizeof(*n));
			if (!n)
				return doc_fail(doc, lx, "out of memory");
			rec->fields = n;
		}
		f = &rec->fields[rec->nfields++];
		memset(f, 0, sizeof(*f));
		if (parse_string(lx, &f->key, &klen))
			return doc_fail(doc, lx, "expected a key");
		if (lex_expect(lx, ':'))
			return doc_fail(doc, lx, "expected ':'");
		if (lex_peek(lx) == '"') {
			f->kind = JOT_STRING;
			if (parse_string(lx, &f->str, &f->len))
				return doc_fail(doc, lx, "bad string");
		} else if (parse_value(lx, f)) {
			return doc_fail(doc, lx, "bad value");
		}
	} while (lex_accept(lx, ','));
	if (lex_expect(lx, '}'))
		return doc_fail(doc, lx, "expected '}'");
	return 0;
}

const struct jot_field *record_get(const struct jot_record *rec, const char *key)
{
	for (size_t i = 0; i < rec->nfields; i++)
		if (!strcmp(rec->fields[i].key, key))
			return &rec->fields[i];
	return NULL;
}
