// SPDX-License-Identifier: MIT
/*
 * unescape.c - decode a JSON string's escapes (\n, \", \uXXXX, ...) into
 * UTF-8.
 *
 * Today's build (NIGHTLY_NEW) appends each character at strlen(out): the
 * output stays NUL-terminated at every step, which looked tidy, but every
 * character now walks the whole output so far, quadratic in the length.
 */
#include <string.h>

#include "jot.h"

int hex4(const char *s, unsigned *cp)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*cp = v;
	return 0;
}

size_t utf8_encode(unsigned cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	out[0] = (char)(0xe0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

static char simple_escape(char c)
{
	switch (c) {
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'r':
		return '\r';
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	default:
		return c; /* \" \\ \/ */
	}
}

/* Strings without escapes (most keys and names) are copied as they are. */
static size_t copy_plain(const char *in, size_t len, char *out)
{
	memcpy(out, in, len);
	out[len] = 0;
	return len;
}

#ifdef NIGHTLY_NEW
static void append(char *out, const char *bytes, size_t n)
{
	size_t at = strlen(out);

	memcpy(out + at, bytes, n);
	out[at + n] = 0;
}

/* Decode @len bytes of @in into @out (NUL-terminated); returns the length. */
size_t unescape_string(const char *in, size_t len, char *out)
{
	char buf[4];
	size_t i = 0;

	if (!memchr(in, '\\', len))
		return copy_plain(in, len, out);
	out[0] = 0;
	while (i < len) {
		size_t n = 1;

		if (in[i] != '\\') {
			buf[0] = in[i++];
		} else if (in[i + 1] == 'u') {
			unsigned cp;

			if (i + 6 > len || hex4(in + i + 2, &cp))
				return (size_t)-1;
			n = utf8_encode(cp, buf);
			i += 6;
		} else {
			buf[0] = simple_escape(in[i + 1]);
			i += 2;
		}
		append(out, buf, n);
	}
	return strlen(out);
}
#else
/* Decode @len bytes of @in into @out (NUL-terminated); returns the length. */
size_t unescape_string(const char *in, size_t len, char *out)
{
	size_t i = 0, o = 0;

	if (!memchr(in, '\\', len))
		return copy_plain(in, len, out);
	while (i < len) {
		if (in[i] != '\\') {
			out[o++] = in[i++];
		} else if (in[i + 1] == 'u') {
			unsigned cp;

			if (i + 6 > len || hex4(in + i + 2, &cp))
				return (size_t)-1;
			o += utf8_encode(cp, out + o);
			i += 6;
		} else {
			out[o++] = simple_escape(in[i + 1]);
			i += 2;
		}
	}
	out[o] = 0;
	return o;
}
#endif
