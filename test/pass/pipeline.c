// The plugin puts the pass at the start of clang's default pipelines, at
// every -O level, before any inlining; each level yields a table.
// RUN: %ppcc -O0 -c -Xclang -fdebug-pass-manager %s -o %t.O0.o 2>&1 | %FileCheck --check-prefix=O0 %s
// RUN: %ppcc -O2 -c -Xclang -fdebug-pass-manager %s -o %t.O2.o 2>&1 | %FileCheck --check-prefix=O2 %s
// RUN: %ppcc -O1 -c %s -o %t.O1.o
// RUN: %ppcc -O3 -c %s -o %t.O3.o
// RUN: %ppcc -Os -c %s -o %t.Os.o
// RUN: %ppcc -Oz -c %s -o %t.Oz.o
// RUN: %dump %t.O0.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.O1.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.O2.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.O3.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.Os.o | %FileCheck --check-prefix=TABLE %s
// RUN: %dump %t.Oz.o | %FileCheck --check-prefix=TABLE %s

static int helper(int x)
{
	return x * 3;
}

int entry(int x)
{
	return helper(x) + helper(x + 1);
}

// O0-NOT: Running pass: {{.*}}Inliner
// O0:     Running pass: {{.*}}PinpointPass on [module]
// O0:     Running pass: AlwaysInlinerPass on [module]

// O2-NOT: Running pass: {{.*}}Inliner
// O2:     Running pass: {{.*}}PinpointPass on [module]
// O2:     Running pass: {{.*}}Inliner

// TABLE:      fn entry {{.*}} calls=2
// TABLE-NEXT:   call 0 direct helper -
// TABLE-NEXT:   call 1 direct helper -
// TABLE-NEXT: fn helper {{.*}} linkage=internal calls=0
