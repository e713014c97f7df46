// A function that takes a struct by value (a byval parameter) runs armed
// and unarmed with the plain build's results, and its counts are exact.
// LLVM 14 to 19 lower a musttail call that forwards a byval argument on
// x86-64 by copying the argument over the return address: the small
// function's dispatch to its armed clone uses a plain call for it
// (dispatch.c), and a larger one keeps its body probes in its body instead
// of a stub (stub.c).  Armed through a musttail call, `take` crashed.
// REQUIRES: pinpoint-runtime
// RUN: %clang -O2 %s -o %t.plain
// RUN: %t.plain > %t.plain.out
// RUN: %ppcc -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: %t > %t.unarmed.out
// RUN: diff %t.plain.out %t.unarmed.out
// RUN: rm -f %t.res %t.res.* && env "PINPOINT=out=%t.res;entry=main;fn=take;fn=loop;range=loop:0-0" %t > %t.armed.out
// RUN: diff %t.plain.out %t.armed.out
// RUN: %FileCheck %s < %t.res

#include <stdio.h>

struct in {
	void *a, *b;
	int c;
	long d;
};

static volatile int sink;

__attribute__((noinline)) int take(int x, struct in s)
{
	sink = x;
	return s.c + (int)s.d + x;
}

__attribute__((noinline)) int loop(int n, struct in s)
{
	int r = 0;

	for (int i = 0; i < n; i++) {
		sink = i;
		r += take(i, s);
	}
	return r;
}

int main(int argc, char **argv)
{
	struct in s = {0, 0, 3, 4};
	long acc = 0;

	(void)argv;
	for (int i = 0; i < 1000 * argc; i++)
		acc += take(i, s) + loop(3, s);
	printf("%ld\n", acc);
	return 0;
}

// CHECK: slot 0 entry main found=1 total_ns={{[0-9]+}} count=1
// CHECK: slot 1 fn take found=1 total_ns={{[0-9]+}} count=4000{{$| }}
// CHECK: slot 2 fn loop found=1 total_ns={{[0-9]+}} count=1000{{$| }}
// CHECK: slot 3 range loop:0-0 found=1 total_ns={{[0-9]+}} count=3000{{$| }}
