/* SPDX-License-Identifier: MIT */
/*
 * html.h - the session as one self-contained HTML page (--html FILE).
 */
#ifndef PINPOINT_HTML_H
#define PINPOINT_HTML_H

#include <stdio.h>

#include "pinpoint/session/outcome.h"

/* Write the report of @o to @path atomically.  Returns 0 or -errno. */
int pp_html_write(const struct pp_outcome *o, const char *path);

/*
 * @s (NULL: nothing) as the text of an element, or the value of a quoted
 * attribute, of the page or of an SVG figure in it: & < > " and ' as
 * character references.  Every string that is not the report's own (names
 * from the binaries, paths, options, messages, --history lines) goes
 * through it.  Not for <script>, <style>, or a URL: the page has none made
 * of input.
 */
void pp_html_escape(FILE *f, const char *s);

#endif /* PINPOINT_HTML_H */
