// SPDX-License-Identifier: MIT
/*
 * driver.c - LZ4: compress generated log-like records in 1 KiB blocks (fast
 * mode; every 64th block with LZ4HC level 6 instead) and decompress every
 * block 16 times with LZ4_decompress_safe, N rounds: the decompressor,
 * called most, takes most of the time.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lz4.h>
#include <lz4hc.h>

enum { BLOCK = 1024, NBLOCK = 1024 };

#define WORKLOAD_SEED 0xda942042e4dd58b5ull
#include "workload.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 50;
	static char in[BLOCK * NBLOCK], out[LZ4_COMPRESSBOUND(BLOCK)], back[BLOCK];
	static const char *const level[] = {"DEBUG", "INFO", "WARN", "ERROR"};
	uint64_t check = 0;
	struct timespec t0, t1, c0, c1;
	size_t i = 0;

	while (i < sizeof(in)) {
		char rec[160];
		int k =
		    snprintf(rec, sizeof(rec),
			     "2026-11-23T16:%02u:%02u.%03u %s worker-%u request %llu took %u us\n",
			     (unsigned)(next() % 60), (unsigned)(next() % 60),
			     (unsigned)(next() % 1000), level[next() % 4], (unsigned)(next() % 16),
			     (unsigned long long)(next() % 1000000), (unsigned)(next() % 5000));
		for (int j = 0; j < k && i < sizeof(in); j++)
			in[i++] = rec[j];
	}

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++) {
		for (int b = 0; b < NBLOCK; b++) {
			const char *src = in + (size_t)b * BLOCK;
			int clen = (b % 64 == 0)
				       ? LZ4_compress_HC(src, out, BLOCK, (int)sizeof(out), 6)
				       : LZ4_compress_default(src, out, BLOCK, (int)sizeof(out));
			if (clen <= 0) {
				fprintf(stderr, "driver: compression failed\n");
				return 1;
			}
			for (int d = 0; d < 16; d++) {
				if (LZ4_decompress_safe(out, back, clen, BLOCK) != BLOCK ||
				    memcmp(back, src, BLOCK) != 0) {
					fprintf(stderr, "driver: round trip failed\n");
					return 1;
				}
			}
			check = check * 31 + (unsigned)clen;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	printf("ns %lld\n",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec));
	printf("cpu_ns %lld\n",
	       (long long)(c1.tv_sec - c0.tv_sec) * 1000000000ll + (c1.tv_nsec - c0.tv_nsec));
	printf("check %llx\n", (unsigned long long)check);
	return 0;
}
