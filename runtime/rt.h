/* SPDX-License-Identifier: MIT */
/*
 * rt.h - internals of the pinpoint runtime, shared by its files.
 *
 * The runtime keeps everything in static storage (no malloc): the parsed
 * PINPOINT variable, a table of armed probe sites, one block of counters per
 * thread (thread-local), a registry of live thread blocks, global totals and
 * the entry's sample buffer.  Times are kept in clock ticks and converted to
 * ns once, at exit.
 *
 * The sections follow the files' layers, lowest first (README.md, Layers):
 * a file calls only what is declared in its own layer's sections or above
 * them here.
 */
#ifndef PINPOINT_RT_H
#define PINPOINT_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "arch.h"
#include "pinpoint/abi.h"
#include "pinpoint/protocol.h"

#pragma GCC visibility push(hidden)

/* Fixed maxima; raising them only costs zero-filled (untouched) memory. */
/* PP_MAX_SLOTS, PP_MAX_SAMPLES (8 MiB of BSS), PP_MAX_MODULES and PP_SPEC_MAX
 * are the protocol's (pinpoint/protocol.h). */
#define PP_MAX_COUNTERS (2 * PP_MAX_SLOTS) /* one per slot + calls of fn */
#define PP_MAX_SITES 65536		   /* armed probe sites, all functions */
#define PP_MAX_THREADS 1024		   /* live threads whose blocks are merged at exit */
#define PP_MODPOOL_SIZE 65536		   /* module paths */

/* pp_fn.armed: 0 never seen, 1 seen and not armed, else PP_ARMED_BASE + index
 * of the function's site 0 in pp_sites. */
#define PP_ARMED_SEEN 1u
#define PP_ARMED_BASE PP_FN_ARMED

#define pp_likely(x) __builtin_expect(!!(x), 1)
#define pp_unlikely(x) __builtin_expect(!!(x), 0)
#define pp_inline inline __attribute__((always_inline)) /* the probes' hot path */
#define PP_EXPORT __attribute__((visibility("default")))

/* Relaxed atomic access: plain moves on x86-64, but no data race when the
 * exit handler reads another thread's counters. */
#define pp_ld(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define pp_st(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define pp_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

/* ==== layer 1, base ==== */

/* ---- spec.c: the PINPOINT variable (doc/formats.md, section 2) ---- */

/* entry and whole: a function's body; fn: its body and its calls; range:
 * calls of a function */
enum pp_kind { PP_KIND_ENTRY, PP_KIND_FN, PP_KIND_WHOLE, PP_KIND_RANGE };

struct pp_slot {
	enum pp_kind kind;
	const char *spec; /* the item's value as given */
	const char *file; /* NULL when the item has no FILE: part */
	const char *name;
	uint32_t first, last; /* ranges: calls first..last */
	uint32_t found;	      /* functions armed for this slot */
};

struct pp_spec {
	const char *out; /* NULL: nothing is armed, nothing written */
	unsigned nslots;
	int entry; /* slot index of entry=, or -1 */
	bool has_samples;
	uint32_t samples; /* samples=N */
	uint32_t stop;	  /* stop=N, 0 when not given */
	uint32_t skip;	  /* skip=K, 0 when not given */
	bool every;	  /* timing=all: no sampling (sample.c) */
	uint32_t heap;	  /* heap=N: bytes the heap's start moves by, at initialisation */
	bool has_timing;
	bool keep_probes; /* probes=keep: totals with the probes' cost (calib.c) */
	bool has_probes;
	/* delay=: the body (kind PP_KIND_WHOLE) or calls (PP_KIND_RANGE) whose
	 * executions wait delay_ns=N ns in their enter probe, one in
	 * delay_every=K on each thread; no slot */
	bool has_delay;
	struct pp_slot delay;
	uint32_t delay_ns;    /* 0 when not given */
	uint32_t delay_every; /* delay_every=K: one execution in K waits; 0 when not given */
	struct pp_slot slots[PP_MAX_SLOTS];
	char text[PP_SPEC_MAX];	 /* the variable, items cut at ';' */
	char parts[PP_SPEC_MAX]; /* decoded PATH, FILE and NAME copies */
};

/* Parse @text into @sp.  Returns 0, or -EINVAL with a message in @err. */
int pp_spec_parse(struct pp_spec *sp, const char *text, char *err, size_t errlen);

/* ---- log.c ---- */

/* Note what fd 2 is at initialisation (pp_err writes only to that file). */
void pp_log_init(void);
/* One line "pinpoint: ..." on stderr with write(2); never allocates.  Nothing
 * is written when fd 2 was closed at initialisation or now holds another
 * file. */
void pp_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- clock.c ---- */

/* The architecture's tick clock times the probes (arch.h); else
 * CLOCK_MONOTONIC. */
extern bool pp_use_ticks;
/* Ticks two back-to-back clock reads take, measured by pp_clock_init(). */
extern uint64_t pp_clock_pair;

void pp_clock_init(void);
/* Ticks per ns, calibrated against CLOCK_MONOTONIC since pp_clock_init(). */
double pp_clock_ticks_per_ns(void);
/* The same over at least @span_ns since pp_clock_init(), sleeping for the
 * rest: an earlier, rougher rate (pp_clock_ticks_per_ns() takes 10 ms). */
double pp_clock_rate(uint64_t span_ns);

static inline uint64_t pp_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t pp_ticks(void)
{
	if (PP_ARCH_TICKS && pp_likely(pp_use_ticks))
		return pp_arch_ticks();
	return pp_monotonic_ns();
}

/* ---- lock.c: the lock of registration (arm.c, jumps.c, target.c) ---- */

void pp_lock(void);
void pp_unlock(void);

/* ---- stack.c ---- */

/* Record the exiting thread's call chain. */
void pp_stack_snapshot(void);
/* Is the execution whose outermost enter had CFA @cfa and return address @ret
 * still on the recorded chain?  1 yes, 0 no, -1 unknown. */
int pp_stack_live(uintptr_t cfa, uintptr_t ret);
/* From an enter probe at @below: is the frame of the outermost enter with CFA
 * @cfa and return address @ret still on the calling thread's stack, above the
 * probe's caller?  Walks only the frames between here and @cfa.  1 yes, 0 no,
 * -1 unknown. */
int pp_stack_alive(uintptr_t cfa, uintptr_t ret, uintptr_t below);

/* ==== layer 2, state ==== */

/* ---- state.c: the shared state ---- */

/* Counters: slot i measures with counter i; a fn slot i also times its
 * calls with counter PP_MAX_SLOTS + i.  A site enters/exits the counters of
 * its mask (word 0: slots, word 1: calls). */
struct pp_site {
	uint64_t mask[2];
};

enum pp_state { PP_UNINIT, PP_ARMED, PP_INERT };

/* A thread's block of counters (thread.c lists and merges it), the
 * probes' own (probe.c). */
struct pp_tcounter {
	uint32_t depth;	  /* nesting of this thread's executions */
	uint32_t skip;	  /* 0: every execution is timed; else sampled (sample.c) */
	uint64_t start;	  /* ticks at the outermost enter; 0: not timed */
	uintptr_t frame;  /* stack position of the outermost enter: its CFA */
	uintptr_t ret;	  /* return address of that enter, in the probe's caller */
	uintptr_t vframe; /* deepest nested enter that found the outermost alive, 0: none */
	uint64_t sum;	  /* ticks of finished outermost executions, all timed */
	uint64_t count;	  /* ... and their number */
	uint64_t lost;	  /* executions abandoned without their exit probe */
	uint64_t ssum;	  /* once sampled: ticks of the timed executions */
	uint64_t stimed;  /* ... their number */
	uint64_t scount;  /* ... and the number of all finished executions */
	uint64_t plain0;  /* the thread's probe counts (pp_thread) once a timed */
	uint64_t clock0;  /* execution's enter probe has counted itself */
	uint64_t plain;	  /* probes inside the executions of sum: without a clock read */
	uint64_t clock;	  /* ... and with one */
	uint64_t splain;  /* the same inside the timed executions of ssum */
	uint64_t sclock;
};

enum pp_thread_state {
	PP_THREAD_NEW = 0, /* no armed probe yet */
	PP_THREAD_LISTED,  /* in the registry: merged at thread exit or exit */
	PP_THREAD_DIRECT,  /* registry full or thread ended: add to totals */
};

/* A counter's finished executions, summed over threads: what struct
 * pp_tcounter keeps of them (sum, count, ssum, stimed, scount and the
 * probes inside), and those lost.  Kept as sums so that the estimates
 * (sample.c) and the skip=K snapshot's difference are taken at the end. */
struct pp_total {
	uint64_t sum, count, ssum, stimed, scount;
	uint64_t plain, clock, splain, sclock;
	uint64_t lost;
};

/* X(field) for each field of struct pp_total, which struct pp_tcounter
 * has too. */
#define PP_TOTAL_FIELDS(X)                                                                         \
	X(sum) X(count) X(ssum) X(stimed) X(scount) X(plain) X(clock) X(splain) X(sclock) X(lost)
/* Targets a counter keeps apart, per thread and in all; the rest are
 * "others" (entry PP_MAX_TARGETS). */
#define PP_MAX_TARGETS 8
/* Counters (ranges of one indirect call) that keep targets. */
#define PP_MAX_TTABLES 16

/* A counter's executions that went to one target: what the counter keeps
 * of them. */
struct pp_target {
	uintptr_t addr; /* 0: others */
	struct pp_total t;
};

/* A thread's targets of one counter. */
struct pp_ttable {
	uint32_t cur;	      /* 1 + the entry of the last note's target; 0: none */
	struct pp_total mark; /* the counter's sums at that note */
	struct pp_target e[PP_MAX_TARGETS + 1];
};

struct pp_thread {
	int state;
	unsigned reg;	  /* registry index when listed */
	uint64_t rng;	  /* the sampling gaps' generator (sample.c) */
	uint64_t dropped; /* entry executions past the sample buffer */
	/* armed probe executions of this thread that reached a counter: those
	 * that read no clock and those that did (calib.c) */
	uint64_t plain, clock;
	struct pp_tcounter c[PP_MAX_COUNTERS];
	/* after the counters: the fast paths' offsets (layout.h) stay */
	struct pp_ttable tt[PP_MAX_TTABLES];
	uint64_t delayed; /* executions of delay='s sites that waited (probe.c) */
	/* executions of delay='s sites since the last that waited, less than
	 * pp_delay_every; the thread's own (probe.c) */
	uint64_t delay_since;
};

extern struct pp_spec pp_spec;
extern struct pp_site pp_sites[PP_MAX_SITES];
extern int pp_state;
extern int pp_init_pid;
/* the paths of the modules that registered (arm.c), for the results */
extern unsigned pp_nmodules;
extern const char *pp_modules[PP_MAX_MODULES];
extern __thread struct pp_thread pp_self;
/* delay= (arm.c): the delayed sites carry this bit in both mask words, that
 * of a counter no slot has (slot pp_spec.nslots), 0 without delay=; on each
 * thread, every pp_delay_every-th execution of their enter probes waits
 * pp_delay_ticks (delay_every=K, 1 without it). */
extern uint64_t pp_delay_mark;
extern uint64_t pp_delay_ticks;
extern uint64_t pp_delay_every;
/* delay='s waits have begun: at arming without skip=K, else once the
 * entry's K-th execution ended (probe.c): what the process did before the
 * executions the results keep (its set-up) does not wait. */
extern uint32_t pp_delay_on;
/* The calibration's record and site: pp_arch_calib_probes() probes them. */
#define PP_CALIB_SITE PP_SITE_CALL(0)
extern struct pp_fn pp_calib_fn;

/* ---- cost.c: what the probes cost (measured by calib.c) ---- */

/* Ticks, per probe execution seen from outside its caller: one that reads
 * no clock and one that does; and per timed execution, what its own two
 * probes add between their clock reads. */
extern double pp_cost_plain, pp_cost_clock, pp_cost_bias;
/* Ticks the calibration took. */
extern uint64_t pp_calib_ticks;

/* What the probes add to a timed execution of @d ticks with @plain and
 * @clock probe executions inside: d less their cost, at least 0 (kept
 * durations of the entry); @d itself with probes=keep. */
uint64_t pp_cost_net(uint64_t d, uint64_t plain, uint64_t clock);

/* ---- durations.c: the entry's kept durations (samples=N) ---- */

extern uint64_t pp_samples[PP_MAX_SAMPLES];
extern uint32_t pp_nsamples; /* claimed indexes, may exceed the buffer */
extern uint32_t pp_samples_cap;
extern int pp_sample_counter; /* the entry's counter when sampling, else -1 */
extern uint64_t pp_dropped;   /* entry executions past the buffer, not in a listed block */

/* Keep one duration of the entry, or count it as dropped (in @t's block when
 * listed, else in pp_dropped; @t may be NULL). */
void pp_sample(struct pp_thread *t, uint64_t ticks);

/* ==== layer 3, counters ==== */

/* ---- sample.c: timing a random sample of a hot counter's executions ---- */

#define PP_SAMPLE_AFTER 8192u /* a thread's executions of a counter, all timed */
/* ... whose mean is below PP_SAMPLE_SHARE times what two clock reads cost
 * (timing each would add over 1 % to it), in PP_SAMPLE_BELOW_MIN to
 * PP_SAMPLE_BELOW_MAX ticks: sampled from then on */
#define PP_SAMPLE_SHARE 100u
#define PP_SAMPLE_BELOW_MIN 1024u
#define PP_SAMPLE_BELOW_MAX 16384u

/* Executions to the next timed one: 1..15, mean 8 (one in 8 is timed). */
static inline uint32_t pp_sample_gap(struct pp_thread *t)
{
	uint64_t x = t->rng; /* xorshift64 */

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	t->rng = x;
	return 1u + (uint32_t)(x >> 58 & 7) + (uint32_t)(x >> 61 & 7);
}

void pp_sample_seed(struct pp_thread *t);
/* The mean duration, in ticks, below which a counter is sampled. */
uint64_t pp_sample_below(void);
/* After the PP_SAMPLE_AFTER-th all-timed execution of counter @i on a listed
 * thread: start sampling it when it is short and of one site. */
void pp_sample_consider(struct pp_thread *t, struct pp_tcounter *c, unsigned i);
/* The ticks of a counter's executions @v: @raw, as measured (the sampled
 * part estimated by the ratio estimator), and @removed, the estimate of
 * what the probes add to it (calib.c), taken out before the sampled part
 * is scaled up. */
void pp_sample_estimate(const struct pp_total *v, double *raw, double *removed);

/* ---- target.c: where an armed indirect call went (abi.h, 5.) ---- */

/* Slot i's counter keeps targets in table pp_ttable_of[i] - 1
 * (0: none yet, -1: none left); their totals, and the skip=K copy. */
extern int pp_ttable_of[PP_MAX_SLOTS];
extern struct pp_target pp_ttotals[PP_MAX_TTABLES][PP_MAX_TARGETS + 1];
extern struct pp_target pp_tskipped[PP_MAX_TTABLES][PP_MAX_TARGETS + 1];
/* The note of an indirect call's target, before its enter probe. */
void pp_target_note(struct pp_fn *fn, uint32_t site, const void *target);
/* Counter @i of thread @t is merged with sums @now (thread.c): its targets
 * go into the totals, and are cleared when @own. */
void pp_target_merge(struct pp_thread *t, unsigned i, const struct pp_total *now, bool own);
/* skip=K: the targets' totals, then each listed thread's, into the copy. */
void pp_target_skip_globals(void);
void pp_target_skip_thread(const struct pp_thread *t, unsigned i, const struct pp_total *now);
/* The record of the instrumented function at @addr, or NULL (at exit). */
const struct pp_fn *pp_target_record(uintptr_t addr);

/* ---- thread.c: per-thread counters, registry, merge ---- */

extern struct pp_total pp_totals[PP_MAX_COUNTERS];
/* skip=K: the totals when the entry's K-th execution ended, if taken */
extern struct pp_total pp_skipped[PP_MAX_COUNTERS];
extern int pp_skip_taken;
/* delay='s executions that waited: merged from the threads' blocks, or
 * added there by threads not listed; and the skip=K copy */
extern uint64_t pp_delayed;
extern uint64_t pp_delayed_skipped;

int pp_thread_init(void);
void pp_thread_attach(struct pp_thread *t);
/* At exit: merge every listed thread into the totals, counting executions
 * still running up to @now. */
void pp_thread_collect(uint64_t now);
/* @v = @tot, read with relaxed loads. */
void pp_total_read(const struct pp_total *tot, struct pp_total *v);
/* skip=K reached: keep every counter's totals so far, merged over the
 * listed threads as at exit, in pp_skipped (other threads' blocks are read
 * as they are, without stopping them). */
void pp_skip_take(void);

/* ==== layer 4, results ==== */

/* ---- output.c: the results file ---- */

/* Write the results file to @out, or to "<out>.<pid>" when @out exists; the
 * path written in @where.  Returns 0 or -errno. */
int pp_output_write(const char *out, double ticks_per_ns, char *where, size_t wherelen);

/* ---- exit.c: the end of the process ---- */

void pp_atexit(void);
/* stop=N reached: write the results and end the process (status 0), unless
 * this is a forked child, which goes on. */
void pp_stop(void);
void pp_atfork_child(void);

/* ==== layer 5, probes ==== */

/* ---- probe.c: the hot path ---- */

extern int pp_seen_counter; /* the entry's counter with stop=N or skip=K, else -1 */

/* ==== layer 6, calibration ==== */

/* ---- calib.c: what the probes cost ---- */

/* Measure the costs (cost.c), on the calling thread; at initialisation,
 * before any site is armed. */
void pp_calibrate(void);

#pragma GCC visibility pop

#endif /* PINPOINT_RT_H */
