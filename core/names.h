/* SPDX-License-Identifier: MIT */
/*
 * names.h - the names a report gives functions: C++ names short
 * (cxxname.h), with their parameter lists where two functions of the report
 * would otherwise read the same ("over(int)", "over(double)"), whole where
 * even that does not tell them apart.  C names as they are.
 *
 * A report's names are gathered first: while gathering, pp_names_get()
 * notes each name it is asked for and returns it demangled.  Then
 * pp_names_settle() decides each one's form, and pp_names_get() returns
 * that.  A NULL set gives names demangled whole (the JSON report's).
 */
#ifndef PINPOINT_NAMES_H
#define PINPOINT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

struct pp_name {
	const char *full; /* demangled (pp_demangle()) */
	bool cxx;	  /* a C++ name (pp_demangle() demangled it) */
	char *shown;	  /* as reports print it, once settled */
};

struct pp_names {
	size_t n, cap;
	struct pp_name *v;
	bool settled;
	int err; /* -ENOMEM while gathering: pp_names_settle() returns it */
};

void pp_names_init(struct pp_names *nm);
/* Function @linkage as @nm names it (see above); NULL @nm: demangled. */
const char *pp_names_get(struct pp_names *nm, const char *linkage);
/* Decide the form of every name gathered.  0 or -ENOMEM. */
int pp_names_settle(struct pp_names *nm);
void pp_names_free(struct pp_names *nm);

#endif /* PINPOINT_NAMES_H */
