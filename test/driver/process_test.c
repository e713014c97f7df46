// SPDX-License-Identifier: MIT
/*
 * process_test.c - runs made at the same time (core/process.c,
 * pp_process_run_set()) and the CPUs of a duet's two sides (pinpoint/measure/duet.c,
 * pp_duet_sides()) on a made-up /sys.
 *
 *   - two children run at once: one waits on a FIFO that the other writes,
 *     which ends only if both run together (each has a time limit);
 *   - each child's time limit is its own: one killed, the other ends well;
 *   - a child that cannot be started has its error, the others run;
 *   - the CPU time of a busy child is counted, and its CPUs are the ones given;
 *   - no set of 0, or of more than PP_PROCESS_SET_MAX;
 *   - the sides: one CPU each on two cores (not two threads of one), half the
 *     cores each for a parallel benchmark, one core's threads split, and no
 *     sides with one CPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/process.h"
#include "pinpoint/measure/duet.h"

#include "check.h"

int pp_verbose = -1; /* the driver's, from main.c: quiet here */

static void check_together(const char *dir)
{
	char fifo[4096], wait_cmd[4200], write_cmd[4200];
	char *const reader[] = {"sh", "-c", wait_cmd, NULL};
	char *const writer[] = {"sh", "-c", write_cmd, NULL};
	struct pp_process p[2] = {
	    {.argv = reader, .out = -1, .err = -1, .group = true, .timeout_s = 20},
	    {.argv = writer, .out = -1, .err = -1, .group = true, .timeout_s = 20},
	};
	struct pp_run_status st[2];
	int err[2], ret;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(!mkfifo(fifo, 0600), "mkfifo %s: %s", fifo, strerror(errno));
	snprintf(wait_cmd, sizeof(wait_cmd), "read x < '%s' && test \"$x\" = hello", fifo);
	snprintf(write_cmd, sizeof(write_cmd), "echo hello > '%s'", fifo);
	ret = pp_process_run_set(p, 2, st, err);
	CHECK(!ret && !err[0] && !err[1], "set: %d, children %d %d", ret, err[0], err[1]);
	for (int i = 0; i < 2; i++)
		CHECK(st[i].exited && !st[i].exit_code && !st[i].timed_out,
		      "child %d: exited %d status %d timed out %d (they did not run together)", i,
		      st[i].exited, st[i].exit_code, st[i].timed_out);
	unlink(fifo);
}

static void check_own_limits(void)
{
	char *const slow[] = {"sleep", "30", NULL};
	char *const quick[] = {"true", NULL};
	char *const none[] = {"/nonexistent/pinpoint-test", NULL};
	struct pp_process p[3] = {
	    {.argv = slow, .out = -1, .err = -1, .group = true, .timeout_s = 0.3},
	    {.argv = quick, .out = -1, .err = -1, .group = true, .timeout_s = 20},
	    {.argv = none, .out = -1, .err = -1, .group = true, .timeout_s = 20},
	};
	struct pp_run_status st[3];
	int err[3], ret = pp_process_run_set(p, 3, st, err);

	CHECK(!ret, "set: %d", ret);
	CHECK(!err[0] && st[0].timed_out && st[0].wall_s < 10, "slow child: err %d, timed out %d",
	      err[0], st[0].timed_out);
	CHECK(!err[1] && st[1].exited && !st[1].exit_code && !st[1].timed_out,
	      "quick child: err %d, exited %d, timed out %d", err[1], st[1].exited,
	      st[1].timed_out);
	CHECK(err[2] == -ENOENT, "missing program: %d, want %d", err[2], -ENOENT);
	CHECK(pp_process_run_set(p, 0, st, err) == -EINVAL, "a set of none");
	CHECK(pp_process_run_set(p, PP_PROCESS_SET_MAX + 1, st, err) == -EINVAL,
	      "a set of more than PP_PROCESS_SET_MAX");
}

static void check_cpu(const char *dir)
{
	char path[4096], cmd[4300], line[256] = "";
	char *const busy[] = {"sh", "-c", cmd, NULL};
	struct pp_process p = {.argv = busy, .out = -1, .err = -1, .group = true, .timeout_s = 60};
	struct pp_run_status st;
	cpu_set_t allowed, one;
	int cpu = -1, err;
	FILE *f;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
		if (CPU_ISSET(c, &allowed))
			cpu = c;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	p.cpus = &one;
	snprintf(path, sizeof(path), "%s/cpus", dir);
	snprintf(cmd, sizeof(cmd),
		 "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; "
		 "grep Cpus_allowed_list /proc/self/status > '%s'",
		 path);
	err = pp_process_run_set(&p, 1, &st, &err) ?: err;
	CHECK(!err && st.exited && !st.exit_code, "busy child: %d", err);
	CHECK(st.cpu_s > 0.05 && st.cpu_s <= st.wall_s * 1.05 + 0.02,
	      "busy child: %.3f s of CPU in %.3f s", st.cpu_s, st.wall_s);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	{
		char want[64];

		snprintf(want, sizeof(want), "Cpus_allowed_list:\t%d\n", cpu);
		CHECK(!strcmp(line, want), "CPUs: '%s', want '%s'", line, want);
	}
	unlink(path);
}

/* A /sys under @dir whose CPU c has core @core[c] (one package). */
static void make_sys(const char *dir, const int *core, int n)
{
	char path[4096];

	mkdir(dir, 0700);
	for (int c = 0; c < n; c++) {
		FILE *f;

		if (snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology", dir, c) >=
		    (int)sizeof(path) - 32)
			return;
		for (char *p = path + strlen(dir) + 1; *p; p++)
			if (*p == '/') {
				*p = 0;
				mkdir(path, 0700);
				*p = '/';
			}
		mkdir(path, 0700);
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/core_id", dir,
			 c);
		f = fopen(path, "w");
		if (f) {
			fprintf(f, "%d\n", core[c]);
			fclose(f);
		}
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/topology/physical_package_id", dir, c);
		f = fopen(path, "w");
		if (f) {
			fprintf(f, "0\n");
			fclose(f);
		}
	}
}

static cpu_set_t cpus_of(unsigned long mask)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	for (int c = 0; c < 64; c++)
		if (mask >> c & 1)
			CPU_SET(c, &s);
	return s;
}

static unsigned long mask_of(const cpu_set_t *s)
{
	unsigned long m = 0;

	for (int c = 0; c < 64; c++)
		if (CPU_ISSET(c, s))
			m |= 1UL << c;
	return m;
}

static void check_sides(const char *dir)
{
	/* 8 CPUs, 4 cores: CPU c and c + 4 are the two threads of core c % 4 (as x86 numbers
	 * them) */
	static const int cores[8] = {0, 1, 2, 3, 0, 1, 2, 3};
	char sys[4096];
	cpu_set_t side[2], all = cpus_of(0xff), two_threads = cpus_of(0x11), one = cpus_of(0x4);
	int cpu[2];

	snprintf(sys, sizeof(sys), "%s/sys", dir);
	make_sys(sys, cores, 8);
	CHECK(pp_duet_sides(&all, false, sys, side, cpu) == 0, "sides of 8 CPUs, on two cores");
	CHECK(cpu[0] == 0 && cpu[1] == 1 && mask_of(&side[0]) == 0x1 && mask_of(&side[1]) == 0x2,
	      "one CPU a side: %d and %d, want 0 and 1 (two cores)", cpu[0], cpu[1]);
	CHECK(pp_duet_sides(&two_threads, false, sys, side, cpu) == 1 && cpu[0] == 0 && cpu[1] == 4,
	      "one core's two threads: %d and %d, said to be one core's", cpu[0], cpu[1]);
	CHECK(!pp_duet_sides(&all, true, sys, side, cpu), "parallel sides");
	CHECK(mask_of(&side[0]) == 0x55 && mask_of(&side[1]) == 0xaa && cpu[0] == -1 &&
		  cpu[1] == -1,
	      "parallel: sides %#lx and %#lx, want cores 0, 2 (0x55) and 1, 3 (0xaa)",
	      mask_of(&side[0]), mask_of(&side[1]));
	CHECK(pp_duet_sides(&two_threads, true, sys, side, cpu) == 1 && mask_of(&side[0]) == 0x1 &&
		  mask_of(&side[1]) == 0x10,
	      "parallel, one core: %#lx and %#lx", mask_of(&side[0]), mask_of(&side[1]));
	CHECK(pp_duet_sides(&one, false, sys, side, cpu) == -ENOSPC, "one CPU has no sides");
	/* no topology: each CPU its own core */
	snprintf(sys, sizeof(sys), "%s/nosys", dir);
	CHECK(!pp_duet_sides(&two_threads, false, sys, side, cpu) && cpu[0] == 0 && cpu[1] == 4,
	      "no topology: %d and %d", cpu[0], cpu[1]);
}

int main(void)
{
	char dir[] = "/tmp/pp-process-test.XXXXXX", cmd[64];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	check_together(dir);
	check_own_limits();
	check_cpu(dir);
	check_sides(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return report("process_test");
}
