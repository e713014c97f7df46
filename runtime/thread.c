// SPDX-License-Identifier: MIT
/*
 * thread.c - per-thread counter blocks and their merge into the totals.
 *
 * Each thread accumulates into its own thread-local block (no sharing, no
 * atomic read-modify-write on the hot path).  Its first armed probe lists
 * the block in a fixed registry and sets a pthread key whose destructor
 * merges the block when the thread ends; at exit the handler merges the
 * blocks still listed (threads still running, the main thread).  Whoever
 * takes a block out of the registry (an atomic exchange) merges it.  When the
 * registry is full a thread adds its finished executions straight to the
 * totals with atomic adds.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "rt.h"

__thread struct pp_thread pp_self;
struct pp_total pp_totals[PP_MAX_COUNTERS];
uint64_t pp_dropped;

static struct pp_thread *pp_registry[PP_MAX_THREADS];
static pthread_key_t pp_key;
static int pp_exiting;	 /* the exit handler has started collecting */
static int pp_collected; /* ... and has finished reading the blocks */
static int pp_merging;	 /* thread destructors merging right now */

enum pp_open { PP_OPEN_DROP, PP_OPEN_CLOSE };

/* Wait (bounded: the exit handler may never finish if the host is killed). */
static void wait_for(int *flag, int want)
{
	struct timespec ms = {0, 1000000};

	for (int i = 0; i < 2000 && __atomic_load_n(flag, __ATOMIC_SEQ_CST) != want; i++)
		nanosleep(&ms, NULL);
}

/*
 * Add block @t into the totals.  With PP_OPEN_CLOSE, executions still open
 * are counted up to @now: on other threads always (their stacks cannot be
 * inspected), on the exiting thread (@own) unless stack.c finds their frame
 * gone.  Otherwise they are lost.  Only the owner thread may clear its block.
 */
static void merge(struct pp_thread *t, enum pp_open open, uint64_t now, bool own)
{
	for (unsigned i = 0; i < PP_MAX_COUNTERS; i++) {
		struct pp_tcounter *c = &t->c[i];
		uint64_t sum = pp_ld(&c->sum), count = pp_ld(&c->count), lost = pp_ld(&c->lost);
		uint64_t ssum = pp_ld(&c->ssum), stimed = pp_ld(&c->stimed),
			 scount = pp_ld(&c->scount);
		uint64_t start = pp_ld(&c->start);
		bool sampled = pp_ld(&c->skip) != 0;

		if (pp_ld(&c->depth)) {
			if (open == PP_OPEN_CLOSE &&
			    (!own || pp_stack_live(pp_ld(&c->frame), pp_ld(&c->ret)) != 0)) {
				uint64_t d = start && now > start ? now - start : 0;

				if (!sampled) {
					sum += d;
					count++;
				} else {
					ssum += d;
					stimed += start != 0;
					scount++;
				}
				if ((int)i == pp_sample_counter)
					pp_sample(NULL, d);
			} else {
				lost++;
			}
		}
		if (count | scount | lost) {
			pp_add(&pp_totals[i].sum,
			       pp_sample_estimate(sum, count, ssum, stimed, scount));
			pp_add(&pp_totals[i].count, count + scount);
			pp_add(&pp_totals[i].timed, count + stimed);
			pp_add(&pp_totals[i].lost, lost);
		}
		if (own) {
			pp_st(&c->depth, 0);
			pp_st(&c->skip, 0);
			pp_st(&c->sum, 0);
			pp_st(&c->count, 0);
			pp_st(&c->lost, 0);
			pp_st(&c->ssum, 0);
			pp_st(&c->stimed, 0);
			pp_st(&c->scount, 0);
		}
	}
	pp_add(&pp_dropped, pp_ld(&t->dropped));
	if (own)
		pp_st(&t->dropped, 0);
}

static bool has_open(const struct pp_thread *t)
{
	for (unsigned i = 0; i < PP_MAX_COUNTERS; i++)
		if (t->c[i].depth)
			return true;
	return false;
}

/* pthread key destructor: the thread is ending. */
static void thread_end(void *p)
{
	struct pp_thread *t = p;
	bool mine;

	__atomic_add_fetch(&pp_merging, 1, __ATOMIC_SEQ_CST);
	mine = __atomic_exchange_n(&pp_registry[t->reg], NULL, __ATOMIC_SEQ_CST) == t;
	if (mine)
		merge(t, PP_OPEN_DROP, 0, true);
	__atomic_sub_fetch(&pp_merging, 1, __ATOMIC_SEQ_CST);
	/* the exit handler is reading this block: keep it alive until done */
	if (!mine)
		wait_for(&pp_collected, 1);
	/* probes run by later destructors go straight to the totals */
	t->state = PP_THREAD_DIRECT;
}

int pp_thread_init(void)
{
	return -pthread_key_create(&pp_key, thread_end);
}

void pp_thread_attach(struct pp_thread *t)
{
	t->state = PP_THREAD_DIRECT;
	if (__atomic_load_n(&pp_exiting, __ATOMIC_SEQ_CST))
		return;
	for (unsigned i = 0; i < PP_MAX_THREADS; i++) {
		struct pp_thread *none = NULL;

		if (pp_ld(&pp_registry[i]))
			continue;
		if (!__atomic_compare_exchange_n(&pp_registry[i], &none, t, false, __ATOMIC_SEQ_CST,
						 __ATOMIC_RELAXED))
			continue;
		t->reg = i;
		pp_sample_seed(t);
		t->state = PP_THREAD_LISTED;
		/* On failure (and always for the main thread, which runs no key
		 * destructors) the block stays listed for the exit handler. */
		(void)pthread_setspecific(pp_key, t);
		return;
	}
}

void pp_thread_collect(uint64_t now)
{
	__atomic_store_n(&pp_exiting, 1, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < PP_MAX_THREADS; i++) {
		struct pp_thread *t;

		if (!pp_ld(&pp_registry[i]))
			continue;
		t = __atomic_exchange_n(&pp_registry[i], NULL, __ATOMIC_SEQ_CST);
		if (!t)
			continue;
		if (t == &pp_self && has_open(t))
			pp_stack_snapshot(); /* only then: unwinding costs */
		merge(t, PP_OPEN_CLOSE, now, t == &pp_self);
	}
	__atomic_store_n(&pp_collected, 1, __ATOMIC_SEQ_CST);
	wait_for(&pp_merging, 0);
}
