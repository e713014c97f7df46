// SPDX-License-Identifier: MIT
/*
 * driver.cc - LevelDB: a database in memory (helpers/memenv), 30,000
 * generated records written in batches and compacted into tables, then N
 * rounds of lookup_batch(): 1,500 point reads and one scan of 1,000 records
 * through an iterator.  Reads go through LevelDB's virtual interfaces
 * (Env, Iterator, Comparator, FilterPolicy, Cache) and its templates
 * (SkipList<const char *, KeyComparator>).
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "helpers/memenv/memenv.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"

#define WORKLOAD_SEED 0x1e7e1db5eed0000dull
#include "../../real/workload.h"

static void check_ok(const leveldb::Status &s, const char *what)
{
	if (!s.ok()) {
		std::fprintf(stderr, "driver: %s: %s\n", what, s.ToString().c_str());
		std::exit(1);
	}
}

static std::string key_of(uint64_t k)
{
	char b[32];

	std::snprintf(b, sizeof(b), "user%012llu", (unsigned long long)k);
	return b;
}

/* The entry: one round of reads. */
__attribute__((noinline)) uint64_t lookup_batch(leveldb::DB *db, long r)
{
	leveldb::ReadOptions ro;
	std::string v;
	uint64_t sum = 0;

	for (int i = 0; i < 1500; i++) {
		leveldb::Status s = db->Get(ro, key_of((next() + (uint64_t)r) % 40000), &v);

		sum += s.ok() ? v.size() + (unsigned char)v[0] : 1;
	}
	leveldb::Iterator *it = db->NewIterator(ro);
	int n = 0;

	for (it->Seek(key_of((uint64_t)r * 97 % 30000)); it->Valid() && n < 1000; it->Next(), n++)
		sum += it->value().size() ^ (unsigned char)it->key()[11];
	delete it;
	return sum;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 40;
	leveldb::Env *env = leveldb::NewMemEnv(leveldb::Env::Default());
	const leveldb::FilterPolicy *bloom = leveldb::NewBloomFilterPolicy(10);
	struct timespec t0, t1, c0, c1;
	leveldb::Options o;
	leveldb::DB *db;
	uint64_t check = 0;

	o.env = env;
	o.create_if_missing = true;
	o.filter_policy = bloom;
	o.write_buffer_size = 256 << 10;
	check_ok(leveldb::DB::Open(o, "/corpus", &db), "open");
	for (int b = 0; b < 300; b++) {
		leveldb::WriteBatch batch;

		for (int i = 0; i < 100; i++) {
			std::string v(16 + next() % 100, (char)('a' + next() % 26));

			batch.Put(key_of(next() % 40000), v);
		}
		check_ok(db->Write(leveldb::WriteOptions(), &batch), "write");
	}
	db->CompactRange(nullptr, nullptr);

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++)
		check = check * 31 + lookup_batch(db, r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	delete db;
	delete bloom;
	delete env;
	std::printf("ns %lld\ncpu_ns %lld\ncheck %016llx\n",
		    (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)),
		    (long long)((c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec)),
		    (unsigned long long)check);
	return 0;
}
