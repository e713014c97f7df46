// SPDX-License-Identifier: MIT
//
// shapes.cc - a small C++ program for the end-to-end tests of the table:
// virtual calls (indirect), a template and inline members (linkonce),
// exceptions (invoke), a namespace.
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace geo {

struct Shape {
	virtual ~Shape() = default;
	virtual double area() const = 0;
};

struct Square : Shape {
	explicit Square(double s) : side(s) {}
	double area() const override { return side * side; }
	double side;
};

template <typename T> T total(const std::vector<T> &v)
{
	T t = 0;
	for (const T &x : v)
		t += x;
	return t;
}

double check(double a)
{
	if (a < 0)
		throw std::runtime_error("negative area");
	return a;
}

} // namespace geo

int main(int argc, char **)
{
	geo::Square sq(argc + 1.5);
	const geo::Shape &s = sq;
	std::vector<double> areas;

	try {
		areas.push_back(geo::check(s.area()));
	} catch (const std::exception &e) {
		std::puts(e.what());
		return 1;
	}
	std::printf("%g\n", geo::total(areas));
	return 0;
}
