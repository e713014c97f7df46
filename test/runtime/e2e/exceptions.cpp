// SPDX-License-Identifier: MIT
/*
 * exceptions.cpp - end-to-end: an exception leaves an armed function; the
 * runtime must recover its counters.  thrower() runs four times from the
 * same place, the first time throwing.  With the argument "deep", it throws
 * once called from main's frame, then runs five times from deeper frames.
 */
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void fail(bool really)
{
	if (really)
		throw std::runtime_error("boom");
	sink++;
}

__attribute__((noinline)) void thrower(bool really)
{
	sink++;
	fail(really);
	sink++;
}

__attribute__((noinline)) static void call(bool really)
{
	try {
		thrower(really);
	} catch (const std::exception &) {
		sink++;
	}
}

__attribute__((noinline)) static void deeper(int d)
{
	volatile char pad[256];

	pad[0] = (char)d;
	if (d)
		deeper(d - 1);
	else
		thrower(false);
	pad[1] = pad[0];
}

int main(int argc, char **argv)
{
	std::printf("pid %d\n", (int)getpid());
	std::fflush(stdout);
	if (argc > 1 && !std::strcmp(argv[1], "deep")) {
		try {
			thrower(true);
		} catch (const std::exception &) {
			sink++;
		}
		for (int i = 0; i < 5; i++)
			deeper(2);
		return 0;
	}
	for (int i = 0; i < 4; i++)
		call(i == 0);
	return 0;
}
