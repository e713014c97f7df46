// One of two objects linked together by link.test.
#include "link.h"

int a_work(int x)
{
	return twice(x) + 1;
}
