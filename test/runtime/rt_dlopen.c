// SPDX-License-Identifier: MIT
/*
 * rt_dlopen.c - a hand-instrumented program on the shared runtime that
 * loads an instrumented library after main started: both must be armed,
 * both listed as modules.  Usage: rt_dlopen LIBRARY [LOOPS]
 *
 * With LOOPS, the library is loaded, used (dso_work five times, dso_big
 * once) and unloaded LOOPS times instead.
 */
#include <stdlib.h>
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

static int loop(const char *path, int n)
{
	for (int i = 0; i < n; i++) {
		void (*work)(void), (*big)(void);
		void *lib = dlopen(path, RTLD_NOW);

		if (!lib) {
			fprintf(stderr, "rt_dlopen: %s\n", dlerror());
			return 1;
		}
		*(void **)&work = dlsym(lib, "dso_work");
		*(void **)&big = dlsym(lib, "dso_big");
		if (!work || !big)
			return 1;
		for (int k = 0; k < 5; k++)
			work();
		big();
		if (dlclose(lib))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	void (*work)(void);
	void *lib;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: rt_dlopen LIBRARY [LOOPS]\n");
		return 2;
	}
	printf("pid %d\n", (int)getpid());
	if (argc == 3)
		return loop(argv[1], atoi(argv[2]));
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
