// SPDX-License-Identifier: MIT
/*
 * schedule.c - the order of a batch's runs: warm-ups alternating, the
 * measured runs in a random order with as many of each revision
 * (schedule.h has why).
 */
#include <errno.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "pinpoint/schedule.h"

/* 32 bits: all of a seed that MT19937 uses, and exact as a JSON number. */
static unsigned long fresh_seed(void)
{
	uint32_t seed;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((unsigned long)ts.tv_nsec ^ (unsigned long)ts.tv_sec ^ (unsigned long)getpid()) &
	       0xffffffffUL;
}

static int make_rng(struct pp_session *s)
{
	if (s->rng)
		return 0;
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!s->rng)
		return -ENOMEM;
	if (!s->seeded) {
		s->seed = s->opt && s->opt->have_seed ? s->opt->seed : fresh_seed();
		s->seeded = true;
	}
	gsl_rng_set(s->rng, s->seed);
	return 0;
}

int pp_schedule(struct pp_session *s, int warmups, int runs, enum pp_rev_id *order)
{
	size_t n = 0;
	int err;

	for (int i = 0; i < warmups; i++) {
		order[n++] = i % 2 ? PP_CUR : PP_PREV;
		order[n++] = i % 2 ? PP_PREV : PP_CUR;
	}
	if (runs <= 0)
		return 0;
	if ((err = make_rng(s)))
		return err;
	for (int i = 0; i < runs; i++) {
		order[n + (size_t)i] = PP_PREV;
		order[n + (size_t)runs + (size_t)i] = PP_CUR;
	}
	gsl_ran_shuffle(s->rng, order + n, 2 * (size_t)runs, sizeof(*order));
	return 0;
}
