; The late phase probes what optimisation left, by the !pinpoint.site tags
; of the early phase: every copy of a duplicated call (here by loop
; unswitching) gets the probes of its one site.
; RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %opt -load-pass-plugin=%plugin -passes='pinpoint-early,simple-loop-unswitch<nontrivial>,pinpoint-late' -S %s -o %t.ll
; RUN: %FileCheck %s < %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; The early phase alone changes no instruction, only metadata.
; RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %opt -load-pass-plugin=%plugin -passes=pinpoint-early -S %s -o %t.early.ll
; RUN: %FileCheck --check-prefix=EARLY %s < %t.early.ll

declare void @g()
declare void @h()

define void @f(i1 %c, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  br i1 %c, label %then, label %latch
then:
  call void @g()
  br label %latch
latch:
  call void @h()
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret void
}

; EARLY:     call void @g(), !pinpoint.site ![[G:[0-9]+]]
; EARLY:     call void @h(), !pinpoint.site ![[H:[0-9]+]]
; EARLY-NOT: __pinpoint
; EARLY:     !pinpoint.table = !{![[T:[0-9]+]]}
; EARLY-DAG: ![[G]] = !{!"f", i32 0}
; EARLY-DAG: ![[H]] = !{!"f", i32 1}
; EARLY-DAG: ![[T]] = !{!"PINPOINT\04{{.*}}"}

; Two copies of the loop: @h's call in both, @g's in one; each call between
; the enter and exit probes of its site.
; CHECK-LABEL: define void @f(
; CHECK-COUNT-3: call void @__pinpoint_enter({{.*}}, i32 {{[12]}})
; CHECK-NOT:     call void @__pinpoint_enter({{.*}}, i32 {{[12]}})
; CHECK-LABEL: {{^}}}
; CHECK-NOT:   !pinpoint.site
; CHECK-NOT:   !pinpoint.table
; RUN: %FileCheck --check-prefix=PAIRS %s < %t.ll
; PAIRS:       call void @__pinpoint_enter({{.*}}, i32 [[S:[12]]])
; PAIRS-NEXT:  call void @{{[gh]}}()
; PAIRS-NEXT:  call void @__pinpoint_exit({{.*}}, i32 [[S]])
; PAIRS-NEXT:  br label
