// Code inlined at a call through a pointer.  The optimiser resolves the
// pointer (a local, or a constant table walked by an unrolled loop, as
// SQLite's openDatabase walks its built-in extensions) and inlines the
// callee at the indirect call of the source.  The calls of that code came
// through a call the table's rules do not let them name (an indirect one):
// each keeps its entry, timed, and loses only its via, with a remark of the
// pass; every reader reads the whole table.
// RUN: %ppcc -O2 -g -c %s -o %t.o -Rpass=pinpoint 2>&1 | %FileCheck --check-prefix=REMARK %s
// RUN: %dump %t.o | %FileCheck --check-prefix=TABLE %s
// REQUIRES: pinpoint-layers
// RUN: %pp-layers --entry host --depth 0 %t.o 2>&1 | %FileCheck --check-prefix=LAYERS %s
// RUN: %pp-layers --entry extensions --depth 0 %t.o 2>&1 | %FileCheck --check-prefix=EXT %s

// REMARK: remark: 2 calls of inlined code listed without the call they came through: inlined at a call through a pointer [-Rpass=pinpoint]
// REMARK: remark: 2 calls of inlined code listed without the call they came through: inlined at a call through a pointer [-Rpass=pinpoint]

static volatile int state;

__attribute__((noinline)) void ext(int x)
{
	state += x;
}

__attribute__((noinline)) int fault(int x)
{
	return state == x;
}

static void helper(int x)
{
	ext(x);
	ext(x + 1);
}

typedef void (*fp)(int);

__attribute__((noinline)) void host(int x)
{
	fp f = helper;
	f(x);
	ext(x);
}

static int init_a(int x)
{
	return fault(x);
}

static int init_b(int x)
{
	return fault(x + 500);
}

static int (*const builtins[])(int) = {init_a, init_b};

__attribute__((noinline)) int extensions(int x)
{
	int rc = 0;

	for (unsigned i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		rc |= builtins[i](x);
	return rc;
}

// TABLE: fn host {{.*}} calls=4 emitted
// TABLE-NEXT: call 0 indirect - {{.*}}inlined-indirect.c:40:2 inlined
// TABLE-NEXT: call 1 direct ext {{.*}}inlined-indirect.c:31:2 timed
// TABLE-NEXT: call 2 direct ext {{.*}}inlined-indirect.c:32:2 timed
// TABLE-NEXT: call 3 direct ext {{.*}}inlined-indirect.c:41:2 timed
// TABLE: fn extensions
// TABLE-NEXT: call 0 indirect - {{.*}}inlined-indirect.c:61:9 inlined
// TABLE-NEXT: call 1 direct fault {{.*}}inlined-indirect.c:46:9 timed
// TABLE-NEXT: call 2 direct fault {{.*}}inlined-indirect.c:51:9 timed
// TABLE-NOT: via=

// LAYERS-NOT: warning
// LAYERS: host
// LAYERS: ext
// EXT-NOT: warning
// EXT: fault
