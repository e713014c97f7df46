// SPDX-License-Identifier: MIT
/*
 * durations.c - the entry's kept durations (samples=N): a global buffer
 * whose indexes are claimed with an atomic add, and the count of those
 * that found it full.  Filled by the exit probes (probe.c) and, at exit,
 * by the merge of the executions still running (thread.c).
 */
#include "rt.h"

uint64_t pp_samples[PP_MAX_SAMPLES];
uint32_t pp_nsamples;
uint32_t pp_samples_cap;
int pp_sample_counter = -1;
uint64_t pp_dropped;

/* Keep one duration of the entry, or count it as dropped. */
void pp_sample(struct pp_thread *t, uint64_t ticks)
{
	if (pp_ld(&pp_nsamples) < pp_samples_cap) {
		uint32_t i = pp_add(&pp_nsamples, 1);

		if (i < pp_samples_cap) {
			pp_st(&pp_samples[i], ticks);
			return;
		}
	}
	if (t && t->state == PP_THREAD_LISTED)
		pp_st(&t->dropped, t->dropped + 1);
	else
		pp_add(&pp_dropped, 1);
}
