/* SPDX-License-Identifier: MIT */
/*
 * table_priv.h - what the table reader's files share behind table.h.
 */
#ifndef PINPOINT_TABLE_PRIV_H
#define PINPOINT_TABLE_PRIV_H

#include <stdint.h>

#include "core/arena.h"
#include "core/table.h"

/* A function record and the order it was read in (for "keep the first"). */
struct pp_rec {
	struct pp_prog_fn f;
	uint64_t seq;
	size_t name_rank, file_rank; /* of f.name and f.file among the records' */
};

struct pp_store {
	struct pp_arena arena;
	struct pp_rec *recs; /* the kept records, sorted like prog->funcs */
	size_t nrecs, caprecs;
	uint64_t seq;
	size_t capobjects;
	const char **warnings; /* functions skipped (pp_program_warnings()) */
	size_t nwarnings, capwarnings;
	/* call records decoded so far, never more than the blobs hold (the
	 * tests count the work with it) */
	uint64_t calls_read;
	/* bytes of strings interned so far (hashed, compared, copied): each
	 * string of a blob once, never more than its string table holds (the
	 * tests count the work with it) */
	uint64_t str_bytes;
	char err[512];
};

static inline struct pp_store *pp_store(const struct pp_program *prog)
{
	return prog->priv;
}

/* Record the reason of the last failure, for pp_program_error(). */
__attribute__((format(printf, 2, 3))) void pp_program_set_error(struct pp_program *prog,
								const char *fmt, ...);

#endif /* PINPOINT_TABLE_PRIV_H */
