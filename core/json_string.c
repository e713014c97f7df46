// SPDX-License-Identifier: MIT
/*
 * json_string.c - JSON string literals (RFC 8259, section 7).
 */
#include <stddef.h>

#include "core/json_string.h"

/* Length of the UTF-8 sequence starting at @p, or 0 when it is not valid. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char c = *p;
	size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;

	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void pp_json_put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (p && *p) {
		size_t n = utf8_len(p);

		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else if (!n)
				fputs("\\ufffd", f);
			else
				fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
	fputc('"', f);
}
