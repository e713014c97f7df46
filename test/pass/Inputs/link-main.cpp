// The main program of link.test.
#include "link.h"

int main(int argc, char **argv)
{
	(void)argv;
	return a_work(argc) + b_work(argc) == 9 ? 0 : 1;
}
