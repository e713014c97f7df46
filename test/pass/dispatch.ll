; With PINPOINT_PASS_CLONE=1 set while compiling, a function's probes go into
; its armed clone @<f>.pinpoint; @f keeps the
; body of the plain build, behind one check of its record's armed word
; (pp_fn.armed >= PP_FN_ARMED, abi.h) that tail-calls the clone.  Functions
; that cannot be cloned (variadic, a block whose address is taken) keep their
; probes in their own body.
; RUN: env PINPOINT_PASS_CLONE=1 %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll
; RUN: %FileCheck --check-prefix=CLONE %s < %t.ll
; The body behind the check is the plain one: the same as without the pass,
; but for the static allocas, which stay above the check, and the name of
; the block the loop is entered from.
; RUN: %opt -passes=verify -S %s -o %t.plain.ll
; RUN: sed -n '/^define i32 @sum(/,/^}/p' %t.plain.ll | grep -v '^define\|^entry:\|^}\|alloca' > %t.plain.body
; RUN: sed -n '/^define i32 @sum(/,/^}/p' %t.ll | sed -n '/^pinpoint.body:/,/^}/p' | grep -v '^pinpoint.body:\|^}' | sed 's/[%%]pinpoint[.]body/%%entry/g' > %t.pp.body
; RUN: diff %t.plain.body %t.pp.body
; With PINPOINT_PASS_CLONE=0 every function has its probes in its own body
; (small-clone.ll: without the variable, only small functions are cloned).
; RUN: env PINPOINT_PASS_CLONE=0 %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s | %FileCheck --check-prefix=NONE %s
; NONE-NOT: pinpoint.any
; NONE-NOT: musttail
; NONE-NOT: define {{.*}}.pinpoint(
; NONE-LABEL: define i32 @sum(
; NONE:     call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
; NONE-NOT: musttail
; NONE-NOT: define {{.*}}.pinpoint(

declare i32 @g(i32)

define i32 @sum(i32 %n, i32* %a) {
entry:
  %buf = alloca i32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s2, %loop ]
  %p = getelementptr i32, i32* %a, i32 %i
  %x = load i32, i32* %p
  %y = call i32 @g(i32 %x)
  %s2 = add i32 %s, %y
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %out, label %loop
out:
  ret i32 %s2
}

; CHECK-LABEL: define i32 @sum(i32 %n, {{.*}} %a) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %buf = alloca i32
; CHECK-NEXT:    [[W:%.*]] = load i32, {{.*}} getelementptr inbounds ({{.*}} @__pinpoint_fn_sum, i32 0, i32 4), align 4
; CHECK-NEXT:    [[C:%.*]] = icmp uge i32 [[W]], 2
; CHECK-NEXT:    br i1 [[C]], label %[[D:.*]], label %pinpoint.body, !prof [[NEVER:![0-9]+]]
; CHECK:       [[D]]:
; CHECK-NEXT:    [[R:%.*]] = musttail call i32 @sum.pinpoint(i32 %n, {{.*}} %a)
; CHECK-NEXT:    ret i32 [[R]]
; CHECK:       pinpoint.body:
; CHECK-NOT:     @__pinpoint
; CHECK:         call i32 @g(i32 %x)
; CHECK-NOT:     @__pinpoint
; CHECK:       {{^}}}

define void @va(i32 %n, ...) {
  call i32 @g(i32 %n)
  ret void
}

; CHECK-LABEL: define void @va(i32 %n, ...) {
; CHECK-NOT:   musttail
; CHECK:       call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
; CHECK:       call i32 @g(i32 %n)
; CHECK:       {{^}}}

define i8* @computed(i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %one, label %two
one:
  call i32 @g(i32 1)
  ret i8* blockaddress(@computed, %one)
two:
  ret i8* null
}

; CHECK-LABEL: define {{.*}} @computed(i32 %n) {
; CHECK-NOT:   musttail
; CHECK:       call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
; CHECK:       {{^}}}
; CHECK-NOT:   define {{.*}} @va.pinpoint(
; CHECK-NOT:   define {{.*}} @computed.pinpoint(
; CHECK: [[NEVER]] = !{!"branch_weights", i32 1, i32 1048575}

; The clone: local, never inlined, in .text.unlikely, with every probe.
; CLONE:       define internal i32 @sum.pinpoint(i32 %n, {{.*}} %a) #[[A:[0-9]+]] !section_prefix [[SP:![0-9]+]] {
; CLONE:       call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 0)
; CLONE:       loop:
; CLONE:       call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
; CLONE-NEXT:  call i32 @g(i32 %x)
; CLONE-NEXT:  call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 1)
; CLONE:       call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 0)
; CLONE:       attributes #[[A]] = { noinline }
; CLONE:       [[SP]] = !{!"function_section_prefix", !"unlikely"}

