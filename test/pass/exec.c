// Runs an instrumented program against a tracing stand-in for the runtime:
// unarmed probes report nothing; armed, every probe reports in program order
// with its record and site.  At -O0 every call is probed.  At -O2 the probes
// are planted after inlining: mid() and leaf() are inlined into main, so
// main's calls have no probes (fate inlined) and their time is main's body;
// leaf() is not emitted at all, and only the probes of main's body remain.
// RUN: %clang -O2 -c -I %ppinc %trace-rt -o %t.rt.o
// RUN: %ppcc -O0 -g %s %t.rt.o -o %t.O0
// RUN: %ppcc -O2 -g %s %t.rt.o -o %t.O2
// RUN: %t.O0 | %FileCheck --check-prefixes=UNARMED,UNARMED-O0 %s
// RUN: %t.O2 | %FileCheck --check-prefixes=UNARMED,UNARMED-O2 %s
// RUN: env PP_TRACE_ARM=1 %t.O0 | %FileCheck --check-prefix=ARMED %s
// RUN: env PP_TRACE_ARM=1 %t.O2 | %FileCheck --check-prefix=ARMED-O2 %s
// RUN: env PP_TRACE_LIST=1 %t.O2 | %FileCheck --check-prefix=LIST %s
// RUN: %dump %t.O2 | %FileCheck --check-prefix=TABLE-O2 %s

static int leaf(int x)
{
	return x + 1;
}

int mid(int x)
{
	if (x > 100)
		return 0;
	return leaf(x) * 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	int r = mid(argc);
	return mid(r) == 10 ? 0 : 1;
}

// UNARMED-O0: register 3
// UNARMED-O2: register 2
// UNARMED-NOT: {{.}}

// ARMED:      register 3
// ARMED-NEXT: enter main 0
// ARMED-NEXT: enter main 1
// ARMED-NEXT: enter mid 0
// ARMED-NEXT: enter mid 1
// ARMED-NEXT: enter leaf 0
// ARMED-NEXT: exit leaf 0
// ARMED-NEXT: exit mid 1
// ARMED-NEXT: exit mid 0
// ARMED-NEXT: exit main 1
// ARMED-NEXT: enter main 2
// ARMED-NEXT: enter mid 0
// ARMED-NEXT: enter mid 1
// ARMED-NEXT: enter leaf 0
// ARMED-NEXT: exit leaf 0
// ARMED-NEXT: exit mid 1
// ARMED-NEXT: exit mid 0
// ARMED-NEXT: exit main 2
// ARMED-NEXT: exit main 0
// ARMED-EMPTY:

// ARMED-O2:      register 2
// ARMED-O2-NEXT: enter main 0
// ARMED-O2-NEXT: exit main 0
// ARMED-O2-EMPTY:

// One record per emitted function (in no particular order), naming the
// table's strings; leaf() has none at -O2.
// LIST:     register 2
// LIST-DAG: record mid {{.*}}exec.c ncalls=1 armed=0 flags=yes
// LIST-DAG: record main {{.*}}exec.c ncalls=2 armed=0 flags=yes
// LIST-NOT: record leaf

// The table keeps the source's call lists, with what became of each call.
// TABLE-O2-DAG: fn mid {{.*}} calls=1 emitted
// TABLE-O2-DAG: fn leaf {{.*}} calls=0 not-emitted
// TABLE-O2-DAG: fn main {{.*}} calls=2 emitted
// TABLE-O2-DAG: call 0 direct mid {{.*}}exec.c:32:10 inlined
// TABLE-O2-DAG: call 1 direct mid {{.*}}exec.c:33:9 inlined
