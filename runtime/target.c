// SPDX-License-Identifier: MIT
/*
 * target.c - where an armed indirect call went (abi.h, 5.).
 *
 * The armed path of an indirect call calls __pinpoint_target (on x86-64
 * __pinpoint_target_r11, probe_x86_64.S) with the pointer it is about to
 * call, right before its enter probe.  A counter that times that call alone
 * (a range of one call) then splits its executions by target: per thread,
 * a table of PP_MAX_TARGETS targets and one entry for the others, each with
 * the same sums the counter keeps (struct pp_total), so that each target's
 * time is estimated as the counter's is (sample.c) and the targets' times
 * add up to the call's.
 *
 * The enter and exit probes are not touched: their fast paths (probe.c,
 * probe_x86_64.S) update the counter as for any call.  The note takes the
 * difference instead.  At an outermost execution's note (the counter's depth
 * 0: the enter right after it starts one), the counter's sums less those
 * kept at the previous note are the previous execution, which goes to the
 * previous note's target; then the sums are kept again.  What a thread has
 * not handed on this way when it ends (its last execution, or one still
 * running at exit) goes the same way at the merge (thread.c), and so into
 * the skip=K copy.  When other executions than the one noted ended in
 * between (a function of the same name whose call at that place is direct,
 * a thread's first execution before it was listed), the difference goes to
 * "others": the targets' sums still add up to the counter's.
 *
 * Which counters have tables is decided at their first note, from a pool
 * of PP_MAX_TTABLES (an atomic claim, once per counter).  Targets are named
 * at exit only (output.c): the functions' addresses the modules register
 * (__pinpoint_register_addrs) map an address to its record there.
 *
 * Compiled with -mgeneral-regs-only on x86-64: __pinpoint_target_r11 keeps
 * the vector registers of the code it interrupts by never touching them.
 */
#include "rt.h"

int pp_ttable_of[PP_MAX_SLOTS];
struct pp_target pp_ttotals[PP_MAX_TTABLES][PP_MAX_TARGETS + 1];
struct pp_target pp_tskipped[PP_MAX_TTABLES][PP_MAX_TARGETS + 1];
static int pp_nttables;

/* The modules' [begin, end) ranges of struct pp_fn_addr. */
static struct {
	const struct pp_fn_addr *begin, *end;
} pp_addrs[PP_MAX_MODULES];
static unsigned pp_naddrs;

#define PP_OTHER PP_MAX_TARGETS

/* Executions a counter's sums hold: finished, sampled or not, and lost. */
static uint64_t executions(const struct pp_total *v)
{
	return v->count + v->scount + v->lost;
}

static void read_sums(const struct pp_tcounter *c, struct pp_total *v)
{
#define PP_READ(f) v->f = pp_ld(&c->f);
	PP_TOTAL_FIELDS(PP_READ)
#undef PP_READ
}

/* @sum += @a - @b (@b NULL: 0), @atomic for the global tables. */
static void add_diff(struct pp_total *sum, const struct pp_total *a, const struct pp_total *b,
		     bool atomic)
{
#define PP_ADD(f)                                                                                  \
	{                                                                                          \
		uint64_t d = a->f - (b ? b->f : 0);                                                \
		if (atomic)                                                                        \
			pp_add(&sum->f, d);                                                        \
		else                                                                               \
			pp_st(&sum->f, sum->f + d);                                                \
	}
	PP_TOTAL_FIELDS(PP_ADD)
#undef PP_ADD
}

/* The table of slot @i's counter, or -1; @claim takes one from the pool. */
static int table_of(unsigned i, bool claim)
{
	int v = __atomic_load_n(&pp_ttable_of[i], __ATOMIC_ACQUIRE), none = 0, j;

	if (v || !claim)
		return v > 0 ? v - 1 : -1;
	j = __atomic_fetch_add(&pp_nttables, 1, __ATOMIC_RELAXED);
	v = j < PP_MAX_TTABLES ? j + 1 : -1;
	/* a table lost to a race for the same counter stays unused */
	if (!__atomic_compare_exchange_n(&pp_ttable_of[i], &none, v, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		v = none;
	return v > 0 ? v - 1 : -1;
}

/* Entry of @addr in a thread's table: found, taken, or the others'. */
static unsigned thread_entry(struct pp_ttable *tab, uintptr_t addr)
{
	for (unsigned k = 0; k < PP_MAX_TARGETS && addr; k++) {
		uintptr_t a = tab->e[k].addr;

		if (a == addr)
			return k;
		if (!a) {
			pp_st(&tab->e[k].addr, addr);
			return k;
		}
	}
	return PP_OTHER;
}

/* Entry of @addr in table @j of the global totals: found, claimed, or the others'. */
static unsigned global_entry(unsigned j, uintptr_t addr)
{
	for (unsigned k = 0; k < PP_MAX_TARGETS && addr; k++) {
		uintptr_t a = __atomic_load_n(&pp_ttotals[j][k].addr, __ATOMIC_ACQUIRE);

		if (!a && __atomic_compare_exchange_n(&pp_ttotals[j][k].addr, &a, addr, false,
						      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return k;
		if (a == addr)
			return k;
	}
	return PP_OTHER;
}

/* Where the executions since the last note go: its target's entry when
 * they are the one execution it started, else the others'. */
static unsigned pending_entry(const struct pp_ttable *tab, const struct pp_total *now)
{
	uint32_t cur = pp_ld(&tab->cur);

	return cur && executions(now) - executions(&tab->mark) == 1 ? cur - 1 : PP_OTHER;
}

__attribute__((visibility("hidden"))) void pp_target_note(struct pp_fn *fn, uint32_t site,
							  const void *target)
{
	uint32_t armed = __atomic_load_n(&fn->armed, __ATOMIC_ACQUIRE);
	struct pp_thread *t = &pp_self;
	const struct pp_site *s;
	uint64_t m;

	if (pp_unlikely(armed < PP_ARMED_BASE || site > fn->ncalls))
		return;
	s = &pp_sites[armed - PP_ARMED_BASE + site];
	/* a thread not listed yet: its enter lists it, its difference goes
	 * to the others at the next note */
	if (t->state != PP_THREAD_LISTED)
		return;
	for (m = s->mask[0]; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		const struct pp_slot *slot = &pp_spec.slots[i];
		struct pp_tcounter *c = &t->c[i];
		struct pp_ttable *tab;
		struct pp_total now;
		int j;

		/* a range of this one call, whose next execution is an outermost one */
		if (slot->kind != PP_KIND_RANGE || slot->first != slot->last || c->depth)
			continue;
		j = table_of(i, true);
		if (j < 0)
			continue;
		tab = &t->tt[j];
		read_sums(c, &now);
		if (executions(&now) != executions(&tab->mark))
			add_diff(&tab->e[pending_entry(tab, &now)].t, &now, &tab->mark, false);
		tab->mark = now;
		pp_st(&tab->cur, 1 + thread_entry(tab, (uintptr_t)target));
	}
	/* its cost is inside the intervals around the call, as a plain probe's */
	pp_st(&t->plain, t->plain + 1);
}

PP_EXPORT void __pinpoint_target(struct pp_fn *fn, uint32_t site, const void *target)
{
	pp_target_note(fn, site, target);
}

/* Thread @t's entries of table @j, with what it has not handed on
 * (@now: its counter's sums, as the merge counts them), into row @dst of
 * @into, by the global tables' entries. */
static void add_thread(struct pp_target (*into)[PP_MAX_TARGETS + 1], unsigned j,
		       const struct pp_thread *t, const struct pp_total *now, bool atomic)
{
	const struct pp_ttable *tab = &t->tt[j];

	for (unsigned k = 0; k <= PP_MAX_TARGETS; k++) {
		struct pp_total v;
		uintptr_t addr = k < PP_MAX_TARGETS ? pp_ld(&tab->e[k].addr) : 0;

#define PP_READ(f) v.f = pp_ld(&tab->e[k].t.f);
		PP_TOTAL_FIELDS(PP_READ)
#undef PP_READ
		if (executions(&v))
			add_diff(&into[j][global_entry(j, addr)].t, &v, NULL, atomic);
	}
	if (executions(now) != executions(&tab->mark)) {
		unsigned k = pending_entry(tab, now);
		uintptr_t addr = k < PP_MAX_TARGETS ? pp_ld(&tab->e[k].addr) : 0;

		add_diff(&into[j][global_entry(j, addr)].t, now, &tab->mark, atomic);
	}
}

void pp_target_merge(struct pp_thread *t, unsigned i, const struct pp_total *now, bool own)
{
	int j = i < PP_MAX_SLOTS ? table_of(i, false) : -1;

	if (j < 0)
		return;
	add_thread(pp_ttotals, (unsigned)j, t, now, true);
	if (own) {
		struct pp_ttable *tab = &t->tt[j];

		pp_st(&tab->cur, 0);
		for (unsigned k = 0; k <= PP_MAX_TARGETS; k++) {
			pp_st(&tab->e[k].addr, 0);
#define PP_CLEAR(f) pp_st(&tab->e[k].t.f, 0);
			PP_TOTAL_FIELDS(PP_CLEAR)
#undef PP_CLEAR
		}
		tab->mark = (struct pp_total){0};
	}
}

void pp_target_skip_globals(void)
{
	for (unsigned j = 0; j < PP_MAX_TTABLES; j++)
		for (unsigned k = 0; k <= PP_MAX_TARGETS; k++) {
#define PP_READ(f) pp_tskipped[j][k].t.f = pp_ld(&pp_ttotals[j][k].t.f);
			PP_TOTAL_FIELDS(PP_READ)
#undef PP_READ
		}
}

void pp_target_skip_thread(const struct pp_thread *t, unsigned i, const struct pp_total *now)
{
	int j = i < PP_MAX_SLOTS ? table_of(i, false) : -1;

	if (j >= 0)
		add_thread(pp_tskipped, (unsigned)j, t, now, false);
}

PP_EXPORT void __pinpoint_register_addrs(const struct pp_fn_addr *begin,
					 const struct pp_fn_addr *end)
{
	if (!begin || end <= begin)
		return;
	pp_lock();
	for (unsigned i = 0; i < pp_naddrs; i++)
		if (pp_addrs[i].begin == begin)
			goto out; /* every module of a link unit registers the same range */
	if (pp_naddrs < PP_MAX_MODULES) {
		pp_addrs[pp_naddrs].begin = begin;
		pp_addrs[pp_naddrs++].end = end;
	}
out:
	pp_unlock();
}

PP_EXPORT void __pinpoint_unregister_addrs(const struct pp_fn_addr *begin,
					   const struct pp_fn_addr *end)
{
	(void)end;
	pp_lock();
	for (unsigned i = 0; i < pp_naddrs; i++)
		if (pp_addrs[i].begin == begin) {
			pp_addrs[i] = pp_addrs[--pp_naddrs];
			break;
		}
	pp_unlock();
}

const struct pp_fn *pp_target_record(uintptr_t addr)
{
	for (unsigned i = 0; i < pp_naddrs; i++)
		for (const struct pp_fn_addr *a = pp_addrs[i].begin; a < pp_addrs[i].end; a++)
			if ((uintptr_t)a->addr == addr)
				return a->fn;
	return NULL;
}
