// pinpoint-layers reads the call lists the pass wrote: the layers below
// main of an object built from this file.  main inlines mid, which inlines
// leaf: leaf's call of ext is a timed call of main (and of mid), shown
// under the calls it came through; leaf, named in layer 0, is in layer 1.
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
// CHECK-NEXT:   main ({{.*}}layers.c:21)
// CHECK-NEXT:       0  mid  {{.*}}layers.c:24:9  inlined
// CHECK-NEXT:       1    leaf  {{.*}}layers.c:18:9  inlined
// CHECK-NEXT:       2      ext  {{.*}}layers.c:13:9  external{{$}}
// CHECK-NEXT:       3  ext  {{.*}}layers.c:24:21  external
// CHECK-NEXT: layer 1
// CHECK-NEXT:   mid ({{.*}}layers.c:16)
// CHECK-NEXT:       0  leaf  {{.*}}layers.c:18:9  (seen)  inlined
// CHECK-NEXT:       1    ext  {{.*}}layers.c:13:9  external{{$}}
// CHECK-NEXT:   leaf ({{.*}}layers.c:11)
// CHECK-NEXT:       0  ext  {{.*}}layers.c:13:9  external  not timed
