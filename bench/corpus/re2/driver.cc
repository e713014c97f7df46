// SPDX-License-Identifier: MIT
/*
 * driver.cc - RE2: six patterns compiled once, then N rounds of
 * match_batch(): 300 generated log lines, each searched with every pattern
 * (PartialMatch with submatches, a FullMatch, a GlobalReplace on every 16th
 * line, a RE2::Set over all).  RE2 runs its DFA, one-pass and NFA engines,
 * walks its Regexp trees through Walker<T> (virtual visits) and uses
 * Abseil's strings and containers.
 *
 *   driver [N]      prints "ns <work time>", "cpu_ns <its CPU time>", "check <digest>"
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include <re2/re2.h>
#include <re2/set.h>

#define WORKLOAD_SEED 0x4e2e2d51ab1e0042ull
#include "../../real/workload.h"

static const char *const patterns[] = {
    R"((\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d))",
    R"(worker-(\d+) request ([0-9a-f]+))",
    R"((?i)(error|warn)\w*: ([^;]+);)",
    R"(took (\d+)(?:\.(\d+))? (us|ms))",
    R"(user=([a-z]+)@([a-z]+\.(?:com|org|net)))",
    R"(^\S+ \S+ (GET|POST|PUT) (/[a-z/]*)(\?\S*)? HTTP/1\.[01]$)",
};
enum { NPAT = sizeof(patterns) / sizeof(patterns[0]) };

/* The entry: every pattern over every line. */
__attribute__((noinline)) uint64_t match_batch(const std::vector<std::string> &lines,
					       RE2 *const *re, const RE2::Set &set)
{
	uint64_t sum = 0;
	std::vector<int> hits;

	for (size_t i = 0; i < lines.size(); i++) {
		std::string a, b;
		int n = 0;

		if (RE2::PartialMatch(lines[i], *re[0], &a, &b))
			sum += a.size() * 7 + b[0];
		if (RE2::PartialMatch(lines[i], *re[1], &n, &a))
			sum += (uint64_t)n + a.size();
		if (RE2::PartialMatch(lines[i], *re[2], &a, &b))
			sum += b.size();
		if (RE2::PartialMatch(lines[i], *re[3], &n))
			sum += (uint64_t)n;
		if (RE2::PartialMatch(lines[i], *re[4], &a, &b))
			sum += a.size() ^ b.size();
		if (RE2::FullMatch(lines[i], *re[5], &a, &b))
			sum += a.size() + b.size();
		if (i % 16 == 0) {
			std::string t = lines[i];

			sum += (uint64_t)RE2::GlobalReplace(&t, *re[1], "worker-\\1 req");
		}
		hits.clear();
		if (set.Match(lines[i], &hits))
			sum += hits.size();
	}
	return sum;
}

int main(int argc, char **argv)
{
	static const char *const lvl[] = {"info", "WARN", "error", "Warning", "debug"};
	static const char *const verb[] = {"GET", "POST", "PUT"};
	static const char *const dom[] = {"com", "org", "net", "io"};
	long n = argc > 1 ? std::atol(argv[1]) : 60;
	RE2::Set set(RE2::DefaultOptions, RE2::UNANCHORED);
	std::vector<std::string> lines;
	struct timespec t0, t1, c0, c1;
	RE2 *re[NPAT];
	uint64_t check = 0;

	for (int i = 0; i < NPAT; i++) {
		re[i] = new RE2(patterns[i]);
		if (!re[i]->ok() || set.Add(patterns[i], nullptr) < 0) {
			std::fprintf(stderr, "driver: pattern %d: %s\n", i, re[i]->error().c_str());
			return 1;
		}
	}
	if (!set.Compile())
		return 1;
	for (int i = 0; i < 300; i++) {
		char b[256];

		if (i % 3 == 0)
			std::snprintf(b, sizeof(b), "10.0.%u.%u - %s /api/v%u/items?id=%u HTTP/1.1",
				      (unsigned)(next() % 256), (unsigned)(next() % 256),
				      verb[next() % 3], (unsigned)(next() % 3),
				      (unsigned)(next() % 100000));
		else
			std::snprintf(b, sizeof(b),
				      "2026-%02u-%02uT%02u:%02u:07 worker-%u request %llx %s: disk "
				      "%u full; took %u.%u %s user=%c%c%c@example.%s",
				      (unsigned)(1 + next() % 12), (unsigned)(1 + next() % 28),
				      (unsigned)(next() % 24), (unsigned)(next() % 60),
				      (unsigned)(next() % 64),
				      (unsigned long long)(next() % 0xffffff), lvl[next() % 5],
				      (unsigned)(next() % 8), (unsigned)(next() % 5000),
				      (unsigned)(next() % 10), next() % 2 ? "us" : "ms",
				      (char)('a' + next() % 26), (char)('a' + next() % 26),
				      (char)('a' + next() % 26), dom[next() % 4]);
		lines.push_back(b);
	}

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long r = 0; r < n; r++)
		check = check * 31 + match_batch(lines, re, set);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	for (int i = 0; i < NPAT; i++)
		delete re[i];
	std::printf("ns %lld\ncpu_ns %lld\ncheck %016llx\n",
		    (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)),
		    (long long)((c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec)),
		    (unsigned long long)check);
	return 0;
}
