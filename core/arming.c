// SPDX-License-Identifier: MIT
/*
 * arming.c - encode values of the PINPOINT variable (doc/formats.md, 2);
 * runtime/spec.c decodes them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/arming.h"
#include "pinpoint/protocol.h"

/* Encode @len bytes of @s at @out (room for 3 * @len bytes); returns the end. */
static char *encode(char *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (pp_spec_needs_escape(c)) {
			*out++ = PP_SPEC_ESCAPE;
			*out++ = hex[c >> 4];
			*out++ = hex[c & 15];
		} else {
			*out++ = (char)c;
		}
	}
	return out;
}

char *pp_arming_escape(const char *s)
{
	size_t len = strlen(s);
	char *out = malloc(3 * len + 1);

	if (out)
		*encode(out, s, len) = '\0';
	return out;
}

char *pp_arming_unescape(const char *s, size_t len)
{
	char *out = malloc(len + 1), *p = out;

	for (size_t i = 0; out && i < len; i++) {
		int hi, lo;

		if (s[i] != PP_SPEC_ESCAPE) {
			*p++ = s[i];
			continue;
		}
		hi = i + 2 < len ? pp_spec_hex(s[i + 1]) : -1;
		lo = hi >= 0 ? pp_spec_hex(s[i + 2]) : -1;
		if (lo < 0) {
			free(out);
			return NULL;
		}
		*p++ = (char)(hi * 16 + lo);
		i += 2;
	}
	if (out)
		*p = '\0';
	return out;
}

static char *target(const char *file, size_t flen, const char *name, size_t nlen)
{
	char *out = malloc(3 * (flen + nlen) + 2), *p;

	if (!out)
		return NULL;
	p = out;
	if (file) {
		p = encode(p, file, flen);
		*p++ = ':';
	}
	*encode(p, name, nlen) = '\0';
	return out;
}

char *pp_arming_target(const char *file, const char *name)
{
	if (!file || !file[0])
		return target(NULL, 0, name, strlen(name));
	return target(file, strlen(file), name, strlen(name));
}

char *pp_arming_user_target(const char *spec)
{
	size_t len = strlen(spec);
	long sep = pp_name_split(spec, len);

	if (sep <= 0 || (size_t)sep + 1 == len)
		return target(NULL, 0, spec, len);
	return target(spec, (size_t)sep, spec + sep + 1, len - (size_t)sep - 1);
}

char *pp_arming_fn(const struct pp_program *prog, const struct pp_prog_fn *fn)
{
	const struct pp_prog_fn *m[2];

	if (pp_program_lookup(prog, fn->name, m, 2) <= 1)
		return pp_arming_target(NULL, fn->name);
	return pp_arming_target(fn->file, fn->name);
}
