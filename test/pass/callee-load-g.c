// With -g, debug intrinsics sit between an indirect call and the load of
// its target (LLVM 14 to 18): they do not keep the load before the check
// of the call, which an indirect call always has, with an armed copy that
// passes the target (abi.h, 5.; callee-load.ll has the rules).  The
// unarmed call in the loop reads its target from memory itself, as the
// plain build's does.
// REQUIRES: x86_64
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O2 -g -fno-discard-value-names -S -emit-llvm %s -o - | %FileCheck %s
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -fPIC -O2 -g -fno-discard-value-names -S -emit-llvm %s -o - | %FileCheck --check-prefix=PIC %s
// RUN: %clang -O2 -g -S %s -o - | %FileCheck --check-prefix=ASM %s
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O2 -g -S %s -o - | %FileCheck --check-prefix=ASM %s

struct ops {
	int (*cb)(void *);
	int (*other)(void *);
};

int run(struct ops *o, void *arg, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += o->cb(arg);
	return s;
}

// CHECK-LABEL: define {{.*}}i32 @run(
// CHECK:         call void asm sideeffect "{{.*}}__pinpoint_target_r11
// CHECK-NEXT:    call void asm sideeffect "{{.*}}__pinpoint_enter_r11
// CHECK-NEXT:    %call.armed = {{(tail )?}}call i32 %{{[0-9]+}}(
// CHECK-NEXT:    call void asm sideeffect "{{.*}}__pinpoint_exit_r11
// CHECK:       pinpoint.call:
// CHECK-NEXT:    [[FN:%[0-9]+]] = load {{.*}}%{{cb|o}}, {{.*}}!dbg
// CHECK-NEXT:    %call.unarmed = {{(tail )?}}call i32 [[FN]](

// PIC-LABEL: define {{.*}}i32 @run(
// PIC:       pinpoint.call:
// PIC-NEXT:    [[FN:%[0-9]+]] = load {{.*}}%{{cb|o}}, {{.*}}!dbg
// PIC-NEXT:    %call.unarmed = {{(tail )?}}call i32 [[FN]](

// ASM-LABEL: run{{(.pinpoint.body)?}}:
// ASM:         {{callq|call}} *(%
