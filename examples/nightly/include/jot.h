/* SPDX-License-Identifier: MIT */
/*
 * jot.h - libjot: parse a JSON array of flat records (string, number,
 * true/false/null and number-array fields) into a document.
 */
#ifndef JOT_H
#define JOT_H

#include <stddef.h>

enum jot_kind { JOT_STRING, JOT_NUMBER, JOT_BOOL, JOT_NULL, JOT_ARRAY };

struct jot_field {
	const char *key;
	enum jot_kind kind;
	const char *str; /* JOT_STRING, unescaped */
	double num;	 /* JOT_NUMBER, JOT_BOOL, and the sum of a JOT_ARRAY */
	size_t len;	 /* string length, or array length */
};

struct jot_record {
	struct jot_field *fields;
	size_t nfields;
};

struct jot_doc {
	struct jot_record *records;
	size_t nrecords, cap;
	char *text;	   /* strings are unescaped into this copy of the input */
	const char *error; /* why parse_doc failed */
	size_t error_at;
};

/* The lexer: a cursor over the input text. */
struct jot_lexer {
	const char *s;
	size_t pos, len;
	char *out; /* where unescaped strings go */
};

/* doc.c */
int parse_doc(struct jot_doc *doc, const char *text, size_t len);
void doc_free(struct jot_doc *doc);
struct jot_record *doc_add_record(struct jot_doc *doc);
int doc_fail(struct jot_doc *doc, const struct jot_lexer *lx, const char *why);
double doc_checksum(const struct jot_doc *doc);

/* record.c */
int parse_record(struct jot_doc *doc, struct jot_lexer *lx, struct jot_record *rec);
const struct jot_field *record_get(const struct jot_record *rec, const char *key);

/* value.c */
int parse_string(struct jot_lexer *lx, const char **str, size_t *len);
int parse_number(struct jot_lexer *lx, double *v);
int parse_literal(struct jot_lexer *lx, struct jot_field *f);
int parse_value(struct jot_lexer *lx, struct jot_field *f);
int parse_number_array(struct jot_lexer *lx, struct jot_field *f);

/* lex.c */
void lex_init(struct jot_lexer *lx, const char *s, size_t len, char *out);
void lex_skip_ws(struct jot_lexer *lx);
int lex_peek(struct jot_lexer *lx);
int lex_expect(struct jot_lexer *lx, char c);
int lex_accept(struct jot_lexer *lx, char c);
int lex_word(struct jot_lexer *lx, const char *word);

/* unescape.c */
size_t unescape_string(const char *in, size_t len, char *out);
int hex4(const char *s, unsigned *cp);
size_t utf8_encode(unsigned cp, char *out);

#endif /* JOT_H */
