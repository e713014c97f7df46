; LLVM 14 in opaque-pointer mode (-opaque-pointers), the default of later
; releases: same probes, same globals, a module that verifies.
; REQUIRES: llvm-14
; RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %opt -opaque-pointers -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -opaque-pointers -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll

declare i32 @g(i8*)

define i32 @f(i8* %p) {
  %r = call i32 bitcast (i32 (i8*)* @g to i32 (i8*)*)(i8* %p)
  ret i32 %r
}

; CHECK: @__pinpoint_fn_f = private global { ptr, ptr, ptr, i32, i32 } { ptr {{.*}}@__pinpoint_flags_f{{.*}}, ptr getelementptr inbounds ([{{[0-9]+}} x i8], ptr @__pinpoint_table, i32 0, i32 {{[0-9]+}}), ptr getelementptr inbounds ({{.*}}), i32 1, i32 0 }, section "pinpoint_fns", align 8
; CHECK-LABEL: define i32 @f(ptr %p) {
; CHECK:         load i8, ptr {{.*}}@__pinpoint_flags_f{{(, i32 0, i32 0\))?}}, align 1
; CHECK:         call void @__pinpoint_enter(ptr @__pinpoint_fn_f, i32 0)
; CHECK:         load i8, ptr getelementptr inbounds ([2 x i8], ptr @__pinpoint_flags_f, i32 0, i32 1), align 1
; CHECK:         call void @__pinpoint_enter(ptr @__pinpoint_fn_f, i32 1)
; CHECK-NEXT:    %r.armed = call i32 @g(ptr %p)
; CHECK-NEXT:    call void @__pinpoint_exit(ptr @__pinpoint_fn_f, i32 1)
; CHECK:         %r.unarmed = call i32 @g(ptr %p)
; CHECK:         call void @__pinpoint_exit(ptr @__pinpoint_fn_f, i32 0)
; CHECK-NEXT:    br label
; CHECK: declare void @__pinpoint_enter(ptr, i32)
