// SPDX-License-Identifier: MIT
/*
 * log.c - the runtime's only message form: one line "pinpoint: ..." written
 * to stderr with a single write(2), so it neither allocates nor interleaves
 * with the host's stdio buffers.
 *
 * The line goes to fd 2 only while fd 2 is the file it was at
 * initialisation (same device and inode, open for writing): a host that
 * closed its stderr and opened a file that took fd 2 must not find the
 * runtime's words in that file.  When fd 2 was closed at initialisation, the
 * runtime says nothing at all.  No descriptor is held open for this, so a
 * pipe on stderr still sees its end when the host closes fd 2.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt.h"

static bool pp_log_ok;
static dev_t pp_log_dev;
static ino_t pp_log_ino;

/* fd 2 is open for writing: its identity in @st. */
static bool stderr_writable(struct stat *st)
{
	int fl = fcntl(STDERR_FILENO, F_GETFL);

	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
		return false;
	return !fstat(STDERR_FILENO, st);
}

void pp_log_init(void)
{
	struct stat st;

	pp_log_ok = stderr_writable(&st);
	if (pp_log_ok) {
		pp_log_dev = st.st_dev;
		pp_log_ino = st.st_ino;
	}
}

static bool stderr_unchanged(void)
{
	struct stat st;

	return pp_log_ok && stderr_writable(&st) && st.st_dev == pp_log_dev &&
	       st.st_ino == pp_log_ino;
}

void pp_err(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n, m;

	if (!stderr_unchanged())
		return;
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
