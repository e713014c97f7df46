// Shared by link-a.cpp and link-b.cpp (see link.test): a template both
// objects instantiate, so its copies end up in one comdat group.  Not
// inlined, so that both objects keep a copy, with its probes, flags and
// record.
template <typename T> __attribute__((noinline)) T twice(T v)
{
	return v + v;
}

int a_work(int x);
int b_work(int x);
