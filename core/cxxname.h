/* SPDX-License-Identifier: MIT */
/*
 * cxxname.h - a demangled C++ function name as people read it.
 *
 *   std::priority_queue<...> hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true, false>(
 *       unsigned int, void const*, ...) const
 *   -> hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true,false>
 *
 * The return type, the parameter list and the qualifiers after it go; the
 * template arguments of library types and functions (std::, __gnu_cxx::) go
 * ("std::vector"); the user's own template arguments stay, without the spaces
 * after their commas.  [abi:...] tags go.  The reports print these names
 * (pinpoint/report/names.h); the JSON report keeps the whole ones.
 */
#ifndef PINPOINT_CXXNAME_H
#define PINPOINT_CXXNAME_H

#include <stddef.h>

/* Keep the parameter list and the qualifiers after it: overloads told apart. */
#define PP_CXX_PARAMS 1u

/*
 * The short name of demangled function name @dem into @buf (@size bytes,
 * NUL-terminated).  A name that is not a C++ function (a C name, "main") or
 * whose brackets do not pair up is copied as it is.  The short name is never
 * longer than @dem: strlen(@dem) + 1 bytes always hold it.  Returns 0,
 * -ENOSPC when @buf is too small (it then holds the name cut), or -ENOMEM.
 */
int pp_cxx_short_name(const char *dem, unsigned flags, char *buf, size_t size);

#endif /* PINPOINT_CXXNAME_H */
