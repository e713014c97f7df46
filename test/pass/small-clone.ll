; Without PINPOINT_PASS_CLONE, a small function (at most 100 IR instructions
; after optimisation) gets an armed clone and keeps the plain body behind one
; check (dispatch.c), and so does one of at most 300 with one of its calls in
; a loop; a larger one gets a stub for its body probes and keeps the probes of
; its calls (stub.c).  With PINPOINT_PASS_CLONE=loops, a function of any size
; with one of its calls in a loop is cloned.
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

; 101 instructions too, but its call in a loop: cloned (at most 300).
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

; 303 instructions, its call in a loop: over the bound of 300.
define i32 @hugeloopy(i32 %x, i32 %n) {
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
  %v100 = mul i32 %v99, 102
  %v101 = mul i32 %v100, 103
  %v102 = mul i32 %v101, 104
  %v103 = mul i32 %v102, 105
  %v104 = mul i32 %v103, 106
  %v105 = mul i32 %v104, 107
  %v106 = mul i32 %v105, 108
  %v107 = mul i32 %v106, 109
  %v108 = mul i32 %v107, 110
  %v109 = mul i32 %v108, 111
  %v110 = mul i32 %v109, 112
  %v111 = mul i32 %v110, 113
  %v112 = mul i32 %v111, 114
  %v113 = mul i32 %v112, 115
  %v114 = mul i32 %v113, 116
  %v115 = mul i32 %v114, 117
  %v116 = mul i32 %v115, 118
  %v117 = mul i32 %v116, 119
  %v118 = mul i32 %v117, 120
  %v119 = mul i32 %v118, 121
  %v120 = mul i32 %v119, 122
  %v121 = mul i32 %v120, 123
  %v122 = mul i32 %v121, 124
  %v123 = mul i32 %v122, 125
  %v124 = mul i32 %v123, 126
  %v125 = mul i32 %v124, 127
  %v126 = mul i32 %v125, 128
  %v127 = mul i32 %v126, 129
  %v128 = mul i32 %v127, 130
  %v129 = mul i32 %v128, 131
  %v130 = mul i32 %v129, 132
  %v131 = mul i32 %v130, 133
  %v132 = mul i32 %v131, 134
  %v133 = mul i32 %v132, 135
  %v134 = mul i32 %v133, 136
  %v135 = mul i32 %v134, 137
  %v136 = mul i32 %v135, 138
  %v137 = mul i32 %v136, 139
  %v138 = mul i32 %v137, 140
  %v139 = mul i32 %v138, 141
  %v140 = mul i32 %v139, 142
  %v141 = mul i32 %v140, 143
  %v142 = mul i32 %v141, 144
  %v143 = mul i32 %v142, 145
  %v144 = mul i32 %v143, 146
  %v145 = mul i32 %v144, 147
  %v146 = mul i32 %v145, 148
  %v147 = mul i32 %v146, 149
  %v148 = mul i32 %v147, 150
  %v149 = mul i32 %v148, 151
  %v150 = mul i32 %v149, 152
  %v151 = mul i32 %v150, 153
  %v152 = mul i32 %v151, 154
  %v153 = mul i32 %v152, 155
  %v154 = mul i32 %v153, 156
  %v155 = mul i32 %v154, 157
  %v156 = mul i32 %v155, 158
  %v157 = mul i32 %v156, 159
  %v158 = mul i32 %v157, 160
  %v159 = mul i32 %v158, 161
  %v160 = mul i32 %v159, 162
  %v161 = mul i32 %v160, 163
  %v162 = mul i32 %v161, 164
  %v163 = mul i32 %v162, 165
  %v164 = mul i32 %v163, 166
  %v165 = mul i32 %v164, 167
  %v166 = mul i32 %v165, 168
  %v167 = mul i32 %v166, 169
  %v168 = mul i32 %v167, 170
  %v169 = mul i32 %v168, 171
  %v170 = mul i32 %v169, 172
  %v171 = mul i32 %v170, 173
  %v172 = mul i32 %v171, 174
  %v173 = mul i32 %v172, 175
  %v174 = mul i32 %v173, 176
  %v175 = mul i32 %v174, 177
  %v176 = mul i32 %v175, 178
  %v177 = mul i32 %v176, 179
  %v178 = mul i32 %v177, 180
  %v179 = mul i32 %v178, 181
  %v180 = mul i32 %v179, 182
  %v181 = mul i32 %v180, 183
  %v182 = mul i32 %v181, 184
  %v183 = mul i32 %v182, 185
  %v184 = mul i32 %v183, 186
  %v185 = mul i32 %v184, 187
  %v186 = mul i32 %v185, 188
  %v187 = mul i32 %v186, 189
  %v188 = mul i32 %v187, 190
  %v189 = mul i32 %v188, 191
  %v190 = mul i32 %v189, 192
  %v191 = mul i32 %v190, 193
  %v192 = mul i32 %v191, 194
  %v193 = mul i32 %v192, 195
  %v194 = mul i32 %v193, 196
  %v195 = mul i32 %v194, 197
  %v196 = mul i32 %v195, 198
  %v197 = mul i32 %v196, 199
  %v198 = mul i32 %v197, 200
  %v199 = mul i32 %v198, 201
  %v200 = mul i32 %v199, 202
  %v201 = mul i32 %v200, 203
  %v202 = mul i32 %v201, 204
  %v203 = mul i32 %v202, 205
  %v204 = mul i32 %v203, 206
  %v205 = mul i32 %v204, 207
  %v206 = mul i32 %v205, 208
  %v207 = mul i32 %v206, 209
  %v208 = mul i32 %v207, 210
  %v209 = mul i32 %v208, 211
  %v210 = mul i32 %v209, 212
  %v211 = mul i32 %v210, 213
  %v212 = mul i32 %v211, 214
  %v213 = mul i32 %v212, 215
  %v214 = mul i32 %v213, 216
  %v215 = mul i32 %v214, 217
  %v216 = mul i32 %v215, 218
  %v217 = mul i32 %v216, 219
  %v218 = mul i32 %v217, 220
  %v219 = mul i32 %v218, 221
  %v220 = mul i32 %v219, 222
  %v221 = mul i32 %v220, 223
  %v222 = mul i32 %v221, 224
  %v223 = mul i32 %v222, 225
  %v224 = mul i32 %v223, 226
  %v225 = mul i32 %v224, 227
  %v226 = mul i32 %v225, 228
  %v227 = mul i32 %v226, 229
  %v228 = mul i32 %v227, 230
  %v229 = mul i32 %v228, 231
  %v230 = mul i32 %v229, 232
  %v231 = mul i32 %v230, 233
  %v232 = mul i32 %v231, 234
  %v233 = mul i32 %v232, 235
  %v234 = mul i32 %v233, 236
  %v235 = mul i32 %v234, 237
  %v236 = mul i32 %v235, 238
  %v237 = mul i32 %v236, 239
  %v238 = mul i32 %v237, 240
  %v239 = mul i32 %v238, 241
  %v240 = mul i32 %v239, 242
  %v241 = mul i32 %v240, 243
  %v242 = mul i32 %v241, 244
  %v243 = mul i32 %v242, 245
  %v244 = mul i32 %v243, 246
  %v245 = mul i32 %v244, 247
  %v246 = mul i32 %v245, 248
  %v247 = mul i32 %v246, 249
  %v248 = mul i32 %v247, 250
  %v249 = mul i32 %v248, 251
  %v250 = mul i32 %v249, 252
  %v251 = mul i32 %v250, 253
  %v252 = mul i32 %v251, 254
  %v253 = mul i32 %v252, 255
  %v254 = mul i32 %v253, 256
  %v255 = mul i32 %v254, 257
  %v256 = mul i32 %v255, 258
  %v257 = mul i32 %v256, 259
  %v258 = mul i32 %v257, 260
  %v259 = mul i32 %v258, 261
  %v260 = mul i32 %v259, 262
  %v261 = mul i32 %v260, 263
  %v262 = mul i32 %v261, 264
  %v263 = mul i32 %v262, 265
  %v264 = mul i32 %v263, 266
  %v265 = mul i32 %v264, 267
  %v266 = mul i32 %v265, 268
  %v267 = mul i32 %v266, 269
  %v268 = mul i32 %v267, 270
  %v269 = mul i32 %v268, 271
  %v270 = mul i32 %v269, 272
  %v271 = mul i32 %v270, 273
  %v272 = mul i32 %v271, 274
  %v273 = mul i32 %v272, 275
  %v274 = mul i32 %v273, 276
  %v275 = mul i32 %v274, 277
  %v276 = mul i32 %v275, 278
  %v277 = mul i32 %v276, 279
  %v278 = mul i32 %v277, 280
  %v279 = mul i32 %v278, 281
  %v280 = mul i32 %v279, 282
  %v281 = mul i32 %v280, 283
  %v282 = mul i32 %v281, 284
  %v283 = mul i32 %v282, 285
  %v284 = mul i32 %v283, 286
  %v285 = mul i32 %v284, 287
  %v286 = mul i32 %v285, 288
  %v287 = mul i32 %v286, 289
  %v288 = mul i32 %v287, 290
  %v289 = mul i32 %v288, 291
  %v290 = mul i32 %v289, 292
  %v291 = mul i32 %v290, 293
  %v292 = mul i32 %v291, 294
  %v293 = mul i32 %v292, 295
  %v294 = mul i32 %v293, 296
  %v295 = mul i32 %v294, 297
  %v296 = mul i32 %v295, 298
  %next = add i32 %i, %v296
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
; CHECK:         icmp uge i32 {{.*}}, 2
; CHECK:         musttail call i32 @loopy.pinpoint(
; CHECK-NOT:     @__pinpoint_enter
; CHECK-LABEL: {{^}}}
; CHECK-LABEL: define i32 @hugeloopy(
; CHECK:         musttail call i32 @hugeloopy.pinpoint.body(
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
; CHECK:       define internal i32 @loopy.pinpoint(
; CHECK:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
; CHECK-NEXT:    call i32 @g(i32 %i)
; CHECK-NOT:   define {{.*}} @loopy.pinpoint.body(
; CHECK:       define internal i32 @hugeloopy.pinpoint.body(
; CHECK-NOT:   define {{.*}} @hugeloopy.pinpoint(

; LOOPS-LABEL: define i32 @big(
; LOOPS:         musttail call i32 @big.pinpoint.body(
; LOOPS-LABEL: define i32 @loopy(
; LOOPS:         icmp uge i32 {{.*}}, 2
; LOOPS:         musttail call i32 @loopy.pinpoint(
; LOOPS-NOT:     @__pinpoint_enter
; LOOPS-LABEL: {{^}}}
; LOOPS-LABEL: define i32 @hugeloopy(
; LOOPS:         musttail call i32 @hugeloopy.pinpoint(
; LOOPS-LABEL: {{^}}}
; LOOPS-NOT:   define {{.*}} @big.pinpoint(
; LOOPS:       define internal i32 @loopy.pinpoint(
; LOOPS-NOT:   define {{.*}} @loopy.pinpoint.body(
; LOOPS:       define internal i32 @hugeloopy.pinpoint(
; LOOPS-NOT:   define {{.*}} @hugeloopy.pinpoint.body(
