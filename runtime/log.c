// SPDX-License-Identifier: MIT
/*
 * log.c - the runtime's only message form: one line "pinpoint: ..." written
 * to stderr with a single write(2), so it neither allocates nor interleaves
 * with the host's stdio buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "rt.h"

void pp_err(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n, m;

	n = snprintf(line, sizeof(line), "pinpoint: ");
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		m = 0;
	n += m;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	for (int i = 0; i < n; i++)
		if ((unsigned char)line[i] < ' ')
			line[i] = '?'; /* one line, whatever a path or name holds */
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return; /* nowhere left to report it */
}
