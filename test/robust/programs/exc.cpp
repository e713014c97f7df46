/*
 * exc.cpp - C++ exceptions thrown through instrumented frames: work() calls
 * leaf_slow() then check(), which throws every third time; run() catches.
 * leaf_slow() spins longer in the current revision.
 */
#include <cstdio>
#include <stdexcept>

#include "spin.h"

void leaf_slow()
{
	spin_loop(REV(100000L, 600000L));
}

void check(int i)
{
	if (i % 3 == 0)
		throw std::runtime_error("every third");
}

void work(int i)
{
	leaf_slow();
	check(i);
}

int run()
{
	int caught = 0;

	for (int i = 0; i < 30; i++) {
		try {
			work(i);
		} catch (const std::exception &) {
			caught++;
		}
	}
	return caught;
}

int main()
{
	std::printf("%d\n", run());
	return 0;
}
