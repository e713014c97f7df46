// Without -g: functions get the module's file name and line 0, calls no
// location.
// RUN: %ppcc -O0 -c %s -o %t.o
// RUN: %dump %t.o | %FileCheck %s
// RUN: %ppcc -O0 -g -c %s -o %t.g.o
// RUN: %dump %t.g.o | %FileCheck --check-prefix=DEBUG %s

int ext(int);

int f(int x)
{
	return ext(x);
}

// CHECK:      blob module=[[MOD:.*no-debug.c]] producer=
// CHECK-NEXT: fn f file=[[MOD]] line=0 linkage=external calls=1
// CHECK-NEXT:   call 0 direct ext -

// DEBUG:      fn f file=/{{.*}}no-debug.c line=10 linkage=external calls=1
// DEBUG-NEXT:   call 0 direct ext /{{.*}}no-debug.c:12:9
