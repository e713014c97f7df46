/* SPDX-License-Identifier: MIT */
/*
 * nights.h - a history's sessions as series, one per entry and machine:
 * the nights in time order and the value looked at for change points.
 */
#ifndef PINPOINT_NIGHTS_H
#define PINPOINT_NIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "pinpoint/report/history.h"

/*
 * What a series' values are: the current revision's time (CURRENT), or,
 * when every night compared against one baseline (RATIO), that time
 * divided by the baseline's of the same night and scaled by the baseline's
 * median time, so that it still reads in ns.
 */
enum pp_nights_kind { PP_NIGHTS_CURRENT, PP_NIGHTS_RATIO };

struct pp_nights {
	const char *entry;   /* in the history it was made from */
	const char *machine; /* "" when its lines do not say */
	uint64_t baseline;   /* 0, or which --baseline its nights were measured against */
	const struct pp_history_entry *first; /* its first line, in the file's order */
	enum pp_nights_kind kind;
	size_t n;			       /* nights */
	double *x;			       /* each night's value, ns */
	const struct pp_history_entry **night; /* each night's line, oldest first */
	size_t undecided;		       /* its lines without the current time */
};

/*
 * The series of @h into *@out (*@n of them, in the order their entries and
 * machines first appear), of entry @entry only unless NULL.  0 or -ENOMEM;
 * free them with pp_nights_free() either way.
 */
int pp_nights_make(const struct pp_history *h, const char *entry, struct pp_nights **out,
		   size_t *n);
void pp_nights_free(struct pp_nights *s, size_t n);

#endif /* PINPOINT_NIGHTS_H */
