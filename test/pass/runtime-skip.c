// Functions named __pinpoint_* (the runtime's) are never instrumented, and
// a module with nothing else to instrument gets no table, no records and
// no constructor at all.
// RUN: %ppcc -O2 -c -DWITH_USER %s -o %t.user.o
// RUN: %dump %t.user.o | %FileCheck %s
// RUN: %ppcc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// RUN: %ppcc -O2 -c %s -o %t.o
// RUN: %not %dump %t.o 2>&1 | %FileCheck --check-prefix=NOTABLE %s

int ext(int);

void __pinpoint_enter(void *fn, unsigned site)
{
	ext(site);
	(void)fn;
}

int __pinpoint_helper(int x)
{
	return ext(x);
}

#ifdef WITH_USER
int user(int x)
{
	return __pinpoint_helper(x) + ext(x);
}
#endif

// CHECK:      blob {{.*}} funcs=1 calls=1
// CHECK-NEXT: fn user {{.*}} calls=1
// CHECK-NEXT:   call 0 direct ext -
// CHECK-EMPTY:

// IR-NOT: pinpoint_table
// IR-NOT: pinpoint_fns
// IR-NOT: llvm.global_ctors
// IR-NOT: __pinpoint_module_init
// IR-NOT: __pinpoint_exit

// NOTABLE: pp-table-dump: {{.*}}: no pinpoint_table section
