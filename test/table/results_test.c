/* SPDX-License-Identifier: MIT */
/*
 * results_test.c - the results parser (doc/formats.md, 3): the example of
 * the format, then every way a file can be wrong.
 *
 *     results_test [TEST]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/arming.h"
#include "core/results.h"
#include "pinpoint/protocol.h"

/* The example of doc/formats.md. */
static const char example[] =
    "pinpoint-results 1\n"
    "pid 4242\n"
    "clock tsc 2.994301\n"
    "sampling below_ns=2004 reads_ns=20\n"
    "overhead plain_ns=4.87 clock_ns=11.92 bias_ns=11.90 calib_ns=121568\n"
    "module /abs/path/of/instrumented/binary/or/library\n"
    "skipped 2\n"
    "delayed 2000 2000\n"
    "slot 0 entry run found=1 total_ns=123456 count=3 probes_ns=812\n"
    "slot 1 fn run found=1 total_ns=123456 count=3 calls_ns=120000 probes_ns=812 "
    "calls_probes_ns=24\n"
    "slot 2 range bridge:0-1 found=1 total_ns=120000 count=6 probes_ns=788\n"
    "slot 3 whole failure_run found=1 total_ns=1700 count=3 probes_ns=36\n"
    "samples 3 0\n"
    "41152\n"
    "41150\n"
    "41154\n"
    "end\n";

/* Its slots: kind, spec, total_ns, count, probes_ns, calls_ns, calls_probes_ns. */
static const struct {
	enum pp_slot_kind kind;
	const char *spec;
	uint64_t total_ns, count, probes_ns, calls_ns, calls_probes_ns;
} example_slots[] = {
    {PP_SLOT_ENTRY, "run", 123456, 3, 812, 0, 0},
    {PP_SLOT_FN, "run", 123456, 3, 812, 120000, 24},
    {PP_SLOT_RANGE, "bridge:0-1", 120000, 6, 788, 0, 0},
    {PP_SLOT_WHOLE, "failure_run", 1700, 3, 36, 0, 0},
};

static int parse(const char *text, struct pp_results *res, int *line)
{
	return pp_results_parse(res, text, strlen(text), line);
}

static void test_example(void)
{
	struct pp_results r;
	int line = -1;

	CHECK_INT(parse(example, &r, &line), 0);
	CHECK_INT(line, 0);
	CHECK_INT(r.version, 1);
	CHECK_INT(r.pid, 4242);
	CHECK_STR(r.clock, "tsc");
	CHECK(r.ticks_per_ns > 2.9943009 && r.ticks_per_ns < 2.9943011);
	CHECK_INT(r.has_overhead, 1);
	CHECK(r.plain_ns > 4.869 && r.plain_ns < 4.871);
	CHECK(r.clock_ns > 11.919 && r.clock_ns < 11.921);
	CHECK(r.bias_ns > 11.899 && r.bias_ns < 11.901);
	CHECK_INT(r.skipped, 2);
	CHECK_INT(r.delayed_count, 2000);
	CHECK_INT(r.delay_ns, 2000);
	CHECK_INT(r.nmodules, 1);
	CHECK_STR(r.modules[0], "/abs/path/of/instrumented/binary/or/library");
	CHECK_INT(r.nslots, 4);
	for (size_t i = 0; i < 4 && i < r.nslots; i++) {
		const struct pp_slot_result *s = &r.slots[i];

		CHECK_INT(s->index, i);
		CHECK_INT(s->kind, example_slots[i].kind);
		CHECK_STR(s->spec, example_slots[i].spec);
		CHECK_INT(s->found, 1);
		CHECK_INT(s->total_ns, example_slots[i].total_ns);
		CHECK_INT(s->count, example_slots[i].count);
		CHECK_INT(s->timed, s->count);
		CHECK_INT(s->probes_ns, example_slots[i].probes_ns);
		CHECK_INT(s->has_calls, example_slots[i].calls_ns > 0);
		CHECK_INT(s->calls_ns, example_slots[i].calls_ns);
		CHECK_INT(s->calls_probes_ns, example_slots[i].calls_probes_ns);
	}
	CHECK_INT(r.nsamples, 3);
	CHECK_INT(r.samples[0], 41152);
	CHECK_INT(r.samples[2], 41154);
	CHECK_INT(r.dropped, 0);
	CHECK_INT(r.complete, 1);
	pp_results_free(&r);
	CHECK(r.slots == NULL && r.nslots == 0 && r.clock == NULL);
	pp_results_free(&r); /* twice is harmless */
}

static void test_variants(void)
{
	struct pp_results r;
	int line;

	/* Minimal; "end" without its newline; many modules with spaces; fn slot. */
	CHECK_INT(parse("pinpoint-results 1\nend", &r, &line), 0);
	CHECK(r.complete && r.pid == 0 && r.clock == NULL && r.nslots == 0 && !r.samples);
	CHECK(!r.has_overhead && r.skipped == 0 && r.delayed_count == 0 && r.delay_ns == 0);
	pp_results_free(&r);
	/* delay= that delayed nothing (its name matched no function) */
	CHECK_INT(parse("pinpoint-results 1\ndelayed 0 10000000\nend\n", &r, &line), 0);
	CHECK(r.delayed_count == 0 && r.delay_ns == 10000000);
	pp_results_free(&r);
	/* the longest delay (PP_MAX_DELAY_NS), at one execution in K: COUNT
	 * is those that waited */
	CHECK_INT(parse("pinpoint-results 1\ndelayed 285 1000000000\nend\n", &r, &line), 0);
	CHECK(r.delayed_count == 285 && r.delay_ns == PP_MAX_DELAY_NS);
	pp_results_free(&r);
	/* Files without probes_ns, overhead and skipped (before they were
	 * written): 0, and the entry's calls_ns as it was. */
	CHECK_INT(parse("pinpoint-results 1\n"
			"slot 0 entry run found=1 total_ns=9 count=1 calls_ns=4\nend\n",
			&r, &line),
		  0);
	CHECK(r.slots[0].has_calls && r.slots[0].calls_ns == 4 && r.slots[0].probes_ns == 0);
	CHECK(!r.has_overhead && r.skipped == 0);
	pp_results_free(&r);
	/* overhead: decimals at least 0, keys of newer writers ignored, any
	 * of them may be missing */
	CHECK_INT(parse("pinpoint-results 1\noverhead clock_ns=0 later_ns=x plain_ns=3e+0\nend\n",
			&r, &line),
		  0);
	CHECK(r.has_overhead && r.plain_ns == 3.0 && r.clock_ns == 0 && r.bias_ns == 0);
	pp_results_free(&r);
	CHECK_INT(parse("pinpoint-results 1\noverhead\nend\n", &r, &line), 0);
	CHECK(r.has_overhead && r.plain_ns == 0);
	pp_results_free(&r);
	CHECK_INT(parse("pinpoint-results 1\nmodule /a b/c\nmodule /d\nmodule /e\n"
			"slot 0 fn a.c:f found=2 total_ns=18446744073709551615 count=0\n"
			"clock monotonic 1\nsamples 0 7\nend\n",
			&r, &line),
		  0);
	CHECK_INT(r.nmodules, 3);
	CHECK_STR(r.modules[0], "/a b/c");
	CHECK_STR(r.modules[2], "/e");
	CHECK_INT(r.slots[0].kind, PP_SLOT_FN);
	CHECK(r.slots[0].total_ns == UINT64_MAX);
	CHECK_INT(r.slots[0].found, 2);
	CHECK(r.ticks_per_ns == 1.0);
	CHECK_INT(r.nsamples, 0);
	CHECK_INT(r.dropped, 7);
	pp_results_free(&r);
	/* Unknown keys and records are for newer writers. */
	CHECK_INT(parse("pinpoint-results 1\nthreads 4 x=y\n"
			"slot 0 entry f found=1 cpu_ns=5 weird_key=a=b count=3\nend\n",
			&r, &line),
		  0);
	CHECK_INT(r.slots[0].count, 3);
	CHECK_INT(r.slots[0].lost, 0);
	pp_results_free(&r);
	/* lost=N: executions abandoned without their exit probe, kept; twice is bad. */
	CHECK_INT(parse("pinpoint-results 1\n"
			"slot 0 entry f found=1 total_ns=9 count=3 calls_ns=0 lost=42\n"
			"slot 1 range f:0-0 found=1 total_ns=1 count=1 lost=18446744073709551615\n"
			"end\n",
			&r, &line),
		  0);
	CHECK_INT(r.slots[0].lost, 42);
	CHECK(r.slots[1].lost == UINT64_MAX);
	pp_results_free(&r);
	CHECK_INT(parse("pinpoint-results 1\nslot 0 fn f lost=1 lost=2\nend\n", &r, &line),
		  -EBADMSG);
	pp_results_free(&r);
	CHECK_INT(parse("pinpoint-results 1\nslot 0 fn f lost=-1\nend\n", &r, &line), -EBADMSG);
	pp_results_free(&r);
	/* timed=N: a sampled slot, N of count timed; without it, all were. */
	CHECK_INT(parse("pinpoint-results 1\n"
			"slot 0 entry f found=1 total_ns=9 count=3 calls_ns=0\n"
			"slot 1 range f:0-0 found=1 total_ns=800 count=100000 timed=12500\n"
			"end\n",
			&r, &line),
		  0);
	CHECK_INT(r.slots[0].timed, 3);
	CHECK_INT(r.slots[1].timed, 12500);
	CHECK_INT(r.slots[1].count, 100000);
	pp_results_free(&r);
	CHECK_INT(parse("pinpoint-results 1\nslot 0 fn f count=2 timed=3\nend\n", &r, &line),
		  -EBADMSG);
	pp_results_free(&r);
	CHECK_INT(
	    parse("pinpoint-results 1\nslot 0 fn f timed=1 count=2 timed=1\nend\n", &r, &line),
	    -EBADMSG);
	pp_results_free(&r);
	/* Exponents, read the same whatever the locale. */
	setlocale(LC_ALL, "");
	CHECK_INT(parse("pinpoint-results 1\nclock tsc 3e+0\nend\n", &r, &line), 0);
	CHECK(r.ticks_per_ns == 3.0);
	pp_results_free(&r);
	CHECK_INT(parse("pinpoint-results 1\nclock tsc 25E-1\nend\n", &r, &line), 0);
	CHECK(r.ticks_per_ns == 2.5);
	pp_results_free(&r);
	setlocale(LC_ALL, "C");
}

/* @text is rejected with @err at line @at, and freeing works. */
static void bad(const char *text, int err, int at)
{
	struct pp_results r;
	int line = -1, ret = parse(text, &r, &line);

	if (ret != err || line != at)
		fprintf(stderr, "for:\n%s\n-- got %d at line %d\n", text, ret, line);
	CHECK_INT(ret, err);
	CHECK_INT(line, at);
	CHECK_INT(r.complete, 0);
	pp_results_free(&r);
}

#define H "pinpoint-results 1\n"

static void test_bad(void)
{
	struct pp_results r;

	bad("", -EBADMSG, 1);
	bad("\n", -EBADMSG, 1);
	bad("pinpoint-results 2\nend\n", -EPROTO, 1);
	bad("pinpoint-results 0\n", -EPROTO, 1);
	bad("pinpoint-results\nend\n", -EBADMSG, 1);
	bad("pinpoint-results 1 x\nend\n", -EBADMSG, 1);
	bad("pinpoint-results x\nend\n", -EBADMSG, 1);
	bad("pinpoint-result 1\nend\n", -EBADMSG, 1);
	bad("pinpoint-results 99999999999999999999\nend\n", -EBADMSG, 1);
	/* Truncated: no "end" (the line after the last is blamed). */
	bad(H, -EBADMSG, 2);
	bad(H "pid 1\nslot 0 entry f found=1\n", -EBADMSG, 4);
	bad(H "samples 2 0\n1\n", -EBADMSG, 2); /* 2 samples cannot fit in 2 bytes */
	bad(H "en", -EBADMSG, 3);
	/* Spacing. */
	bad(H "pid  1\nend\n", -EBADMSG, 2);
	bad(H "pid 1 \nend\n", -EBADMSG, 2);
	bad(H " pid 1\nend\n", -EBADMSG, 2);
	bad(H "pid\t1\nend\n", -EBADMSG, 2);
	bad(H "\nend\n", -EBADMSG, 2);
	bad(H "end \n", -EBADMSG, 2);
	bad(H "end\r\n", -EBADMSG, 2);
	/* Numbers. */
	bad(H "pid -1\nend\n", -EBADMSG, 2);
	bad(H "pid +1\nend\n", -EBADMSG, 2);
	bad(H "pid 0\nend\n", -EBADMSG, 2);
	bad(H "pid 1x\nend\n", -EBADMSG, 2);
	bad(H "pid 99999999999999999999\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f total_ns=18446744073709551616\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f count=1.5\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f count=\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f found=4294967296\nend\n", -EBADMSG, 2);
	bad(H "clock tsc 0\nend\n", -EBADMSG, 2);
	bad(H "clock tsc 0.0\nend\n", -EBADMSG, 2);
	bad(H "clock tsc nan\nend\n", -EBADMSG, 2);
	bad(H "clock tsc inf\nend\n", -EBADMSG, 2);
	bad(H "clock tsc 1e999\nend\n", -EBADMSG, 2);
	bad(H "clock tsc -1\nend\n", -EBADMSG, 2);
	bad(H "clock tsc 1.\nend\n", -EBADMSG, 2);
	bad(H "clock tsc .5\nend\n", -EBADMSG, 2);
	bad(H "clock tsc 0x10\nend\n", -EBADMSG, 2);
	bad(H "clock tsc 2,5\nend\n", -EBADMSG, 2);
	bad(H "clock tsc\nend\n", -EBADMSG, 2);
	bad(H "clock TSC 1\nend\n", -EBADMSG, 2);
	/* Records. */
	bad(H "pid 1\npid 2\nend\n", -EBADMSG, 3);
	bad(H "clock tsc 1\nclock tsc 1\nend\n", -EBADMSG, 3);
	bad(H "module\nend\n", -EBADMSG, 2);
	bad(H "module \nend\n", -EBADMSG, 2);
	bad(H "slot 1 fn f\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f\nslot 0 fn g\nend\n", -EBADMSG, 3);
	bad(H "slot 0 func f\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn\nend\n", -EBADMSG, 2);
	bad(H "slot 0\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f found\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f =1\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f Found=1\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f count=1 count=2\nend\n", -EBADMSG, 2);
	bad(H "Pid 1\nend\n", -EBADMSG, 2);
	bad(H "\x01\x02\nend\n", -EBADMSG, 2);
	bad(H "end\nend\n", -EBADMSG, 3);
	bad(H "end\n\n", -EBADMSG, 3);
	bad(H "end\npid 1\n", -EBADMSG, 3);
	/* Samples. */
	bad(H "samples 1 0\nx\nend\n", -EBADMSG, 3);
	bad(H "samples 1 0\n1 2\nend\n", -EBADMSG, 3);
	bad(H "samples 2 0\n1\nend\n", -EBADMSG, 4);
	bad(H "samples 1048577 0\nend\n", -EBADMSG, 2);
	bad(H "samples 1000 0\n1\n2\nend\n", -EBADMSG, 2); /* more than the text can hold */
	bad(H "samples 0 0\nsamples 0 0\nend\n", -EBADMSG, 3);
	bad(H "samples 1 0\n\nend\n", -EBADMSG, 3);
	bad(H "samples 1\n5\nend\n", -EBADMSG, 2);
	/* overhead, skipped, the probes' keys. */
	bad(H "overhead plain_ns=-1\nend\n", -EBADMSG, 2);
	bad(H "overhead plain_ns=1 plain_ns=2\nend\n", -EBADMSG, 2);
	bad(H "overhead plain_ns=\nend\n", -EBADMSG, 2);
	bad(H "overhead plain_ns=nan\nend\n", -EBADMSG, 2);
	bad(H "overhead bias_ns=1e999\nend\n", -EBADMSG, 2);
	bad(H "overhead plain_ns\nend\n", -EBADMSG, 2);
	bad(H "overhead =1\nend\n", -EBADMSG, 2);
	bad(H "overhead plain_ns=1  clock_ns=2\nend\n", -EBADMSG, 2);
	bad(H "overhead\noverhead\nend\n", -EBADMSG, 3);
	bad(H "skipped\nend\n", -EBADMSG, 2);
	bad(H "skipped 0\nend\n", -EBADMSG, 2);
	bad(H "skipped 3 4\nend\n", -EBADMSG, 2);
	bad(H "skipped -3\nend\n", -EBADMSG, 2);
	bad(H "skipped 3\nskipped 3\nend\n", -EBADMSG, 3);
	bad(H "delayed\nend\n", -EBADMSG, 2);
	bad(H "delayed 3\nend\n", -EBADMSG, 2);
	bad(H "delayed 3 0\nend\n", -EBADMSG, 2);
	bad(H "delayed 3 4 5\nend\n", -EBADMSG, 2);
	bad(H "delayed -3 4\nend\n", -EBADMSG, 2);
	bad(H "delayed 3 x\nend\n", -EBADMSG, 2);
	bad(H "delayed 3  4\nend\n", -EBADMSG, 2);
	bad(H "delayed 3 4\ndelayed 3 4\nend\n", -EBADMSG, 3);
	bad(H "slot 0 whole f probes_ns=1 probes_ns=1\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f calls_probes_ns=x\nend\n", -EBADMSG, 2);
	bad(H "slot 0 fn f probes_ns=-4\nend\n", -EBADMSG, 2);
	bad(H "slot 0 Whole f\nend\n", -EBADMSG, 2);
	/* NUL bytes. */
	{
		static const char nul[] = H "pid 1\n\0\nend\n";
		int line;

		CHECK_INT(pp_results_parse(&r, nul, sizeof(nul) - 1, &line), -EBADMSG);
		CHECK_INT(line, 3);
		pp_results_free(&r);
	}
	/* What was read before the error stays, for the message. */
	CHECK_INT(parse(H "pid 7\nmodule /m\nslot 0 fn f count=2\n", &r, NULL), -EBADMSG);
	CHECK_INT(r.pid, 7);
	CHECK_INT(r.nmodules, 1);
	CHECK_INT(r.nslots, 1);
	CHECK_INT(r.complete, 0);
	pp_results_free(&r);
}

static void test_samples(void)
{
	size_t n = 100000, i, len = 0, cap = n * 12 + 100;
	char *text = malloc(cap);
	struct pp_results r;

	len += (size_t)snprintf(text, cap, H "samples %zu 12\n", n);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "%zu\n", i * 7919 % 100003);
	len += (size_t)snprintf(text + len, cap - len, "end\n");
	CHECK_INT(pp_results_parse(&r, text, len, NULL), 0);
	CHECK_INT(r.nsamples, n);
	CHECK_INT(r.dropped, 12);
	for (i = 0; i < n; i++)
		if (r.samples[i] != i * 7919 % 100003)
			break;
	CHECK_INT(i, n);
	pp_results_free(&r);
	free(text);
}

static void test_read(void)
{
	char path[] = "/tmp/pp-results-XXXXXX";
	struct pp_results r;
	int fd = mkstemp(path), line;

	CHECK(fd >= 0);
	CHECK(write(fd, example, sizeof(example) - 1) == (ssize_t)sizeof(example) - 1);
	close(fd);
	CHECK_INT(pp_results_read(&r, path, &line), 0);
	CHECK_INT(r.nsamples, 3);
	CHECK_INT(r.complete, 1);
	pp_results_free(&r);
	CHECK(truncate(path, 40) == 0);
	CHECK_INT(pp_results_read(&r, path, &line), -EBADMSG);
	CHECK_INT(line, 3);
	pp_results_free(&r);
	unlink(path);
	CHECK_INT(pp_results_read(&r, path, &line), -ENOENT);
	CHECK_INT(pp_results_read(&r, "/tmp", &line), -EISDIR);
	CHECK_INT(pp_results_read(&r, "/dev/null", &line), -EINVAL);
	pp_results_free(&r);
}

static void touch(const char *dir, const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	close(fd);
}

/* "<out>.<pid>" files only: not <out>, its temporary files, or look-alikes. */
static void test_others(void)
{
	char dir[] = "/tmp/pp-others-XXXXXX", out[256];
	long pids[4] = {0};
	int n;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(out, sizeof(out), "%s/results", dir);
	CHECK_INT(pp_results_others(out, pids, 4, 0), 0);
	touch(dir, "results");
	touch(dir, "results.tmp.123");
	touch(dir, "results.");
	touch(dir, "results.0");
	touch(dir, "results.12x");
	touch(dir, "resultsX.5");
	touch(dir, "results.4242");
	CHECK_INT(pp_results_others(out, pids, 4, 0), 1);
	CHECK_INT(pids[0], 4242);
	touch(dir, "results.77");
	n = pp_results_others(out, NULL, 0, 1);
	CHECK_INT(n, 2);
	CHECK_INT(pp_results_others(out, pids, 4, 0), 0);
	CHECK(access(out, F_OK) == 0);
	/* removing also takes a killed writer's temporary file, nothing else */
	snprintf(out, sizeof(out), "%s/results.tmp.123", dir);
	CHECK(access(out, F_OK) != 0);
	snprintf(out, sizeof(out), "%s/results.12x", dir);
	CHECK(access(out, F_OK) == 0);
	snprintf(out, sizeof(out), "%s/results", dir);
	snprintf(out, sizeof(out), "%s/no/results", dir);
	CHECK_INT(pp_results_others(out, pids, 4, 0), -ENOENT);
	snprintf(out, sizeof(out), "rm -rf '%s'", dir);
	CHECK(system(out) == 0);
}

/* The driver's side of the PINPOINT escaping (core/arming.c), against
 * doc/formats.md, 2 and the protocol's decoder that runtime/spec.c uses. */
static void test_arming(void)
{
	char name[256], out[256], *e;

	e = pp_arming_target("src/my dir/a;b.c", "helper");
	CHECK_STR(e, "src/my%20dir/a%3Bb.c:helper");
	free(e);
	e = pp_arming_target("", "run");
	CHECK_STR(e, "run");
	free(e);
	e = pp_arming_target(NULL, "50%:x\n");
	CHECK_STR(e, "50%25%3Ax%0A");
	free(e);
	e = pp_arming_escape("/tmp/pinpoint.a b/results");
	CHECK_STR(e, "/tmp/pinpoint.a%20b/results");
	free(e);
	/* As typed: FILE ends at the first ':' that is not part of "::". */
	e = pp_arming_user_target("ns::f");
	CHECK_STR(e, "ns%3A%3Af");
	free(e);
	e = pp_arming_user_target("a b.c:ns::f");
	CHECK_STR(e, "a%20b.c:ns%3A%3Af");
	free(e);
	/* Every byte but NUL goes through: encoded values hold no separator. */
	for (int c = 1; c < 256; c++)
		name[c - 1] = (char)c;
	name[255] = '\0';
	e = pp_arming_escape(name);
	CHECK(e && !strpbrk(e, "; :\t\n"));
	CHECK_INT(pp_spec_decode(e, strlen(e), out, sizeof(out)), 255);
	CHECK_STR(out, name);
	free(e);
	/* The decoder refuses what the writer never makes. */
	CHECK_INT(pp_spec_decode("a%2", 3, out, sizeof(out)), -1);
	CHECK_INT(pp_spec_decode("a%00", 4, out, sizeof(out)), -1);
	CHECK_INT(pp_spec_decode("a%g1", 4, out, sizeof(out)), -1);
	CHECK_INT(pp_spec_decode("abc", 3, out, 3), -1);
	CHECK_INT(pp_spec_decode("%41bc", 5, out, 4), 3);
	CHECK_STR(out, "Abc");
}

/* An indirect call's targets (doc/formats.md, 3): after their slot, names
 * decoded, kinds kept; anything the runtime never writes is refused. */
static void test_targets(void)
{
	static const char head[] = "pinpoint-results 1\n"
				   "slot 0 range sort_all:0-0 found=1 total_ns=880 count=30 "
				   "probes_ns=7 timed=4\n";
	static const char good[] =
	    "target 0 fn 0x401230 name=by_key file=src/cmp%20funcs.c count=20 total_ns=600 "
	    "probes_ns=5 timed=2\n"
	    "target 0 ext 0x7f3a12345670 name=strcmp module=/lib/libc.so.6 count=9 "
	    "total_ns=279 probes_ns=2 lost=1 new_key=1\n"
	    "target 0 other 0x0 count=1 total_ns=1 probes_ns=0\n"
	    "end\n";
	static const char *const bad[] = {
	    "target 1 fn 0x4 name=f count=1 total_ns=1 probes_ns=0\nend\n", /* no slot 1 */
	    "target 0 far 0x4 count=1 total_ns=1 probes_ns=0\nend\n",	    /* kind */
	    "target 0 fn 4 name=f count=1 total_ns=1 probes_ns=0\nend\n",   /* address */
	    "target 0 fn 0x4 count=1 total_ns=1 probes_ns=0\nend\n",	    /* no name */
	    "target 0 other 0x4 count=1 total_ns=1 probes_ns=0\nend\n",	    /* others at 0 */
	    "target 0 ext 0x4 file=a.c count=1 total_ns=1 probes_ns=0\nend\n",
	    "target 0 fn 0x4 name=f%2 count=1 total_ns=1 probes_ns=0\nend\n", /* escape */
	    "target 0 fn 0x4 name=f total_ns=1 probes_ns=0\nend\n",	      /* count */
	    "target 0 fn 0x4 name=f count=1 total_ns=1 timed=2\nend\n",	      /* timed */
	};
	struct pp_results r;
	char text[1024];
	int line;

	snprintf(text, sizeof(text), "%s%s", head, good);
	CHECK_INT(parse(text, &r, &line), 0);
	CHECK(r.nslots == 1 && r.slots[0].ntargets == 3);
	if (r.nslots == 1 && r.slots[0].ntargets == 3) {
		const struct pp_target_result *t = r.slots[0].targets;

		CHECK(t[0].kind == PP_TGT_FN && t[0].addr == 0x401230);
		CHECK_STR(t[0].name, "by_key");
		CHECK_STR(t[0].file, "src/cmp funcs.c");
		CHECK(t[0].count == 20 && t[0].total_ns == 600 && t[0].timed == 2);
		CHECK(t[1].kind == PP_TGT_EXT && !t[1].file && t[1].lost == 1 && t[1].timed == 9);
		CHECK_STR(t[1].module, "/lib/libc.so.6");
		CHECK(t[2].kind == PP_TGT_OTHER && !t[2].name && t[2].addr == 0);
		CHECK_STR(pp_target_kind_name(t[1].kind), "ext");
	}
	pp_results_free(&r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", head, bad[i]);
		CHECK_INT(parse(text, &r, &line), -EBADMSG);
		CHECK_INT(line, 3);
		pp_results_free(&r);
	}
}

static const struct test tests[] = {
    {"example", test_example}, {"variants", test_variants}, {"bad", test_bad},
    {"samples", test_samples}, {"read", test_read},	    {"arming", test_arming},
    {"others", test_others},   {"targets", test_targets},
};

int main(int argc, char **argv)
{
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]), argc > 1 ? argv[1] : NULL);
}
