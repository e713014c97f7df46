/* SPDX-License-Identifier: MIT */
/*
 * json_string.h - a C string as a JSON string literal, for every JSON writer
 * (the driver's report, pinpoint-layers --json).
 */
#ifndef PINPOINT_JSON_STRING_H
#define PINPOINT_JSON_STRING_H

#include <stdio.h>

/*
 * Write @s to @f between double quotes: '"' and '\' escaped, control
 * characters as \n, \t, \r or \u00XX, and bytes that are not valid UTF-8
 * (a path may hold any byte) as \ufffd, so the output always parses.
 */
void pp_json_put_string(FILE *f, const char *s);

#endif /* PINPOINT_JSON_STRING_H */
