// SPDX-License-Identifier: MIT
/*
 * cost.c - what the armed probes cost, as calib.c measured it when the
 * process armed, and one kept duration of the entry net of it.  The
 * probes (probe.c) and the merge (thread.c) take the costs from here, the
 * estimates (sample.c) and the results (output.c) too.
 */
#include "rt.h"

double pp_cost_plain, pp_cost_clock, pp_cost_bias;
uint64_t pp_calib_ticks;

uint64_t pp_cost_net(uint64_t d, uint64_t plain, uint64_t clock)
{
	double net;

	if (pp_spec.keep_probes)
		return d;
	net = (double)d - pp_cost_bias - pp_cost_plain * (double)plain -
	      pp_cost_clock * (double)clock;
	return net > 0 ? (uint64_t)(net + 0.5) : 0;
}
