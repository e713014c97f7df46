; Splitting a block moves its terminator: the PHIs of its successors are
; rebuilt with the new incoming block (a switch listing one successor twice,
; a loop's back edge, an invoke's normal destination), keeping their names,
; values and fast-math flags.
; RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll

declare i32 @g(i32)
declare void @h()
declare i32 @__gxx_personality_v0(...)

define float @sw(i32 %x) {
entry:
  %a = call i32 @g(i32 %x)
  switch i32 %a, label %def [ i32 0, label %join
                              i32 1, label %join ]
def:
  br label %join
join:
  %p = phi i32 [ %a, %entry ], [ %a, %entry ], [ 7, %def ]
  %q = phi fast float [ 1.0, %entry ], [ 1.0, %entry ], [ 2.0, %def ]
  call void @h()
  ret float %q
}

; CHECK-LABEL: define float @sw(
; CHECK:         %a.armed = call i32 @g(i32 %x)
; CHECK-NEXT:    call void @__pinpoint_exit({{.*}}, i32 1)
; CHECK-NEXT:    br label %[[SW:.*]]
; CHECK:         %a.unarmed = call i32 @g(i32 %x)
; CHECK-NEXT:    br label %[[SW]]
; CHECK:       [[SW]]:
; CHECK-NEXT:    %a = phi i32 [ %a.armed, {{.*}} ], [ %a.unarmed, {{.*}} ]
; CHECK-NEXT:    switch i32 %a, label %def [
; CHECK:       join:
; CHECK-NEXT:    %p = phi i32 [ %a, %[[SW]] ], [ %a, %[[SW]] ], [ 7, %def ]
; CHECK-NEXT:    %q = phi fast float [ 1.000000e+00, %[[SW]] ], [ 1.000000e+00, %[[SW]] ], [ 2.000000e+00, %def ]

define void @loop(i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  call void @h()
  %next = add i32 %i, 1
  %c = icmp slt i32 %next, %n
  br i1 %c, label %body, label %out
out:
  ret void
}

; CHECK-LABEL: define void @loop(
; CHECK:       body:
; CHECK-NEXT:    %i = phi i32 [ 0, %[[PRE:[^ ]+]] ], [ %next, %[[LATCH:[^ ]+]] ]
; CHECK:       [[LATCH]]:
; CHECK-NEXT:    %next = add i32 %i, 1
; CHECK-NEXT:    %c = icmp slt i32 %next, %n
; CHECK-NEXT:    br i1 %c, label %body, label %out

define i32 @inv(i32 %x) personality i32 (...)* @__gxx_personality_v0 {
entry:
  %a = invoke i32 @g(i32 %x) to label %ok unwind label %lp
ok:
  %p = phi i32 [ %a, %entry ]
  ret i32 %p
lp:
  %l = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %l
}

; The exit probe of an invoke sits on its normal edge; an unwinding path
; (landingpad ... resume) gets no exit probe.
; CHECK-LABEL: define i32 @inv(
; CHECK:         call void @__pinpoint_enter({{.*}}, i32 1)
; CHECK:         %a = invoke i32 @g(i32 %x)
; CHECK-NEXT:            to label %[[EDGE:.*]] unwind label %lp
; CHECK:       [[EDGE]]:
; CHECK-NEXT:    load i8, {{.*}}@__pinpoint_flags_inv, i32 0, i32 1)
; CHECK:         call void @__pinpoint_exit({{.*}}, i32 1)
; CHECK:         br label %ok
; CHECK:       ok:
; CHECK-NEXT:    %p = phi i32 [ %a, %[[LAST:.*]] ]
; CHECK:         call void @__pinpoint_exit({{.*}}, i32 0)
; CHECK:       lp:
; CHECK-NEXT:    %l = landingpad { {{.*}}, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    resume { {{.*}}, i32 } %l
