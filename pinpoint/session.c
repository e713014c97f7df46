// SPDX-License-Identifier: MIT
/*
 * session.c - release what a session holds.
 */
#include <stdlib.h>

#include "pinpoint/session.h"

void pp_session_free(struct pp_session *s)
{
	for (size_t i = 0; i < s->nq; i++) {
		free(s->q[i]->series[0].v);
		free(s->q[i]->series[1].v);
		free(s->q[i]);
	}
	free(s->q);
	for (size_t i = 0; i < s->nbatches; i++) {
		free(s->batches[i].qids);
		free(s->batches[i].arming[0]);
		free(s->batches[i].arming[1]);
	}
	free(s->batches);
	for (size_t i = 0; i < s->nruns; i++)
		free(s->runs[i].values);
	free(s->runs);
	for (size_t i = 0; i < s->nsteps; i++)
		free(s->steps[i].detail);
	free(s->steps);
	for (int r = 0; r < 2; r++) {
		free(s->rev[r].dir);
		free(s->rev[r].entry_spec);
		pp_program_free(&s->rev[r].prog);
	}
	free(s->failure);
}
