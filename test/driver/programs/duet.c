#define _GNU_SOURCE
/*
 * duet.c - the same work in both revisions (the current one 10 % more), for
 * the duet scenarios: each run appends a line to $PP_TEST_DUET_LOG,
 *
 *     REVISION START END CPUS...
 *
 * with its start and end on the monotonic clock (ns, the same for every
 * process) and the CPUs it may run on, written at once (O_APPEND).  With
 * PP_TEST_DUET_THREADS=N the entry does its work in N threads at once.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef CURRENT
#define REVISION "current"
#define WORK 5500000L
#else
#define REVISION "previous"
#define WORK 5000000L
#endif

volatile long sink;

static void *spin(void *arg)
{
	long n = (long)arg, s = 0;

	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	sink += s;
	return NULL;
}

void work(int threads)
{
	pthread_t t[16];
	int n = 0;

	for (int i = 1; i < threads && n < 16; i++)
		n += !pthread_create(&t[n], NULL, spin, (void *)WORK);
	spin((void *)WORK);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(void)
{
	const char *log = getenv("PP_TEST_DUET_LOG"), *t = getenv("PP_TEST_DUET_THREADS");
	int threads = t ? atoi(t) : 1;
	long long start = now_ns();
	char line[4096];
	cpu_set_t set;
	size_t len;
	int fd;

	for (int i = 0; i < 20; i++)
		work(threads);
	if (!log)
		return 0;
	len = (size_t)snprintf(line, sizeof(line), "%s %lld %lld", REVISION, start, now_ns());
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (int c = 0; c < CPU_SETSIZE && len < sizeof(line) - 16; c++)
			if (CPU_ISSET(c, &set))
				len += (size_t)snprintf(line + len, sizeof(line) - len, " %d", c);
	line[len++] = '\n';
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, line, len) < 0)
			len = 0;
		close(fd);
	}
	return 0;
}
