// Runs an instrumented program against a tracing stand-in for the runtime:
// unarmed probes report nothing; armed, every probe reports in program order
// with its record and site, at -O0 and at -O2 (where leaf() and mid() are
// inlined, and their probes with them).
// RUN: %clang -O2 -c -I %ppinc %trace-rt -o %t.rt.o
// RUN: %ppcc -O0 -g %s %t.rt.o -o %t.O0
// RUN: %ppcc -O2 -g %s %t.rt.o -o %t.O2
// RUN: %t.O0 | %FileCheck --check-prefix=UNARMED %s
// RUN: %t.O2 | %FileCheck --check-prefix=UNARMED %s
// RUN: env PP_TRACE_ARM=1 %t.O0 > %t.O0.out
// RUN: env PP_TRACE_ARM=1 %t.O2 > %t.O2.out
// RUN: %FileCheck --check-prefix=ARMED %s < %t.O0.out
// RUN: diff %t.O0.out %t.O2.out
// RUN: env PP_TRACE_LIST=1 %t.O2 | %FileCheck --check-prefix=LIST %s

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

// UNARMED: register 3
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

// One record per function (in no particular order), naming the table's
// strings.
// LIST:     register 3
// LIST-DAG: record mid {{.*}}exec.c ncalls=1 armed=0 flags=yes
// LIST-DAG: record main {{.*}}exec.c ncalls=2 armed=0 flags=yes
// LIST-DAG: record leaf {{.*}}exec.c ncalls=0 armed=0 flags=yes
