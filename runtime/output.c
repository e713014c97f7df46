// SPDX-License-Identifier: MIT
/*
 * output.c - write the results file (doc/formats.md, section 3) from the
 * totals the threads were merged into (exit.c collects them first).
 *
 * The file is written to "<out>.tmp.<pid>", created with O_EXCL|O_NOFOLLOW
 * and mode 0600 in the directory of <out> (a planted file or link there makes
 * the write fail: nothing it points to is truncated), then moved to <out>
 * without replacing anything (renameat2 RENAME_NOREPLACE, or link(2) where
 * the file system lacks it), so that a reader sees the whole file or none.
 * When <out> exists already - another instrumented process with the same
 * arming wrote it first - the results go to "<out>.<pid>" instead, so no
 * process's results silently replace another's (doc/semantics.md).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"

struct pp_writer {
	int fd;
	int err; /* first -errno */
	size_t len;
	char buf[65536];
};

static struct pp_writer pp_w;

static void flush(struct pp_writer *w)
{
	size_t off = 0;

	while (!w->err && off < w->len) {
		ssize_t n = write(w->fd, w->buf + off, w->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	w->len = 0;
}

static void put(struct pp_writer *w, const char *s, size_t len)
{
	while (len) {
		size_t n = sizeof(w->buf) - w->len;

		if (n > len)
			n = len;
		memcpy(w->buf + w->len, s, n);
		w->len += n;
		s += n;
		len -= n;
		if (w->len == sizeof(w->buf))
			flush(w);
	}
}

static void puts_(struct pp_writer *w, const char *s)
{
	put(w, s, strlen(s));
}

/* A path on one line: a newline in it would end the record. */
static void put_path(struct pp_writer *w, const char *s)
{
	for (; *s; s++)
		put(w, *s == '\n' ? "?" : s, 1);
}

static void put_u64(struct pp_writer *w, uint64_t v)
{
	char d[24];
	int i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(w, d + i, sizeof(d) - (size_t)i);
}

static uint64_t to_ns(uint64_t ticks, double ticks_per_ns)
{
	return (uint64_t)((double)ticks / ticks_per_ns + 0.5);
}

/* A duration in ticks, maybe below 0, as ns: 0 at least. */
static uint64_t to_ns_d(double ticks, double ticks_per_ns)
{
	double ns = ticks / ticks_per_ns;

	return ns > 0 ? (uint64_t)(ns + 0.5) : 0;
}

/* A cost in ns with two decimals ("12.34"), snprintf-free. */
static void put_cost(struct pp_writer *w, double ticks, double ticks_per_ns)
{
	uint64_t hundredths = to_ns_d(100 * ticks, ticks_per_ns);
	char d[3] = {'.', (char)('0' + hundredths / 10 % 10), (char)('0' + hundredths % 10)};

	put_u64(w, hundredths / 100);
	put(w, d, sizeof(d));
}

static const char *const kind_names[] = {
    [PP_KIND_ENTRY] = PP_SPEC_KEY_ENTRY,
    [PP_KIND_FN] = PP_SPEC_KEY_FN,
    [PP_KIND_WHOLE] = PP_SPEC_KEY_WHOLE,
    [PP_KIND_RANGE] = PP_SPEC_KEY_RANGE,
};

/* skip=K was taken, and the entry ran past it (an execution ended since,
 * or was still running at exit): the results leave out what came before.
 * A run that went no further is reported whole. */
static bool skipped(void)
{
	int e = pp_spec.entry;

	return e >= 0 && __atomic_load_n(&pp_skip_taken, __ATOMIC_ACQUIRE) &&
	       pp_ld(&pp_totals[e].count) > pp_skipped[e].count;
}

/* What the results say of counter @i: its totals, less the skip=K copy
 * when @skip. */
static void counter_total(unsigned i, bool skip, struct pp_total *v)
{
	const struct pp_total *copy = &pp_skipped[i];

	pp_total_read(&pp_totals[i], v);
	if (!skip)
		return;
#define PP_LESS(f) v->f -= copy->f <= v->f ? copy->f : v->f;
	PP_TOTAL_FIELDS(PP_LESS)
#undef PP_LESS
}

/* Counter @v's time, without the probes unless probes=keep, and what they
 * took, in ns. */
static void times(const struct pp_total *v, double tpn, uint64_t *ns, uint64_t *probes_ns)
{
	double raw, removed;

	pp_sample_estimate(v, &raw, &removed);
	*ns = to_ns_d(pp_spec.keep_probes ? raw : raw - removed, tpn);
	*probes_ns = to_ns_d(removed, tpn);
}

static void put_key(struct pp_writer *w, const char *key, uint64_t v)
{
	puts_(w, " ");
	puts_(w, key);
	puts_(w, "=");
	put_u64(w, v);
}

/* A name or path percent-encoded (protocol.h), so it stays one field. */
static void put_enc(struct pp_writer *w, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[3] = {PP_SPEC_ESCAPE, hex[c >> 4], hex[c & 15]};

		if (pp_spec_needs_escape(c))
			put(w, e, 3);
		else
			put(w, s, 1);
	}
}

static void put_hex(struct pp_writer *w, uintptr_t v)
{
	static const char hex[] = "0123456789abcdef";
	char d[2 + 2 * sizeof(v)];
	int i = sizeof(d);

	do {
		d[--i] = hex[v & 15];
		v >>= 4;
	} while (v);
	d[--i] = 'x';
	d[--i] = '0';
	put(w, d + i, sizeof(d) - (size_t)i);
}

/* The absolute path of the module that maps @addr into @path, as arm.c
 * lists modules; false when no module does. */
static bool module_of(uintptr_t addr, char *path, size_t cap)
{
	struct link_map *lm = NULL;
	const char *name;
	Dl_info info;
	ssize_t n;

	if (!dladdr1((void *)addr, &info, (void **)&lm, RTLD_DL_LINKMAP))
		return false;
	name = lm && lm->l_name ? lm->l_name : info.dli_fname;
	if (!name || !*name) {
		n = readlink("/proc/self/exe", path, cap - 1);
		if (n < 0)
			return false;
		path[n] = '\0';
		return true;
	}
	if (cap >= PATH_MAX && realpath(name, path))
		return true;
	return snprintf(path, cap, "%s", name) < (int)cap;
}

/*
 * Target @addr of slot @i's indirect call (target.c), what it was: an
 * instrumented function (fn, by its record), a symbol of an instrumented
 * module without a record (sym), one outside every instrumented module
 * (ext), or the targets past those kept (other).  doc/formats.md, 3.
 */
static void put_target(struct pp_writer *w, unsigned i, uintptr_t addr, const struct pp_total *v,
		       double tpn)
{
	const struct pp_fn *rec = addr ? pp_target_record(addr) : NULL;
	const char *kind = !addr ? PP_RES_TARGET_OTHER : PP_RES_TARGET_FN, *sym = NULL;
	char path[PATH_MAX];
	bool inside = false, mod = false;
	uint64_t ns, probes_ns, count = v->count + v->scount, timed = v->count + v->stimed;
	Dl_info info;

	if (addr && !rec) {
		mod = module_of(addr, path, sizeof(path));
		for (unsigned m = 0; mod && m < pp_nmodules; m++)
			inside |= !strcmp(pp_modules[m], path);
		kind = inside ? PP_RES_TARGET_SYM : PP_RES_TARGET_EXT;
		if (dladdr((void *)addr, &info) && info.dli_sname &&
		    (uintptr_t)info.dli_saddr == addr)
			sym = info.dli_sname;
	}
	puts_(w, PP_RES_TARGET " ");
	put_u64(w, i);
	puts_(w, " ");
	puts_(w, kind);
	puts_(w, " ");
	put_hex(w, addr);
	if (rec || sym) {
		puts_(w, " " PP_RES_NAME "=");
		put_enc(w, rec ? rec->name : sym);
	}
	if (rec && rec->file && *rec->file) {
		puts_(w, " " PP_RES_FILE "=");
		put_enc(w, rec->file);
	}
	if (mod) {
		puts_(w, " " PP_RES_MODULE_KEY "=");
		put_enc(w, path);
	}
	times(v, tpn, &ns, &probes_ns);
	put_key(w, PP_RES_COUNT, count);
	put_key(w, PP_RES_TOTAL_NS, ns);
	put_key(w, PP_RES_PROBES_NS, probes_ns);
	if (v->lost)
		put_key(w, PP_RES_LOST, v->lost);
	if (timed < count)
		put_key(w, PP_RES_TIMED, timed);
	puts_(w, "\n");
}

/* The targets of slot @i's counter, if it kept them, less the skip=K copy
 * when @skip. */
static void put_targets(struct pp_writer *w, unsigned i, bool skip, double tpn)
{
	int j = pp_ld(&pp_ttable_of[i]) - 1;

	if (j < 0)
		return;
	for (unsigned k = 0; k <= PP_MAX_TARGETS; k++) {
		const struct pp_target *e = &pp_ttotals[j][k];
		struct pp_total v;

		pp_total_read(&e->t, &v);
		if (skip) {
			const struct pp_total *copy = &pp_tskipped[j][k].t;

#define PP_LESS(f) v.f -= copy->f <= v.f ? copy->f : v.f;
			PP_TOTAL_FIELDS(PP_LESS)
#undef PP_LESS
		}
		if (v.count + v.scount + v.lost)
			put_target(w, i, k < PP_MAX_TARGETS ? pp_ld(&e->addr) : 0, &v, tpn);
	}
}

static void write_results(struct pp_writer *w, double tpn)
{
	uint32_t nsamples = pp_ld(&pp_nsamples);
	bool skip = skipped();
	char line[64];

	puts_(w, PP_RESULTS_MAGIC " ");
	put_u64(w, PP_RESULTS_VERSION);
	puts_(w, "\n" PP_RES_PID " ");
	put_u64(w, (uint64_t)getpid());
	snprintf(line, sizeof(line), "\n" PP_RES_CLOCK " %s %.6f\n",
		 pp_use_ticks ? PP_ARCH_TICKS_NAME : "monotonic", tpn);
	puts_(w, line);
	puts_(w, PP_RES_SAMPLING " " PP_RES_BELOW_NS "=");
	put_u64(w, to_ns(pp_sample_below(), tpn));
	puts_(w, " " PP_RES_READS_NS "=");
	put_u64(w, to_ns(pp_clock_pair, tpn));
	puts_(w, "\n" PP_RES_OVERHEAD " " PP_RES_PLAIN_NS "=");
	put_cost(w, pp_cost_plain, tpn);
	puts_(w, " " PP_RES_CLOCK_NS "=");
	put_cost(w, pp_cost_clock, tpn);
	puts_(w, " " PP_RES_BIAS_NS "=");
	put_cost(w, pp_cost_bias, tpn);
	puts_(w, " " PP_RES_CALIB_NS "=");
	put_u64(w, to_ns(pp_calib_ticks, tpn));
	puts_(w, "\n");
	for (unsigned i = 0; i < pp_nmodules; i++) {
		puts_(w, PP_RES_MODULE " ");
		put_path(w, pp_modules[i]);
		puts_(w, "\n");
	}
	if (skip) {
		puts_(w, PP_RES_SKIPPED " ");
		put_u64(w, pp_spec.skip);
		puts_(w, "\n");
	}
	if (pp_spec.has_delay) {
		uint64_t delayed = pp_ld(&pp_delayed), copy = skip ? pp_delayed_skipped : 0;

		puts_(w, PP_RES_DELAYED " ");
		put_u64(w, delayed - (copy <= delayed ? copy : delayed));
		puts_(w, " ");
		put_u64(w, pp_spec.delay_ns);
		puts_(w, "\n");
	}
	for (unsigned i = 0; i < pp_spec.nslots; i++) {
		const struct pp_slot *slot = &pp_spec.slots[i];
		uint64_t lost, count, timed, ns, probes_ns, calls_ns = 0, calls_probes_ns = 0;
		struct pp_total tot, calls;

		counter_total(i, skip, &tot);
		counter_total(PP_MAX_SLOTS + i, skip, &calls);
		lost = tot.lost + calls.lost;
		count = tot.count + tot.scount;
		timed = tot.count + tot.stimed;
		puts_(w, PP_RES_SLOT " ");
		put_u64(w, i);
		puts_(w, " ");
		puts_(w, kind_names[slot->kind]);
		puts_(w, " ");
		puts_(w, slot->spec);
		puts_(w, " " PP_RES_FOUND "=");
		put_u64(w, slot->found);
		times(&tot, tpn, &ns, &probes_ns);
		put_key(w, PP_RES_TOTAL_NS, ns);
		put_key(w, PP_RES_COUNT, count);
		if (slot->kind == PP_KIND_FN) {
			times(&calls, tpn, &calls_ns, &calls_probes_ns);
			put_key(w, PP_RES_CALLS_NS, calls_ns);
		}
		put_key(w, PP_RES_PROBES_NS, probes_ns);
		if (slot->kind == PP_KIND_FN)
			put_key(w, PP_RES_CALLS_PROBES_NS, calls_probes_ns);
		if (lost) {
			puts_(w, " " PP_RES_LOST "=");
			put_u64(w, lost);
		}
		if (timed < count) { /* sampled: total_ns is an estimate */
			puts_(w, " " PP_RES_TIMED "=");
			put_u64(w, timed);
		}
		puts_(w, "\n");
		put_targets(w, i, skip, tpn);
	}
	if (nsamples > pp_samples_cap)
		nsamples = pp_samples_cap;
	puts_(w, PP_RES_SAMPLES " ");
	put_u64(w, nsamples);
	puts_(w, " ");
	put_u64(w, pp_ld(&pp_dropped));
	puts_(w, "\n");
	for (uint32_t i = 0; i < nsamples; i++) {
		put_u64(w, to_ns(pp_ld(&pp_samples[i]), tpn));
		puts_(w, "\n");
	}
	puts_(w, PP_RES_END "\n");
	flush(w);
}

/* Move @tmp to @path unless @path exists (even as a dangling link). */
static int publish(const char *tmp, const char *path)
{
	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* no RENAME_NOREPLACE here: link(2) fails on an existing name too */
	if (link(tmp, path))
		return -errno;
	unlink(tmp);
	return 0;
}

int pp_output_write(const char *out, double ticks_per_ns, char *where, size_t wherelen)
{
	struct pp_writer *w = &pp_w;
	char tmp[PATH_MAX];
	int ret, pid = (int)getpid();

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", out, pid) >= (int)sizeof(tmp) ||
	    snprintf(where, wherelen, "%s", out) >= (int)wherelen)
		return -ENAMETOOLONG;
	w->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (w->fd < 0)
		return errno == ELOOP ? -EEXIST : -errno; /* a link in the way */
	w->err = 0;
	w->len = 0;
	write_results(w, ticks_per_ns);
	ret = w->err;
	if (close(w->fd) && !ret)
		ret = -errno;
	if (!ret) {
		ret = publish(tmp, out);
		if (ret == -EEXIST) {
			if (snprintf(where, wherelen, "%s.%d", out, pid) >= (int)wherelen)
				ret = -ENAMETOOLONG;
			else
				ret = publish(tmp, where);
		}
	}
	if (ret)
		unlink(tmp);
	return ret;
}
