// SPDX-License-Identifier: MIT
/*
 * driver.c - the reference Argon2 (SSE build): hash N generated passwords
 * with Argon2id (t=2, m=256 KiB, p=1) and Argon2i, and verify every tenth.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <argon2.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	uint64_t check = 0;
	struct timespec t0, t1, c0, c1;
	uint8_t salt[16], hash[32];
	char pwd[32], enc[128];

	for (unsigned i = 0; i < sizeof(salt); i++)
		salt[i] = (uint8_t)(i * 37 + 11);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++) {
		int k = snprintf(pwd, sizeof(pwd), "password-%ld", r * 7919);
		int rc = (r & 1) ? argon2i_hash_raw(2, 256, 1, pwd, (size_t)k, salt, sizeof(salt),
						    hash, sizeof(hash))
				 : argon2id_hash_raw(2, 256, 1, pwd, (size_t)k, salt, sizeof(salt),
						     hash, sizeof(hash));
		if (rc != ARGON2_OK) {
			fprintf(stderr, "driver: %s\n", argon2_error_message(rc));
			return 1;
		}
		for (unsigned i = 0; i < sizeof(hash); i++)
			check = check * 31 + hash[i];
		if (r % 10 == 0) {
			rc = argon2id_hash_encoded(1, 64, 1, pwd, (size_t)k, salt, sizeof(salt), 32,
						   enc, sizeof(enc));
			if (rc == ARGON2_OK)
				rc = argon2id_verify(enc, pwd, (size_t)k);
			if (rc != ARGON2_OK) {
				fprintf(stderr, "driver: verify: %s\n", argon2_error_message(rc));
				return 1;
			}
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
