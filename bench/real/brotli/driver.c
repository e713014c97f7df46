// SPDX-License-Identifier: MIT
/*
 * driver.c - brotli: compress generated text-like data in 64 KiB messages at
 * quality 4 and decompress each again with the streaming decoder, N rounds.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <brotli/decode.h>
#include <brotli/encode.h>

enum { MSG = 65536, NMSG = 8 };

#define WORKLOAD_SEED 0x853c49e6748fea9bull
#include "workload.h"

static const char *const words[] = {
    "the",     "call",	"slower",  "function", "between", "builds", "probe",  "site",	"table",
    "runtime", "armed", "compile", "inline",   "vector",  "loop",   "brotli", "window", "quality",
};

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 60;
	static uint8_t in[MSG * NMSG], out[MSG * 2], back[MSG];
	uint64_t check = 0;
	struct timespec t0, t1, c0, c1;

	for (size_t i = 0; i < sizeof(in);) {
		const char *w = words[next() % (sizeof(words) / sizeof(words[0]))];
		while (*w && i < sizeof(in))
			in[i++] = (uint8_t)*w++;
		if (i < sizeof(in))
			in[i++] = next() % 11 ? ' ' : (uint8_t)('0' + next() % 10);
	}

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++) {
		for (int m = 0; m < NMSG; m++) {
			size_t clen = sizeof(out);
			if (!BrotliEncoderCompress(4, 20, BROTLI_MODE_TEXT, MSG,
						   in + (size_t)m * MSG, &clen, out)) {
				fprintf(stderr, "driver: compression failed\n");
				return 1;
			}
			BrotliDecoderState *d = BrotliDecoderCreateInstance(NULL, NULL, NULL);
			size_t avail_in = clen, avail_out = sizeof(back);
			const uint8_t *next_in = out;
			uint8_t *next_out = back;
			BrotliDecoderResult res = BrotliDecoderDecompressStream(
			    d, &avail_in, &next_in, &avail_out, &next_out, NULL);
			BrotliDecoderDestroyInstance(d);
			if (res != BROTLI_DECODER_RESULT_SUCCESS || avail_out != 0 ||
			    memcmp(back, in + (size_t)m * MSG, MSG) != 0) {
				fprintf(stderr, "driver: round trip failed\n");
				return 1;
			}
			check = check * 31 + clen;
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
