// A small module for dump-checks.test.
int ext(int);

int small(int x)
{
	return ext(x);
}
