/* SPDX-License-Identifier: MIT */
/*
 * arming.h - the PINPOINT variable, written: values encoded with the
 * protocol's escaping (pinpoint/protocol.h), so paths and names with any
 * byte but NUL reach the runtime intact.
 */
#ifndef PINPOINT_ARMING_H
#define PINPOINT_ARMING_H

#include "core/table.h"

/* @s percent-encoded, in a new string (NULL: out of memory). */
char *pp_arming_escape(const char *s);

/* The @len bytes at @s decoded, in a new string; NULL: out of memory, or a '%' not
 * followed by two hexadecimal digits. */
char *pp_arming_unescape(const char *s, size_t len);

/* "NAME", or "FILE:NAME" when @file is neither NULL nor "", each part encoded. */
char *pp_arming_target(const char *file, const char *name);

/* A [FILE:]NAME as the user typed it, split by pp_name_split(), each part encoded. */
char *pp_arming_user_target(const char *spec);

/*
 * How @fn of @prog is armed: "NAME", or "FILE:NAME" when NAME alone is not
 * unique in @prog; encoded.
 */
char *pp_arming_fn(const struct pp_program *prog, const struct pp_prog_fn *fn);

#endif /* PINPOINT_ARMING_H */
