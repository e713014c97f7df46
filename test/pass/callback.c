// A call that passes a function of the program as an argument records it
// (abi.h: pp_table_call.callback, table version 4): qsort's comparator,
// which the C library calls back, a function handed to a helper of the
// program, the first of two; a call passing no function records none.
// RUN: %ppcc -O2 -g -fno-inline -c %s -o %t.o
// RUN: %dump %t.o | %FileCheck %s
// REQUIRES: pinpoint-layers
// RUN: %pp-layers --mangled --entry sort_all --depth 1 %t.o | %FileCheck --check-prefix=LAYERS %s
#include <stdlib.h>

typedef int (*cmp_fn)(const void *, const void *);

int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int cmp_rev(const void *a, const void *b)
{
	return cmp_int(b, a);
}

__attribute__((noinline)) void with_two(cmp_fn first, cmp_fn second, int *v, size_t n)
{
	qsort(v, n, sizeof(*v), first);
	qsort(v, n, sizeof(*v), second);
}

void sort_all(int *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_int);
	with_two(cmp_rev, cmp_int, v, n);
	free(v);
}

// The calls through the parameters pass no function the pass can name.
// CHECK:      fn with_two
// CHECK-NEXT:   call 0 direct qsort {{.*}}callback.c:25:2 timed
// CHECK-NEXT:   call 1 direct qsort {{.*}}callback.c:26:2 timed
// CHECK-NEXT: fn sort_all
// CHECK-NEXT:   call 0 direct qsort {{.*}}callback.c:31:2 callback=cmp_int timed
// CHECK-NEXT:   call 1 direct with_two {{.*}}callback.c:32:2 callback=cmp_rev timed
// CHECK-NEXT:   call 2 direct free {{.*}}callback.c:33:2 timed

// LAYERS:      layer 0
// LAYERS-NEXT:   sort_all ({{.*}}callback.c:29)
// LAYERS-NEXT:       0  qsort  {{.*}}callback.c:31:2  external  calls back cmp_int
// LAYERS-NEXT:       1  with_two  {{.*}}callback.c:32:2  calls back cmp_rev
// LAYERS-NEXT:       2  free  {{.*}}callback.c:33:2  external{{$}}
