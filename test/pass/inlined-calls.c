// Calls made by inlined code are call sites of the function they were
// inlined into: each is listed right after the inlined call it came
// through (via=K), at its own file:line:col, and timed.  One level (pad's
// two calls of transform, update's one: the same callee through two inlined
// paths, each a place of its own), two levels (a1 inlines b2, whose call of
// ext2 lands in host) and three (b2 inlines c3, whose calls of ext3 land in
// host).  A call inlined into two hosts is listed in both.  Armed, a call of
// inlined code counts its executions exactly, in the host's armed clone
// (small functions) and through sleds (an executable's code).
// REQUIRES: pinpoint-runtime
// RUN: %ppcc -O2 -g %s %runtime -lpthread -lm -o %t
// RUN: %dump %t | %FileCheck --check-prefix=TABLE %s
// RUN: rm -f %t.res %t.res.* && env "PINPOINT=out=%t.res;entry=host;range=host:1-1;range=host:3-3;range=host:4-4;range=host:10-10;range=host:2-4;range=other:1-1" %t 5
// RUN: %FileCheck %s < %t.res
// RUN: rm -f %t.res2 %t.res2.* && env "PINPOINT=out=%t.res2;entry=host;range=host:4-4" %t 2
// RUN: %FileCheck --check-prefix=LOW %s < %t.res2
// Without debug info nothing tells where inlined code came from: only the
// source calls are listed.
// RUN: %ppcc -O2 -c %s -o %t.nodebug.o
// RUN: %dump %t.nodebug.o | %FileCheck --check-prefix=NODEBUG %s
// The layers tool shows each call of inlined code under the call it came
// through.
// RUN: %pp-layers --entry host --depth 0 %t | %FileCheck --check-prefix=LAYERS %s
#include <stdlib.h>

static volatile int state;

__attribute__((noinline)) void transform(int x)
{
	state += x;
}

__attribute__((noinline)) void ext1(int x)
{
	state ^= x;
}

__attribute__((noinline)) void ext2(int x)
{
	state -= x;
}

__attribute__((noinline)) void ext3(int x)
{
	state |= x;
}

static inline void c3(int x) { ext3(x); ext3(x + 1); }
static inline void b2(int x) { ext2(x); c3(x * 2); }
static inline void a1(int x) { b2(x + 1); ext1(x); }

static inline void update(int x) { transform(x); }
static inline void pad(int x)
{
	transform(x);
	if (x > 3)
		transform(x + 1);
}

__attribute__((noinline)) void host(int x)
{
	update(x);
	pad(x);
	a1(x);
	ext1(x);
}

__attribute__((noinline)) void other(int x)
{
	pad(x + 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 0; i < 1000; i++) {
		host(n);
		other(n);
	}
	return 0;
}

// TABLE:      fn host {{.*}}line=60 linkage=external calls=13 emitted
// TABLE-NEXT:   call 0 direct update {{.*}}inlined-calls.c:62:2 inlined
// TABLE-NEXT:   call 1 direct transform {{.*}}inlined-calls.c:52:36 via=0 timed
// TABLE-NEXT:   call 2 direct pad {{.*}}inlined-calls.c:63:2 inlined
// TABLE-NEXT:   call 3 direct transform {{.*}}inlined-calls.c:55:2 via=2 timed
// TABLE-NEXT:   call 4 direct transform {{.*}}inlined-calls.c:57:3 via=2 timed
// TABLE-NEXT:   call 5 direct a1 {{.*}}inlined-calls.c:64:2 inlined
// TABLE-NEXT:   call 6 direct b2 {{.*}}inlined-calls.c:50:32 via=5 inlined
// TABLE-NEXT:   call 7 direct ext2 {{.*}}inlined-calls.c:49:32 via=6 timed
// TABLE-NEXT:   call 8 direct c3 {{.*}}inlined-calls.c:49:41 via=6 inlined
// TABLE-NEXT:   call 9 direct ext3 {{.*}}inlined-calls.c:48:32 via=8 timed
// TABLE-NEXT:   call 10 direct ext3 {{.*}}inlined-calls.c:48:41 via=8 timed
// TABLE-NEXT:   call 11 direct ext1 {{.*}}inlined-calls.c:50:43 via=5 timed
// TABLE-NEXT:   call 12 direct ext1 {{.*}}inlined-calls.c:65:2 timed
// TABLE:      fn other {{.*}}line=68 linkage=external calls=3 emitted
// TABLE-NEXT:   call 0 direct pad {{.*}}inlined-calls.c:70:2 inlined
// TABLE-NEXT:   call 1 direct transform {{.*}}inlined-calls.c:55:2 via=0 timed
// TABLE-NEXT:   call 2 direct transform {{.*}}inlined-calls.c:57:3 via=0 timed

// CHECK: slot 0 entry host found=1 total_ns={{[0-9]+}} count=1000{{$| }}
// CHECK: slot 1 range host:1-1 found=1 total_ns={{[0-9]+}} count=1000{{$| }}
// CHECK: slot 2 range host:3-3 found=1 total_ns={{[0-9]+}} count=1000{{$| }}
// CHECK: slot 3 range host:4-4 found=1 total_ns={{[0-9]+}} count=1000{{$| }}
// CHECK: slot 4 range host:10-10 found=1 total_ns={{[0-9]+}} count=1000{{$| }}
// A range over pad and its calls: the two calls of transform, 2000 in all.
// CHECK: slot 5 range host:2-4 found=1 total_ns={{[0-9]+}} count=2000{{$| }}
// CHECK: slot 6 range other:1-1 found=1 total_ns={{[0-9]+}} count=1000{{$| }}

// With x <= 3, pad's second call of transform is not made.
// LOW: slot 1 range host:4-4 found=1 total_ns=0 count=0{{$| }}

// NODEBUG:      fn host {{.*}} calls=4 emitted
// NODEBUG-NEXT:   call 0 direct update - unknown
// NODEBUG-NEXT:   call 1 direct pad - unknown
// NODEBUG-NEXT:   call 2 direct a1 - unknown
// NODEBUG-NEXT:   call 3 direct ext1 - timed

// LAYERS:      host ({{.*}}inlined-calls.c:60)
// LAYERS-NEXT:       0  update  {{.*}}inlined-calls.c:62:2  inlined
// LAYERS-NEXT:       1    transform  {{.*}}inlined-calls.c:52:36{{$}}
// LAYERS-NEXT:       2  pad  {{.*}}inlined-calls.c:63:2  inlined
// LAYERS-NEXT:       3    transform  {{.*}}inlined-calls.c:55:2{{$}}
// LAYERS-NEXT:       4    transform  {{.*}}inlined-calls.c:57:3{{$}}
// LAYERS-NEXT:       5  a1  {{.*}}inlined-calls.c:64:2  inlined
// LAYERS-NEXT:       6    b2  {{.*}}inlined-calls.c:50:32  inlined
// LAYERS-NEXT:       7      ext2  {{.*}}inlined-calls.c:49:32{{$}}
// LAYERS-NEXT:       8      c3  {{.*}}inlined-calls.c:49:41  inlined
// LAYERS-NEXT:       9        ext3  {{.*}}inlined-calls.c:48:32{{$}}
// LAYERS-NEXT:       10        ext3  {{.*}}inlined-calls.c:48:41{{$}}
// LAYERS-NEXT:       11    ext1  {{.*}}inlined-calls.c:50:43{{$}}
// LAYERS-NEXT:       12  ext1  {{.*}}inlined-calls.c:65:2{{$}}

// The same with the checks and armed copies of -fPIC code, and with load
// checks and no clones (the probes in host's own body).
// RUN: %ppcc -O2 -g -fPIC %s %runtime -lpthread -lm -o %t.pic
// RUN: rm -f %t.res3 %t.res3.* && env "PINPOINT=out=%t.res3;entry=host;range=host:1-1;range=host:3-3;range=host:4-4;range=host:10-10;range=host:2-4;range=other:1-1" %t.pic 5
// RUN: %FileCheck %s < %t.res3
// RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_JUMPS=0 %ppcc -O2 -g %s %runtime -lpthread -lm -o %t.load
// RUN: rm -f %t.res4 %t.res4.* && env "PINPOINT=out=%t.res4;entry=host;range=host:1-1;range=host:3-3;range=host:4-4;range=host:10-10;range=host:2-4;range=other:1-1" %t.load 5
// RUN: %FileCheck %s < %t.res4
// In JSON (one line), "via" is the index of the call a call came through.
// RUN: %pp-layers --json --entry host --depth 0 %t | %FileCheck --check-prefix=JSON %s
// JSON: {"index": 8, "callee": "c3", {{[^}]*}}"fate": "inlined", "via": 6,
// JSON-SAME: {"index": 9, "callee": "ext3", {{[^}]*}}"fate": "timed", "via": 8,
// JSON-SAME: {"index": 10, "callee": "ext3", {{[^}]*}}"fate": "timed", "via": 8,
// JSON-SAME: {"index": 11, "callee": "ext1", {{[^}]*}}"fate": "timed", "via": 5,
// JSON-SAME: {"index": 12, "callee": "ext1", {{[^}]*}}"fate": "timed", "via": null,
