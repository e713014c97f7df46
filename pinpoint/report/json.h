/* SPDX-License-Identifier: MIT */
/*
 * json.h - the session's outcome as JSON (doc/report.schema.json).
 */
#ifndef PINPOINT_JSON_H
#define PINPOINT_JSON_H

struct pp_outcome;

/* Write the outcome @o, with the runs it was measured in, to @path atomically.  0 or -errno. */
int pp_json_write(const struct pp_outcome *o, const char *path);

#endif /* PINPOINT_JSON_H */
