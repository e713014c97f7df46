// The plugin puts the early phase (call lists) at the start of clang's
// default pipelines, at every -O level, before any inlining, and the late
// phase (probes, table) after the whole optimisation pipeline; each level
// yields the same call lists.  So do the ThinLTO and full LTO pre-link
// pipelines.
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O0 -c -Xclang -fdebug-pass-manager %s -o %t.O0.o 2>&1 | %FileCheck --check-prefix=O0 %s
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O2 -c -Xclang -fdebug-pass-manager %s -o %t.O2.o 2>&1 | %FileCheck --check-prefix=O2 %s
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O1 -c %s -o %t.O1.o
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O3 -c %s -o %t.O3.o
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -Os -c %s -o %t.Os.o
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -Oz -c %s -o %t.Oz.o
// RUN: %dump %t.O0.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.O1.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.O2.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.O3.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.Os.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.Oz.o | %FileCheck --check-prefix=TABLE %s
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O2 -flto=thin -c -Xclang -fdebug-pass-manager %s -o %t.thin.o 2>&1 | %FileCheck --check-prefix=O2 %s
// RUN: env PINPOINT_PASS_CLONE=0 %ppcc -O2 -flto -c -Xclang -fdebug-pass-manager %s -o %t.full.o 2>&1 | %FileCheck --check-prefix=O2 %s
// RUN: env PINPOINT_PASS_ASM_PROBES=0 PINPOINT_PASS_ENTRY=0 PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %ppcc -O0 -c -S -emit-llvm %s -o - | %FileCheck --check-prefix=IR-O0 %s
// RUN: env PINPOINT_PASS_ASM_PROBES=0 PINPOINT_PASS_ENTRY=0 PINPOINT_PASS_CLONE=0 PINPOINT_PASS_STUB=0 %ppcc -O2 -c -S -emit-llvm %s -o - | %FileCheck --check-prefix=IR-O2 %s

static int helper(int x)
{
	return x * 3;
}

int entry(int x)
{
	return helper(x) + helper(x + 1);
}

// O0-NOT: Running pass: {{.*}}Inliner
// O0:     Running pass: PinpointRecordPass on [module]
// O0:     Running pass: AlwaysInlinerPass on [module]
// O0:     Running pass: PinpointProbePass on [module]

// O2-NOT: Running pass: {{.*}}Inliner
// O2:     Running pass: PinpointRecordPass on [module]
// O2:     Running pass: {{.*}}Inliner
// O2:     Running pass: PinpointProbePass on [module]
// O2-NOT: Running pass: {{.*}}Inliner
// O2-NOT: Running pass: Pinpoint

// TABLE:      fn entry {{.*}} calls=2
// TABLE-NEXT:   call 0 direct helper -
// TABLE-NEXT:   call 1 direct helper -
// TABLE-NEXT: fn helper {{.*}} linkage=internal calls=0

// At -O0 helper is called and probed; at -O2 it is inlined and its calls
// have no probes.
// IR-O0-LABEL: define {{.*}} @entry(
// IR-O0:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
// IR-O0:         call {{.*}} @helper(
// IR-O0-LABEL: define internal {{.*}} @helper(
// IR-O0:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 0)
// IR-O2-LABEL: define {{.*}} @entry(
// IR-O2:         call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 0)
// IR-O2-NOT:     call {{(preserve_mostcc )?}}void @__pinpoint_enter{{(_fast)?}}({{.*}}, i32 1)
// IR-O2-NOT:     @helper(
// IR-O2:         call {{(preserve_mostcc )?}}void @__pinpoint_exit{{(_fast)?}}({{.*}}, i32 0)
// IR-O2-NEXT:    br label
// IR-O2-NOT:     define {{.*}} @helper(
