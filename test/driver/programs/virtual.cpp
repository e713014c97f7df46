/*
 * virtual.cpp - a C++ virtual call: shade() asks 2000 shapes for their
 * area, squares and circles in turns, through Shape::area().  In the
 * current revision (-DCURRENT) Circle::area() costs 8 units more a call;
 * Square::area() is unchanged.  The chain must name the override.
 */
#include <cstdio>
#include <memory>
#include <vector>

#define CALLS 2000
#define UNIT 1000L
#ifdef CURRENT
#define EXTRA (8 * UNIT)
#else
#define EXTRA 0
#endif
#define NOINLINE __attribute__((noinline))

volatile long sink;

#define spin(n)                                                                                    \
	do {                                                                                       \
		for (long i_ = 0; i_ < (n); i_++)                                                  \
			sink += i_;                                                                \
	} while (0)

struct Shape {
	virtual ~Shape() = default;
	virtual long area() const = 0;
};

struct Square : Shape {
	long side = 3;
	NOINLINE long area() const override
	{
		spin(UNIT);
		return side * side;
	}
};

struct Circle : Shape {
	long radius = 2;
	NOINLINE long area() const override // slower in the current revision
	{
		spin(UNIT + EXTRA);
		return 3 * radius * radius;
	}
};

/* Made at run time, so that the compiler cannot tell where shade()'s call goes. */
std::vector<std::unique_ptr<Shape>> shapes;

/* The one virtual call, in a loop. */
NOINLINE long shade()
{
	long s = 0;

	for (const auto &p : shapes)
		s += p->area();
	return s;
}

NOINLINE void render()
{
	spin(200 * UNIT);
	sink += shade();
}

int main()
{
	for (int i = 0; i < CALLS; i++) {
		if (i % 2)
			shapes.push_back(std::make_unique<Circle>());
		else
			shapes.push_back(std::make_unique<Square>());
	}
	render();
	std::printf("%d\n", sink != 0);
	return 0;
}
