// SPDX-License-Identifier: MIT
/*
 * json.c - JSON values on jansson (json.h): strings made valid UTF-8,
 * numbers that JSON can hold, objects and arrays built in one expression.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

/*
 * Length of the UTF-8 sequence at @p, or 0 when it is not one: RFC 3629,
 * no overlong forms, no surrogates, nothing above U+10FFFF (what jansson
 * accepts).
 */
static size_t utf8_len(const unsigned char *p)
{
	unsigned c = p[0], cp, min;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		n = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

json_t *pp_json_str(const char *s)
{
	static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
	const unsigned char *p = (const unsigned char *)s;
	size_t bad = 0;
	char *buf, *q;
	json_t *j;

	if (!s)
		return json_null();
	while (*p) {
		size_t n = utf8_len(p);

		bad += !n;
		p += n ? n : 1;
	}
	if (!bad)
		return json_string(s);
	/* each byte that is not UTF-8 takes 3 */
	buf = malloc(strlen(s) + 2 * bad + 1);
	if (!buf)
		return NULL;
	for (p = (const unsigned char *)s, q = buf; *p;) {
		size_t n = utf8_len(p);

		if (n) {
			memcpy(q, p, n);
			q += n;
			p += n;
		} else {
			memcpy(q, replacement, 3);
			q += 3;
			p++;
		}
	}
	*q = 0;
	j = json_string(buf);
	free(buf);
	return j;
}

json_t *pp_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *pp_json_interval(double centre, double low, double high)
{
	return pp_json_object("centre", pp_json_real(centre), "low", pp_json_real(low), "high",
			      pp_json_real(high), NULL);
}

json_t *pp_json_int(long long v)
{
	return json_integer((json_int_t)v);
}

json_t *pp_json_bool(bool v)
{
	return json_boolean(v);
}

json_t *pp_json_object(const char *key, ...)
{
	json_t *o = json_object();
	va_list ap;

	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *))
		o = pp_json_set(o, key, va_arg(ap, json_t *));
	va_end(ap);
	return o;
}

json_t *pp_json_set(json_t *o, const char *key, json_t *v)
{
	if (!o || !v) {
		json_decref(o);
		json_decref(v);
		return NULL;
	}
	/* takes @v, failing or not */
	if (json_object_set_new(o, key, v)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *pp_json_push(json_t *a, json_t *v)
{
	if (!a || !v) {
		json_decref(a);
		json_decref(v);
		return NULL;
	}
	if (json_array_append_new(a, v)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/*
 * Everything goes to the stream, even after a write failed there: the
 * stream keeps its error, and the flush that ends it the errno of the
 * failure (ENOSPC on a full disk), which its writer reports.
 */
static int to_file(const char *buf, size_t len, void *f)
{
	fwrite(buf, 1, len, f);
	return 0;
}

int pp_json_dumpf(const json_t *j, FILE *f, size_t flags)
{
	if (json_dump_callback(j, to_file, f, flags | PP_JSON_REALS))
		return -EINVAL;
	return ferror(f) ? -EIO : 0;
}
