/* SPDX-License-Identifier: MIT */
/*
 * html.h - the session as one self-contained HTML page (--html FILE).
 */
#ifndef PINPOINT_HTML_H
#define PINPOINT_HTML_H

#include "pinpoint/session.h"

/* Write the report to @path atomically.  Returns 0 or -errno. */
int pp_html_write_session(const struct pp_session *s, const char *path);

#endif /* PINPOINT_HTML_H */
