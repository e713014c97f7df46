// SPDX-License-Identifier: MIT
/*
 * noise.c - warn about a loaded machine and an unfixed CPU frequency before
 * a session measures anything (noise.h).  Both make runs vary; pinpoint still
 * measures, and the report shows the variation it got (CoV per revision).
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "pinpoint/log.h"
#include "pinpoint/measure/noise.h"

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int pp_noise_check(const struct pp_options *opt, const char *proc, const char *sys)
{
	char path[512], line[256];
	cpu_set_t cpus;
	int ncpus, warned = 0;
	double load;

	if (opt->cpu_list)
		cpus = opt->cpus;
	else if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return 0;
	ncpus = CPU_COUNT(&cpus);
	snprintf(path, sizeof(path), "%s/loadavg", proc);
	if (ncpus > 0 && !read_line(path, line, sizeof(line)) && sscanf(line, "%lf", &load) == 1 &&
	    load > (double)ncpus) {
		pr_warn(
		    "the machine is loaded: 1-minute load average %.2f on the %d CPU%s the runs "
		    "use; expect noisier runs and more of them",
		    load, ncpus, ncpus == 1 ? "" : "s");
		warned++;
	}
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &cpus))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 sys, c);
		if (read_line(path, line, sizeof(line)) || !strcmp(line, "performance"))
			continue;
		pr_warn("the frequency of CPU %d is not fixed (cpufreq governor '%s', not "
			"'performance'); expect noisier runs",
			c, line);
		warned++;
		break;
	}
	return warned;
}
