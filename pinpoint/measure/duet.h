/* SPDX-License-Identifier: MIT */
/*
 * duet.h - duet runs: the two runs of a pair at the same time, each on a CPU
 * of its own, released together (core/process.h), so that what the host
 * does to one it does to the other.  L. Bulej, V. Horky, P. Tuma, F. Farquet,
 * A. Prokopec, "Duet Benchmarking: Improving Measurement Accuracy in the
 * Cloud", ICPE 2020.
 *
 * Which revision runs on which CPU follows the pair's order, which
 * schedule.c draws at random with as many of each order: each revision
 * runs on each of the two CPUs in half the pairs, in a random sequence, so
 * that a difference between the CPUs (one takes the interrupts, one is a
 * slower core) is a fair draw for each pair's sign, as the host's moments
 * are in pairs run one after the other.  The statistics are the paired ones
 * (doc/statistics.md, "Duet runs").
 */
#ifndef PINPOINT_DUET_H
#define PINPOINT_DUET_H

#include <sched.h>
#include <stdbool.h>

#include "pinpoint/session/session.h"

/* A run that keeps this many CPUs busy on average (CPU time over wall time)
 * is taken for a parallel program: duet runs would halve what it has. */
#define PP_DUET_PARALLEL 1.25

/* The CPUs runs may use: --cpu's, else pinpoint's own affinity; how many. */
int pp_duet_allowed(const struct pp_options *opt, cpu_set_t *allowed);

/*
 * Split @allowed into the two sides of a duet, @side[0] and @side[1]: one
 * CPU each, on two different cores where the topology under @sys (a
 * /sys, for tests) shows two, unless @parallel, then half the cores each
 * (a core's hardware threads on one side).  @cpu[i] is side i's one CPU,
 * -1 when it has several.  0, 1 when the two sides are hardware threads of
 * one core (the only one @allowed has), or -ENOSPC with fewer than two CPUs.
 */
int pp_duet_sides(const cpu_set_t *allowed, bool parallel, const char *sys, cpu_set_t side[2],
		  int cpu[2]);

/*
 * After the discovery runs: whether the session's runs are duets
 * (s->duet, s->duet_cpus), as --runs asks and the machine allows; one line
 * says why not when duet was the default (--runs duet given with one CPU
 * was refused with the options).  Returns 0.
 */
int pp_duet_choose(struct pp_session *s);

#endif /* PINPOINT_DUET_H */
