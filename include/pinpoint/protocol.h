/* SPDX-License-Identifier: MIT */
/*
 * protocol.h - the protocol between the driver and the runtime: the grammar
 * of the PINPOINT variable, the keys of the results file, the limits both
 * sides share and the [FILE:]NAME rule (doc/formats.md, sections 2 and 3).
 *
 * Used by the runtime (runtime/spec.c decodes, runtime/output.c writes), the
 * driver (core/arming.c encodes, core/results.c reads) and the tools.  Only
 * static inline functions without allocation: the runtime includes it too.
 */
#ifndef PINPOINT_PROTOCOL_H
#define PINPOINT_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "pinpoint/abi.h"

/* ---- the PINPOINT variable: ITEM[;ITEM]..., ITEM = KEY=VALUE ---- */

#define PP_SPEC_SEP ';'
#define PP_SPEC_KEY_OUT "out"		/* out=PATH */
#define PP_SPEC_KEY_ENTRY "entry"	/* entry=[FILE:]NAME */
#define PP_SPEC_KEY_FN "fn"		/* fn=[FILE:]NAME */
#define PP_SPEC_KEY_WHOLE "whole"	/* whole=[FILE:]NAME: the body only */
#define PP_SPEC_KEY_RANGE "range"	/* range=[FILE:]NAME:I-J */
#define PP_SPEC_KEY_SAMPLES "samples"	/* samples=N */
#define PP_SPEC_KEY_STOP "stop"		/* stop=N */
#define PP_SPEC_KEY_SKIP "skip"		/* skip=K */
#define PP_SPEC_KEY_TIMING "timing"	/* timing=all|sampled */
#define PP_SPEC_KEY_HEAP "heap"		/* heap=N: move the heap's start by N bytes */
#define PP_SPEC_KEY_DELAY "delay"	/* delay=[FILE:]NAME or [FILE:]NAME:I-J: slowed down */
#define PP_SPEC_KEY_DELAY_NS "delay_ns" /* delay_ns=N: by N ns at each execution */
#define PP_SPEC_KEY_DELAY_EVERY "delay_every" /* delay_every=K: at one execution in K */
#define PP_SPEC_TIMING_ALL "all"
#define PP_SPEC_TIMING_SAMPLED "sampled"
#define PP_SPEC_KEY_PROBES "probes" /* probes=remove|keep */
#define PP_SPEC_PROBES_REMOVE "remove"
#define PP_SPEC_PROBES_KEEP "keep"

/*
 * Escaping: PATH, FILE and NAME are percent-encoded.  A writer encodes '%',
 * ';', ':', every byte up to ' ' (white space and control characters) and
 * 0x7f as "%XX" (two hexadecimal digits); a reader decodes "%XX" for any
 * byte and refuses a '%' not followed by two hexadecimal digits.  So any
 * byte but NUL can be in a path or a name, and an encoded value holds no
 * separator and no white space.
 */
#define PP_SPEC_ESCAPE '%'

static inline bool pp_spec_needs_escape(unsigned char c)
{
	return c <= ' ' || c == 0x7f || c == PP_SPEC_ESCAPE || c == PP_SPEC_SEP || c == ':';
}

/* Value of hexadecimal digit @c, or -1. */
static inline int pp_spec_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode @len bytes of @s into @out (room for @cap bytes, NUL included).
 * Returns the decoded length, or -1 for a bad escape, a decoded NUL or no
 * room.
 */
static inline long pp_spec_decode(const char *s, size_t len, char *out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == PP_SPEC_ESCAPE) {
			int hi = i + 2 < len ? pp_spec_hex(s[i + 1]) : -1;
			int lo = hi >= 0 ? pp_spec_hex(s[i + 2]) : -1;

			if (lo < 0 || (hi == 0 && lo == 0))
				return -1;
			c = (char)(hi * 16 + lo);
			i += 2;
		}
		if (n + 1 >= cap)
			return -1;
		out[n++] = c;
	}
	if (!cap)
		return -1;
	out[n] = '\0';
	return (long)n;
}

/* ---- the results file (one record a line, fields separated by ' ') ---- */

#define PP_RES_PID "pid"
#define PP_RES_CLOCK "clock"
#define PP_RES_SAMPLING "sampling" /* below_ns=N reads_ns=N: sample.c's threshold */
#define PP_RES_OVERHEAD "overhead" /* plain_ns=X clock_ns=Y bias_ns=Z calib_ns=N: calib.c's */
#define PP_RES_SKIPPED "skipped"   /* K: skip=K was taken */
#define PP_RES_DELAYED "delayed"   /* COUNT NS: delay='s executions, each delay_ns=NS longer */
#define PP_RES_MODULE "module"
#define PP_RES_SLOT "slot"
#define PP_RES_SAMPLES "samples"
#define PP_RES_END "end"
/* Slot kinds are the item keys: PP_SPEC_KEY_ENTRY, _FN, _WHOLE, _RANGE. */
#define PP_RES_FOUND "found"
#define PP_RES_TOTAL_NS "total_ns"
#define PP_RES_COUNT "count"
#define PP_RES_CALLS_NS "calls_ns"
#define PP_RES_PROBES_NS "probes_ns"		 /* removed from total_ns */
#define PP_RES_CALLS_PROBES_NS "calls_probes_ns" /* removed from calls_ns */
#define PP_RES_LOST "lost"
#define PP_RES_TIMED "timed"
#define PP_RES_BELOW_NS "below_ns"
#define PP_RES_READS_NS "reads_ns"
#define PP_RES_PLAIN_NS "plain_ns"
#define PP_RES_CLOCK_NS "clock_ns"
#define PP_RES_BIAS_NS "bias_ns"
#define PP_RES_CALIB_NS "calib_ns"
/* target SLOT KIND ADDR [name=N] [file=F] [module=M] count=... total_ns=...
 * probes_ns=... [lost=L] [timed=T]: where slot SLOT's indirect call went,
 * after its slot line; N, F and M percent-encoded.  Added within version 1:
 * readers skip records they do not know. */
#define PP_RES_TARGET "target"
#define PP_RES_TARGET_FN "fn"	    /* an instrumented function: its record's name and file */
#define PP_RES_TARGET_SYM "sym"	    /* in an instrumented module, without a record */
#define PP_RES_TARGET_EXT "ext"	    /* outside every instrumented module */
#define PP_RES_TARGET_OTHER "other" /* the targets past those kept apart */
#define PP_RES_NAME "name"
#define PP_RES_FILE "file"
#define PP_RES_MODULE_KEY "module"

/* ---- limits ---- */

#define PP_MAX_SLOTS 64		       /* entry, fn, whole and range items of one variable */
#define PP_MAX_SAMPLES (1u << 20)      /* samples=N: entry durations kept */
#define PP_SPEC_MAX 8192	       /* length of the PINPOINT variable */
#define PP_MAX_MODULES 256	       /* instrumented executables and libraries of a run */
#define PP_MAX_HEAP_SHIFT (1u << 20)   /* heap=N: N at most this */
#define PP_MAX_DELAY_NS 1000000000u    /* delay_ns=N: N at most this (1 s) */
#define PP_MAX_DELAY_EVERY 2147483647u /* delay_every=K: K at most this */

/* ---- what the driver varies from run to run (doc/semantics.md) ---- */

#define PP_ENV_PAD "PINPOINT_PAD" /* a variable of 0 to PP_ENV_PAD_MAX bytes */
#define PP_ENV_PAD_MAX 4095
#define PP_HEAP_SHIFT_MAX 4080 /* heap=N drawn from 0, 16, ..., this */

/* ---- the [FILE:]NAME rule ---- */

/*
 * Index of the ':' that separates FILE from NAME in @s[0..@len): the first
 * ':' that is not part of "::" (a C++ scope), or -1 when there is none.
 * Encoded names hold no ':', so in the PINPOINT variable it is the only one.
 */
static inline long pp_name_split(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] != ':')
			continue;
		if (i + 1 < len && s[i + 1] == ':') {
			i++;
			continue;
		}
		return (long)i;
	}
	return -1;
}

/*
 * FILE @want matches a function's source file @path when it is a suffix of
 * @path at a '/' boundary (or starts with '/' itself), or all of it.
 */
static inline bool pp_file_matches(const char *path, const char *want)
{
	size_t lw = strlen(want), lp;

	if (!path)
		return false;
	lp = strlen(path);
	if (lw > lp || strcmp(path + lp - lw, want))
		return false;
	return lw == lp || path[lp - lw - 1] == '/' || want[0] == '/';
}

#endif /* PINPOINT_PROTOCOL_H */
