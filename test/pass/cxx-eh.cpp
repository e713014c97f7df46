// C++ with exceptions: invokes are calls of kind invoke, their exit probe is
// on the normal edge, landing pads and resume get no probe, and the module
// verifies at -O0 and -O2.  Running it, a throwing call reports its enter
// but no exit (the exception leaves it), and the program still works.  use()
// and ~Guard are noinline with an effect, so that at -O2 they are called,
// and probed, as at -O0 (the IR-O2 checks below).
// RUN: %ppcxx -O0 -g -S -emit-llvm %s -o %t.O0.ll
// RUN: %ppcxx -O2 -g -S -emit-llvm %s -o %t.O2.ll
// RUN: %opt -passes=verify -disable-output %t.O0.ll
// RUN: %opt -passes=verify -disable-output %t.O2.ll
// RUN: %FileCheck --check-prefix=IR %s < %t.O0.ll
// RUN: %FileCheck --check-prefix=IR-O2 %s < %t.O2.ll
// RUN: %ppcxx -O0 -g -c %s -o %t.o
// RUN: %dump %t.o | %FileCheck --check-prefix=TABLE %s
// RUN: %clang -O2 -c -I %ppinc %trace-rt -o %t.rt.o
// RUN: %ppcxx -O0 -g %s %t.rt.o -o %t.O0
// RUN: %ppcxx -O2 -g %s %t.rt.o -o %t.O2
// RUN: env PP_TRACE_ARM=1 %t.O0 | %FileCheck --check-prefix=EXEC %s
// RUN: env PP_TRACE_ARM=1 %t.O2 | %FileCheck --check-prefix=EXEC %s

struct Guard {
	__attribute__((noinline)) ~Guard();
};
volatile int sink; Guard::~Guard()
{ sink = 1;
}

__attribute__((noinline)) int may_throw(int x)
{
	if (x < 0)
		throw x;
	return x;
}

__attribute__((noinline)) int use(int x)
{
	Guard g;
	try {
		return may_throw(x);
	} catch (int e) {
		return e - 1;
	}
}

int main()
{
	return use(-5) == -6 && use(3) == 3 ? 0 : 1;
}

// TABLE: fn _Z3usei {{.*}} line=35 linkage=external calls=5
// TABLE-NEXT: call 0 invoke _Z9may_throwi {{.*}}cxx-eh.cpp:39:10
// TABLE-NEXT: call 1 direct __cxa_begin_catch {{.*}}cxx-eh.cpp:40:2
// TABLE-NEXT: call 2 direct __cxa_end_catch {{.*}}cxx-eh.cpp:42:2
// TABLE-NEXT: call 3 direct _ZN5GuardD1Ev {{.*}}cxx-eh.cpp:43:1
// TABLE-NEXT: call 4 direct _ZN5GuardD1Ev {{.*}}cxx-eh.cpp:43:1

// At -O2 the invoke survives with its probes, the exit on the normal edge.
// IR-O2-LABEL: define {{.*}} @_Z3usei(
// IR-O2:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn__Z3usei{{.*}}, i32 1)
// IR-O2-NEXT:    br label %[[K:[0-9]+]]
// IR-O2:       [[K]]:
// IR-O2-NEXT:    invoke {{.*}} @_Z9may_throwi(
// IR-O2-NEXT:            to label %[[EDGE:[^ ]+]] unwind label %[[LP:[^ ,]+]]
// IR-O2:       [[EDGE]]:
// IR-O2-NEXT:    {{load i8|callbr void asm sideeffect}} {{.*}}@__pinpoint_flags__Z3usei, i32 0, i32 1)
// IR-O2:         call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}@__pinpoint_fn__Z3usei{{.*}}, i32 1)

// IR-LABEL: define {{.*}} @_Z3usei(
// IR:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn__Z3usei{{.*}}, i32 1)
// IR:         invoke {{.*}} @_Z9may_throwi(
// IR-NEXT:            to label %[[EDGE:[^ ]+]] unwind label %[[LP:[^ ,]+]]
// IR:       [[EDGE]]:
// IR-NEXT:    {{load i8|callbr void asm sideeffect}} {{.*}}@__pinpoint_flags__Z3usei, i32 0, i32 1)
// IR:         call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}@__pinpoint_fn__Z3usei{{.*}}, i32 1)
// IR:       [[LP]]:
// IR-NEXT:    landingpad
// IR:         call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 0)
// IR-NEXT:    br label
// IR-EMPTY:
// IR-NEXT:  {{.*}}:
// IR-NEXT:    ret i32
// IR-NOT:     call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 0)
// IR:         resume
// IR-NEXT:  {{^}}}

// The thrown call (__cxa_throw, may_throw's call 1) and may_throw itself
// report their enter but no exit: the exception leaves them.  Everything
// else pairs up; ~Guard is D2, called through its D1 alias.
// EXEC:      register 4
// EXEC-NEXT: enter main 0
// EXEC-NEXT: enter main 1
// EXEC-NEXT: enter _Z3usei 0
// EXEC-NEXT: enter _Z3usei 1
// EXEC-NEXT: enter _Z9may_throwi 0
// EXEC-NEXT: enter _Z9may_throwi 1
// EXEC-NEXT: exit _Z9may_throwi 1
// EXEC-NEXT: enter _Z9may_throwi 2
// EXEC-NEXT: enter _Z3usei 2
// EXEC-NEXT: exit _Z3usei 2
// EXEC-NEXT: enter _Z3usei 3
// EXEC-NEXT: exit _Z3usei 3
// EXEC-NEXT: enter _Z3usei 4
// EXEC-NEXT: enter _ZN5GuardD2Ev 0
// EXEC-NEXT: exit _ZN5GuardD2Ev 0
// EXEC-NEXT: exit _Z3usei 4
// EXEC-NEXT: exit _Z3usei 0
// EXEC-NEXT: exit main 1
// EXEC-NEXT: enter main 2
// EXEC-NEXT: enter _Z3usei 0
// EXEC-NEXT: enter _Z3usei 1
// EXEC-NEXT: enter _Z9may_throwi 0
// EXEC-NEXT: exit _Z9may_throwi 0
// EXEC-NEXT: exit _Z3usei 1
// EXEC-NEXT: enter _Z3usei 4
// EXEC-NEXT: enter _ZN5GuardD2Ev 0
// EXEC-NEXT: exit _ZN5GuardD2Ev 0
// EXEC-NEXT: exit _Z3usei 4
// EXEC-NEXT: exit _Z3usei 0
// EXEC-NEXT: exit main 2
// EXEC-NEXT: exit main 0
// EXEC-EMPTY:
