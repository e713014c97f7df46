// SPDX-License-Identifier: MIT
//
// demangle.cpp - C++ names for display, from the C++ runtime's demangler.
//
// Each demangled name is kept for the life of the process, so callers may
// hold several at once (two in one printf) and from any thread.
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <mutex>
#include <string>
#include <unordered_set>

extern "C" const char *pp_demangle(const char *name);

extern "C" const char *pp_demangle(const char *name)
{
	static std::mutex lock;
	static std::unordered_set<std::string> *names = new std::unordered_set<std::string>;
	int status = 0;

	if (std::strncmp(name, "_Z", 2) != 0)
		return name;
	char *dem = abi::__cxa_demangle(name, nullptr, nullptr, &status);
	if (status != 0 || !dem)
		return name;
	const char *kept = name;
	try {
		std::lock_guard<std::mutex> guard(lock);
		// Elements of an unordered_set do not move when it grows.
		kept = names->insert(dem).first->c_str();
	} catch (...) {
		// Out of memory: the mangled name is still a name.
	}
	std::free(dem);
	return kept;
}
