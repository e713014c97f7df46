// An indirect call tells the runtime where it goes (abi.h, 5.): its armed
// path passes the pointer it calls to __pinpoint_target before the enter
// probe, and every instrumented function has its record and address in
// section pinpoint_addrs, which the module constructor registers.  The
// tracing runtime names each target by the record whose function has its
// address, or "?" outside the instrumented functions (strlen here).
// RUN: %clang -O2 -c -I %ppinc %trace-rt -o %t.rt.o
// RUN: %ppcc -O2 -g -fno-inline %s %t.rt.o -o %t.O2
// RUN: %ppcc -O0 -g %s %t.rt.o -o %t.O0
// RUN: %t.O2 | %FileCheck --check-prefix=UNARMED %s
// RUN: env PP_TRACE_ARM=1 %t.O2 | %FileCheck --check-prefix=ARMED %s
// RUN: env PP_TRACE_ARM=1 %t.O0 | %FileCheck --check-prefix=ARMED %s
// RUN: env PP_TRACE_LIST=1 %t.O2 | %FileCheck --check-prefix=LIST %s
// In the IR, the indirect call has a check and an armed copy (no sleds),
// and its target goes in rax to the r11 entry point before the enter probe
// (apply is small: its probes are in its clone), or to __pinpoint_target
// without the asm probes.
// RUN: %ppcc -O2 -g -fno-inline -S -emit-llvm %s -o - | %FileCheck --check-prefix=IR %s
// RUN: env PINPOINT_PASS_ASM_PROBES=0 %ppcc -O2 -fno-inline -S -emit-llvm %s -o - | %FileCheck --check-prefix=IR-CALL %s
// REQUIRES: x86_64
#include <stdio.h>
#include <string.h>

typedef unsigned long (*op_fn)(const char *);

__attribute__((noinline)) unsigned long twice(const char *s)
{
	return 2 * (unsigned long)s[0];
}

__attribute__((noinline)) unsigned long once(const char *s)
{
	return (unsigned long)s[0];
}

__attribute__((noinline)) unsigned long apply(op_fn f, const char *s)
{
	return f(s);
}

int main(int argc, char **argv)
{
	op_fn ops[3] = {twice, once, strlen};
	unsigned long sum = 0;

	(void)argv;
	for (int i = 0; i < 3; i++)
		sum += apply(ops[(i + argc - 1) % 3], "pinpoint");
	printf("sum %lu\n", sum);
	return 0;
}

// UNARMED-NOT: target
// UNARMED: sum 344

// ARMED: target apply 1 twice
// ARMED: enter apply 1
// ARMED: exit apply 1
// ARMED: target apply 1 once
// ARMED: target apply 1 ?
// ARMED: sum 344

// LIST: addrs 4

// IR-LABEL: define internal i64 @apply.pinpoint(
// IR: call void asm sideeffect "leaq ${0:c}(%rip), %r11\0A\09movl $$${1:c}, %r10d\0A\09movq $2, %rax\0A\09call *__pinpoint_target_r11@GOTPCREL(%rip)", "i,i,r,~{rax},~{r10},~{r11},{{.*}}"({{.*}}@__pinpoint_fn_apply{{.*}}, i32 1, {{i8\*|ptr}} %{{[0-9]+}})
// IR-NEXT: call void asm sideeffect "leaq ${0:c}(%rip), %r11\0A\09movl $$${1:c}, %r10d\0A\09call *__pinpoint_enter_r11
// IR-NEXT: call i64 %0(
// IR-NEXT: call void asm sideeffect "leaq ${0:c}(%rip), %r11\0A\09movl $$${1:c}, %r10d\0A\09call *__pinpoint_exit_r11
// IR: call i64 %0(
// IR: define linkonce_odr hidden void @__pinpoint_module_init()
// IR: call void @__pinpoint_register_addrs({{.*}}@__start_pinpoint_addrs, {{.*}}@__stop_pinpoint_addrs)
// IR: define linkonce_odr hidden void @__pinpoint_module_fini()
// IR-NEXT: call void @__pinpoint_unregister_addrs(

// Each function's record and address, linked to its section.
// RUN: %ppcc -O2 -fno-inline -S -emit-llvm %s -o - | %FileCheck --check-prefix=ADDRS %s
// ADDRS: @__pinpoint_addr_twice = private global { {{i8\*|ptr}}, {{i8\*|ptr}} } { {{.*}}@__pinpoint_fn_twice{{.*}}, {{.*}}@twice{{( to i8\*\))?}} }, section "pinpoint_addrs", align 8, !associated ![[TW:[0-9]+]]
// ADDRS: @__start_pinpoint_addrs = extern_weak hidden global i8
// ADDRS: ![[TW]] = !{{{.*}}@twice}

// IR-CALL-LABEL: define internal i64 @apply.pinpoint(
// IR-CALL: call void @__pinpoint_target({{.*}}@__pinpoint_fn_apply{{.*}}, i32 1, {{i8\*|ptr}} %{{[0-9]+}})
// IR-CALL-NEXT: call preserve_mostcc void @__pinpoint_enter_fast(
