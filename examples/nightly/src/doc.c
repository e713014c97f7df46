// SPDX-License-Identifier: MIT
/*
 * doc.c - a document: the top-level array of records.
 */
#include <stdlib.h>
#include <string.h>

#include "jot.h"

int doc_fail(struct jot_doc *doc, const struct jot_lexer *lx, const char *why)
{
	if (!doc->error) {
		doc->error = why;
		doc->error_at = lx->pos;
	}
	return -1;
}

struct jot_record *doc_add_record(struct jot_doc *doc)
{
	if (doc->nrecords == doc->cap) {
		size_t cap = doc->cap ? 2 * doc->cap : 64;
		struct jot_record *n = realloc(doc->records, cap * sizeof(*n));

		if (!n)
			return NULL;
		doc->records = n;
		doc->cap = cap;
	}
	return &doc->records[doc->nrecords++];
}

void doc_free(struct jot_doc *doc)
{
	for (size_t i = 0; i < doc->nrecords; i++)
		free(doc->records[i].fields);
	free(doc->records);
	free(doc->text);
	memset(doc, 0, sizeof(*doc));
}

/* Parse @len bytes of @text, a JSON array of records.  0, or -1 with doc->error. */
int parse_doc(struct jot_doc *doc, const char *text, size_t len)
{
	struct jot_lexer lx;

	memset(doc, 0, sizeof(*doc));
	/* Unescaped strings are never longer than their source, plus a NUL each. */
	doc->text = malloc(len + 1);
	if (!doc->text)
		return -1;
	lex_init(&lx, text, len, doc->text);
	if (lex_expect(&lx, '['))
		return doc_fail(doc, &lx, "expected '['");
	if (lex_accept(&lx, ']'))
		return 0;
	do {
		struct jot_record *rec = doc_add_record(doc);

		if (!rec)
			return doc_fail(doc, &lx, "out of memory");
		if (parse_record(doc, &lx, rec))
			return -1;
	} while (lex_accept(&lx, ','));
	if (lex_expect(&lx, ']'))
		return doc_fail(doc, &lx, "expected ']'");
	if (lex_peek(&lx) != -1)
		return doc_fail(doc, &lx, "trailing characters");
	return 0;
}

/* A number that depends on everything parsed, so no run can skip work. */
double doc_checksum(const struct jot_doc *doc)
{
	double sum = 0;

	for (size_t r = 0; r < doc->nrecords; r++) {
		const struct jot_record *rec = &doc->records[r];

		for (size_t i = 0; i < rec->nfields; i++) {
			const struct jot_field *f = &rec->fields[i];

			sum += f->kind == JOT_STRING ? (double)f->len : f->num;
		}
	}
	return sum;
}
