/* SPDX-License-Identifier: MIT */
/*
 * json.h - a small streaming JSON writer, and the session report written with it
 * (doc/report.schema.json).
 */
#ifndef PINPOINT_JSON_H
#define PINPOINT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "pinpoint/session.h"

struct pp_json {
	FILE *f;
	int depth;
	bool first[64]; /* no comma needed yet at this depth */
};

void pp_json_begin(struct pp_json *j, FILE *f);
void pp_json_object(struct pp_json *j, const char *key);
void pp_json_array(struct pp_json *j, const char *key);
void pp_json_end_object(struct pp_json *j);
void pp_json_end_array(struct pp_json *j);
void pp_json_str(struct pp_json *j, const char *key, const char *v);
void pp_json_num(struct pp_json *j, const char *key, double v);
void pp_json_int(struct pp_json *j, const char *key, long long v);
void pp_json_bool(struct pp_json *j, const char *key, bool v);
void pp_json_null(struct pp_json *j, const char *key);

struct pp_outcome;
/* Write the outcome @o, with the runs it was measured in, to @path atomically.  0 or -errno. */
int pp_json_write(const struct pp_outcome *o, const char *path);

#endif /* PINPOINT_JSON_H */
