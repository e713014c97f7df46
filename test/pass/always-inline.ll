; A call of an always_inline function is inlined before the probes are
; planted: the call has no probe, nor does the callee's own call (owned by
; the callee, so timed as part of the caller's body), and the callee, not
; emitted any more, has no record.  The table says so.
; RUN: %opt -load-pass-plugin=%plugin -passes='pinpoint-early,always-inline,pinpoint-late' -S %s -o %t.ll
; RUN: %FileCheck %s < %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %llc -filetype=obj %t.ll -o %t.o
; RUN: %dump %t.o | %FileCheck --check-prefix=TABLE %s

declare void @ext()

define internal void @helper() alwaysinline {
  call void @ext()
  ret void
}

define void @caller() {
  call void @helper()
  ret void
}

; CHECK-NOT:   @__pinpoint_fn_helper = 
; CHECK-LABEL: define void @caller() {
; CHECK:         call void @__pinpoint_enter({{.*}}@__pinpoint_fn_caller{{.*}}, i32 0)
; CHECK-NOT:     call void @__pinpoint_enter(
; CHECK:         call void @ext()
; CHECK-NOT:     call void @__pinpoint_exit({{.*}}, i32 1)
; CHECK:         call void @__pinpoint_exit({{.*}}@__pinpoint_fn_caller{{.*}}, i32 0)
; CHECK-NEXT:    br label
; CHECK-NOT:   define internal void @helper(
; CHECK-NOT:   !pinpoint.site
; CHECK-NOT:   !pinpoint.table

; Without debug info, inlined and removed cannot be told apart.
; TABLE:      fn helper {{.*}} linkage=internal calls=1 not-emitted
; TABLE-NEXT:   call 0 direct ext - unknown
; TABLE-NEXT: fn caller {{.*}} linkage=external calls=1 emitted
; TABLE-NEXT:   call 0 direct helper - unknown
