// SPDX-License-Identifier: MIT
/*
 * duet.c - whether a session's runs go in duets, and on which CPUs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/measure/backend.h"
#include "pinpoint/measure/duet.h"
#include "pinpoint/log.h"

int pp_duet_allowed(const struct pp_options *opt, cpu_set_t *allowed)
{
	if (opt->cpu_list)
		*allowed = opt->cpus;
	else if (sched_getaffinity(0, sizeof(*allowed), allowed))
		CPU_ZERO(allowed);
	return CPU_COUNT(allowed);
}

/* The core of CPU @c under @sys: its package and core numbers, or the CPU itself. */
static long core_of(const char *sys, int c)
{
	long v[2] = {0, c};
	const char *name[2] = {"physical_package_id", "core_id"};

	for (int i = 0; i < 2; i++) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", sys, c,
			 name[i]);
		f = fopen(path, "r");
		if (!f)
			return c;
		if (fscanf(f, "%ld", &v[i]) != 1)
			v[i] = i ? c : 0;
		fclose(f);
	}
	return v[0] * 65536 + v[1];
}

int pp_duet_sides(const cpu_set_t *allowed, bool parallel, const char *sys, cpu_set_t side[2],
		  int cpu[2])
{
	static long cores[CPU_SETSIZE], core[CPU_SETSIZE];
	int ncores = 0, n = 0;

	CPU_ZERO(&side[0]);
	CPU_ZERO(&side[1]);
	cpu[0] = cpu[1] = -1;
	if (CPU_COUNT(allowed) < 2)
		return -ENOSPC;
	/* the cores in order of their first CPU; core[c]: the index of CPU c's */
	for (int c = 0; c < CPU_SETSIZE; c++) {
		long key;
		int k;

		if (!CPU_ISSET(c, allowed))
			continue;
		key = core_of(sys, c);
		for (k = 0; k < ncores && cores[k] != key; k++)
			;
		if (k == ncores)
			cores[ncores++] = key;
		core[c] = k;
	}
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int i;

		if (!CPU_ISSET(c, allowed))
			continue;
		/* two cores or more: cores alternate between the sides; one: its threads do */
		i = ncores > 1 ? (int)(core[c] % 2) : n % 2;
		n++;
		if (!parallel && CPU_COUNT(&side[i]))
			continue; /* one CPU a side: the first of each */
		CPU_SET(c, &side[i]);
		cpu[i] = CPU_COUNT(&side[i]) == 1 ? c : -1;
	}
	return ncores == 1;
}

/* How many CPUs the busiest discovery run kept busy: its CPU time over its wall time. */
static double busiest_run(const struct pp_session *s)
{
	double most = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct pp_run_record *r = &s->runs[i];

		/* too short to tell the CPU time's clock ticks from the work */
		if (r->st.wall_s >= 0.05 && r->st.cpu_s / r->st.wall_s > most)
			most = r->st.cpu_s / r->st.wall_s;
	}
	return most;
}

int pp_duet_choose(struct pp_session *s)
{
	const struct pp_options *opt = s->opt;
	bool given = opt->runs_given;
	double busy = busiest_run(s);
	bool parallel = busy > PP_DUET_PARALLEL;
	const char *sys;
	cpu_set_t allowed;
	int n, err;

	s->duet = false;
	s->duet_smt = false;
	s->duet_note[0] = '\0';
	if (opt->runs != PP_RUNS_DUET)
		return 0;
	if (pp_backend_of(s)->duet)
		return pp_backend_of(s)->duet(s);
	n = pp_duet_allowed(opt, &allowed);
	if (n < 2) { /* --runs duet given was refused with the options */
		pr_info("runs paired one after the other: one CPU is free for them (duet runs "
			"need two)");
		return 0;
	}
	if (parallel && !given) {
		pr_info("runs paired one after the other: the benchmark kept %.1f CPUs busy in its "
			"first runs, and in duet runs each would have %d of the %d (--runs duet "
			"to have them so)",
			busy, n / 2, n);
		return 0;
	}
	/* PINPOINT_SYSFS: where the CPUs' topology is read, /sys unless a test gives one */
	sys = getenv("PINPOINT_SYSFS");
	err = pp_duet_sides(&allowed, parallel, sys && *sys ? sys : "/sys", s->duet_cpus,
			    s->duet_cpu);
	if (err < 0)
		return 0;
	if (err == 1 && !given) {
		snprintf(s->duet_note, sizeof(s->duet_note),
			 "the CPUs free for them are hardware threads of one core, where two runs "
			 "at once would slow each other (--runs duet to have them so)");
		pr_info("runs paired one after the other: %s", s->duet_note);
		return 0;
	}
	if (err == 1) {
		s->duet_smt = true;
		snprintf(s->duet_note, sizeof(s->duet_note),
			 "on hardware threads of one core (--runs duet): each run slows the other, "
			 "more in some pairs than in others, and what that adds to a difference is "
			 "not known");
		pr_warn("duet runs %s", s->duet_note);
	}
	if (parallel)
		pr_warn("duet runs: the benchmark kept %.1f CPUs busy in its first runs, and each "
			"run has %d of the %d",
			busy, CPU_COUNT(&s->duet_cpus[0]), n);
	s->duet = true;
	pr_dbg("duet runs on CPUs %d and %d", s->duet_cpu[0], s->duet_cpu[1]);
	return 0;
}
