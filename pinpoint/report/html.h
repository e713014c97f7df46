/* SPDX-License-Identifier: MIT */
/*
 * html.h - the session as one self-contained HTML page (--html FILE).
 */
#ifndef PINPOINT_HTML_H
#define PINPOINT_HTML_H

#include "pinpoint/session/outcome.h"

/* Write the report of @o to @path atomically.  Returns 0 or -errno. */
int pp_html_write(const struct pp_outcome *o, const char *path);

#endif /* PINPOINT_HTML_H */
