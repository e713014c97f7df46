// Arming a timed call in a hot loop of an -O2 build is exact in counts: a
// loop calling a noinline function N times gives count N for the range of
// that call and for the function.  The call of a helper inlined into the
// same loop has no probes: armed, its range matches the function but never
// executes (count 0).
// REQUIRES: pinpoint-runtime
// RUN: %ppcc -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: %dump %t | %FileCheck --check-prefix=TABLE %s
// RUN: rm -f %t.res %t.res.* && env "PINPOINT=out=%t.res;entry=main;fn=work;range=main:0-0;range=main:1-1" %t
// RUN: %FileCheck %s < %t.res

static volatile int sink;

__attribute__((noinline)) int work(int i)
{
	sink = i;
	return i & 7;
}

static int small(int i)
{
	return i * 5 + 1;
}

int main(int argc, char **argv)
{
	int n = 100000 * argc;
	int acc = 0;

	(void)argv;

	for (int i = 0; i < n; i++)
		acc += work(i) + small(i);
	return acc == 42;
}

// TABLE:      fn main {{.*}} calls=2 emitted
// TABLE-NEXT:   call 0 direct work {{.*}}exec-count.c:33:10 timed
// TABLE-NEXT:   call 1 direct small {{.*}}exec-count.c:33:20 {{inlined|removed}}

// CHECK: slot 0 entry main found=1 total_ns={{[0-9]+}} count=1
// CHECK: slot 1 fn work found=1 total_ns={{[0-9]+}} count=100000{{$| }}
// CHECK: slot 2 range main:0-0 found=1 total_ns={{[0-9]+}} count=100000{{$| }}
// CHECK: slot 3 range main:1-1 found=1 total_ns=0 count=0{{$| }}
