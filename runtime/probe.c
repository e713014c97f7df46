// SPDX-License-Identifier: MIT
/*
 * probe.c - the hot path: __pinpoint_enter and __pinpoint_exit.
 *
 * No locks, no allocation, no system call (with a tick clock, arch.h): each
 * probe finds its site's counters in the armed-site table, then updates the
 * calling thread's own block.  A counter counts outermost executions only:
 * enter increments its depth and stamps the start at depth 0, exit
 * decrements it and adds the duration when it reaches 0.
 *
 * Unbalanced probes: an exception or longjmp skips exit probes and would
 * leave a depth up forever.  The outermost enter therefore records its stack
 * position (its CFA: the caller's stack pointer at the probe) and return
 * address.  The stack is assumed to grow down, as on every Linux target.
 *
 *  - An enter that finds the depth up and is not deeper in the stack than
 *    that position knows the recorded execution is gone (its frame was
 *    unwound): it counts it as lost and starts afresh.
 *  - An enter that is deeper may be a nested execution (recursion) or a new
 *    one entered from a deeper frame after the recorded one was abandoned.
 *    It walks the stack up to the recorded position (stack.c) to tell: a
 *    frame of the recorded function there means nested, anything else means
 *    abandoned (lost, start afresh).  The walk is done once per nested
 *    level below the outermost: an enter deeper than the last one that
 *    found the outermost alive (vframe) is nested without a walk.
 *  - An exit at depth 0 is ignored.  Exits do not look at the stack: an
 *    exit probe may be a sibling call, made from the caller's frame.
 *
 * The return address is kept for the exit handler too (stack.c).
 *
 * Sampling (sample.c): an execution of a sampled counter starts untimed
 * (start 0) unless its gap ran out.  A probe reads the clock only when it
 * starts or ends a timed execution; the exit probe finds that out from the
 * counters before it reads the clock, so a timed execution also measures
 * those few loads.  An untimed execution of a sampled counter that its
 * site alone enters (the usual armed call or body) takes a short path:
 * a few loads and stores, no loop and no register saved.  On x86-64 the
 * armed path calls the same short paths written in assembly (arch.h's fast
 * paths, arch/x86_64/probe_x86_64.S), which save three registers instead
 * of the nine a C function called with preserve_most would need; they also
 * take a timed outermost execution of such a counter, and come here for
 * the rest.
 *
 * Every probe execution that reaches a counter is counted in the thread's
 * block, as one that read the clock or one that did not (pp_thread.plain
 * and .clock), and a timed execution keeps the two counts once its enter
 * probe has counted itself; its exit probe, before counting itself, adds
 * the probes run in between to the counter (pp_tcounter.plain and .clock).
 * calib.c knows what each kind costs: the time they took is taken out of
 * the counter's at the end (sample.c).
 *
 * delay= marks its sites with the bit of a counter no slot has, in both
 * words of their masks (arm.c): the fast paths, here and in assembly, take
 * a site of one counter only, so these come to the general path, where
 * the enter probe waits (delay_wait(): one execution in delay_every=K, on
 * each thread) after its own work and clock read.
 * Sites without the mark pay nothing for it: it is looked for only in
 * mask[1], which only a function's calls (fn=) use.
 *
 * With stop=N, the exit probe that finishes the entry's N-th outermost
 * execution (counted over all threads) writes the results and ends the
 * process (pp_stop()): the driver needs no more of the run.  With skip=K,
 * the one that finishes the K-th keeps every counter's totals so far
 * (pp_skip_take()), which the results leave out.
 */
#include "rt.h"

int pp_seen_counter = -1;
static uint64_t pp_seen; /* the entry's finished outermost executions, with stop=N or skip=K */

static inline const struct pp_site *site_of(const struct pp_fn *fn, uint32_t site)
{
	uint32_t armed = __atomic_load_n(&fn->armed, __ATOMIC_ACQUIRE);

	if (pp_unlikely(armed < PP_ARMED_BASE || site > fn->ncalls))
		return NULL;
	return &pp_sites[armed - PP_ARMED_BASE + site];
}

/* One more probe execution of @t, which read the clock or not. */
static pp_inline void count_probe(struct pp_thread *t, bool clock)
{
	if (clock)
		pp_st(&t->clock, t->clock + 1);
	else
		pp_st(&t->plain, t->plain + 1);
}

static void lose(struct pp_thread *t, struct pp_tcounter *c, unsigned i)
{
	if (t->state == PP_THREAD_LISTED)
		pp_st(&c->lost, c->lost + 1);
	else
		pp_add(&pp_totals[i].lost, 1);
}

/* Returns which of the entry's executions this was, when stop=N or skip=K
 * counts them, else 0.  @now is 0 when no counter the exit ends was timed;
 * the exit probe has not counted itself yet. */
static pp_inline uint64_t finish(struct pp_thread *t, struct pp_tcounter *c, unsigned i,
				 uint64_t now)
{
	uint64_t start = c->start, d = 0, plain = 0, clock = 0;

	if (start) {
		d = now - start;
		plain = t->plain - c->plain0;
		clock = t->clock - c->clock0;
	}
	if (pp_likely(t->state == PP_THREAD_LISTED)) {
		if (pp_likely(!c->skip)) {
			uint64_t count = c->count + 1;

			pp_st(&c->sum, c->sum + d);
			pp_st(&c->count, count);
			pp_st(&c->plain, c->plain + plain);
			pp_st(&c->clock, c->clock + clock);
			if (pp_unlikely(count == PP_SAMPLE_AFTER))
				pp_sample_consider(t, c, i);
		} else {
			if (start) {
				pp_st(&c->ssum, c->ssum + d);
				pp_st(&c->stimed, c->stimed + 1);
				pp_st(&c->splain, c->splain + plain);
				pp_st(&c->sclock, c->sclock + clock);
			}
			pp_st(&c->scount, c->scount + 1);
		}
	} else if (start) {
		pp_add(&pp_totals[i].sum, d);
		pp_add(&pp_totals[i].count, 1);
		pp_add(&pp_totals[i].plain, plain);
		pp_add(&pp_totals[i].clock, clock);
	} else {
		pp_add(&pp_totals[i].scount, 1);
	}
	if (pp_unlikely((int)i == pp_sample_counter))
		pp_sample(t, pp_cost_net(d, plain, clock));
	if (pp_unlikely((int)i == pp_seen_counter))
		return pp_add(&pp_seen, 1) + 1;
	return 0;
}

/* The thread's block, computed once per probe: without the barrier the
 * compiler recomputes a dynamic-TLS address after every atomic access. */
static inline struct pp_thread *self(void)
{
	struct pp_thread *t = &pp_self;

	__asm__("" : "+r"(t));
	return t;
}

/* An enter at @frame, deeper than the outermost's: is the outermost still on
 * the stack?  Unknown counts as yes (the behaviour without this check). */
static __attribute__((noinline)) bool nested(struct pp_tcounter *c, uintptr_t frame)
{
	if (!pp_stack_alive(c->frame, c->ret, frame))
		return false;
	c->vframe = frame;
	return true;
}

/* An outermost execution of @c starts: is it timed?  (Untimed: start 0.) */
static pp_inline bool starts_timed(struct pp_thread *t, struct pp_tcounter *c)
{
	uint32_t skip = c->skip;

	if (pp_likely(!skip))
		return true;
	if (--skip) {
		pp_st(&c->skip, skip);
		pp_st(&c->start, 0);
		return false;
	}
	pp_st(&c->skip, pp_sample_gap(t));
	return true;
}

/* Enter the counters of one mask word; returns those that started and are
 * to be timed (the others started untimed: start 0). */
static pp_inline uint64_t enter_word(struct pp_thread *t, uint64_t m, unsigned base,
				     uintptr_t frame, uintptr_t ret)
{
	uint64_t timed = 0;

	for (; m; m &= m - 1) {
		unsigned i = base + (unsigned)__builtin_ctzll(m);
		struct pp_tcounter *c = &t->c[i];
		uint32_t depth = c->depth;

		if (pp_unlikely(depth) &&
		    (frame >= c->frame || (frame >= c->vframe && !nested(c, frame)))) {
			lose(t, c, i);
			depth = 0;
		}
		if (!depth) {
			pp_st(&c->frame, frame);
			pp_st(&c->ret, ret);
			c->vframe = 0;
			if (starts_timed(t, c)) {
				/* the probe reads the clock, and counts itself */
				pp_st(&c->plain0, t->plain);
				pp_st(&c->clock0, t->clock + 1);
				timed |= m & -m;
			}
		}
		pp_st(&c->depth, depth + 1);
	}
	return timed;
}

static inline void stamp_word(struct pp_thread *t, uint64_t m, unsigned base, uint64_t now)
{
	for (; m; m &= m - 1)
		pp_st(&t->c[base + (unsigned)__builtin_ctzll(m)].start, now);
}

/* Does an exit of the counters of @m end a timed execution? */
static pp_inline bool timed_word(const struct pp_thread *t, uint64_t m, unsigned base)
{
	for (; m; m &= m - 1) {
		const struct pp_tcounter *c = &t->c[base + (unsigned)__builtin_ctzll(m)];

		if (c->depth == 1 && c->start)
			return true;
	}
	return false;
}

static pp_inline uint64_t exit_word(struct pp_thread *t, uint64_t m, unsigned base, uint64_t now)
{
	uint64_t seen = 0;

	for (; m; m &= m - 1) {
		unsigned i = base + (unsigned)__builtin_ctzll(m);
		struct pp_tcounter *c = &t->c[i];
		uint32_t depth = c->depth;

		if (!depth)
			continue;
		pp_st(&c->depth, depth - 1);
		if (depth == 1) {
			uint64_t n = finish(t, c, i, now);

			if (pp_unlikely(n))
				seen = n; /* one counter is the entry's */
		}
	}
	return seen;
}

/*
 * The one counter of @t a site enters and exits, or NULL.  Most armed
 * sites are one call or one body, and a sampled counter is always of one
 * site: its untimed executions, 7 in 8, take the paths below, without the
 * loops over masks, the clock or the register saves of the general path.
 * The one counter may be a function's calls (mask[1]), never sampled.
 */
static pp_inline struct pp_tcounter *one_counter(struct pp_thread *t, const struct pp_site *s)
{
	uint64_t m0 = s->mask[0], m1 = s->mask[1], m = m0 ? m0 : m1;

	if ((m0 && m1) || !m || (m & (m - 1)))
		return NULL;
	return &t->c[(unsigned)__builtin_ctzll(m) + (m0 ? 0 : PP_MAX_SLOTS)];
}

/* The counters of site @s's two words, in @m0 and @m1, without delay='s
 * mark; true when the site has it.  The mark is in mask[1], which few
 * sites use: the others look no further. */
static pp_inline bool site_masks(const struct pp_site *s, uint64_t *m0, uint64_t *m1)
{
	*m0 = s->mask[0];
	*m1 = s->mask[1];
	if (pp_likely(!*m1) || pp_likely(!(*m1 & pp_delay_mark)))
		return false;
	*m0 &= ~pp_delay_mark;
	*m1 &= ~pp_delay_mark;
	return true;
}

/*
 * delay=: the enter probe of a delayed site, on the thread's every
 * pp_delay_every-th such execution (delay_every=K), waits until the clock
 * is pp_delay_ticks past @from, its own clock read when it timed a counter
 * (whose execution then holds the wait), else now.  The wait is no
 * probe's cost: it stays in every interval around it.
 */
static __attribute__((noinline)) void delay_wait(struct pp_thread *t, uint64_t from)
{
	uint64_t since = t->delay_since + 1;

	if (!pp_ld(&pp_delay_on)) /* before skip=K's executions end: the set-up */
		return;
	if (since < pp_delay_every) {
		t->delay_since = since;
		return;
	}
	t->delay_since = 0;
	if (!from)
		from = pp_ticks();
	while (pp_ticks() - from < pp_delay_ticks)
		;
	if (pp_likely(t->state == PP_THREAD_LISTED))
		pp_st(&t->delayed, t->delayed + 1);
	else
		pp_add(&pp_delayed, 1);
}

static __attribute__((noinline)) void enter_slow(struct pp_thread *t, const struct pp_site *s,
						 uintptr_t frame, uintptr_t ret)
{
	uint64_t m0, m1, s0, s1, now = 0;
	bool delayed = site_masks(s, &m0, &m1);

	if (pp_unlikely(t->state == PP_THREAD_NEW))
		pp_thread_attach(t);
	s0 = enter_word(t, m0, 0, frame, ret);
	s1 = pp_unlikely(m1) ? enter_word(t, m1, PP_MAX_SLOTS, frame, ret) : 0;
	count_probe(t, s0 | s1);
	/* nothing started, or only untimed (sampled) executions: no clock */
	if (s0 | s1) {
		/* read the clock last, so that the probe's own work is not measured */
		now = pp_ticks();
		stamp_word(t, s0, 0, now);
		if (pp_unlikely(s1))
			stamp_word(t, s1, PP_MAX_SLOTS, now);
	}
	if (pp_unlikely(delayed))
		delay_wait(t, now);
}

static pp_inline void enter_at(struct pp_fn *fn, uint32_t site, uintptr_t frame, uintptr_t ret)
{
	const struct pp_site *s = site_of(fn, site);
	struct pp_thread *t;
	struct pp_tcounter *c;
	uint32_t skip;

	if (pp_unlikely(!s))
		return;
	t = self();
	c = one_counter(t, s);
	/* a sampled counter's outermost execution that is not timed: what
	 * enter_word() does then */
	if (pp_likely(c && (skip = c->skip) > 1 && !c->depth && t->state == PP_THREAD_LISTED)) {
		pp_st(&c->frame, frame);
		pp_st(&c->ret, ret);
		c->vframe = 0;
		pp_st(&c->skip, skip - 1);
		pp_st(&c->start, 0);
		pp_st(&c->depth, 1);
		count_probe(t, false);
		return;
	}
	enter_slow(t, s, frame, ret);
}

PP_EXPORT void __pinpoint_enter(struct pp_fn *fn, uint32_t site)
{
	enter_at(fn, site, (uintptr_t)__builtin_dwarf_cfa(),
		 (uintptr_t)__builtin_return_address(0));
}

/* For the pass's preserve_most thunk (abi.h): the probe's own position. */
PP_EXPORT void __pinpoint_enter_at(struct pp_fn *fn, uint32_t site, uintptr_t cfa, uintptr_t ret)
{
	enter_at(fn, site, cfa, ret);
}

/* The entry's @n-th execution ended, and every counter its exit probe ends
 * with it. */
static __attribute__((noinline)) void entry_seen(uint64_t n)
{
	if (n == pp_spec.skip) {
		pp_skip_take();
		pp_st(&pp_delay_on, 1u); /* delay='s waits begin with the kept executions */
	}
	if (n == pp_spec.stop)
		pp_stop();
}

static __attribute__((noinline)) void exit_slow(struct pp_thread *t, const struct pp_site *s)
{
	uint64_t m0, m1, now, seen;

	site_masks(s, &m0, &m1);
	/* the clock only when a timed execution ends, and before the updates */
	now = timed_word(t, m0, 0) || (pp_unlikely(m1) && timed_word(t, m1, PP_MAX_SLOTS))
		  ? pp_ticks()
		  : 0;
	seen = exit_word(t, m0, 0, now);
	if (pp_unlikely(m1))
		exit_word(t, m1, PP_MAX_SLOTS, now);
	count_probe(t, now != 0);
	/* after the whole site: the other counters it ends are in the results too */
	if (pp_unlikely(seen))
		entry_seen(seen);
}

PP_EXPORT void __pinpoint_exit(struct pp_fn *fn, uint32_t site)
{
	const struct pp_site *s = site_of(fn, site);
	struct pp_thread *t;
	struct pp_tcounter *c;

	if (pp_unlikely(!s))
		return;
	t = self();
	c = one_counter(t, s);
	/* the end of a sampled counter's untimed outermost execution: what
	 * exit_word() and finish() do then (a sampled counter is neither the
	 * entry nor the stop=N counter) */
	if (pp_likely(c && c->skip && c->depth == 1 && !c->start && t->state == PP_THREAD_LISTED)) {
		pp_st(&c->depth, 0);
		pp_st(&c->scount, c->scount + 1);
		count_probe(t, false);
		return;
	}
	exit_slow(t, s);
}
