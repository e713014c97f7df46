; An indirect call whose target is loaded only for it (a callback in a
; struct, a vtable slot): the load moves next to the call on the unarmed
; path, and the armed copy loads the target again, so that the backend can
; fold the load into the unarmed call (call *8(%rdi) on x86-64) instead of
; loading the target into a register before the check.  The load stays
; where it was when something between it and the call may write memory,
; when it has another use, when it is volatile, or when it follows a call
; (the point of another probe).
; RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll
; On x86-64, the unarmed call reads its target from memory itself.
; RUN: %llc -O2 -mtriple=x86_64-linux-gnu %t.ll -o - | %FileCheck --check-prefix=ASM %s

%ops = type { i32 (i8*)*, i32 (i8*)* }

declare void @h()

define i32 @cb(%ops* %o, i8* %arg, i32* %q) {
entry:
  %slot = getelementptr %ops, %ops* %o, i32 0, i32 1
  %fn = load i32 (i8*)*, i32 (i8*)** %slot
  %x = load i32, i32* %q
  %r = call i32 %fn(i8* %arg)
  %s = add i32 %r, %x
  ret i32 %s
}

; CHECK-LABEL: define i32 @cb(
; CHECK:         %x = load i32, {{.*}} %q
; CHECK-NEXT:    [[F:%.*]] = load i8, {{.*}}@__pinpoint_flags_cb
; CHECK-NEXT:    [[C:%.*]] = icmp ne i8 [[F]], 0
; CHECK-NEXT:    br i1 [[C]], label %[[ARMED:[^,]+]], label %[[CALL:[^,]+]]
; CHECK:       [[ARMED]]:
; CHECK-NEXT:    [[FN2:%.*]] = load {{.*}} %slot
; CHECK:         call void @__pinpoint_target({{.*}}, i32 1, {{.*}})
; CHECK-NEXT:    call void @__pinpoint_enter({{.*}}, i32 1)
; CHECK-NEXT:    %r.armed = call i32 [[FN2]](
; CHECK-NEXT:    call void @__pinpoint_exit({{.*}}, i32 1)
; CHECK:       [[CALL]]:
; CHECK-NEXT:    %fn = load {{.*}} %slot
; CHECK-NEXT:    %r.unarmed = call i32 %fn(

; ASM-LABEL: cb:
; ASM:         cmpb $0, {{.*}}__pinpoint_flags_cb+1(%rip)
; ASM:         {{callq|call}} *8(%
; ASM:         {{callq|call}} __pinpoint_enter

; A store between the load and the call: the load stays before the check.
define i32 @stored(%ops* %o, i8* %arg, i32* %q) {
entry:
  %slot = getelementptr %ops, %ops* %o, i32 0, i32 1
  %fn = load i32 (i8*)*, i32 (i8*)** %slot
  store i32 1, i32* %q
  %r = call i32 %fn(i8* %arg)
  ret i32 %r
}

; CHECK-LABEL: define i32 @stored(
; CHECK:         %fn = load
; CHECK-NEXT:    store i32 1
; CHECK-NEXT:    load i8, {{.*}}@__pinpoint_flags_stored
; CHECK:         %r.armed = call i32 %fn(
; CHECK:         %r.unarmed = call i32 %fn(

; The target used twice (passed as its own argument, and called again).
define i32 @twice(%ops* %o) {
entry:
  %slot = getelementptr %ops, %ops* %o, i32 0, i32 0
  %fn = load i32 (i8*)*, i32 (i8*)** %slot
  %p = bitcast i32 (i8*)* %fn to i8*
  %r = call i32 %fn(i8* %p)
  ret i32 %r
}

; CHECK-LABEL: define i32 @twice(
; CHECK:         %fn = load
; CHECK:         load i8, {{.*}}@__pinpoint_flags_twice
; CHECK:         %r.armed = call i32 %fn(
; CHECK:         %r.unarmed = call i32 %fn(

; A volatile load of the target.
define i32 @vol(%ops* %o, i8* %arg) {
entry:
  %slot = getelementptr %ops, %ops* %o, i32 0, i32 0
  %fn = load volatile i32 (i8*)*, i32 (i8*)** %slot
  %r = call i32 %fn(i8* %arg)
  ret i32 %r
}

; CHECK-LABEL: define i32 @vol(
; CHECK:         %fn = load volatile
; CHECK-NEXT:    load i8, {{.*}}@__pinpoint_flags_vol
; CHECK:         %r.armed = call i32 %fn(
; CHECK:         %r.unarmed = call i32 %fn(

; Right after another call: that call's probes and this one's stay in order.
define i32 @after(%ops* %o, i8* %arg) {
entry:
  %slot = getelementptr %ops, %ops* %o, i32 0, i32 0
  call void @h()
  %fn = load i32 (i8*)*, i32 (i8*)** %slot
  %r = call i32 %fn(i8* %arg)
  ret i32 %r
}

; CHECK-LABEL: define i32 @after(
; CHECK:         call void @h()
; CHECK:         %fn = load
; CHECK-NEXT:    load i8, {{.*}}@__pinpoint_flags_after, i32 0, i32 2)
; CHECK:         %r.armed = call i32 %fn(
; CHECK:         %r.unarmed = call i32 %fn(
