// SPDX-License-Identifier: MIT
/*
 * rt_dlopen.c - a hand-instrumented program on the shared runtime that
 * loads an instrumented library after main started: both must be armed,
 * both listed as modules.  Usage: rt_dlopen LIBRARY
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

#include "unit_probes.h"

UNIT_FN(fn_host_work, "host_work", "test/runtime/rt_dlopen.c", 0);
UNIT_MODULE_CTOR()

static volatile unsigned long host_sink;

__attribute__((noinline)) static void host_work(void)
{
	UNIT_ENTER(fn_host_work, 0);
	host_sink++;
	UNIT_EXIT(fn_host_work, 0);
}

int main(int argc, char **argv)
{
	void (*work)(void);
	void *lib;

	if (argc != 2) {
		fprintf(stderr, "usage: rt_dlopen LIBRARY\n");
		return 2;
	}
	printf("pid %d\n", (int)getpid());
	host_work();
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "rt_dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&work = dlsym(lib, "dso_work");
	if (!work) {
		fprintf(stderr, "rt_dlopen: %s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < 5; i++)
		work();
	host_work();
	dlclose(lib);
	return 0;
}
