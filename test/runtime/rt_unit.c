// SPDX-License-Identifier: MIT
/*
 * rt_unit.c - scenarios for the runtime's unit tests, driven by rtcheck.py.
 *
 * The program carries hand-made pp_fn records and probes (unit_probes.h), so
 * it exercises the runtime exactly as instrumented code would, without the
 * plugin.  `rt_unit SCENARIO` runs one scenario under the PINPOINT variable
 * the driver set; the driver then checks the results file.  A scenario that
 * can check something only from inside (the fork child) exits non-zero.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "arch.h"
/* the r11 entry points where the runtime has them (UNIT_CALL_R11) */
#define UNIT_R11 PP_ARCH_FAST_PATHS
#include "unit_probes.h"

#define UNIT_FILE "test/runtime/rt_unit.c"

UNIT_FN(fn_leaf, "leaf", UNIT_FILE, 0);
UNIT_FN(fn_loop, "loop", UNIT_FILE, 1);
UNIT_FN(fn_sleeper, "sleeper", UNIT_FILE, 1);
UNIT_FN(fn_rec, "rec", UNIT_FILE, 1);
UNIT_FN(fn_jumper, "jumper", UNIT_FILE, 1);
UNIT_FN(fn_parent, "parent", UNIT_FILE, 3);
UNIT_FN(fn_same_a, "same", "src/a.c", 0);
UNIT_FN(fn_same_b, "same", "/abs/lib/b.c", 0);
UNIT_FN(fn_blocker, "blocker", UNIT_FILE, 2);
UNIT_FN(fn_gate, "gate", UNIT_FILE, 1);
UNIT_FN(fn_exiter, "exiter", UNIT_FILE, 2);
UNIT_FN(fn_hot, "hot", UNIT_FILE, 2);
UNIT_FN(fn_work, "work", UNIT_FILE, 0);
UNIT_FN(fn_ref, "ref", UNIT_FILE, 0);
UNIT_FN(fn_steady, "steady", UNIT_FILE, 1);
UNIT_FN(fn_fast, "fastfn", UNIT_FILE, 1);
UNIT_FN(fn_outer_a, "outer_a", UNIT_FILE, 1);
UNIT_FN(fn_mid_a, "mid_a", UNIT_FILE, 1);
UNIT_FN(fn_inner_a, "inner_a", UNIT_FILE, 0);
UNIT_FN(fn_outer_b, "outer_b", UNIT_FILE, 1);
UNIT_FN(fn_mid_b, "mid_b", UNIT_FILE, 1);
UNIT_FN(fn_inner_b, "inner_b", UNIT_FILE, 0);
UNIT_FN(fn_round, "round", UNIT_FILE, 2);
UNIT_FN(fn_chain, "chain", UNIT_FILE, 0);
UNIT_FN(fn_chain2, "chain2", UNIT_FILE, 0);
UNIT_FN(fn_pairs, "pairs", UNIT_FILE, 3);
UNIT_FN(fn_stepper, "stepper", UNIT_FILE, 1);
UNIT_FN(fn_rloop, "rloop", UNIT_FILE, 1);
UNIT_FN(fn_rleaf, "rleaf", UNIT_FILE, 0);
UNIT_MODULE_CTOR()

/* Records outside the section, registered by hand (a second range). */
static uint8_t extra_flags[1];
static struct pp_fn extra_fns[2] = {
    {extra_flags, "extra", UNIT_FILE, 0, 0},
    {extra_flags, "unused", UNIT_FILE, 0, 0},
};

static unsigned long sink; /* touched by several threads: relaxed atomics */

#if defined(__x86_64__) && PP_ARCH_FAST_PATHS
/* The runtime's preserve_most entry points (runtime/arch/x86_64/
 * probe_x86_64.S), called as instrumented code calls them by
 * fast_call_x86_64.S. */
void __pinpoint_enter_fast(struct pp_fn *fn, uint32_t site);
void __pinpoint_exit_fast(struct pp_fn *fn, uint32_t site);
void pp_test_fast_call(void (*entry)(struct pp_fn *, uint32_t), void *record, uint32_t site);
/* The entry points of the inline asm probes around a call: the record in
 * r11, the site in r10d (abi.h, 3.), called by pp_test_r11_call(). */
void __pinpoint_enter_r11(void);
void __pinpoint_exit_r11(void);
void pp_test_r11_call(void (*entry)(void), void *record, uint32_t site);
extern uint64_t pp_test_fast_got[14];
extern uint64_t pp_test_fast_xmm[32];
/* Scenario fast-r11: fast_call() calls the r11 entry point instead. */
static bool fast_r11;

/* One call of @entry; -1 (and a line on stderr) when a register other than
 * r11 (and r10, for the r11 entry points) changed, or for the r11 entry
 * points an SSE register. */
static int fast_call(void (*entry)(struct pp_fn *, uint32_t), void *record, uint32_t site)
{
	static const char *const name[14] = {"rax", "rcx", "rdx", "rsi", "rdi", "r8",  "r9",
					     "r10", "rbx", "rbp", "r12", "r13", "r14", "r15"};

	if (fast_r11)
		pp_test_r11_call(entry == __pinpoint_enter_fast ? __pinpoint_enter_r11
								: __pinpoint_exit_r11,
				 record, site);
	else
		pp_test_fast_call(entry, record, site);
	for (unsigned i = 0; i < 14; i++) {
		uint64_t want = 0x5a5a000000000000ull + i + 1;

		if (fast_r11 && i == 7)
			continue; /* r10: the site, the callee's */
		if (!fast_r11 && i == 3)
			want = site; /* rsi */
		else if (!fast_r11 && i == 4)
			want = (uint64_t)(uintptr_t)record; /* rdi */
		if (pp_test_fast_got[i] != want) {
			fprintf(stderr, "%s is %#llx after the call, not %#llx\n", name[i],
				(unsigned long long)pp_test_fast_got[i], (unsigned long long)want);
			return -1;
		}
	}
	for (unsigned i = 0; fast_r11 && i < 32; i++) {
		uint64_t want = 0x6b6b000000000000ull + i + 1;

		if (pp_test_fast_xmm[i] != want) {
			fprintf(stderr, "xmm%u's %s half is %#llx after the call, not %#llx\n",
				i / 2, i % 2 ? "high" : "low",
				(unsigned long long)pp_test_fast_xmm[i], (unsigned long long)want);
			return -1;
		}
	}
	return 0;
}
#endif
static jmp_buf jump_back;

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void spin_ms(unsigned ms)
{
	uint64_t end = now_ns() + ms * 1000000ull;

	while (now_ns() < end)
		__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
}

static void spin_us(unsigned us)
{
	uint64_t end = now_ns() + us * 1000ull;

	while (now_ns() < end)
		__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
}

/* Execution @i of @n: the first @k spin 5 ms, the others 50 us, in one call. */
__attribute__((noinline)) static void stepper(unsigned i, unsigned k)
{
	UNIT_ENTER(fn_stepper, 0);
	UNIT_CALL(fn_stepper, 0, spin_us(i < k ? 5000 : 50));
	UNIT_EXIT(fn_stepper, 0);
}

__attribute__((noinline)) static void leaf(void)
{
	UNIT_ENTER(fn_leaf, 0);
	__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
	UNIT_EXIT(fn_leaf, 0);
}

__attribute__((noinline)) static void loop(unsigned n)
{
	UNIT_ENTER(fn_loop, 0);
	for (unsigned i = 0; i < n; i++)
		UNIT_CALL(fn_loop, 0, leaf());
	UNIT_EXIT(fn_loop, 0);
}

/* leaf() and loop() with the probes of an armed call and body in an
 * executable (UNIT_CALL_R11), whose entry points have fast paths. */
__attribute__((noinline)) static void rleaf(void)
{
	UNIT_ENTER_R11(fn_rleaf, 0);
	__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
	UNIT_EXIT_R11(fn_rleaf, 0);
}

__attribute__((noinline)) static void rloop(unsigned n)
{
	UNIT_ENTER_R11(fn_rloop, 0);
	for (unsigned i = 0; i < n; i++)
		UNIT_CALL_R11(fn_rloop, 0, rleaf());
	UNIT_EXIT_R11(fn_rloop, 0);
}

/* Spins @n rounds: a duration that owes nothing to the clock. */
__attribute__((noinline)) static void work(unsigned n)
{
	UNIT_ENTER_R11(fn_work, 0);
	for (unsigned i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
	UNIT_EXIT_R11(fn_work, 0);
}

/* work()'s twin, for a reference too rarely called to be sampled. */
__attribute__((noinline)) static void ref(unsigned n)
{
	UNIT_ENTER_R11(fn_ref, 0);
	for (unsigned i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
	UNIT_EXIT_R11(fn_ref, 0);
}

/* @n calls of work(@rounds), but every 64th call is 100 times longer: a
 * periodic workload that strided sampling would alias with.  Between them,
 * every 64th iteration, ref() does what a long call does. */
__attribute__((noinline)) static void hot(unsigned n, unsigned rounds)
{
	UNIT_ENTER_R11(fn_hot, 0);
	for (unsigned i = 0; i < n; i++) {
		UNIT_CALL_R11(fn_hot, 0, work(i % 64 == 63 ? 100 * rounds : rounds));
		if (i % 64 == 31)
			UNIT_CALL_R11(fn_hot, 1, ref(100 * rounds));
	}
	UNIT_EXIT_R11(fn_hot, 0);
}

/*
 * @n blocks of 16 dependent multiplications: some 25 ns each and one branch,
 * so that a call of a few blocks leaves the branch predictor's history of
 * its caller's branches as it found it (a long loop would not: the exit
 * probe of a sampled call that is timed then costs one mispredicted branch
 * more, inside its interval; runtime/README.md).
 */
#if defined(__x86_64__)
#define CHAIN_BLOCK(x)                                                                             \
	__asm__("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0\n\t"                     \
		"imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0\n\t"                     \
		"imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0\n\t"                     \
		"imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0"                         \
		: "+r"(x))
#else
/* elsewhere a loop of 40 rounds a block */
#define CHAIN_BLOCK(x)                                                                             \
	for (unsigned j = 0; j < 40; j++)                                                          \
	__asm__ volatile("" : "+r"(x))
#endif
#define CHAIN_TWIN(name)                                                                           \
	__attribute__((noinline)) static unsigned name(unsigned n, unsigned x)                     \
	{                                                                                          \
		UNIT_ENTER_R11(fn_##name, 0);                                                      \
		for (unsigned i = 0; i < n; i++)                                                   \
			CHAIN_BLOCK(x);                                                            \
		UNIT_EXIT_R11(fn_##name, 0);                                                       \
		return x;                                                                          \
	}
CHAIN_TWIN(chain)
CHAIN_TWIN(chain2)

/* Twin calls: @n calls of chain(@blocks) at one site (call 0), and the
 * same @n of chain2() at two sites in turns (calls 1 and 2), which a range
 * of both times every time; every 64th pair is 4 times longer. */
__attribute__((noinline)) static void pairs(unsigned n, unsigned blocks)
{
	unsigned x = 3;

	UNIT_ENTER_R11(fn_pairs, 0);
	for (unsigned i = 0; i < n; i++) {
		unsigned b = i % 64 == 63 ? 4 * blocks : blocks;

		UNIT_CALL_R11(fn_pairs, 0, x = chain(b, x));
		if (i % 2)
			UNIT_CALL_R11(fn_pairs, 2, x = chain2(b, x));
		else
			UNIT_CALL_R11(fn_pairs, 1, x = chain2(b, x));
	}
	UNIT_EXIT_R11(fn_pairs, 0);
	__atomic_fetch_add(&sink, x, __ATOMIC_RELAXED);
}

/* @n calls of work(@rounds), every one as long: a mean set from outside. */
__attribute__((noinline)) static void steady(unsigned n, unsigned rounds)
{
	UNIT_ENTER_R11(fn_steady, 0);
	for (unsigned i = 0; i < n; i++)
		UNIT_CALL_R11(fn_steady, 0, work(rounds));
	UNIT_EXIT_R11(fn_steady, 0);
}

/*
 * Twins, a and b: outer calls mid @n times, mid calls inner @m times,
 * inner spins @rounds rounds, in one function both twins call: a loop of
 * one branch runs at a speed that depends on where it lies, and two copies
 * of it differed by up to 5 % in one process (AMD EPYC).  Their probes are
 * those of an armed call in an executable (UNIT_CALL_R11), so that arming
 * a's inner calls and bodies while b's stay unarmed shows what the probes'
 * removal leaves, in the same process, executions of a and b taking turns.
 */
__attribute__((noinline)) static void nest_spin(unsigned rounds)
{
	for (unsigned i = 0; i < rounds; i++)
		__asm__ volatile("" ::: "memory");
}

#define NEST_TWIN(x)                                                                               \
	__attribute__((noinline)) static void inner_##x(unsigned rounds)                           \
	{                                                                                          \
		UNIT_ENTER_R11(fn_inner_##x, 0);                                                   \
		nest_spin(rounds);                                                                 \
		UNIT_EXIT_R11(fn_inner_##x, 0);                                                    \
	}                                                                                          \
	__attribute__((noinline)) static void mid_##x(unsigned m, unsigned rounds)                 \
	{                                                                                          \
		UNIT_ENTER_R11(fn_mid_##x, 0);                                                     \
		for (unsigned j = 0; j < m; j++)                                                   \
			UNIT_CALL_R11(fn_mid_##x, 0, inner_##x(rounds));                           \
		UNIT_EXIT_R11(fn_mid_##x, 0);                                                      \
	}                                                                                          \
	__attribute__((noinline)) static void outer_##x(unsigned n, unsigned m, unsigned rounds)   \
	{                                                                                          \
		UNIT_ENTER_R11(fn_outer_##x, 0);                                                   \
		for (unsigned i = 0; i < n; i++)                                                   \
			UNIT_CALL_R11(fn_outer_##x, 0, mid_##x(m, rounds));                        \
		UNIT_EXIT_R11(fn_outer_##x, 0);                                                    \
	}
NEST_TWIN(a)
NEST_TWIN(b)

/* One twin: a when @i is even, b when odd (calls 0 and 1). */
__attribute__((noinline)) static void round_(unsigned i, unsigned n, unsigned m, unsigned rounds)
{
	UNIT_ENTER_R11(fn_round, 0);
	if (i % 2)
		UNIT_CALL_R11(fn_round, 1, outer_b(n, m, rounds));
	else
		UNIT_CALL_R11(fn_round, 0, outer_a(n, m, rounds));
	UNIT_EXIT_R11(fn_round, 0);
}

/* @reps executions of each twin, taking turns (a b a b ...). */
static void nest(unsigned reps, unsigned n, unsigned m, unsigned rounds)
{
	for (unsigned r = 0; r < 2 * reps; r++)
		round_(r, n, m, rounds);
}

__attribute__((noinline)) static void sleeper(unsigned ms)
{
	UNIT_ENTER(fn_sleeper, 0);
	UNIT_CALL(fn_sleeper, 0, sleep_ms(ms));
	UNIT_EXIT(fn_sleeper, 0);
}

__attribute__((noinline)) static unsigned rec(unsigned n)
{
	unsigned r = 1;

	UNIT_ENTER(fn_rec, 0);
	if (n) {
		spin_ms(1);
		UNIT_CALL(fn_rec, 0, r += rec(n - 1));
	}
	UNIT_EXIT(fn_rec, 0);
	return r;
}

/* Leaves by longjmp when @jump: its exit probe never runs. */
__attribute__((noinline)) static void jumper(int jump)
{
	volatile char frame[256]; /* a frame larger than thin()'s */

	UNIT_ENTER(fn_jumper, 0);
	frame[0] = (char)jump;
	__atomic_fetch_add(&sink, (unsigned long)frame[0], __ATOMIC_RELAXED);
	if (jump)
		UNIT_CALL(fn_jumper, 0, longjmp(jump_back, 1));
	UNIT_EXIT(fn_jumper, 0);
}

/* Always called from the same place, so every jumper() frame is the same. */
__attribute__((noinline)) static void call_jumper(int jump)
{
	if (!setjmp(jump_back))
		jumper(jump);
}

/* Deeper in the stack than main's direct calls by @d frames of 512 bytes. */
__attribute__((noinline)) static void deep(int d)
{
	volatile char pad[512];

	pad[0] = (char)d;
	if (d)
		deep(d - 1);
	else
		jumper(0);
	pad[1] = pad[0];
}

/* A thin wrapper: its jumper() frame is only a little deeper than the one
 * main's call_jumper() left, so that frame's position lies in this one's. */
__attribute__((noinline)) static void thin(void)
{
	volatile char pad[32];

	pad[0] = 1;
	jumper(0);
	pad[1] = pad[0];
}

/* 10 ms + 5 ms of calls, 5 ms of its own. */
__attribute__((noinline)) static void parent(void)
{
	UNIT_ENTER(fn_parent, 0);
	UNIT_CALL(fn_parent, 0, sleep_ms(10));
	UNIT_CALL(fn_parent, 1, sleep_ms(5));
	UNIT_CALL(fn_parent, 2, leaf());
	spin_ms(5);
	UNIT_EXIT(fn_parent, 0);
}

__attribute__((noinline)) static void same_a(void)
{
	UNIT_ENTER(fn_same_a, 0);
	__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
	UNIT_EXIT(fn_same_a, 0);
}

__attribute__((noinline)) static void same_b(void)
{
	UNIT_ENTER(fn_same_b, 0);
	__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
	UNIT_EXIT(fn_same_b, 0);
}

/* Runs until the process exits. */
static sem_t blocker_started;

__attribute__((noinline)) static void blocker(void)
{
	UNIT_ENTER(fn_blocker, 0);
	UNIT_CALL(fn_blocker, 0, sem_post(&blocker_started));
	UNIT_CALL(fn_blocker, 1, sleep_ms(100000));
	UNIT_EXIT(fn_blocker, 0);
}

static pthread_barrier_t barrier;

__attribute__((noinline)) static void gate(void)
{
	UNIT_ENTER(fn_gate, 0);
	UNIT_CALL(fn_gate, 0, pthread_barrier_wait(&barrier));
	UNIT_EXIT(fn_gate, 0);
}

__attribute__((noinline)) static void exiter(void)
{
	UNIT_ENTER(fn_exiter, 0);
	UNIT_CALL(fn_exiter, 0, sleep_ms(20));
	UNIT_CALL(fn_exiter, 1, exit(0));
	UNIT_EXIT(fn_exiter, 0);
}

/* Time spent in the measured calls, as the caller sees it: the runtime's
 * figures must fall just inside. */
static uint64_t outer_ns;

static void *thread_sleep(void *arg)
{
	uint64_t t0 = now_ns();

	(void)arg;
	sleeper(20);
	__atomic_fetch_add(&outer_ns, now_ns() - t0, __ATOMIC_RELAXED);
	return NULL;
}

static void *thread_loop(void *arg)
{
	(void)arg;
	loop(100000);
	return NULL;
}

/* Scenario delay-threads: the I-th thread to start makes delay_calls +
 * I * delay_step calls of leaf() (of rleaf(), from rloop(), with
 * delay_r11). */
static unsigned delay_calls, delay_step, delay_next;
static bool delay_r11;

static void *thread_delay(void *arg)
{
	unsigned n =
	    delay_calls + __atomic_fetch_add(&delay_next, 1, __ATOMIC_RELAXED) * delay_step;

	(void)arg;
	if (delay_r11)
		rloop(n);
	else
		loop(n);
	return NULL;
}

static void *thread_block(void *arg)
{
	(void)arg;
	blocker();
	return NULL;
}

static void *thread_gate(void *arg)
{
	(void)arg;
	gate();
	return NULL;
}

static void *thread_churn(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++)
		leaf();
	return NULL;
}

/* Threads start and end while the process exits: no crash, no hang, a
 * whole file. */
static int scenario_churn(void)
{
	pthread_attr_t attr;
	pthread_t tid;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < 200; i++)
		if (pthread_create(&tid, &attr, thread_churn, NULL))
			break;
	pthread_attr_destroy(&attr);
	return 0;
}

static int run_threads(unsigned n, void *(*fn)(void *), size_t stack)
{
	pthread_t tids[1200];
	pthread_attr_t attr;
	unsigned i;
	int ret = 0;

	pthread_attr_init(&attr);
	if (stack)
		pthread_attr_setstacksize(&attr, stack);
	for (i = 0; i < n; i++) {
		ret = pthread_create(&tids[i], &attr, fn, NULL);
		if (ret) {
			fprintf(stderr, "rt_unit: pthread_create %u: %s\n", i, strerror(ret));
			break;
		}
	}
	for (unsigned j = 0; j < i; j++)
		pthread_join(tids[j], NULL);
	pthread_attr_destroy(&attr);
	return ret ? 1 : 0;
}

static int scenario_fork(void)
{
	const char *out = getenv("RT_UNIT_OUT");
	pid_t pid;
	int status;

	for (int i = 0; i < 10; i++)
		leaf();
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		for (int i = 0; i < 5; i++)
			leaf();
		exit(0); /* runs the exit handlers: the runtime must not write */
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 3;
	if (out && access(out, F_OK) == 0) {
		fprintf(stderr, "rt_unit: the forked child wrote %s\n", out);
		return 4;
	}
	leaf();
	return 0;
}

/* Runs itself as "exec-child" with PINPOINT as the runtime left it (unset),
 * or with @set_env, set again to $RT_UNIT_CHILD_PINPOINT, as a harness
 * handing its own spec down would. */
static int run_child(const char *self, int set_env)
{
	char *argv[] = {(char *)self, "exec-child", NULL};
	const char *spec = getenv("RT_UNIT_CHILD_PINPOINT");
	extern char **environ;
	pid_t pid;
	int status;

	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		if (set_env && (!spec || setenv("PINPOINT", spec, 1)))
			_exit(126);
		execve("/proc/self/exe", argv, environ);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 3;
	return 0;
}

/* fd 2 closed (by the caller of the program, or here), then a file that
 * takes fd 2: the runtime's error line at exit must not land in it. */
static int scenario_fd2(int close_here)
{
	const char *path = getenv("RT_UNIT_FD2");
	int fd;

	if (!path)
		return 2;
	if (close_here)
		close(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd != 2)
		return 3;
	leaf();
	return 0;
}

static int report_outer(int ret)
{
	printf("outer_ns %llu\n", (unsigned long long)outer_ns);
	return ret;
}

/*
 * How often the system took the processor from the process (involuntary
 * context switches): the timing scenarios' runs where it did not are the
 * ones they compare (rtcheck.py, quiet_runs()).
 */
static int report_switches(int ret)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_SELF, &ru))
		printf("nivcsw %ld\n", ru.ru_nivcsw);
	return ret;
}

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "";
	uint64_t t0 = now_ns();

	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	if (!strcmp(s, "counts")) {
		loop(1000);
	} else if (!strcmp(s, "sleep")) {
		sleeper(20);
		outer_ns = now_ns() - t0;
		return report_outer(0);
	} else if (!strcmp(s, "recursion")) {
		for (int i = 0; i < 3; i++)
			rec(10);
	} else if (!strcmp(s, "unbalanced")) {
		call_jumper(1); /* lost */
		for (int i = 0; i < 3; i++)
			call_jumper(0);
		/* an exit probe without its enter is ignored */
		if (fn_leaf_flags[0])
			__pinpoint_exit(&fn_leaf, 0);
		leaf();
	} else if (!strcmp(s, "unbalanced-hot")) {
		/* sampled once past 8192 (a short body of one site): a lost
		 * execution, timed or not, is found by the next enter */
		for (int i = 0; i < 20000; i++)
			call_jumper(i % 100 == 50);
	} else if (!strcmp(s, "fast") || !strcmp(s, "fast-r11")) {
#if defined(__x86_64__) && PP_ARCH_FAST_PATHS
		void *exit_record = (char *)&fn_fast + PP_EXIT_BIAS;

		fast_r11 = !strcmp(s, "fast-r11");
		/* a site past the calls, and a function not armed: nothing */
		if (fast_call(__pinpoint_enter_fast, &fn_fast, 7) ||
		    fast_call(__pinpoint_enter_fast, &fn_ref, 0) ||
		    fast_call(__pinpoint_exit_fast, (char *)&fn_ref + PP_EXIT_BIAS, 0))
			return 1;
		/* the armed path of call 0, as the pass plants it */
		for (int i = 0; i < 20000; i++) {
			if (fast_call(__pinpoint_enter_fast, &fn_fast, PP_SITE_CALL(0)))
				return 1;
			__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
			if (fast_call(__pinpoint_exit_fast, exit_record, PP_SITE_CALL(0)))
				return 1;
		}
		/* an enter from the same frame while the last is running: that
		 * one is lost (its frame is gone), and the exit past the end is
		 * ignored; both the C path's */
		for (int i = 0; i < 100; i++) {
			if (fast_call(__pinpoint_enter_fast, &fn_fast, PP_SITE_CALL(0)) ||
			    fast_call(__pinpoint_enter_fast, &fn_fast, PP_SITE_CALL(0)) ||
			    fast_call(__pinpoint_exit_fast, exit_record, PP_SITE_CALL(0)) ||
			    fast_call(__pinpoint_exit_fast, exit_record, PP_SITE_CALL(0)))
				return 1;
		}
		/* 50 executions of 100 us each: all timed, at least 5 ms */
		for (int i = 0; i < 50; i++) {
			uint64_t t1;

			if (fast_call(__pinpoint_enter_fast, &fn_fast, PP_SITE_CALL(0)))
				return 1;
			for (t1 = now_ns(); now_ns() - t1 < 100000;)
				;
			if (fast_call(__pinpoint_exit_fast, exit_record, PP_SITE_CALL(0)))
				return 1;
		}
		/* the body: with entry=fastfn the entry's counter, the C path's */
		for (int i = 0; i < 100; i++) {
			if (fast_call(__pinpoint_enter_fast, &fn_fast, 0))
				return 1;
			__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
			if (fast_call(__pinpoint_exit_fast, exit_record, 0))
				return 1;
		}
		outer_ns = now_ns() - t0;
		return report_outer(0);
#else
		return 77;
#endif
	} else if (!strcmp(s, "unbalanced-exit")) {
		call_jumper(1); /* left open, but its frame is gone at exit */
	} else if (!strcmp(s, "samples")) {
		loop(100);
	} else if (!strcmp(s, "calls")) {
		parent();
		outer_ns = now_ns() - t0;
		return report_outer(0);
	} else if (!strcmp(s, "files")) {
		same_a();
		same_b();
		same_b();
	} else if (!strcmp(s, "register")) {
		__pinpoint_register(__start_pinpoint_fns, __stop_pinpoint_fns);
		__pinpoint_register(extra_fns, extra_fns + 2);
		__pinpoint_register(extra_fns, extra_fns + 2);
		__pinpoint_register(__start_pinpoint_fns, __stop_pinpoint_fns);
		leaf();
		if (extra_flags[0]) {
			__pinpoint_enter(&extra_fns[0], 0);
			__pinpoint_exit(&extra_fns[0], 0);
		}
	} else if (!strcmp(s, "threads-sleep")) {
		return report_outer(run_threads(4, thread_sleep, 0));
	} else if (!strcmp(s, "threads-sum")) {
		return run_threads(4, thread_loop, 0);
	} else if (!strcmp(s, "threads-running")) {
		pthread_t tid;

		sem_init(&blocker_started, 0, 0);
		if (pthread_create(&tid, NULL, thread_block, NULL))
			return 1;
		while (sem_wait(&blocker_started))
			;
		t0 = now_ns();
		sleep_ms(30);
		outer_ns = now_ns() - t0;
		return report_outer(0); /* exit with blocker() still running */
	} else if (!strcmp(s, "threads-many")) {
		unsigned n = 1100;

		pthread_barrier_init(&barrier, NULL, n);
		return run_threads(n, thread_gate, 64 * 1024);
	} else if (!strcmp(s, "threads-churn")) {
		return scenario_churn();
	} else if (!strcmp(s, "fork")) {
		return scenario_fork();
	} else if (!strcmp(s, "jump-deep")) {
		call_jumper(1); /* from main's frame: lost */
		for (int i = 0; i < 5; i++)
			deep(3);
	} else if (!strcmp(s, "jump-thin")) {
		call_jumper(1);
		for (int i = 0; i < 5; i++)
			thin();
	} else if (!strcmp(s, "exec-parent") || !strcmp(s, "exec-parent-env")) {
		int ret;

		for (int i = 0; i < 3; i++)
			leaf();
		if (getenv("PINPOINT")) {
			fprintf(stderr, "rt_unit: PINPOINT still set\n");
			return 4;
		}
		ret = run_child(argv[0], !strcmp(s, "exec-parent-env"));
		if (ret)
			return ret;
		leaf();
	} else if (!strcmp(s, "exec-child")) {
		printf("child %d\n", (int)getpid());
		for (int i = 0; i < 100; i++)
			leaf();
	} else if (!strcmp(s, "fd2-closed")) {
		return scenario_fd2(0);
	} else if (!strcmp(s, "fd2-reopen")) {
		return scenario_fd2(1);
	} else if (!strcmp(s, "euid")) {
		printf("euid %d\n", (int)geteuid());
		leaf();
	} else if (!strcmp(s, "exit-inside")) {
		exiter();
	} else if (!strcmp(s, "hot")) {
		hot(300000, 20);
		return report_switches(0);
	} else if (!strcmp(s, "pairs")) {
		pairs(100000, argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 20);
		return report_switches(0);
	} else if (!strcmp(s, "hot-long")) {
		hot(10000, 16000);
	} else if (!strcmp(s, "steady") && argc > 2) {
		steady(20000, (unsigned)strtoul(argv[2], NULL, 10));
	} else if (!strcmp(s, "nest") && argc > 5) {
		nest((unsigned)strtoul(argv[2], NULL, 10), (unsigned)strtoul(argv[3], NULL, 10),
		     (unsigned)strtoul(argv[4], NULL, 10), (unsigned)strtoul(argv[5], NULL, 10));
		return report_switches(0);
	} else if (!strcmp(s, "skip") && argc > 3) {
		unsigned n = (unsigned)strtoul(argv[2], NULL, 10),
			 k = (unsigned)strtoul(argv[3], NULL, 10);

		for (unsigned i = 0; i < n; i++)
			stepper(i, k);
	} else if (!strcmp(s, "delay") && argc > 3) {
		/* R executions of loop() making K calls of leaf(), timed from
		 * here too; of rloop() and rleaf() with "r11" */
		unsigned r = (unsigned)strtoul(argv[2], NULL, 10),
			 k = (unsigned)strtoul(argv[3], NULL, 10);
		bool r11 = argc > 4 && !strcmp(argv[4], "r11");

		t0 = now_ns();
		for (unsigned i = 0; i < r; i++) {
			if (r11)
				rloop(k);
			else
				loop(k);
		}
		outer_ns = now_ns() - t0;
		printf("outer_ns %llu\n", (unsigned long long)outer_ns);
		return report_switches(0);
	} else if (!strcmp(s, "delay-threads") && argc > 3) {
		/* N threads, each running loop() making K calls of leaf(), the
		 * I-th to start K + I * STEP with a STEP; rloop() and rleaf()
		 * with "r11" */
		delay_calls = (unsigned)strtoul(argv[3], NULL, 10);
		delay_step = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 0;
		delay_r11 = argc > 5 && !strcmp(argv[5], "r11");
		return run_threads((unsigned)strtoul(argv[2], NULL, 10), thread_delay, 0);
	} else if (!strcmp(s, "plain")) {
		loop(10);
		parent();
	} else {
		fprintf(stderr, "rt_unit: unknown scenario '%s'\n", s);
		return 2;
	}
	return 0;
}
