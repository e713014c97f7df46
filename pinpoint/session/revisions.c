// SPDX-License-Identifier: MIT
/*
 * revisions.c - the two revisions' directories as the user named them:
 * existing, readable, and two directories, not one through a link.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "pinpoint/log.h"
#include "pinpoint/session/revisions.h"

static int check_dir(const char *what, const char *dir, char **abs)
{
	struct stat st;

	if (stat(dir, &st)) {
		pr_err("--%s %s: %s", what, dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		pr_err("--%s %s: not a directory", what, dir);
		return -ENOTDIR;
	}
	if (access(dir, R_OK | X_OK)) {
		pr_err("--%s %s: %s", what, dir, strerror(errno));
		return -errno;
	}
	*abs = realpath(dir, NULL);
	if (!*abs) {
		pr_err("--%s %s: %s", what, dir, strerror(errno));
		return -errno;
	}
	return 0;
}

/* --previous and --current: two directories, made absolute in the session. */
int pp_revisions_open(struct pp_session *s)
{
	const struct pp_options *opt = s->opt;

	if (check_dir("previous", opt->previous, &s->rev[PP_PREV].dir) ||
	    check_dir("current", opt->current, &s->rev[PP_CUR].dir))
		return -EINVAL;
	/* by device and inode: a path through a link or a bind mount is no other directory */
	if (pp_same_file(s->rev[PP_PREV].dir, s->rev[PP_CUR].dir) ||
	    !strcmp(s->rev[PP_PREV].dir, s->rev[PP_CUR].dir)) {
		pr_err("--previous and --current are the same directory (%s and %s)",
		       s->rev[PP_PREV].dir, s->rev[PP_CUR].dir);
		return -EINVAL;
	}
	return 0;
}
