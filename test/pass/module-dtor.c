// The module destructor: __pinpoint_module_fini hands the module's static
// branches to __pinpoint_unregister_jumps and its records to
// __pinpoint_unregister, from llvm.global_dtors, after the program's own
// destructors (which stay in the array), once per link unit.
// RUN: %ppcc -O0 -g -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// RUN: %clang -O2 -c -I %ppinc %trace-rt -o %t.rt.o
// RUN: %ppcc -O2 -g %s %t.rt.o -o %t
// RUN: env PP_TRACE_UNREGISTER=1 %t | %FileCheck --check-prefix=EXEC %s

// IR: @llvm.global_dtors = appending global [2 x {{.*}}] [{{.*}} i32 65535, {{.*}}@user_dtor{{.*}}, {{.*}} i32 1, {{.*}}@__pinpoint_module_fini{{.*}}@__pinpoint_module_fini
// IR: define linkonce_odr hidden void @__pinpoint_module_fini() {{.*}}comdat
// IR-NEXT: call void @__pinpoint_unregister_addrs({{.*}}@__start_pinpoint_addrs{{.*}}@__stop_pinpoint_addrs
// IR-NEXT: call void @__pinpoint_unregister_jumps({{.*}}@__start_pinpoint_jumps{{.*}}@__stop_pinpoint_jumps
// IR-NEXT: call void @__pinpoint_unregister({{.*}}@__start_pinpoint_fns{{.*}}@__stop_pinpoint_fns

// EXEC: main
// EXEC-NEXT: user_dtor
// EXEC-NEXT: unregister 2
// EXEC-NOT: unregister

#include <stdio.h>

__attribute__((destructor)) static void user_dtor(void)
{
	printf("user_dtor\n");
	fflush(stdout);
}

int main(void)
{
	printf("main\n");
	fflush(stdout);
	return 0;
}
