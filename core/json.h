/* SPDX-License-Identifier: MIT */
/*
 * json.h - JSON values for every writer and reader (the driver's report and
 * history, its option table, pinpoint-layers --json), on jansson.  jansson
 * rather than json-c: it keeps an object's keys in the order they were set,
 * writes reals to the precision asked (JSON_REAL_PRECISION), and its API is
 * small and stable.
 *
 * Each constructor returns a new reference, or NULL when memory runs out.
 * pp_json_object(), pp_json_set() and pp_json_push() take the references
 * they are given, NULL included, and return NULL when any was NULL: a value
 * is built in one expression and a failure anywhere in it comes out as NULL,
 * with nothing leaked.
 */
#ifndef PINPOINT_CORE_JSON_H
#define PINPOINT_CORE_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Reals in 17 significant digits: every double reads back as itself. */
#define PP_JSON_REALS JSON_REAL_PRECISION(17)

/*
 * @s as a JSON string, null when @s is NULL.  Bytes that are not UTF-8 (a
 * path may hold any byte) become U+FFFD, so that the output always parses.
 */
json_t *pp_json_str(const char *s);
/* @v as a JSON number, null when it is not finite (JSON has no NaN). */
json_t *pp_json_real(double v);
json_t *pp_json_int(long long v);
json_t *pp_json_bool(bool v);
/* An interval as the reports write one: {"centre": C, "low": L, "high": H}. */
json_t *pp_json_interval(double centre, double low, double high);
/* An object of key, value pairs, in that order: pp_json_object("a", v, "b", w, NULL). */
json_t *pp_json_object(const char *key, ...) __attribute__((sentinel));
/* @o with @key set to @v (replaced in place when it is there). */
json_t *pp_json_set(json_t *o, const char *key, json_t *v);
/* Array @a with @v appended. */
json_t *pp_json_push(json_t *a, json_t *v);
/*
 * Write @j to @f with jansson's @flags and PP_JSON_REALS: 0, or -EIO when
 * a write to @f failed (ferror(); fflush() then gives the errno).
 */
int pp_json_dumpf(const json_t *j, FILE *f, size_t flags);

#endif /* PINPOINT_CORE_JSON_H */
