; Without PINPOINT_PASS_CLONE, a small function (at most 100 IR instructions
; after optimisation) gets an armed clone and keeps the plain body behind one
; check (dispatch.c); a larger one gets a stub for its body probes and keeps
; the probes of its calls (stub.c).  With PINPOINT_PASS_CLONE=loops, a larger
; function with one of its calls in a loop is cloned too.
; RUN: env -u PINPOINT_PASS_CLONE %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %FileCheck %s < %t.ll
; RUN: env PINPOINT_PASS_CLONE=loops %opt -load-pass-plugin=%plugin -passes=pinpoint -S %s -o %t.loops.ll
; RUN: %opt -passes=verify -disable-output %t.loops.ll
; RUN: %FileCheck --check-prefix=LOOPS %s < %t.loops.ll

declare i32 @g(i32)

define i32 @small(i32 %x) {
  %y = call i32 @g(i32 %x)
  %z = add i32 %y, 1
  ret i32 %z
}

; 101 instructions: over the limit.
define i32 @big(i32 %x) {
  %v0 = call i32 @g(i32 %x)
  %v1 = mul i32 %v0, 3
  %v2 = mul i32 %v1, 4
  %v3 = mul i32 %v2, 5
  %v4 = mul i32 %v3, 6
  %v5 = mul i32 %v4, 7
  %v6 = mul i32 %v5, 8
  %v7 = mul i32 %v6, 9
  %v8 = mul i32 %v7, 10
  %v9 = mul i32 %v8, 11
  %v10 = mul i32 %v9, 12
  %v11 = mul i32 %v10, 13
  %v12 = mul i32 %v11, 14
  %v13 = mul i32 %v12, 15
  %v14 = mul i32 %v13, 16
  %v15 = mul i32 %v14, 17
  %v16 = mul i32 %v15, 18
  %v17 = mul i32 %v16, 19
  %v18 = mul i32 %v17, 20
  %v19 = mul i32 %v18, 21
  %v20 = mul i32 %v19, 22
  %v21 = mul i32 %v20, 23
  %v22 = mul i32 %v21, 24
  %v23 = mul i32 %v22, 25
  %v24 = mul i32 %v23, 26
  %v25 = mul i32 %v24, 27
  %v26 = mul i32 %v25, 28
  %v27 = mul i32 %v26, 29
  %v28 = mul i32 %v27, 30
  %v29 = mul i32 %v28, 31
  %v30 = mul i32 %v29, 32
  %v31 = mul i32 %v30, 33
  %v32 = mul i32 %v31, 34
  %v33 = mul i32 %v32, 35
  %v34 = mul i32 %v33, 36
  %v35 = mul i32 %v34, 37
  %v36 = mul i32 %v35, 38
  %v37 = mul i32 %v36, 39
  %v38 = mul i32 %v37, 40
  %v39 = mul i32 %v38, 41
  %v40 = mul i32 %v39, 42
  %v41 = mul i32 %v40, 43
  %v42 = mul i32 %v41, 44
  %v43 = mul i32 %v42, 45
  %v44 = mul i32 %v43, 46
  %v45 = mul i32 %v44, 47
  %v46 = mul i32 %v45, 48
  %v47 = mul i32 %v46, 49
  %v48 = mul i32 %v47, 50
  %v49 = mul i32 %v48, 51
  %v50 = mul i32 %v49, 52
  %v51 = mul i32 %v50, 53
  %v52 = mul i32 %v51, 54
  %v53 = mul i32 %v52, 55
  %v54 = mul i32 %v53, 56
  %v55 = mul i32 %v54, 57
  %v56 = mul i32 %v55, 58
  %v57 = mul i32 %v56, 59
  %v58 = mul i32 %v57, 60
  %v59 = mul i32 %v58, 61
  %v60 = mul i32 %v59, 62
  %v61 = mul i32 %v60, 63
  %v62 = mul i32 %v61, 64
  %v63 = mul i32 %v62, 65
  %v64 = mul i32 %v63, 66
  %v65 = mul i32 %v64, 67
  %v66 = mul i32 %v65, 68
  %v67 = mul i32 %v66, 69
  %v68 = mul i32 %v67, 70
  %v69 = mul i32 %v68, 71
  %v70 = mul i32 %v69, 72
  %v71 = mul i32 %v70, 73
  %v72 = mul i32 %v71, 74
  %v73 = mul i32 %v72, 75
  %v74 = mul i32 %v73, 76
  %v75 = mul i32 %v74, 77
  %v76 = mul i32 %v75, 78
  %v77 = mul i32 %v76, 79
  %v78 = mul i32 %v77, 80
  %v79 = mul i32 %v78, 81
  %v80 = mul i32 %v79, 82
  %v81 = mul i32 %v80, 83
  %v82 = mul i32 %v81, 84
  %v83 = mul i32 %v82, 85
  %v84 = mul i32 %v83, 86
  %v85 = mul i32 %v84, 87
  %v86 = mul i32 %v85, 88
  %v87 = mul i32 %v86, 89
  %v88 = mul i32 %v87, 90
  %v89 = mul i32 %v88, 91
  %v90 = mul i32 %v89, 92
  %v91 = mul i32 %v90, 93
  %v92 = mul i32 %v91, 94
  %v93 = mul i32 %v92, 95
  %v94 = mul i32 %v93, 96
  %v95 = mul i32 %v94, 97
  %v96 = mul i32 %v95, 98
  %v97 = mul i32 %v96, 99
  %v98 = mul i32 %v97, 100
  %v99 = mul i32 %v98, 101
  ret i32 %v99
}

; 101 instructions too, and its call in a loop.
define i32 @loopy(i32 %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %v0 = call i32 @g(i32 %i)
  %v1 = mul i32 %v0, 3
  %v2 = mul i32 %v1, 4
  %v3 = mul i32 %v2, 5
  %v4 = mul i32 %v3, 6
  %v5 = mul i32 %v4, 7
  %v6 = mul i32 %v5, 8
  %v7 = mul i32 %v6, 9
  %v8 = mul i32 %v7, 10
  %v9 = mul i32 %v8, 11
  %v10 = mul i32 %v9, 12
  %v11 = mul i32 %v10, 13
  %v12 = mul i32 %v11, 14
  %v13 = mul i32 %v12, 15
  %v14 = mul i32 %v13, 16
  %v15 = mul i32 %v14, 17
  %v16 = mul i32 %v15, 18
  %v17 = mul i32 %v16, 19
  %v18 = mul i32 %v17, 20
  %v19 = mul i32 %v18, 21
  %v20 = mul i32 %v19, 22
  %v21 = mul i32 %v20, 23
  %v22 = mul i32 %v21, 24
  %v23 = mul i32 %v22, 25
  %v24 = mul i32 %v23, 26
  %v25 = mul i32 %v24, 27
  %v26 = mul i32 %v25, 28
  %v27 = mul i32 %v26, 29
  %v28 = mul i32 %v27, 30
  %v29 = mul i32 %v28, 31
  %v30 = mul i32 %v29, 32
  %v31 = mul i32 %v30, 33
  %v32 = mul i32 %v31, 34
  %v33 = mul i32 %v32, 35
  %v34 = mul i32 %v33, 36
  %v35 = mul i32 %v34, 37
  %v36 = mul i32 %v35, 38
  %v37 = mul i32 %v36, 39
  %v38 = mul i32 %v37, 40
  %v39 = mul i32 %v38, 41
  %v40 = mul i32 %v39, 42
  %v41 = mul i32 %v40, 43
  %v42 = mul i32 %v41, 44
  %v43 = mul i32 %v42, 45
  %v44 = mul i32 %v43, 46
  %v45 = mul i32 %v44, 47
  %v46 = mul i32 %v45, 48
  %v47 = mul i32 %v46, 49
  %v48 = mul i32 %v47, 50
  %v49 = mul i32 %v48, 51
  %v50 = mul i32 %v49, 52
  %v51 = mul i32 %v50, 53
  %v52 = mul i32 %v51, 54
  %v53 = mul i32 %v52, 55
  %v54 = mul i32 %v53, 56
  %v55 = mul i32 %v54, 57
  %v56 = mul i32 %v55, 58
  %v57 = mul i32 %v56, 59
  %v58 = mul i32 %v57, 60
  %v59 = mul i32 %v58, 61
  %v60 = mul i32 %v59, 62
  %v61 = mul i32 %v60, 63
  %v62 = mul i32 %v61, 64
  %v63 = mul i32 %v62, 65
  %v64 = mul i32 %v63, 66
  %v65 = mul i32 %v64, 67
  %v66 = mul i32 %v65, 68
  %v67 = mul i32 %v66, 69
  %v68 = mul i32 %v67, 70
  %v69 = mul i32 %v68, 71
  %v70 = mul i32 %v69, 72
  %v71 = mul i32 %v70, 73
  %v72 = mul i32 %v71, 74
  %v73 = mul i32 %v72, 75
  %v74 = mul i32 %v73, 76
  %v75 = mul i32 %v74, 77
  %v76 = mul i32 %v75, 78
  %v77 = mul i32 %v76, 79
  %v78 = mul i32 %v77, 80
  %v79 = mul i32 %v78, 81
  %v80 = mul i32 %v79, 82
  %v81 = mul i32 %v80, 83
  %v82 = mul i32 %v81, 84
  %v83 = mul i32 %v82, 85
  %v84 = mul i32 %v83, 86
  %v85 = mul i32 %v84, 87
  %v86 = mul i32 %v85, 88
  %v87 = mul i32 %v86, 89
  %v88 = mul i32 %v87, 90
  %v89 = mul i32 %v88, 91
  %v90 = mul i32 %v89, 92
  %v91 = mul i32 %v90, 93
  %v92 = mul i32 %v91, 94
  %v93 = mul i32 %v92, 95
  %v94 = mul i32 %v93, 96
  %v95 = mul i32 %v94, 97
  %v96 = mul i32 %v95, 98
  %v97 = mul i32 %v96, 99
  %v98 = mul i32 %v97, 100
  %v99 = mul i32 %v98, 101
  %next = add i32 %i, %v99
  %done = icmp sge i32 %next, %n
  br i1 %done, label %out, label %loop
out:
  ret i32 %next
}

; CHECK-LABEL: define i32 @small(
; CHECK:         icmp uge i32 {{.*}}, 2
; CHECK:         musttail call i32 @small.pinpoint(
; CHECK-NOT:     @__pinpoint_enter
; CHECK-LABEL: {{^}}}
; CHECK-LABEL: define i32 @big(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[F:%.*]] = load i8, {{.*}}@__pinpoint_flags_big
; CHECK-NEXT:    [[C:%.*]] = icmp ne i8 [[F]], 0
; CHECK-NEXT:    br i1 [[C]], label %pinpoint.armed, label %pinpoint.plain
; CHECK:       pinpoint.plain:
; CHECK-NEXT:    [[R:%.*]] = musttail call i32 @big.pinpoint.body(i32 %x)
; CHECK-NEXT:    ret i32 [[R]]
; CHECK:       pinpoint.armed:
; CHECK-NEXT:    [[R:%.*]] = musttail call i32 @big.pinpoint.timed(i32 %x)
; CHECK-NEXT:    ret i32 [[R]]
; CHECK-LABEL: {{^}}}
; CHECK-LABEL: define i32 @loopy(
; CHECK:         musttail call i32 @loopy.pinpoint.body(
; CHECK-LABEL: {{^}}}
; CHECK-LABEL: define internal i32 @small.pinpoint(
; CHECK:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 0)
; CHECK:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
; CHECK-NEXT:    call i32 @g(i32 %x)
; The bodies: the calls' probes, none for the body.
; CHECK-LABEL: define internal i32 @big.pinpoint.body(i32 %x)
; CHECK-NOT:     call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 0)
; CHECK:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
; CHECK-NEXT:    call i32 @g(i32 %x)
; CHECK-NOT:     call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 0)
; CHECK-LABEL: {{^}}}
; CHECK-LABEL: define internal i32 @big.pinpoint.timed(i32 %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}@__pinpoint_fn_big{{.*}}, i32 0)
; CHECK-NEXT:    [[R:%.*]] = call i32 @big.pinpoint.body(i32 %x)
; CHECK-NEXT:    call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}@__pinpoint_fn_big{{.*}}, i32 0)
; CHECK-NEXT:    ret i32 [[R]]
; CHECK-NOT:   define {{.*}} @big.pinpoint(
; CHECK-NOT:   define {{.*}} @loopy.pinpoint(

; LOOPS-LABEL: define i32 @big(
; LOOPS:         musttail call i32 @big.pinpoint.body(
; LOOPS-LABEL: define i32 @loopy(
; LOOPS:         icmp uge i32 {{.*}}, 2
; LOOPS:         musttail call i32 @loopy.pinpoint(
; LOOPS-NOT:     @__pinpoint_enter
; LOOPS-LABEL: {{^}}}
; LOOPS-NOT:   define {{.*}} @big.pinpoint(
; LOOPS:       define internal i32 @loopy.pinpoint(
; LOOPS-NOT:   define {{.*}} @loopy.pinpoint.body(
