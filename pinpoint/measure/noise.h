/* SPDX-License-Identifier: MIT */
/*
 * noise.h - what the machine does to the measurements that pinpoint can see:
 * its load and whether the CPU frequency is fixed.
 */
#ifndef PINPOINT_NOISE_H
#define PINPOINT_NOISE_H

#include "pinpoint/session/session.h"

/*
 * Warn (stderr, once each) when the 1-minute load average is above the
 * number of CPUs the runs may use (--cpu, else this process's affinity), and
 * when a cpufreq governor of one of those CPUs is not "performance" (where
 * /sys exposes it).  @proc and @sys are where /proc and /sys are (tests
 * give others).  Returns the number of warnings printed.
 */
int pp_noise_check(const struct pp_options *opt, const char *proc, const char *sys);

#endif /* PINPOINT_NOISE_H */
