// An instrumented program linked with pinpoint's runtime: without PINPOINT
// it writes nothing; armed through PINPOINT it measures the entry, another
// function and a range of calls, and writes the results file.
// REQUIRES: pinpoint-runtime
// RUN: %ppcc -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: rm -f %t.res %t.res.* %t.O0.res %t.O0.res.*
// RUN: %t
// RUN: %not ls %t.res
// RUN: env "PINPOINT=out=%t.res;entry=main;fn=work;range=main:0-1" %t
// RUN: %FileCheck %s < %t.res
// RUN: %ppcc -O0 -g %s %runtime -lpthread -lm -o %t.O0
// RUN: env "PINPOINT=out=%t.O0.res;entry=main;fn=work;range=main:0-1" %t.O0
// RUN: %FileCheck %s < %t.O0.res

__attribute__((noinline)) int work(int n)
{
	volatile int s = 0;

	for (int i = 0; i < n * 1000; i++)
		s += i;
	return s;
}

int main(void)
{
	int r = work(1);

	r += work(2);
	r += work(3);
	return r > 0 ? 0 : 1;
}

// CHECK:      pinpoint-results 1
// CHECK:      overhead plain_ns={{[0-9]+\.[0-9][0-9]}} clock_ns={{[0-9]+\.[0-9][0-9]}} bias_ns={{[0-9]+\.[0-9][0-9]}} calib_ns={{[0-9]+}}
// CHECK:      slot 0 entry main found=1 total_ns={{[0-9]+}} count=1 probes_ns={{[0-9]+$}}
// CHECK:      slot 1 fn work found=1 total_ns={{[0-9]+}} count=3 calls_ns=0 probes_ns={{[0-9]+}} calls_probes_ns=0
// CHECK:      slot 2 range main:0-1 found=1 total_ns={{[0-9]+}} count=2 probes_ns={{[0-9]+$}}
// CHECK:      {{^}}end{{$}}
