// SPDX-License-Identifier: MIT
/*
 * exceptions.cpp - end-to-end: an exception leaves an armed function; the
 * runtime must recover its counters.  thrower() runs four times from the
 * same place, the first time throwing.
 */
#include <cstdio>
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

int main()
{
	std::printf("pid %d\n", (int)getpid());
	std::fflush(stdout);
	for (int i = 0; i < 4; i++)
		call(i == 0);
	return 0;
}
