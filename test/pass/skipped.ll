; What is left out: intrinsics, inline asm and calls of pinpoint's runtime in
; call lists; declarations, available_externally, naked and __pinpoint_*
; functions entirely.  A call through a cast or an alias is a direct call.
; RUN: %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck --check-prefix=IR %s < %t.ll
; RUN: %clang -w -c %t.ll -o %t.o
; RUN: %dump %t.o | %FileCheck %s

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)
declare void @__pinpoint_helper()
declare i32 @ext(i32)

define i32 @callee(i32 %x) {
  ret i32 %x
}

@al = alias i32 (i32), i32 (i32)* @callee

define void @f(i8* %d, i8* %s, void ()* %fp) {
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %d, i8* %s, i64 8, i1 false)
  call void asm sideeffect "nop", ""()
  call void @__pinpoint_helper()
  %1 = call i32 @al(i32 1)
  call void bitcast (i32 (i32)* @callee to void ()*)()
  call void %fp()
  ret void
}

define void @__pinpoint_runtime_thing() {
  %1 = call i32 @ext(i32 0)
  ret void
}

define available_externally i32 @ae(i32 %x) {
  %1 = call i32 @ext(i32 %x)
  ret i32 %1
}

define void @nk() naked {
  unreachable
}

; CHECK: blob module={{.*}}skipped.ll producer=pinpoint {{.*}} funcs=2 calls=3
; CHECK-NEXT: fn callee file={{.*}}skipped.ll line=0 linkage=external calls=0
; CHECK-NEXT: fn f file={{.*}}skipped.ll line=0 linkage=external calls=3
; CHECK-NEXT:   call 0 direct al -
; CHECK-NEXT:   call 1 direct callee -
; CHECK-NEXT:   call 2 indirect - -
; CHECK-EMPTY:

; IR-LABEL: define void @__pinpoint_runtime_thing() {
; IR-NEXT:    %1 = call i32 @ext(i32 0)
; IR-NEXT:    ret void
; IR-LABEL: define available_externally i32 @ae(i32 %x) {
; IR-NEXT:    %1 = call i32 @ext(i32 %x)
; IR-NEXT:    ret i32 %1
; IR-LABEL: define void @nk() #{{[0-9]+}} {
; IR-NEXT:    unreachable
