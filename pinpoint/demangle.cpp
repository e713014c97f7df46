// SPDX-License-Identifier: MIT
//
// demangle.cpp - C++ names for display, from the C++ runtime's demangler.
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>

extern "C" const char *pp_demangle(const char *name);

// The result stays valid until the next call on the same thread.
extern "C" const char *pp_demangle(const char *name)
{
	static thread_local char *last;
	int status = 0;

	if (std::strncmp(name, "_Z", 2) != 0)
		return name;
	char *dem = abi::__cxa_demangle(name, nullptr, nullptr, &status);
	if (status != 0 || !dem)
		return name;
	std::free(last);
	last = dem;
	return dem;
}
