// SPDX-License-Identifier: MIT
/* dllib.c - the instrumented library dlhost.c loads. */
static volatile unsigned long lib_sink;

void lib_work(void)
{
	lib_sink++;
}
