// SPDX-License-Identifier: MIT
/*
 * arm.c - __pinpoint_register: initialise the runtime on the first call,
 * then match every new pp_fn record against the slots of the PINPOINT
 * variable and its delay= item, give the matches entries in the
 * armed-site table and set their probe flags.  Also remembers the path of
 * every module that registered.
 *
 * Registration is idempotent per record (pp_fn.armed != 0 once seen), so
 * the same range may be registered any number of times, from any module
 * constructor, before main or later from dlopen.  __pinpoint_unregister,
 * called by a module's destructor (dlclose), gives its functions' sites
 * back to the table, so loading and unloading a library any number of
 * times does not fill it.
 *
 * The variable is read with secure_getenv: a set-user-ID or set-group-ID
 * program (AT_SECURE) ignores it, so an unprivileged user cannot make a
 * privileged program write a file (SECURITY.md).  The process that arms
 * removes PINPOINT from its environment, so the programs it executes - and
 * their children - run unmeasured and cannot replace its results
 * (doc/semantics.md).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"

static uint32_t pp_nsites;
/* Extents of pp_sites given back by __pinpoint_unregister, reused first fit. */
#define PP_MAX_HOLES 1024
static struct {
	uint32_t base, len;
} pp_holes[PP_MAX_HOLES];
static unsigned pp_nholes;
static char pp_modpool[PP_MODPOOL_SIZE];
static size_t pp_modused;
static bool pp_full_warned;

/* The span of the clock's rate that converts delay_ns= to ticks: its error
 * is a few tens of ns over it, a few 1e-5 of the wait. */
#define PP_DELAY_RATE_NS 1000000u

/* The most ticks a wait may take: PP_MAX_DELAY_NS (1 s) is some 1e9 to
 * 1e10 ticks; a rate gone wrong (a tick counter that jumped) is held here,
 * far below where the conversion or the spin's unsigned difference would
 * overflow. */
#define PP_DELAY_TICKS_MAX 0x1p62

/* delay=: the wait in ticks, how many executions per wait, and the mark of
 * the delayed sites, the bit of a counter no slot has in both mask words:
 * the fast paths, which take a site of one counter, leave them to
 * probe.c's general path (README.md, "What is measured"). */
static void arm_delay(void)
{
	double ticks = (double)pp_spec.delay_ns * pp_clock_rate(PP_DELAY_RATE_NS);

	if (!(ticks < PP_DELAY_TICKS_MAX)) /* NaN too */
		ticks = PP_DELAY_TICKS_MAX;
	pp_delay_ticks = ticks < 1 ? 1 : (uint64_t)(ticks + 0.5);
	pp_delay_every = pp_spec.delay_every ? pp_spec.delay_every : 1;
	pp_delay_mark = 1ull << pp_spec.nslots; /* nslots < PP_MAX_SLOTS: spec.c */
	pp_st(&pp_delay_on, pp_spec.skip ? 0u : 1u);
}

static void init(void)
{
	const char *env = secure_getenv(PP_ENV);
	char err[256];
	int ret;

	pp_state = PP_INERT;
	pp_log_init();
	if (!env)
		return;
	if (pp_spec_parse(&pp_spec, env, err, sizeof(err))) {
		pp_err("bad %s variable: %s; nothing is measured", PP_ENV, err);
		return;
	}
	if (!pp_spec.out)
		return;
	/* heap=: where the heap starts moves programs too (doc/formats.md) */
	if (pp_spec.heap && sbrk((intptr_t)pp_spec.heap) == (void *)-1)
		pp_err("cannot move the heap by %u bytes; measured where it is", pp_spec.heap);
	ret = pp_thread_init();
	if (ret) {
		pp_err("cannot create a thread key: %s; nothing is measured", strerror(-ret));
		return;
	}
	pp_clock_init();
	pp_arch_vsave_init();
	/* before any site is armed: it probes a private one (counter 0) */
	pp_calibrate();
	if (pp_spec.has_delay)
		arm_delay();
	pp_init_pid = (int)getpid();
	pp_samples_cap = pp_spec.entry >= 0 && pp_spec.has_samples ? pp_spec.samples : 0;
	pp_sample_counter = pp_spec.entry >= 0 && pp_spec.has_samples ? pp_spec.entry : -1;
	pp_seen_counter = pp_spec.entry >= 0 && (pp_spec.stop || pp_spec.skip) ? pp_spec.entry : -1;
	if (pthread_atfork(NULL, NULL, pp_atfork_child) || atexit(pp_atexit)) {
		pp_err("cannot register the exit handler; nothing is measured");
		return;
	}
	/* the spec (copied into pp_spec) is this process's: not its exec'd children's */
	unsetenv(PP_ENV);
	pp_state = PP_ARMED;
}

static bool slot_matches(const struct pp_slot *slot, const struct pp_fn *fn)
{
	if (strcmp(slot->name, fn->name))
		return false;
	if (slot->file && !pp_file_matches(fn->file, slot->file))
		return false;
	/* a range past the end of the call list cannot be measured */
	return slot->kind != PP_KIND_RANGE || slot->last < fn->ncalls;
}

static bool has_room(uint32_t n)
{
	for (unsigned i = 0; i < pp_nholes; i++)
		if (pp_holes[i].len >= n)
			return true;
	return n <= PP_MAX_SITES - pp_nsites;
}

/* @n zeroed sites (has_room(n) said there are). */
static uint32_t take_sites(uint32_t n)
{
	uint32_t base;

	for (unsigned i = 0; i < pp_nholes; i++) {
		if (pp_holes[i].len < n)
			continue;
		base = pp_holes[i].base;
		pp_holes[i].base += n;
		pp_holes[i].len -= n;
		if (!pp_holes[i].len)
			pp_holes[i] = pp_holes[--pp_nholes];
		return base;
	}
	base = pp_nsites;
	pp_nsites += n;
	return base;
}

/* Give back sites [base, base + n): zeroed, merged with neighbouring holes,
 * the table's end lowered when they are last.  With no hole left to record
 * them in, they stay taken. */
static void give_sites(uint32_t base, uint32_t n)
{
	memset(&pp_sites[base], 0, n * sizeof(pp_sites[0]));
	for (unsigned i = 0; i < pp_nholes;) {
		if (pp_holes[i].base + pp_holes[i].len == base || base + n == pp_holes[i].base) {
			if (pp_holes[i].base < base)
				base = pp_holes[i].base;
			n += pp_holes[i].len;
			pp_holes[i] = pp_holes[--pp_nholes];
			i = 0;
			continue;
		}
		i++;
	}
	if (base + n == pp_nsites)
		pp_nsites = base;
	else if (pp_nholes < PP_MAX_HOLES) {
		pp_holes[pp_nholes].base = base;
		pp_holes[pp_nholes].len = n;
		pp_nholes++;
	}
}

/* delay= matched @fn, whose sites start at @base: mark them. */
static void arm_delayed(struct pp_fn *fn, uint32_t base)
{
	struct pp_slot *d = &pp_spec.delay;
	uint32_t first = PP_SITE_BODY, last = PP_SITE_BODY;

	pp_add(&d->found, 1);
	if (d->kind == PP_KIND_RANGE) {
		first = PP_SITE_CALL(d->first);
		last = PP_SITE_CALL(d->last);
	}
	for (uint32_t k = first; k <= last && k <= fn->ncalls; k++) {
		pp_sites[base + k].mask[0] |= pp_delay_mark;
		pp_sites[base + k].mask[1] |= pp_delay_mark;
	}
}

static void arm_fn(struct pp_fn *fn)
{
	uint64_t match = 0;
	uint32_t base, nsites;
	bool delayed = false;

	if (fn->name && fn->flags && fn->ncalls < PP_MAX_SITES) {
		for (unsigned i = 0; i < pp_spec.nslots; i++)
			if (slot_matches(&pp_spec.slots[i], fn))
				match |= 1ull << i;
		delayed = pp_spec.has_delay && slot_matches(&pp_spec.delay, fn);
	}
	if (!match && !delayed) {
		pp_st(&fn->armed, PP_ARMED_SEEN);
		return;
	}
	nsites = fn->ncalls + 1;
	if (!has_room(nsites)) {
		if (!pp_full_warned)
			pp_err("more than %u armed probe sites; %s and later matches are not "
			       "measured",
			       PP_MAX_SITES, fn->name);
		pp_full_warned = true;
		pp_st(&fn->armed, PP_ARMED_SEEN);
		return;
	}
	base = take_sites(nsites);

	for (unsigned i = 0; i < pp_spec.nslots; i++) {
		struct pp_slot *slot = &pp_spec.slots[i];

		if (!(match & (1ull << i)))
			continue;
		pp_add(&slot->found, 1); /* read by sample.c, unlocked */
		if (slot->kind == PP_KIND_RANGE) {
			for (uint32_t k = slot->first; k <= slot->last; k++)
				pp_sites[base + PP_SITE_CALL(k)].mask[0] |= 1ull << i;
			continue;
		}
		pp_sites[base + PP_SITE_BODY].mask[0] |= 1ull << i;
		if (slot->kind != PP_KIND_FN)
			continue; /* entry=, whole=: the body alone */
		for (uint32_t k = 0; k < fn->ncalls; k++)
			pp_sites[base + PP_SITE_CALL(k)].mask[1] |= 1ull << i;
	}
	if (delayed)
		arm_delayed(fn, base);

	/* armed before the flags: a probe that sees its flag finds its sites */
	__atomic_store_n(&fn->armed, PP_ARMED_BASE + base, __ATOMIC_RELEASE);
	for (uint32_t k = 0; k < nsites; k++)
		if (pp_sites[base + k].mask[0] | pp_sites[base + k].mask[1])
			__atomic_store_n(&fn->flags[k], 1, __ATOMIC_RELEASE);
}

/* The absolute path of the module holding @addr.  The main program's link
 * map has an empty name (and dli_fname is argv[0]-like): use /proc/self/exe. */
static void add_module(const void *addr)
{
	char path[PATH_MAX];
	struct link_map *lm = NULL;
	const char *name = NULL;
	Dl_info info;
	size_t len;
	ssize_t n;

	if (dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP))
		name = lm && lm->l_name ? lm->l_name : info.dli_fname;
	if (!name || !*name) {
		n = readlink("/proc/self/exe", path, sizeof(path) - 1);
		if (n < 0)
			return;
		path[n] = '\0';
	} else if (!realpath(name, path)) {
		len = strlen(name);
		if (len >= sizeof(path))
			return;
		memcpy(path, name, len + 1);
	}
	for (unsigned i = 0; i < pp_nmodules; i++)
		if (!strcmp(pp_modules[i], path))
			return;
	len = strlen(path);
	if (pp_nmodules == PP_MAX_MODULES || len + 1 > sizeof(pp_modpool) - pp_modused) {
		pp_err("too many instrumented modules; %s is not listed", path);
		return;
	}
	memcpy(pp_modpool + pp_modused, path, len + 1);
	pp_modules[pp_nmodules++] = pp_modpool + pp_modused;
	pp_modused += len + 1;
}

PP_EXPORT void __pinpoint_register(struct pp_fn *begin, struct pp_fn *end)
{
	unsigned fresh = 0;

	pp_lock();
	if (pp_state == PP_UNINIT)
		init();
	if (pp_state != PP_ARMED || !begin || end < begin)
		goto out;
	for (struct pp_fn *fn = begin; fn < end; fn++) {
		if (pp_ld(&fn->armed))
			continue;
		arm_fn(fn);
		fresh++;
	}
	if (fresh || begin == end)
		add_module(begin);
out:
	pp_unlock();
}

PP_EXPORT void __pinpoint_unregister(struct pp_fn *begin, struct pp_fn *end)
{
	pp_lock();
	if (pp_state != PP_ARMED || !begin || end < begin)
		goto out;
	for (struct pp_fn *fn = begin; fn < end; fn++) {
		uint32_t armed = pp_ld(&fn->armed);

		if (armed < PP_ARMED_BASE)
			continue;
		/* unarmed before its sites are reused: a late probe finds nothing */
		for (uint32_t k = 0; k <= fn->ncalls; k++)
			__atomic_store_n(&fn->flags[k], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&fn->armed, 0, __ATOMIC_RELEASE);
		give_sites(armed - PP_ARMED_BASE, fn->ncalls + 1);
	}
out:
	pp_unlock();
}
