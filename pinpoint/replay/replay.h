/* SPDX-License-Identifier: MIT */
/*
 * replay.h - a session made again from its JSON report (--replay): the
 * recorded options, the revisions' tables (from their binaries, or the
 * program model, as recorded), the discover stage's rule, and every run's
 * values, given to the same search, settle, decide and report stages as a
 * measurement backend (measure/backend.h) in the order the session asked
 * for them.  Where the search asks for a run the recording does not have,
 * or arms one otherwise (the tool or the binaries changed since), the
 * replay stops with one line saying where.
 */
#ifndef PINPOINT_REPLAY_H
#define PINPOINT_REPLAY_H

#include <jansson.h>
#include <stdbool.h>

#include "core/util.h"
#include "pinpoint/measure/backend.h"
#include "pinpoint/model/model.h"
#include "pinpoint/session/platform.h"
#include "pinpoint/session/options.h"

struct pp_replay {
	char *path;
	json_t *root; /* the report, kept: the options' strings point into it */
	json_t *runs, *batches, *measurement, *revisions, *layouts, *time;
	size_t next;		/* the recorded run to give next */
	bool is_model;		/* recorded on a program model */
	struct pp_model model;	/* its tables, when so */
	struct pp_backend ops;	/* the replay's, named as the recording's backend */
	struct pp_argv words;	/* the recorded options as a command line */
	struct pp_options opt;	/* parsed from it, with the given report options */
	char *workdir;		/* the session's, as its armings name it */
	char *model_command[2]; /* a model's session's COMMAND: the model (main.c) */
};

/*
 * Read the report @given->replay into @rp and make its options, with
 * @given's --json, --html, --history, --quiet and --verbose.  0, or -EINVAL
 * after one line naming the file and what is wrong, -ENOMEM.
 */
int pp_replay_load(struct pp_replay *rp, const struct pp_options *given);

/* Make @s (its options @rp->opt) the recorded session's: directories, workdir, backend. */
int pp_replay_attach(struct pp_session *s, struct pp_replay *rp);

/* The platform the session was measured on, as recorded. */
void pp_replay_platform(const struct pp_replay *rp, struct pp_platform *p);

void pp_replay_free(struct pp_replay *rp);

#endif /* PINPOINT_REPLAY_H */
