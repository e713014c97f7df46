/*
 * ambig_main.c - calls the two static step() functions of ambig_a.c and
 * ambig_b.c.
 */
#include <stdio.h>

void run_a(void);
void run_b(void);

int main(void)
{
	run_a();
	run_b();
	printf("ok\n");
	return 0;
}
