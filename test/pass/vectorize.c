// Probes are planted after the optimisation pipeline, so they do not stop
// the inliner and the loop vectoriser: a loop calling a small static helper
// is vectorised in the instrumented -O2 build exactly as in the plain one
// (same remarks, same vector body), and the helper's call in the loop
// leaves no probe behind.  The body is timed through loop's entry no-op
// (entry.c), so the vectorised body has no probe at all: loop only gains
// the attribute that gives it the no-op.
// RUN: %clang -O2 -fno-discard-value-names -S -emit-llvm %s -o %t.plain.ll
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O2 -fno-discard-value-names -S -emit-llvm %s -o %t.pp.ll
// RUN: %FileCheck --check-prefixes=CHECK,PLAIN %s < %t.plain.ll
// RUN: %FileCheck --check-prefixes=CHECK,PP %s < %t.pp.ll
// RUN: %clang -O2 -c %s -o %t.plain.o -Rpass=loop-vectorize -Rpass-missed=loop-vectorize 2> %t.plain.rem
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O2 -c %s -o %t.pp.o -Rpass=loop-vectorize -Rpass-missed=loop-vectorize 2> %t.pp.rem
// RUN: %FileCheck --check-prefix=REMARK %s < %t.pp.rem
// RUN: diff %t.plain.rem %t.pp.rem

static int scale(int x)
{
	return 3 * x + 1;
}

void loop(int *restrict a, const int *restrict b, int n)
{
	for (int i = 0; i < n; i++)
		a[i] = scale(b[i]);
}

// REMARK: remark: vectorized loop (vectorization width: {{[0-9]+}}, interleaved count: {{[0-9]+}})
// REMARK-NOT: remark:

// PLAIN-NOT:   __pinpoint
// PLAIN-LABEL: define {{.*}}void @loop(
// PP-LABEL:    define {{.*}}void @loop(
// PP-SAME:       #[[ATTR:[0-9]+]] {
// PP-NOT:        __pinpoint
// CHECK:       vector.body:
// CHECK:         load <4 x i32>
// CHECK:         {{mul|shl}} {{.*}}<4 x i32>
// CHECK:         store <4 x i32>
// PP-NOT:        __pinpoint
// CHECK-NOT:     @scale(
// CHECK-LABEL: {{^}}}
// PP-LABEL:    define internal void @loop.pinpoint.timed(
// PP:            call void asm sideeffect "\09.pushsection pinpoint_jumps
// PP:            call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 0)
// PP-NEXT:       call void {{.*}}getelementptr (i8, {{.*}}@loop{{.*}}, i64 5)
// PP-NEXT:       call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 0)
// PP:          attributes #[[ATTR]] = { {{.*}}"patchable-function-entry"="5"
