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
 *
 * An indirect call's targets (target.c) are merged with their counter,
 * the count of delay='s waits (probe.c) with the block.
 *
 * The totals are sums of what the blocks keep (struct pp_total), the
 * estimates are taken from them at the end (sample.c).  skip=K keeps a copy
 * of them, the live blocks merged in, when the entry's K-th execution ends
 * (pp_skip_take()): the results are the difference.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "rt.h"

struct pp_total pp_totals[PP_MAX_COUNTERS];
struct pp_total pp_skipped[PP_MAX_COUNTERS];
int pp_skip_taken;
uint64_t pp_delayed;
uint64_t pp_delayed_skipped;

static struct pp_thread *pp_registry[PP_MAX_THREADS];
static pthread_key_t pp_key;
static int pp_exiting;	 /* the exit handler has started collecting */
static int pp_collected; /* ... and has finished reading the blocks */
static int pp_merging;	 /* thread destructors merging right now */
static int pp_merges;	 /* ... and how many have merged */
static int pp_skipping;	 /* pp_skip_take() is reading the blocks */

enum pp_open { PP_OPEN_DROP, PP_OPEN_CLOSE };

/* Wait (bounded: the exit handler may never finish if the host is killed). */
static void wait_for(int *flag, int want)
{
	struct timespec ms = {0, 1000000};

	for (int i = 0; i < 2000 && __atomic_load_n(flag, __ATOMIC_SEQ_CST) != want; i++)
		nanosleep(&ms, NULL);
}

/* The finished executions @c keeps (read as they are: another thread's
 * block may be changing). */
static void read_counter(const struct pp_tcounter *c, struct pp_total *v)
{
#define PP_READ(f) v->f = pp_ld(&c->f);
	PP_TOTAL_FIELDS(PP_READ)
#undef PP_READ
}

/* @sum += @v, @sum private (@atomic 0) or the global totals (1). */
static void add_total(struct pp_total *sum, const struct pp_total *v, bool atomic)
{
#define PP_ADD(f)                                                                                  \
	if (atomic)                                                                                \
		pp_add(&sum->f, v->f);                                                             \
	else                                                                                       \
		sum->f += v->f;
	PP_TOTAL_FIELDS(PP_ADD)
#undef PP_ADD
}

/* By the block's own thread: the exit handler or pp_skip_take() may be
 * reading it. */
static void clear_counter(struct pp_tcounter *c)
{
	pp_st(&c->depth, 0);
	pp_st(&c->skip, 0);
#define PP_CLEAR(f) pp_st(&c->f, 0);
	PP_TOTAL_FIELDS(PP_CLEAR)
#undef PP_CLEAR
}

/*
 * Add block @t into the totals.  With PP_OPEN_CLOSE, executions still open
 * are counted up to @now: on other threads always (their stacks cannot be
 * inspected), on the exiting thread (@own) unless stack.c finds their frame
 * gone.  Otherwise they are lost.  Only the owner thread may clear its block.
 */
static void merge(struct pp_thread *t, enum pp_open open, uint64_t now, bool own)
{
	uint64_t tplain = pp_ld(&t->plain), tclock = pp_ld(&t->clock);

	for (unsigned i = 0; i < PP_MAX_COUNTERS; i++) {
		struct pp_tcounter *c = &t->c[i];
		uint64_t start = pp_ld(&c->start);
		bool sampled = pp_ld(&c->skip) != 0;
		struct pp_total v;

		read_counter(c, &v);
		if (pp_ld(&c->depth)) {
			if (open == PP_OPEN_CLOSE &&
			    (!own || pp_stack_live(pp_ld(&c->frame), pp_ld(&c->ret)) != 0)) {
				uint64_t d = 0, plain = 0, clock = 0;

				if (start) {
					d = now > start ? now - start : 0;
					plain = tplain - pp_ld(&c->plain0);
					clock = tclock - pp_ld(&c->clock0);
				}
				if (!sampled) {
					v.sum += d;
					v.count++;
					v.plain += plain;
					v.clock += clock;
				} else {
					if (start) {
						v.ssum += d;
						v.stimed++;
						v.splain += plain;
						v.sclock += clock;
					}
					v.scount++;
				}
				if ((int)i == pp_sample_counter)
					pp_sample(NULL, pp_cost_net(d, plain, clock));
			} else {
				v.lost++;
			}
		}
		if (i < PP_MAX_SLOTS)
			pp_target_merge(t, i, &v, own);
		if (v.count | v.scount | v.lost)
			add_total(&pp_totals[i], &v, true);
		if (own)
			clear_counter(c);
	}
	pp_add(&pp_dropped, pp_ld(&t->dropped));
	pp_add(&pp_delayed, pp_ld(&t->delayed));
	if (own) {
		pp_st(&t->dropped, 0);
		pp_st(&t->delayed, 0);
	}
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
	__atomic_add_fetch(&pp_merges, 1, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&pp_merging, 1, __ATOMIC_SEQ_CST);
	/* the exit handler is reading this block: keep it alive until done */
	if (!mine)
		wait_for(&pp_collected, 1);
	/* so may pp_skip_take(), which found it listed */
	wait_for(&pp_skipping, 0);
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

/*
 * The totals of every counter now, the blocks still listed merged in (their
 * finished executions only), into pp_skipped.  A thread that ends meanwhile
 * moves its block from the registry to the totals: the copy is taken again
 * (pp_merging, pp_merges), so that it is counted once.  Other threads'
 * blocks are read while they run, relaxed: an execution that ends during
 * the copy may be in it or not.  Not taken once the exit handler has begun.
 */
void pp_total_read(const struct pp_total *tot, struct pp_total *v)
{
#define PP_READ(f) v->f = pp_ld(&tot->f);
	PP_TOTAL_FIELDS(PP_READ)
#undef PP_READ
}

void pp_skip_take(void)
{
	bool done = false;

	__atomic_store_n(&pp_skipping, 1, __ATOMIC_SEQ_CST);
	for (int tries = 0; tries < 1000 && !done; tries++) {
		int merges = __atomic_load_n(&pp_merges, __ATOMIC_SEQ_CST);

		if (__atomic_load_n(&pp_exiting, __ATOMIC_SEQ_CST))
			break;
		if (__atomic_load_n(&pp_merging, __ATOMIC_SEQ_CST)) {
			sched_yield();
			continue;
		}
		for (unsigned i = 0; i < PP_MAX_COUNTERS; i++)
			pp_total_read(&pp_totals[i], &pp_skipped[i]);
		pp_target_skip_globals();
		pp_delayed_skipped = pp_ld(&pp_delayed);
		for (unsigned r = 0; r < PP_MAX_THREADS; r++) {
			struct pp_thread *t = __atomic_load_n(&pp_registry[r], __ATOMIC_SEQ_CST);
			struct pp_total v;

			if (!t)
				continue;
			pp_delayed_skipped += pp_ld(&t->delayed);
			for (unsigned i = 0; i < PP_MAX_COUNTERS; i++) {
				read_counter(&t->c[i], &v);
				add_total(&pp_skipped[i], &v, false);
				if (i < PP_MAX_SLOTS)
					pp_target_skip_thread(t, i, &v);
			}
		}
		done = !__atomic_load_n(&pp_merging, __ATOMIC_SEQ_CST) &&
		       __atomic_load_n(&pp_merges, __ATOMIC_SEQ_CST) == merges &&
		       !__atomic_load_n(&pp_exiting, __ATOMIC_SEQ_CST);
	}
	__atomic_store_n(&pp_skip_taken, done, __ATOMIC_SEQ_CST);
	__atomic_store_n(&pp_skipping, 0, __ATOMIC_SEQ_CST);
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
