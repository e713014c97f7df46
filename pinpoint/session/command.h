/* SPDX-License-Identifier: MIT */
/*
 * command.h - COMMAND remembered for the next session on a build
 * directory: $XDG_CACHE_HOME/pinpoint/commands (command.c).
 */
#ifndef PINPOINT_COMMAND_H
#define PINPOINT_COMMAND_H

#include <stddef.h>

/*
 * Remember @argv for sessions on @dir (the current revision's).  0, or
 * -errno with one line in @why; @path gets the file's path (@len bytes).
 */
int pp_command_remember(const char *dir, char **argv, char *path, size_t len, char *why,
			size_t wlen);

/*
 * The command remembered for @dir, its strings in *@storage (both
 * malloc'ed), or NULL: none remembered (@why empty), or none that may be
 * used (@why says why).
 */
char **pp_command_recall(const char *dir, char **storage, char *why, size_t wlen);

#endif /* PINPOINT_COMMAND_H */
