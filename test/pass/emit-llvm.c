// The probes in clang's own output with load checks (PINPOINT_PASS_JUMPS=0,
// and every target but x86-64; static-branch.c has the default): an inline
// byte load, a compare and a branch weighted never taken around each
// armed-only runtime call.  They are
// planted after the whole pipeline, so at -O2 too they are exactly as the
// pass makes them, in the optimised code, and nothing of the pipeline's
// tagging (!pinpoint.site, !pinpoint.table) is left.  On x86-64 the armed
// call goes through a preserve_most thunk, so the unarmed path needs no
// saved registers; the exit probe passes its record one byte too far (an
// address of its own, not kept in a register across the call), and its
// thunk takes the byte back (the probes around a call are inline asm by
// default, PINPOINT_PASS_ASM_PROBES=0 here; static-branch.cpp has them).
// At -O2, f's body probes are in its stub (stub.c), two
// jumps; -O0 shows them in the body, as in a function that cannot have a
// stub.
// REQUIRES: x86_64
// RUN: env PINPOINT_PASS_ASM_PROBES=0 PINPOINT_PASS_JUMPS=0 PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %ppcc -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: env PINPOINT_PASS_ASM_PROBES=0 PINPOINT_PASS_JUMPS=0 PINPOINT_PASS_CLONE=0 %ppcc -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: %FileCheck --check-prefix=O0 %s < %t.O0.ll
// RUN: %FileCheck --check-prefix=O2 %s < %t.O2.ll

int ext(int);

int f(int x)
{
	return ext(x) + 1;
}

// O0-LABEL: define {{.*}}i32 @f(
// O0:         [[F:%.*]] = load i8, {{.*}}@__pinpoint_flags_f{{.*}}, align 1
// O0-NEXT:    [[C:%.*]] = icmp ne i8 [[F]], 0
// O0-NEXT:    br i1 [[C]], label %[[A:[^,]+]], label %[[K:[^,]+]], !prof ![[W:[0-9]+]]
// O0-EMPTY:
// O0-NEXT:  [[A]]:
// O0-NEXT:    call preserve_mostcc void @__pinpoint_enter_fast({{.*}}, i32 0)
// O0-NEXT:    br label %[[K]]
// O0:         call i32 @ext(
// O0:         call preserve_mostcc void @__pinpoint_exit_fast({{.*}}getelementptr inbounds (i8, {{.*}}@__pinpoint_fn_f{{.*}}, i{{32|64}} 1), i32 1)
// O0:         call preserve_mostcc void @__pinpoint_exit_fast({{.*}}getelementptr inbounds (i8, {{.*}}@__pinpoint_fn_f{{.*}}, i{{32|64}} 1), i32 0)
// The runtime's preserve_most entry points, called through the GOT (never a lazily bound PLT entry).
// O0:       declare preserve_mostcc void @__pinpoint_enter_fast({{.*}}, i32) #[[D:[0-9]+]]
// O0:       declare preserve_mostcc void @__pinpoint_exit_fast({{.*}}, i32) #[[D]]
// O0-NOT:   define {{.*}}@__pinpoint_{{enter|exit}}_pm
// O0:       attributes #[[D]] = { {{.*}}nonlazybind{{.*}} }
// O0:       ![[W]] = !{!"branch_weights", i32 1, i32 1048575}

// O2-LABEL: define {{.*}}i32 @f(
// O2-NEXT:    [[F0:%.*]] = load i8, {{.*}}@__pinpoint_flags_f{{.*}}, align 1
// O2-NEXT:    [[C0:%.*]] = icmp ne i8 [[F0]], 0
// O2-NEXT:    br i1 [[C0]], label %[[A0:[0-9]+]], label %[[K0:[0-9]+]], !prof ![[W:[0-9]+]]
// O2-EMPTY:
// O2-NEXT:  [[K0]]:
// O2-NEXT:    [[R0:%.*]] = musttail call {{.*}}i32 @f.pinpoint.body(i32 noundef %0)
// O2-NEXT:    ret i32 [[R0]]
// O2-EMPTY:
// O2-NEXT:  [[A0]]:
// O2-NEXT:    [[R1:%.*]] = musttail call {{.*}}i32 @f.pinpoint.timed(i32 noundef %0)
// O2-NEXT:    ret i32 [[R1]]
// O2-NEXT:  }
// O2-LABEL: define internal {{.*}}i32 @f.pinpoint.body(
// O2-NEXT:    load i8, {{.*}}@__pinpoint_flags_f, i32 0, i32 1)
// O2-NOT:     @__pinpoint_{{enter|exit}}_fast({{.*}}, i32 0)
// O2:         call preserve_mostcc void @__pinpoint_exit_fast({{.*}}@__pinpoint_fn_f{{.*}}, i{{32|64}} 1), i32 1)
// O2-NOT:     @__pinpoint_{{enter|exit}}_fast({{.*}}, i32 0)
// O2-LABEL: define internal {{.*}}i32 @f.pinpoint.timed(
// O2-NEXT:    call preserve_mostcc void @__pinpoint_enter_fast({{.*}}@__pinpoint_fn_f{{.*}}, i32 0)
// O2-NEXT:    [[R2:%.*]] = call {{.*}}i32 @f.pinpoint.body(i32 noundef %0)
// O2-NEXT:    call preserve_mostcc void @__pinpoint_exit_fast({{.*}}@__pinpoint_fn_f{{.*}}, i{{32|64}} 1), i32 0)
// O2-NEXT:    ret i32 [[R2]]
// O2:       ![[W]] = !{!"branch_weights", i32 1, i32 1048575}
// O2-NOT:   pinpoint.site
// O2-NOT:   pinpoint.table
