// pinpoint-layers reads the call lists the pass wrote: the layers below
// main of an executable built from this file.
// REQUIRES: pinpoint-layers
// RUN: %ppcc -O2 -g -c %s -o %t.o
// RUN: %pp-layers --mangled --entry main --depth 2 %t.o | %FileCheck %s

int ext(int);

static int leaf(int x)
{
	return ext(x) + 1;
}

int mid(int x)
{
	return leaf(x) * 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	return mid(argc) + ext(argc);
}

// CHECK:      layer 0
// CHECK-NEXT:   main ({{.*}}layers.c:19)
// CHECK-NEXT:       0  mid  {{.*}}layers.c:22:9
// CHECK-NEXT:       1  ext  {{.*}}layers.c:22:21  external
// CHECK-NEXT: layer 1
// CHECK-NEXT:   mid ({{.*}}layers.c:14)
// CHECK-NEXT:       0  leaf  {{.*}}layers.c:16:9
// CHECK-NEXT: layer 2
// CHECK-NEXT:   leaf ({{.*}}layers.c:9)
// CHECK-NEXT:       0  ext  {{.*}}layers.c:11:9  external
