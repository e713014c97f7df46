/* SPDX-License-Identifier: MIT */
/*
 * overview.h - the search at a glance, at the top of the HTML report: a
 * flame-like diff of the nodes of the search, each node a bar as wide as
 * its share of the entry's difference, coloured by the sign and size of
 * that share.
 */
#ifndef PINPOINT_OVERVIEW_H
#define PINPOINT_OVERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pinpoint/session/outcome.h"

/* A node of the search: a function or a range of its calls, with its difference. */
struct pp_overview_node {
	int parent; /* index of the parent node, -1 for the entry */
	unsigned depth;
	char *label;		 /* malloc'ed */
	struct pp_interval diff; /* current - previous, ns */
	double share;		 /* of the parent's difference (1 for the entry) */
	enum pp_verdict verdict;
	unsigned order; /* the comparison's number in the report, 0 if none */
	bool rest;	/* the parent's unexplained remainder */
};

/*
 * The nodes of the search of @o, parents before children, in *@out
 * (malloc'ed, free with pp_overview_free()).  Returns the number, or -errno.
 * They are the nodes of the attribution tree (o->nodes), depth first,
 * without the remainders that are zero by construction.
 */
long pp_overview_nodes(const struct pp_outcome *o, struct pp_overview_node **out);
void pp_overview_free(struct pp_overview_node *v, size_t n);

/*
 * The overview of nodes @v[0..@n) (parents before children) as an SVG figure
 * whose bars and labels all lie within its width, whatever the tree.  A
 * remainder whose difference and interval are zero is left out.
 */
void pp_svg_overview_draw(FILE *f, const struct pp_overview_node *v, long n);

/* The overview of @o's attribution tree (nothing when there are no nodes). */
void pp_svg_overview(FILE *f, const struct pp_outcome *o);

#endif /* PINPOINT_OVERVIEW_H */
