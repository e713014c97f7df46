; A module that already has a table is left alone: running the pass twice
; (or a plugin given twice) instruments once.
; RUN: %opt -load-pass-plugin=%plugin -passes=pinpoint,pinpoint -S %s -o %t.ll
; RUN: %FileCheck %s < %t.ll

declare void @h()

define void @f() {
  call void @h()
  ret void
}

; CHECK: {{^}}@__pinpoint_table{{.*}} = private constant
; CHECK-NOT: {{^}}@__pinpoint_table
; CHECK-NOT: {{^}}@__pinpoint_fn_f{{.+}} =
; CHECK-COUNT-2: call void @__pinpoint_enter(
; CHECK-NOT: call void @__pinpoint_enter(
; CHECK: define linkonce_odr hidden void @__pinpoint_module_init()
; CHECK-NOT: @__pinpoint_module_init{{.*}}(
