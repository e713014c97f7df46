; A musttail call stays in the call list but gets no probes: nothing may
; come between it and its ret.  The body's exit probe goes before it.
; RUN: env PINPOINT_PASS_CLONE=0 %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll
; RUN: %clang -w -c %t.ll -o %t.o
; RUN: %dump %t.o | %FileCheck --check-prefix=TABLE %s

declare i32 @pre(i32)
declare i32 @tgt(i32)
declare i8* @tgtp(i8*)

define i32 @mt(i32 %x) {
  %y = call i32 @pre(i32 %x)
  %r = musttail call i32 @tgt(i32 %y)
  ret i32 %r
}

; With typed pointers a bitcast may sit between the call and the ret.
define i32* @mtcast(i8* %p) {
  %r = musttail call i8* @tgtp(i8* %p)
  %c = bitcast i8* %r to i32*
  ret i32* %c
}

; CHECK-LABEL: define i32 @mt(
; CHECK:         %y.armed = call i32 @pre(i32 %x)
; CHECK-NEXT:    call void @__pinpoint_exit({{.*}}@__pinpoint_fn_mt{{.*}}, i32 1)
; CHECK:         %y.unarmed = call i32 @pre(i32 %x)
; CHECK:         call void @__pinpoint_exit({{.*}}@__pinpoint_fn_mt{{.*}}, i32 0)
; CHECK-NEXT:    br label %[[CONT:.*]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[CONT]]:
; CHECK-NEXT:    %r = musttail call i32 @tgt(i32 %y)
; CHECK-NEXT:    ret i32 %r
; CHECK-NEXT:  }
; CHECK-LABEL: define {{.*}} @mtcast(
; CHECK:         call void @__pinpoint_exit({{.*}}@__pinpoint_fn_mtcast{{.*}}, i32 0)
; CHECK-NEXT:    br label %[[CONT2:.*]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[CONT2]]:
; CHECK-NEXT:    %r = musttail call {{.*}} @tgtp({{.*}} %p)
; CHECK-NEXT:    %c = bitcast
; CHECK-NEXT:    ret {{.*}} %c
; CHECK-NEXT:  }

; TABLE:      fn mt {{.*}} calls=2
; TABLE-NEXT:   call 0 direct pre -
; TABLE-NEXT:   call 1 direct tgt -
; TABLE-NEXT: fn mtcast {{.*}} calls=1
; TABLE-NEXT:   call 0 direct tgtp -
