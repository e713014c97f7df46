/* SPDX-License-Identifier: MIT */
/*
 * json.h - the session report as JSON (doc/report.schema.json).
 */
#ifndef PINPOINT_JSON_H
#define PINPOINT_JSON_H

#include "pinpoint/session.h"

/* Write the whole session to @path atomically.  Returns 0 or -errno. */
int pp_json_write_session(const struct pp_session *s, const char *path);

#endif /* PINPOINT_JSON_H */
