/*
 * dl_main.c - loads ./libplug.so with dlopen and calls its plug_run().
 */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("./libplug.so", RTLD_NOW);
	void (*fn)(void);

	if (!h) {
		fprintf(stderr, "dl: %s\n", dlerror());
		return 1;
	}
	*(void **)&fn = dlsym(h, "plug_run");
	if (!fn) {
		fprintf(stderr, "dl: %s\n", dlerror());
		return 1;
	}
	fn();
	printf("ok\n");
	return 0;
}
