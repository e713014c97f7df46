// SPDX-License-Identifier: MIT
/*
 * spec.c - parse the PINPOINT variable (doc/formats.md, section 2) into
 * static storage: the output path, the slots to measure, the sample count,
 * when to stop and what to skip, how to time, what to slow down.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	/* the message is one line whatever the variable holds */
	for (; *err; err++)
		if ((unsigned char)*err < ' ')
			*err = '?';
	return -EINVAL;
}

/* Decimal digits only, no sign, no white space, no overflow. */
static int parse_u32(const char *s, size_t len, uint32_t *v)
{
	uint64_t x = 0;

	if (!len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		x = x * 10 + (uint64_t)(s[i] - '0');
		if (x > UINT32_MAX)
			return -EINVAL;
	}
	*v = (uint32_t)x;
	return 0;
}

/* KEY=@a or KEY=@b, given once (@given): *@is_a says which. */
static int parse_choice(const char *key, const char *val, const char *a, const char *b, bool *is_a,
			bool *given, char *err, size_t errlen)
{
	if (*given)
		return fail(err, errlen, "%s= given twice", key);
	if (strcmp(val, a) && strcmp(val, b))
		return fail(err, errlen, "%s=%s: want %s or %s", key, val, a, b);
	*is_a = !strcmp(val, a);
	*given = true;
	return 0;
}

static bool has_space(const char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\v' || *s == '\f')
			return true;
	return false;
}

/* Decode s[0..len) (protocol.h's escaping) into the parts buffer, NUL-terminated. */
static const char *keep(struct pp_spec *sp, size_t *used, const char *s, size_t len)
{
	char *p = sp->parts + *used;
	long n = pp_spec_decode(s, len, p, sizeof(sp->parts) - *used);

	if (n < 0)
		return NULL;
	*used += (size_t)n + 1;
	return p;
}

/* [FILE:]NAME, split by the protocol's name rule (pp_name_split()). */
static int parse_target(struct pp_spec *sp, size_t *used, struct pp_slot *slot, const char *s,
			size_t len)
{
	long sep = pp_name_split(s, len);

	if (sep >= 0) {
		size_t flen = (size_t)sep;

		if (!flen || flen + 1 == len)
			return -EINVAL;
		slot->file = keep(sp, used, s, flen);
		slot->name = keep(sp, used, s + flen + 1, len - flen - 1);
	} else {
		if (!len)
			return -EINVAL;
		slot->file = NULL;
		slot->name = keep(sp, used, s, len);
	}
	return slot->name && (sep < 0 || slot->file) ? 0 : -EINVAL;
}

/* [FILE:]NAME:I-J */
static int parse_range(struct pp_spec *sp, size_t *used, struct pp_slot *slot, const char *s)
{
	const char *colon = strrchr(s, ':');
	const char *dash;

	if (!colon)
		return -EINVAL;
	dash = strchr(colon, '-');
	if (!dash || parse_u32(colon + 1, (size_t)(dash - colon - 1), &slot->first) ||
	    parse_u32(dash + 1, strlen(dash + 1), &slot->last) || slot->first > slot->last ||
	    slot->last == UINT32_MAX)
		return -EINVAL;
	return parse_target(sp, used, slot, s, (size_t)(colon - s));
}

/* delay=[FILE:]NAME, the body, or [FILE:]NAME:I-J, calls I..J: a last part
 * that starts with a digit or holds a '-' is I-J (no linkage name does; a
 * name with a '-' would write it %2D). */
static int parse_delay(struct pp_spec *sp, size_t *used, const char *val, char *err, size_t errlen)
{
	struct pp_slot *d = &sp->delay;
	const char *colon = strrchr(val, ':');
	int ret;

	if (sp->has_delay)
		return fail(err, errlen, "delay= given twice");
	if (has_space(val))
		return fail(err, errlen, "delay=%s: white space in a name", val);
	memset(d, 0, sizeof(*d));
	d->spec = val;
	if (colon && ((colon[1] >= '0' && colon[1] <= '9') || strchr(colon, '-'))) {
		d->kind = PP_KIND_RANGE;
		ret = parse_range(sp, used, d, val);
	} else {
		d->kind = PP_KIND_WHOLE;
		ret = parse_target(sp, used, d, val, strlen(val));
	}
	if (ret)
		return fail(err, errlen,
			    "delay=%s: want [FILE:]NAME or [FILE:]NAME:I-J with I <= J (names "
			    "%%-encoded)",
			    val);
	sp->has_delay = true;
	return 0;
}

static int parse_item(struct pp_spec *sp, size_t *used, char *item, char *err, size_t errlen)
{
	char *val = strchr(item, '=');
	struct pp_slot *slot;
	const char *key = item;

	if (!val)
		return fail(err, errlen, "item '%s' is not KEY=VALUE", item);
	*val++ = '\0';

	if (!strcmp(key, PP_SPEC_KEY_OUT)) {
		if (sp->out)
			return fail(err, errlen, "out= given twice");
		if (!*val)
			return fail(err, errlen, "out= needs a path");
		sp->out = keep(sp, used, val, strlen(val));
		if (!sp->out)
			return fail(err, errlen, "out=%s: bad %%XX escape", val);
		return 0;
	}
	if (!strcmp(key, PP_SPEC_KEY_SAMPLES)) {
		if (sp->has_samples)
			return fail(err, errlen, "samples= given twice");
		if (parse_u32(val, strlen(val), &sp->samples) || sp->samples > PP_MAX_SAMPLES)
			return fail(err, errlen, "samples=%s: want a number from 0 to %u", val,
				    PP_MAX_SAMPLES);
		sp->has_samples = true;
		return 0;
	}
	if (!strcmp(key, PP_SPEC_KEY_STOP) || !strcmp(key, PP_SPEC_KEY_SKIP)) {
		uint32_t *n = !strcmp(key, PP_SPEC_KEY_STOP) ? &sp->stop : &sp->skip;

		if (*n)
			return fail(err, errlen, "%s= given twice", key);
		if (parse_u32(val, strlen(val), n) || !*n)
			return fail(err, errlen, "%s=%s: want a number from 1 to %u", key, val,
				    UINT32_MAX);
		return 0;
	}

	if (!strcmp(key, PP_SPEC_KEY_HEAP)) {
		if (parse_u32(val, strlen(val), &sp->heap) || sp->heap > PP_MAX_HEAP_SHIFT)
			return fail(err, errlen, "heap=%s: want a number from 0 to %u", val,
				    PP_MAX_HEAP_SHIFT);
		return 0;
	}
	if (!strcmp(key, PP_SPEC_KEY_DELAY))
		return parse_delay(sp, used, val, err, errlen);
	if (!strcmp(key, PP_SPEC_KEY_DELAY_NS)) {
		if (sp->delay_ns)
			return fail(err, errlen, "delay_ns= given twice");
		if (parse_u32(val, strlen(val), &sp->delay_ns) || !sp->delay_ns ||
		    sp->delay_ns > PP_MAX_DELAY_NS)
			return fail(err, errlen, "delay_ns=%s: want a number from 1 to %u", val,
				    PP_MAX_DELAY_NS);
		return 0;
	}
	if (!strcmp(key, PP_SPEC_KEY_DELAY_EVERY)) {
		if (sp->delay_every)
			return fail(err, errlen, "delay_every= given twice");
		if (parse_u32(val, strlen(val), &sp->delay_every) || !sp->delay_every ||
		    sp->delay_every > PP_MAX_DELAY_EVERY)
			return fail(err, errlen, "delay_every=%s: want a number from 1 to %u", val,
				    PP_MAX_DELAY_EVERY);
		return 0;
	}
	if (!strcmp(key, PP_SPEC_KEY_PROBES))
		return parse_choice(key, val, PP_SPEC_PROBES_KEEP, PP_SPEC_PROBES_REMOVE,
				    &sp->keep_probes, &sp->has_probes, err, errlen);
	if (!strcmp(key, PP_SPEC_KEY_TIMING))
		return parse_choice(key, val, PP_SPEC_TIMING_ALL, PP_SPEC_TIMING_SAMPLED,
				    &sp->every, &sp->has_timing, err, errlen);

	if (strcmp(key, PP_SPEC_KEY_ENTRY) && strcmp(key, PP_SPEC_KEY_FN) &&
	    strcmp(key, PP_SPEC_KEY_WHOLE) && strcmp(key, PP_SPEC_KEY_RANGE))
		return fail(err, errlen, "unknown item '%s'", key);
	if (has_space(val))
		return fail(err, errlen, "%s=%s: white space in a name", key, val);
	if (sp->nslots == PP_MAX_SLOTS)
		return fail(err, errlen, "more than %d entry, fn, whole and range items",
			    PP_MAX_SLOTS);
	slot = &sp->slots[sp->nslots];
	memset(slot, 0, sizeof(*slot));
	slot->spec = val;
	if (!strcmp(key, PP_SPEC_KEY_RANGE)) {
		slot->kind = PP_KIND_RANGE;
		if (parse_range(sp, used, slot, val))
			return fail(err, errlen,
				    "range=%s: want [FILE:]NAME:I-J with I <= J (names %%-encoded)",
				    val);
	} else {
		if (!strcmp(key, PP_SPEC_KEY_ENTRY)) {
			if (sp->entry >= 0)
				return fail(err, errlen, "entry= given twice");
			sp->entry = (int)sp->nslots;
			slot->kind = PP_KIND_ENTRY;
		} else if (!strcmp(key, PP_SPEC_KEY_WHOLE)) {
			slot->kind = PP_KIND_WHOLE;
		} else {
			slot->kind = PP_KIND_FN;
		}
		if (parse_target(sp, used, slot, val, strlen(val)))
			return fail(err, errlen, "%s=%s: want [FILE:]NAME (names %%-encoded)", key,
				    val);
	}
	sp->nslots++;
	return 0;
}

int pp_spec_parse(struct pp_spec *sp, const char *text, char *err, size_t errlen)
{
	size_t len = strlen(text), used = 0;
	char *item, *next;
	int ret;

	sp->out = NULL;
	sp->nslots = 0;
	sp->entry = -1;
	sp->has_samples = false;
	sp->samples = 0;
	sp->stop = 0;
	sp->skip = 0;
	sp->every = false;
	sp->has_timing = false;
	sp->heap = 0;
	sp->keep_probes = false;
	sp->has_probes = false;
	sp->has_delay = false;
	sp->delay_ns = 0;
	sp->delay_every = 0;
	if (len >= sizeof(sp->text))
		return fail(err, errlen, "longer than %zu bytes", sizeof(sp->text) - 1);
	memcpy(sp->text, text, len + 1);

	for (item = sp->text; item; item = next) {
		next = strchr(item, PP_SPEC_SEP);
		if (next)
			*next++ = '\0';
		if (!*item)
			continue;
		ret = parse_item(sp, &used, item, err, errlen);
		if (ret)
			goto out_bad;
	}
	if ((sp->stop || sp->skip) && sp->entry < 0) {
		ret = fail(err, errlen, "%s= counts the entry's executions: it needs entry=",
			   sp->stop ? PP_SPEC_KEY_STOP : PP_SPEC_KEY_SKIP);
		goto out_bad;
	}
	if (sp->stop && sp->skip >= sp->stop) {
		ret = fail(err, errlen, "skip=%u leaves nothing of stop=%u", sp->skip, sp->stop);
		goto out_bad;
	}
	if (sp->has_delay != (sp->delay_ns != 0)) {
		ret = fail(err, errlen,
			   sp->has_delay ? "delay= needs delay_ns=, the wait in ns"
					 : "delay_ns= needs delay=, what to slow down");
		goto out_bad;
	}
	if (sp->delay_every && !sp->has_delay) {
		ret = fail(err, errlen, "delay_every= needs delay=, what to slow down");
		goto out_bad;
	}
	/* the delayed sites carry the bit of a counter no slot has (arm.c) */
	if (sp->has_delay && sp->nslots == PP_MAX_SLOTS) {
		ret = fail(err, errlen,
			   "delay= takes a slot's place: at most %d entry, fn, whole and range "
			   "items with it",
			   PP_MAX_SLOTS - 1);
		goto out_bad;
	}
	return 0;

out_bad:
	sp->out = NULL;
	sp->nslots = 0;
	sp->has_delay = false;
	sp->delay_ns = 0;
	sp->delay_every = 0;
	return ret;
}
