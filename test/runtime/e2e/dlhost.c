// SPDX-License-Identifier: MIT
/*
 * dlhost.c - end-to-end: an instrumented program on the shared runtime loads
 * an instrumented library (dllib.c) with dlopen after main started.
 * Usage: dlhost LIBRARY
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void host_work(void)
{
	sink++;
}

int main(int argc, char **argv)
{
	void (*lib_work)(void);
	void *lib;

	if (argc != 2)
		return 2;
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	host_work();
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "dlhost: %s\n", dlerror());
		return 1;
	}
	*(void **)&lib_work = dlsym(lib, "lib_work");
	if (!lib_work)
		return 1;
	for (int i = 0; i < 7; i++)
		lib_work();
	return 0;
}
