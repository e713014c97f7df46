; The entry probe goes after the entry block's allocas; a constant-size
; alloca further down is hoisted above it so that it stays in the entry
; block (static, promotable), a variable-size one stays where it was.
; RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll

declare void @h()

define void @al(i32 %n) {
entry:
  %a = alloca i32
  store i32 1, i32* %a
  %b = alloca i64
  %v = alloca i8, i32 %n
  call void @h()
  ret void
}

; CHECK-LABEL: define void @al(i32 %n) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    %b = alloca i64
; CHECK-NEXT:    [[F:%.*]] = load i8, {{.*}}@__pinpoint_flags_al
; CHECK:         call void @__pinpoint_enter({{.*}}, i32 0)
; CHECK:         store i32 1, {{.*}} %a
; CHECK-NEXT:    %v = alloca i8, i32 %n
; CHECK-NEXT:    load i8, {{.*}}@__pinpoint_flags_al, i32 0, i32 1)
