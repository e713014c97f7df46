; The exact shape of the probes and of the globals the pass adds, with every
; probe in the body (a function that can have neither a clone nor a stub:
; dispatch.c, stub.c; stub.ll has the stub).
; RUN: env PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %FileCheck %s < %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; f: three enter probes (sites 0, 1, 2) and three exit probes; nr: two enters, one exit
; (the call's, on its armed path).
; RUN: %FileCheck --check-prefix=ENTER %s < %t.ll
; RUN: %FileCheck --check-prefix=EXIT %s < %t.ll

declare i32 @g(i32)
declare void @h()

define i32 @f(i32 %x) {
entry:
  %a = alloca i32
  %r = call i32 @g(i32 %x)
  call void @h()
  ret i32 %r
}

; A path ending in unreachable gets no exit probe for the body.
define void @nr() {
  call void @abort()
  unreachable
}
declare void @abort()

; Globals: the table, per-function flags and record, the section bounds.
; CHECK: @__pinpoint_table = private constant [{{[0-9]+}} x i8] c"PINPOINT\04\00\00\00{{.*}}", section "pinpoint_table", align 8
; CHECK: @__pinpoint_flags_f = private global [3 x i8] zeroinitializer
; CHECK: @__pinpoint_fn_f = private global { {{.*}}, i32, i32 } { {{.*}}@__pinpoint_flags_f{{.*}}, {{.*}}@__pinpoint_table{{.*}}, {{.*}}@__pinpoint_table{{.*}}, i32 2, i32 0 }, section "pinpoint_fns", align 8
; CHECK: @llvm.used = appending global [3 x {{.*}}] [{{.*}}@__pinpoint_table{{.*}}, {{.*}}@__pinpoint_fn_f{{.*}}, {{.*}}@__pinpoint_fn_nr{{.*}}], section "llvm.metadata"
; CHECK: @__start_pinpoint_fns = external hidden global
; CHECK: @__stop_pinpoint_fns = external hidden global
; CHECK: @llvm.global_ctors = appending global [1 x { i32, {{.*}} }] [{ i32, {{.*}} } { i32 1, {{.*}}@__pinpoint_module_init{{.*}}, {{.*}}@__pinpoint_module_init{{.*}} }]

; The entry probe comes after the allocas.
; CHECK-LABEL: define i32 @f(i32 %x) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    [[F0:%.*]] = load i8, {{.*}}@__pinpoint_flags_f{{(, i32 0, i32 0\))?}}, align 1
; CHECK-NEXT:    [[C0:%.*]] = icmp ne i8 [[F0]], 0
; CHECK-NEXT:    br i1 [[C0]], label %[[ARMED0:.*]], label %[[CONT0:[^,]*]], !prof ![[NEVER:[0-9]+]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[ARMED0]]:
; CHECK-NEXT:    call void @__pinpoint_enter({{.*}}@__pinpoint_fn_f{{.*}}, i32 0)
; CHECK-NEXT:    br label %[[CONT0]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[CONT0]]:
; Call 0 is site 1: one check; the call stays on the unarmed path, and its
; armed copy runs between the enter and the exit probes ...
; CHECK-NEXT:    [[F1:%.*]] = load i8, {{.*}}@__pinpoint_flags_f, i32 0, i32 1), align 1
; CHECK-NEXT:    [[C1:%.*]] = icmp ne i8 [[F1]], 0
; CHECK-NEXT:    br i1 [[C1]], label %[[ARMED1:.*]], label %[[CALL1:[^,]*]], !prof ![[NEVER]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[ARMED1]]:
; CHECK-NEXT:    call void @__pinpoint_enter({{.*}}@__pinpoint_fn_f{{.*}}, i32 1)
; CHECK-NEXT:    %r.armed = call i32 @g(i32 %x)
; CHECK-NEXT:    call void @__pinpoint_exit({{.*}}@__pinpoint_fn_f{{.*}}, i32 1)
; CHECK-NEXT:    br label %[[CONT1:[^,]*]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[CALL1]]:
; CHECK-NEXT:    %r.unarmed = call i32 @g(i32 %x)
; CHECK-NEXT:    br label %[[CONT1]]
; CHECK-EMPTY:
; ... and the result is whichever ran.
; CHECK-NEXT:  [[CONT1]]:
; CHECK-NEXT:    %r = phi i32 [ %r.armed, %[[ARMED1]] ], [ %r.unarmed, %[[CALL1]] ]
; Back-to-back calls: call 1 (site 2) likewise.
; CHECK-NEXT:    [[F3:%.*]] = load i8, {{.*}}@__pinpoint_flags_f, i32 0, i32 2), align 1
; CHECK-NEXT:    [[C3:%.*]] = icmp ne i8 [[F3]], 0
; CHECK-NEXT:    br i1 [[C3]], label %[[ARMED3:.*]], label %[[CALL3:[^,]*]], !prof ![[NEVER]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[ARMED3]]:
; CHECK-NEXT:    call void @__pinpoint_enter({{.*}}@__pinpoint_fn_f{{.*}}, i32 2)
; CHECK-NEXT:    call void @h()
; CHECK-NEXT:    call void @__pinpoint_exit({{.*}}@__pinpoint_fn_f{{.*}}, i32 2)
; CHECK-NEXT:    br label %[[CONT3:[^,]*]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[CALL3]]:
; CHECK-NEXT:    call void @h()
; CHECK-NEXT:    br label %[[CONT3]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[CONT3]]:
; The body's exit right before the ret.
; CHECK:         [[F5:%.*]] = load i8, {{.*}}@__pinpoint_flags_f{{(, i32 0, i32 0\))?}}, align 1
; CHECK-NEXT:    [[C5:%.*]] = icmp ne i8 [[F5]], 0
; CHECK-NEXT:    br i1 [[C5]], label %[[ARMED5:.*]], label %[[CONT5:[^,]*]], !prof ![[NEVER]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[ARMED5]]:
; CHECK-NEXT:    call void @__pinpoint_exit({{.*}}@__pinpoint_fn_f{{.*}}, i32 0)
; CHECK-NEXT:    br label %[[CONT5]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[CONT5]]:
; CHECK-NEXT:    ret i32 %r
; CHECK-NEXT:  }

; CHECK-LABEL: define void @nr() {
; CHECK:         call void @__pinpoint_enter({{.*}}@__pinpoint_fn_nr{{.*}}, i32 0)
; CHECK:         call void @__pinpoint_enter({{.*}}@__pinpoint_fn_nr{{.*}}, i32 1)
; CHECK-NEXT:    call void @abort()
; CHECK-NEXT:    call void @__pinpoint_exit({{.*}}@__pinpoint_fn_nr{{.*}}, i32 1)
; CHECK-NEXT:    br label %[[NRCONT:.*]]
; CHECK:         call void @abort()
; CHECK-NEXT:    br label %[[NRCONT]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[NRCONT]]:
; CHECK-NEXT:    unreachable
; CHECK-NEXT:  }

; CHECK: declare void @__pinpoint_enter({{.*}}, i32) #[[NOUNWIND:[0-9]+]]
; CHECK: declare void @__pinpoint_exit({{.*}}, i32) #[[NOUNWIND]]
; CHECK: define linkonce_odr hidden void @__pinpoint_module_init() #[[NOUNWIND]] comdat {
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__pinpoint_register({{.*}}@__start_pinpoint_fns{{.*}}, {{.*}}@__stop_pinpoint_fns{{.*}})
; CHECK-NEXT: call void @__pinpoint_register_addrs({{.*}}@__start_pinpoint_addrs{{.*}}, {{.*}}@__stop_pinpoint_addrs{{.*}})
; CHECK-NEXT: call void @__pinpoint_register_jumps({{.*}}@__start_pinpoint_jumps{{.*}}, {{.*}}@__stop_pinpoint_jumps{{.*}})
; CHECK-NEXT: ret void
; CHECK: declare void @__pinpoint_register({{.*}}, {{.*}}) #[[NOUNWIND]]
; CHECK: declare void @__pinpoint_register_jumps({{.*}}, {{.*}}) #[[NOUNWIND]]
; CHECK: attributes #[[NOUNWIND]] = { nounwind }
; CHECK: ![[NEVER]] = !{!"branch_weights", i32 1, i32 1048575}

; ENTER-LABEL: define i32 @f(
; ENTER-COUNT-3: call void @__pinpoint_enter(
; ENTER-NOT: call void @__pinpoint_enter(
; ENTER-LABEL: define void @nr(
; ENTER-COUNT-2: call void @__pinpoint_enter(
; ENTER-NOT: call void @__pinpoint_enter(
; EXIT-LABEL: define i32 @f(
; EXIT-COUNT-3: call void @__pinpoint_exit(
; EXIT-NOT: call void @__pinpoint_exit(
; EXIT-LABEL: define void @nr(
; EXIT-COUNT-1: call void @__pinpoint_exit(
; EXIT-NOT: call void @__pinpoint_exit(
