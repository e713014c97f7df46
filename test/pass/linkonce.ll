; Functions that can be inlined into other objects (comdat, linkonce_odr,
; weak_odr) get named linkonce_odr hidden flags and records, in their comdat
; when they have one, so probes inlined anywhere bind to the copy the linker
; keeps.  Others get private ones.  The table maps the linkage.
; RUN: %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll
; RUN: %clang -w -c %t.ll -o %t.o
; RUN: %dump %t.o | %FileCheck --check-prefix=TABLE %s
; RUN: %readelf -g %t.o | %FileCheck --check-prefix=GROUP %s

$tmpl = comdat any

declare i32 @g(i32)

define linkonce_odr i32 @tmpl(i32 %x) comdat {
  %r = call i32 @g(i32 %x)
  ret i32 %r
}

define weak_odr void @wodr() {
  ret void
}

define weak void @wk() {
  ret void
}

define internal void @st() {
  ret void
}

define void @user() {
  %1 = call i32 @tmpl(i32 1)
  call void @wodr()
  call void @wk()
  call void @st()
  ret void
}

; CHECK-DAG: @__pinpoint_flags_tmpl = linkonce_odr hidden global [2 x i8] zeroinitializer, comdat($tmpl)
; CHECK-DAG: @__pinpoint_fn_tmpl = linkonce_odr hidden global { {{.*}} }, section "pinpoint_fns", comdat($tmpl), align 8
; CHECK-DAG: @__pinpoint_flags_wodr = linkonce_odr hidden global [1 x i8] zeroinitializer{{$}}
; CHECK-DAG: @__pinpoint_fn_wodr = linkonce_odr hidden global { {{.*}} }, section "pinpoint_fns", align 8
; CHECK-DAG: @__pinpoint_flags_wk = private global [1 x i8] zeroinitializer
; CHECK-DAG: @__pinpoint_flags_st = private global [1 x i8] zeroinitializer
; CHECK-DAG: @__pinpoint_flags_user = private global [5 x i8] zeroinitializer
; CHECK-DAG: $__pinpoint_module_init = comdat any

; TABLE: fn tmpl file={{.*}} line=0 linkage=linkonce calls=1
; TABLE: fn wodr file={{.*}} line=0 linkage=weak calls=0
; TABLE: fn wk file={{.*}} line=0 linkage=weak calls=0
; TABLE: fn st file={{.*}} line=0 linkage=internal calls=0
; TABLE: fn user file={{.*}} line=0 linkage=external calls=4

; GROUP-DAG: COMDAT group section [{{ *[0-9]+}}] `.group' [tmpl] contains
; GROUP-DAG: COMDAT group section [{{ *[0-9]+}}] `.group' [__pinpoint_module_init] contains
