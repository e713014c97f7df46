// SPDX-License-Identifier: MIT
/*
 * jumps.c - __pinpoint_register_jumps: patch the static branches of the
 * armed sites (abi.h, 4.).
 *
 * A static branch is a 5-byte no-op in the instrumented code, described by a
 * struct pp_jump.  After __pinpoint_register armed a link unit's records
 * (flags and pp_fn.armed set), its constructor hands the link unit's
 * branches here, and every branch whose key is set becomes a jump to its
 * armed path, or for a sled around a call (PP_JUMP_CALL) a call of its
 * thunk: on x86-64 "jmp rel32" and "call rel32" (arch.h, pp_arch_branch();
 * other architectures have no static branches).  Nothing is patched when
 * nothing is armed: an unarmed process never makes its code writable.
 *
 * Patching makes the pages of the no-ops writable for the time of the
 * writes (read-write-execute) and then read-execute again; where the system
 * refuses writable code it writes through /proc/self/mem instead.
 * It happens while a link unit is registered, before its code runs: in the
 * constructors of the program's modules before main, or in dlopen before
 * the library's code can be called.  A branch whose bytes are neither the
 * no-op nor the jump it would become is left alone (one message), so a
 * table that does not describe the code cannot make the runtime write into
 * it.  Registering the same range again does nothing (every module of a
 * link unit registers the same range); __pinpoint_unregister_jumps, from a
 * library's destructor, forgets it, so a library loaded again is patched
 * again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"

#define PP_MAX_JUMP_RANGES PP_MAX_MODULES

static const struct pp_jump *pp_ranges[PP_MAX_JUMP_RANGES];
static unsigned pp_nranges;
static bool pp_patch_warned;

static uint8_t *at(const int32_t *field)
{
	return (uint8_t *)(uintptr_t)((intptr_t)field + *field);
}

static bool armed(const struct pp_jump *j)
{
	const uint8_t *key = at(&j->key);

	if (j->kind == PP_JUMP_FLAG || j->kind == PP_JUMP_CALL)
		return __atomic_load_n(key, __ATOMIC_ACQUIRE) != 0;
	if (j->kind == PP_JUMP_FN)
		return __atomic_load_n((const uint32_t *)(const void *)key, __ATOMIC_ACQUIRE) >=
		       PP_FN_ARMED;
	return false;
}

/* One registration's patching: the pages made writable, kept writable from
 * one branch to the next on the same pages and executable again after, and
 * /proc/self/mem, opened once where writable code is refused (-1: not yet). */
struct patcher {
	uintptr_t lo, hi;
	int mem;
};

static int restore(struct patcher *w)
{
	int err = 0;

	if (w->hi > w->lo && mprotect((void *)w->lo, w->hi - w->lo, PROT_READ | PROT_EXEC))
		err = -errno;
	w->lo = w->hi = 0;
	return err;
}

/* Make [p, p + n) writable; 0 or -errno. */
static int writable(struct patcher *w, uint8_t *p, size_t n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + n + page - 1) & ~(page - 1);
	int err;

	if (lo >= w->lo && hi <= w->hi)
		return 0;
	err = restore(w);
	if (err)
		return err;
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC))
		return -errno;
	w->lo = lo;
	w->hi = hi;
	return 0;
}

/* Write @n bytes at @p through /proc/self/mem; 0 or -errno. */
static int write_mem(struct patcher *w, uint8_t *p, const uint8_t *src, size_t n)
{
	ssize_t done;

	if (w->mem < 0 && (w->mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC)) < 0)
		return -errno;
	done = pwrite(w->mem, src, n, (off_t)(uintptr_t)p);
	if (done != (ssize_t)n)
		return done < 0 ? -errno : -EIO;
	return 0;
}

/* The no-op at @code becomes a jump to @target (a call, with @call; the
 * architecture's instruction, arch.h); 0, or -errno. */
static int patch(struct patcher *w, uint8_t *code, const uint8_t *target, bool call)
{
	uint8_t jmp[PP_JUMP_LEN];
	int err;

	err = pp_arch_branch(jmp, code, target, call);
	if (err)
		return err;
	if (!memcmp(code, jmp, PP_JUMP_LEN))
		return 0;
	if (!pp_arch_branch_unpatched(code))
		return -EILSEQ;
	err = writable(w, code, PP_JUMP_LEN);
	if (!err) {
		memcpy(code, jmp, PP_JUMP_LEN);
		return 0;
	}
	/* A system that refuses writable code (W^X) may still let the process
	 * write its own memory through /proc/self/mem, as a debugger does;
	 * making the page writable but not executable instead could stop the
	 * runtime's own code if it shares the page. */
	return write_mem(w, code, jmp, PP_JUMP_LEN) ? err : 0;
}

static void warn(const uint8_t *code, int err)
{
	if (pp_patch_warned)
		return;
	pp_err("cannot enable a probe at %p: %s; it is not measured (compile with "
	       "PINPOINT_PASS_JUMPS=0 for probes that need no patching)",
	       (const void *)code, err == -EILSEQ ? "unexpected code there" : strerror(-err));
	pp_patch_warned = true;
}

PP_EXPORT void __pinpoint_register_jumps(const struct pp_jump *begin, const struct pp_jump *end)
{
	struct patcher w = {0, 0, -1};
	int err;

	pp_lock();
	if (pp_state != PP_ARMED || !begin || end <= begin)
		goto out;
	for (unsigned i = 0; i < pp_nranges; i++)
		if (pp_ranges[i] == begin)
			goto out;
	if (pp_nranges < PP_MAX_JUMP_RANGES)
		pp_ranges[pp_nranges++] = begin;
	for (const struct pp_jump *j = begin; j < end; j++) {
		if (!armed(j))
			continue;
		err = patch(&w, at(&j->code), at(&j->target), j->kind == PP_JUMP_CALL);
		if (err)
			warn(at(&j->code), err);
	}
	err = restore(&w);
	if (err)
		warn(at(&begin->code), err);
	if (w.mem >= 0)
		close(w.mem);
out:
	pp_unlock();
}

PP_EXPORT void __pinpoint_unregister_jumps(const struct pp_jump *begin, const struct pp_jump *end)
{
	(void)end;
	pp_lock();
	for (unsigned i = 0; i < pp_nranges; i++)
		if (pp_ranges[i] == begin) {
			pp_ranges[i] = pp_ranges[--pp_nranges];
			break;
		}
	pp_unlock();
}
