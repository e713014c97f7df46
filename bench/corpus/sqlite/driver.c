// SPDX-License-Identifier: MIT
/*
 * driver.c - SQLite: an in-memory table of generated orders (20,000 rows,
 * an index on the customer), then N rounds of query_sum(): three aggregate
 * queries, one through the index, one a full scan with an expression, one
 * grouped.  Each runs through sqlite3_step() and the bytecode interpreter
 * (sqlite3VdbeExec), the largest call list of the library.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sqlite3.h"

#define WORKLOAD_SEED 0x5eed5a17e5c0ffeeull
#include "../../real/workload.h"

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "driver: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

/* Inlined: query_sum's calls are sqlite3_step's, one layer less to dig. */
static inline __attribute__((always_inline)) int64_t one(sqlite3 *db, sqlite3_stmt *st, int64_t arg)
{
	int64_t v = 0;

	if (sqlite3_bind_int64(st, 1, arg) != SQLITE_OK)
		die(db, "bind");
	while (sqlite3_step(st) == SQLITE_ROW)
		v += sqlite3_column_int64(st, 0) ^ sqlite3_column_int64(st, 1);
	sqlite3_reset(st);
	return v;
}

/* The entry: three queries of one round. */
__attribute__((noinline)) int64_t query_sum(sqlite3 *db, sqlite3_stmt *const st[3], int64_t r)
{
	return one(db, st[0], r % 500) + one(db, st[1], r % 7) + one(db, st[2], r % 13);
}

int main(int argc, char **argv)
{
	static const char *const q[3] = {
	    "SELECT count(*), sum(amount) FROM orders WHERE customer = ?1",
	    "SELECT count(*), sum(amount * qty) FROM orders WHERE (id + ?1) % 11 = 0",
	    "SELECT customer % 13, max(amount) FROM orders WHERE qty > ?1 GROUP BY 1",
	};
	long n = argc > 1 ? atol(argv[1]) : 40;
	struct timespec t0, t1, c0, c1;
	sqlite3_stmt *ins, *st[3];
	uint64_t check = 0;
	sqlite3 *db;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die(db, "open");
	if (sqlite3_exec(db,
			 "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INT, amount INT, "
			 "qty INT, note TEXT); CREATE INDEX by_customer ON orders(customer);"
			 "BEGIN",
			 NULL, NULL, NULL) != SQLITE_OK)
		die(db, "schema");
	if (sqlite3_prepare_v2(db, "INSERT INTO orders VALUES(NULL, ?1, ?2, ?3, ?4)", -1, &ins,
			       NULL) != SQLITE_OK)
		die(db, "prepare");
	for (int i = 0; i < 20000; i++) {
		char note[32];

		snprintf(note, sizeof(note), "order-%llu", (unsigned long long)(next() % 100000));
		sqlite3_bind_int64(ins, 1, (sqlite3_int64)(next() % 500));
		sqlite3_bind_int64(ins, 2, (sqlite3_int64)(next() % 10000));
		sqlite3_bind_int64(ins, 3, (sqlite3_int64)(next() % 20));
		sqlite3_bind_text(ins, 4, note, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(ins) != SQLITE_DONE)
			die(db, "insert");
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		die(db, "commit");
	for (int i = 0; i < 3; i++)
		if (sqlite3_prepare_v2(db, q[i], -1, &st[i], NULL) != SQLITE_OK)
			die(db, "prepare");

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++)
		check = check * 31 + (uint64_t)query_sum(db, st, r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	for (int i = 0; i < 3; i++)
		sqlite3_finalize(st[i]);
	sqlite3_close(db);
	printf("ns %lld\ncpu_ns %lld\ncheck %016llx\n",
	       (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)),
	       (long long)((c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec)),
	       (unsigned long long)check);
	return 0;
}
