// Shared by link-a.cpp and link-b.cpp (see link.test): a template both
// objects instantiate, so its copies end up in one comdat group.
template <typename T> T twice(T v)
{
	return v + v;
}

int a_work(int x);
int b_work(int x);
