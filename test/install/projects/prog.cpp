// A small C++ program for the installation tests: main -> work -> leaf.
#include <vector>

static int leaf(int x)
{
	return x * 2;
}

// Out of line: an inlined work() would have no probes to arm.
__attribute__((noinline)) int work(const std::vector<int> &v)
{
	int s = 0;

	for (int x : v)
		s += leaf(x);
	return s;
}

int main()
{
	std::vector<int> v(10, 1);

	return work(v) == 20 ? 0 : 1;
}
