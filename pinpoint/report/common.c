// SPDX-License-Identifier: MIT
/*
 * common.c - what every report format prints the same way.
 */
#include <math.h>
#include <stdio.h>

#include "core/util.h"
#include "pinpoint/report/report.h"

/* A time, or "-inf"/"+inf" for the open end of an interval. */
const char *pp_fmt_end(double ns, char *buf, unsigned len)
{
	if (isinf(ns)) {
		snprintf(buf, len, "%sinf", ns < 0 ? "-" : "+");
		return buf;
	}
	return pp_fmt_ns(ns, buf, len);
}
