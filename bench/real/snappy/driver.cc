// SPDX-License-Identifier: MIT
/*
 * driver.cc - Snappy (C++): compress generated key/value records in 256-byte
 * blocks (small values, as a key/value store keeps them) with
 * snappy::Compress, validate and decompress each 16 times with
 * snappy::IsValidCompressedBuffer and snappy::Uncompress, N rounds.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include <snappy.h>

static uint64_t rng = 0x6a09e667f3bcc909ull;

static uint64_t next()
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 10;
	const size_t block = 256, nblock = 4096;
	std::string in;
	uint64_t check = 0;
	struct timespec t0, t1, c0, c1;

	while (in.size() < block * nblock) {
		char rec[128];
		int k = std::snprintf(
		    rec, sizeof(rec),
		    "user:%06llu\x01{\"name\":\"n%llu\",\"score\":%llu,\"tags\":[%llu,%llu]}\n",
		    (unsigned long long)(next() % 1000000), (unsigned long long)(next() % 5000),
		    (unsigned long long)(next() % 100), (unsigned long long)(next() % 10),
		    (unsigned long long)(next() % 10));
		in.append(rec, (size_t)k);
	}
	in.resize(block * nblock);

	std::string comp, back;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++) {
		for (size_t b = 0; b < nblock; b++) {
			const char *src = in.data() + b * block;
			snappy::Compress(src, block, &comp);
			for (int d = 0; d < 16; d++) {
				if (!snappy::IsValidCompressedBuffer(comp.data(), comp.size()) ||
				    !snappy::Uncompress(comp.data(), comp.size(), &back) ||
				    back.size() != block ||
				    back.compare(0, block, src, block) != 0) {
					std::fprintf(stderr, "driver: round trip failed\n");
					return 1;
				}
			}
			check = check * 31 + comp.size();
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	std::printf("ns %lld\n",
		    (long long)(t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec));
	std::printf("cpu_ns %lld\n",
		    (long long)(c1.tv_sec - c0.tv_sec) * 1000000000ll + (c1.tv_nsec - c0.tv_nsec));
	std::printf("check %llx\n", (unsigned long long)check);
	return 0;
}
