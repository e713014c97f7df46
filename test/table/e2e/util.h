/* SPDX-License-Identifier: MIT */
/* util.h - util.c's functions, for prog.c. */
#ifndef PPE_UTIL_H
#define PPE_UTIL_H

int util_scale(int v);
int helper_rec(int depth);

#endif
