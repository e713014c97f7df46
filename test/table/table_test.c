/* SPDX-License-Identifier: MIT */
/*
 * table_test.c - the table reader on synthetic tables: parsing, dedup,
 * corrupt and truncated input, ELF files, finding shared libraries, lookup
 * and suggestions.  The tables are ppblob.py's modules; what is expected of
 * them is spelled out here.
 *
 *     table_test FIXTURE_DIR [TEST]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/elfsec.h"
#include "core/table.h"
#include "core/table_priv.h"

static const char *dir;

static char *path_of(const char *name)
{
	static char buf[8][4096];
	static int i;
	char *p = buf[i++ % 8];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

static unsigned char *slurp(const char *name, size_t *len)
{
	FILE *f = fopen(path_of(name), "rb");
	unsigned char *buf = malloc(1 << 20);

	*len = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	if (!*len) {
		fprintf(stderr, "cannot read fixture %s\n", path_of(name));
		exit(2);
	}
	return buf;
}

static const struct pp_prog_fn *find(const struct pp_program *p, const char *spec)
{
	const struct pp_prog_fn *f = NULL;

	return pp_program_lookup(p, spec, &f, 1) == 1 ? f : NULL;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

#define HDR(f) offsetof(struct pp_table_header, f)
#define FN(f) offsetof(struct pp_table_func, f)
#define CL(f) offsetof(struct pp_table_call, f)

/* exe.bin: blob "main" (9 calls, 4 functions), 8 zero bytes, blob "util". */
static void test_parse(void)
{
	struct pp_program p;
	const struct pp_prog_fn *f;
	size_t len, i;
	unsigned char *data = slurp("exe.bin", &len);

	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, data, len, "exe"), 0);
	/* 4 + 5 records, minus the second Foo::bar() */
	CHECK_INT(p.nfuncs, 8);
	CHECK_INT(p.nobjects, 1);
	CHECK_STR(p.objects[0], "exe");
	for (i = 1; i < p.nfuncs; i++) {
		int c = strcmp(p.funcs[i - 1].name, p.funcs[i].name);

		CHECK(c < 0 || (c == 0 && strcmp(p.funcs[i - 1].file, p.funcs[i].file) < 0));
	}
	f = find(&p, "main");
	CHECK(f != NULL);
	if (f) {
		CHECK_STR(f->file, "app/main.c");
		CHECK_INT(f->line, 10);
		CHECK_INT(f->linkage, PP_LINK_EXTERNAL);
		CHECK_STR(f->object, "exe");
		CHECK_STR(f->module, "app/main.c");
		CHECK_INT(f->ncalls, 5);
		CHECK_STR(f->calls[0].callee, "compute");
		CHECK_STR(f->calls[0].file, "app/main.c");
		CHECK_INT(f->calls[0].line, 12);
		CHECK_INT(f->calls[0].col, 3);
		CHECK_INT(f->calls[0].kind, PP_CALL_DIRECT);
		CHECK_STR(f->calls[2].callee, "");
		CHECK_INT(f->calls[2].kind, PP_CALL_INDIRECT);
		CHECK_STR(pp_prog_call_name(&f->calls[2]), "<indirect>");
		CHECK_STR(pp_prog_call_name(&f->calls[3]), "lib_entry");
		CHECK_STR(f->calls[4].callee, "helper");
		CHECK_INT(f->calls[4].line, 16);
	}
	f = find(&p, "_Z3food");
	CHECK(f && f->ncalls == 1 && f->calls[0].kind == PP_CALL_INVOKE_INDIRECT &&
	      !f->calls[0].file[0] && f->calls[0].line == 0);
	f = find(&p, "util_run");
	CHECK(f && f->ncalls == 1 && !strcmp(f->module, "app/util.c"));
	pp_program_free(&p);
	CHECK(p.nfuncs == 0 && p.funcs == NULL && p.priv == NULL);
	free(data);
}

/* inl.bin: blob "main" of version 2 (no via), blob "inl" with calls of inlined code. */
static void test_inlined(void)
{
	struct pp_program p;
	const struct pp_prog_fn *f;
	uint32_t chain[4];
	size_t len;
	unsigned char *data = slurp("inl.bin", &len), *copy = malloc(len);
	char *label;

	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, data, len, "inl"), 0);
	f = find(&p, "main");
	CHECK(f && f->ncalls == 5 && f->calls[4].via == 0 && f->calls[3].via == 0);
	CHECK(f && !strcmp(f->calls[4].callee, "helper") && f->calls[4].line == 16);
	f = find(&p, "SHA512_Final");
	CHECK(f && f->ncalls == 7);
	if (f && f->ncalls == 7) {
		CHECK_INT(f->calls[0].via, 0);
		CHECK_INT(f->calls[1].via, 1);
		CHECK_INT(f->calls[4].via, 4);
		CHECK_INT(f->calls[6].via, 0);
		CHECK_INT(pp_prog_call_chain(f, 4, chain, 4), 3);
		CHECK(chain[0] == 0 && chain[1] == 2 && chain[2] == 3);
		CHECK_INT(pp_prog_call_chain(f, 6, chain, 4), 0);
		label = pp_prog_call_label(f, 5);
		CHECK_STR(label, "(inlined SHA512_Pad) → SHA512_Transform");
		free(label);
		label = pp_prog_call_label(f, 4);
		CHECK_STR(label,
			  "(inlined SHA512_Pad) → (inlined be64enc_vect) → (inlined be64enc) "
			  "→ memcpy");
		free(label);
		label = pp_prog_call_label(f, 6);
		CHECK_STR(label, "memset");
		free(label);
	}
	pp_program_free(&p);

	/* A call that came through a call after it is refused ... */
	memcpy(copy, data, len);
	{
		uint32_t blob2 = 0, calls_off;

		/* The second blob starts after the first and its padding. */
		memcpy(&blob2, data + HDR(size), 4);
		blob2 += 8;
		memcpy(&calls_off, copy + blob2 + HDR(calls_off), 4);
		put32(copy + blob2 + calls_off + offsetof(struct pp_table_call, via), 3);
	}
	/* ... and skips its function alone, with one warning naming it. */
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, copy, len, "inl"), 0);
	{
		size_t n;
		const char *const *w = pp_program_warnings(&p, &n);

		CHECK_INT(n, 1);
		if (n == 1)
			CHECK_HAS(w[0], "inl: pinpoint table at offset ");
		if (n == 1)
			CHECK_HAS(w[0], "skipped: call 0 came through call 2, which is not a "
					"direct call before it");
	}
	CHECK(find(&p, "main") != NULL);
	pp_program_free(&p);
	free(copy);
	free(data);
}

static void test_dedup(void)
{
	struct pp_program p;
	const struct pp_prog_fn *m[4];
	size_t elen, llen, nf;
	unsigned char *exe = slurp("exe.bin", &elen), *lib = slurp("lib.bin", &llen);

	/* The linkonce Foo::bar() of "main" is kept over "util"'s and "lib"'s. */
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, exe, elen, "exe"), 0);
	CHECK_INT(pp_program_add_section(&p, lib, llen, "lib"), 0);
	CHECK_INT(p.nfuncs, 10); /* + lib_entry, lib_inner; weak compute and Foo::bar dropped */
	CHECK_INT(pp_program_lookup(&p, "_ZN3Foo3barEv", m, 4), 1);
	CHECK(m[0]->ncalls == 1 && !strcmp(m[0]->object, "exe"));
	/* The weak compute of lib loses to main's external one. */
	CHECK_INT(pp_program_lookup(&p, "compute", m, 4), 1);
	CHECK_STR(m[0]->file, "app/main.c");
	CHECK_INT(pp_program_lookup(&p, "helper", m, 4), 2);
	/* Adding the same section again, under any name, adds no function. */
	nf = p.nfuncs;
	CHECK_INT(pp_program_add_section(&p, exe, elen, "exe"), 0);
	CHECK_INT(p.nfuncs, nf);
	CHECK_INT(p.nobjects, 2);
	CHECK_INT(pp_program_add_section(&p, exe, elen, "exe-copy"), 0);
	CHECK_INT(p.nfuncs, nf);
	CHECK_INT(p.nobjects, 3);
	CHECK_INT(pp_program_lookup(&p, "main", m, 4), 1);
	CHECK_STR(m[0]->object, "exe");
	pp_program_free(&p);

	/* Fates and flags as written (ppblob.py's lib module). */
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, lib, llen, "lib"), 0);
	CHECK_INT(pp_program_lookup(&p, "lib_entry", m, 4), 1);
	CHECK(m[0]->flags == PP_FUNC_EMITTED && m[0]->ncalls == 3);
	CHECK_INT(m[0]->calls[0].fate, PP_FATE_INLINED);
	CHECK_INT(m[0]->calls[1].fate, PP_FATE_REMOVED);
	CHECK_INT(m[0]->calls[2].fate, PP_FATE_TIMED);
	CHECK_INT(pp_program_lookup(&p, "lib_inner", m, 4), 1);
	CHECK_INT(m[0]->flags, 0);
	pp_program_free(&p);

	/* A linkonce copy with a body wins over an earlier one without: the
	 * library's Foo::bar() (the first) made not emitted. */
	{
		uint32_t funcs = get32(lib + HDR(funcs_off));
		size_t foo = funcs + 2 * sizeof(struct pp_table_func); /* lib's third */

		lib[foo + offsetof(struct pp_table_func, flags)] = 0;
		pp_program_init(&p);
		CHECK_INT(pp_program_add_section(&p, lib, llen, "lib"), 0);
		CHECK_INT(pp_program_add_section(&p, exe, elen, "exe"), 0);
		CHECK_INT(pp_program_lookup(&p, "_ZN3Foo3barEv", m, 4), 1);
		CHECK(!strcmp(m[0]->object, "exe") && m[0]->flags == PP_FUNC_EMITTED);
		pp_program_free(&p);
		lib[foo + offsetof(struct pp_table_func, flags)] = PP_FUNC_EMITTED;
	}

	/* The other order: the library's weak compute goes once the external
	 * one comes; its linkonce Foo::bar() is now the first. */
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, lib, llen, "lib"), 0);
	CHECK_INT(pp_program_lookup(&p, "compute", m, 4), 1);
	CHECK_INT(m[0]->linkage, PP_LINK_WEAK);
	CHECK_INT(pp_program_add_section(&p, exe, elen, "exe"), 0);
	CHECK_INT(p.nfuncs, 10);
	CHECK_INT(pp_program_lookup(&p, "compute", m, 4), 1);
	CHECK_INT(m[0]->linkage, PP_LINK_EXTERNAL);
	CHECK_INT(pp_program_lookup(&p, "_ZN3Foo3barEv", m, 4), 1);
	CHECK(!strcmp(m[0]->object, "lib") && m[0]->ncalls == 0);
	pp_program_free(&p);
	free(exe);
	free(lib);
}

/* A copy of @orig with the @width-byte value at @at set to @v (malloc'ed). */
static unsigned char *mutated(const unsigned char *orig, size_t len, size_t at, uint32_t v,
			      int width)
{
	unsigned char *d = malloc(len);

	if (!d)
		abort();
	memcpy(d, orig, len);
	if (width == 4)
		put32(d + at, v);
	else
		d[at] = (unsigned char)v;
	return d;
}

/* Add a mutated copy of exe.bin; check the error and that nothing was added. */
static void expect_bad(const unsigned char *orig, size_t len, size_t at, uint32_t v, int width,
		       int err, const char *msg)
{
	unsigned char *d = mutated(orig, len, at, v, width);
	struct pp_program p;
	int ret;

	pp_program_init(&p);
	ret = pp_program_add_section(&p, d, len, "bad");
	if (ret != err)
		fprintf(stderr, "mutation at %zu = %u: got %d (%s)\n", at, v, ret,
			pp_program_error(&p));
	CHECK_INT(ret, err);
	CHECK_INT(p.nfuncs, 0);
	CHECK_INT(p.nobjects, 0);
	CHECK_HAS(pp_program_error(&p), msg);
	CHECK_HAS(pp_program_error(&p), "bad: ");
	pp_program_free(&p);
	free(d);
}

/*
 * Add a mutated copy of exe.bin whose damage is one function's: the section
 * is added, less that function (@name, when it can be named), with one
 * warning holding @msg.
 */
static void expect_skip_n(const unsigned char *orig, size_t len, size_t at, uint32_t v, int width,
			  const char *name, const char *msg, size_t nskip)
{
	unsigned char *d = mutated(orig, len, at, v, width);
	struct pp_program p;
	const char *const *w;
	size_t whole, n;

	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, orig, len, "good"), 0);
	whole = p.nfuncs;
	pp_program_free(&p);
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, d, len, "bad"), 0);
	/* (a function skipped may have a namesake in the other blob) */
	CHECK(p.nfuncs >= whole - nskip && p.nfuncs < whole);
	CHECK_INT(p.nobjects, 1);
	if (name)
		CHECK(find(&p, name) == NULL);
	w = pp_program_warnings(&p, &n);
	CHECK_INT(n, nskip);
	if (n >= 1) {
		CHECK_HAS(w[0], "bad: pinpoint table at offset 0: function ");
		CHECK_HAS(w[0], msg);
	}
	pp_program_free(&p);
	free(d);
}

static void expect_skip(const unsigned char *orig, size_t len, size_t at, uint32_t v, int width,
			const char *name, const char *msg)
{
	expect_skip_n(orig, len, at, v, width, name, msg, 1);
}

static void test_corrupt(void)
{
	size_t len;
	unsigned char *d = slurp("exe.bin", &len);
	uint32_t size = get32(d + HDR(size)), nfuncs = get32(d + HDR(nfuncs));
	uint32_t funcs = get32(d + HDR(funcs_off)), calls = get32(d + HDR(calls_off));
	uint32_t strtab = get32(d + HDR(strtab_off)), strsize = get32(d + HDR(strtab_size));
	size_t f0 = funcs, c0 = calls; /* first function and call records */
	struct pp_program p;
	char msg[160];
	size_t i;

	CHECK_INT(nfuncs, 4);
	expect_bad(d, len, 7, 'X', 1, -ENOEXEC, "no blob magic \"PINPOINT\" at offset 0");
	expect_bad(d, len, HDR(version), 1, 4, -EPROTO, "version 1 at offset 0");
	expect_bad(d, len, HDR(version), 0, 4, -EPROTO, "this pinpoint reads versions 2 to 4");
	expect_bad(d, len, HDR(size), size + 4, 4, -ENOEXEC, "multiple of 8");
	expect_bad(d, len, HDR(size), 40, 4, -ENOEXEC, "less than a header");
	expect_bad(d, len, HDR(size), (uint32_t)len + 8, 4, -ENOEXEC, "truncated");
	expect_bad(d, len, HDR(size), 0xfffffff8u, 4, -ENOEXEC, "truncated");
	expect_bad(d, len, HDR(nfuncs), 0xffffffffu, 4, -ENOEXEC, "function records");
	expect_bad(d, len, HDR(nfuncs), nfuncs + 1, 4, -ENOEXEC, "call records"); /* overlap */
	expect_bad(d, len, HDR(funcs_off), 8, 4, -ENOEXEC, "function records");
	expect_bad(d, len, HDR(funcs_off), 0xfffffff0u, 4, -ENOEXEC, "function records");
	expect_bad(d, len, HDR(ncalls), 0x80000000u, 4, -ENOEXEC, "call records");
	expect_bad(d, len, HDR(calls_off), calls - 4, 4, -ENOEXEC, "call records");
	expect_bad(d, len, HDR(strtab_off), strtab - 1, 4, -ENOEXEC, "string table");
	expect_bad(d, len, HDR(strtab_off), size, 4, -ENOEXEC, "string table");
	expect_bad(d, len, HDR(strtab_size), 0xffffffffu, 4, -ENOEXEC, "string table");
	expect_bad(d, len, HDR(strtab_size), 0, 4, -ENOEXEC, "empty string");
	expect_bad(d, len, strtab, 'x', 1, -ENOEXEC, "empty string");
	expect_bad(d, len, HDR(module), strsize, 4, -ENOEXEC, "module string");
	expect_bad(d, len, strtab + strsize - 1, 'x', 1, -ENOEXEC, "not terminated");
	/* A string starts the table or follows a NUL: none is read from the
	 * middle of another. */
	expect_bad(d, len, HDR(module), get32(d + HDR(module)) + 1, 4, -ENOEXEC, "module string");
	expect_bad(d, len, HDR(producer), get32(d + HDR(producer)) + 2, 4, -ENOEXEC,
		   "is inside another string");
	/* A bad record of one function skips that function alone. */
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, name), strsize + 100, 4, NULL,
		    "function record 0 skipped: function name string");
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, name), 0, 4, NULL,
		    "function record 0 skipped: the function has no name");
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, file), 0xffffffffu, 4, "main",
		    "function main skipped: function file string");
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, ncalls), 10, 4, "main",
		    "function main skipped: its calls end past the blob's");
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, first_call), 0xffffffffu, 4, "main",
		    "its calls end past the blob's");
	/* main claims all 9 calls, then the next two functions their 3 and 4:
	 * calls are not shared, and no table makes the reader copy more calls
	 * than it holds. */
	expect_skip_n(d, len, f0 + offsetof(struct pp_table_func, ncalls), 9, 4, NULL,
		      "skipped: its calls are claimed by another function", 2);
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, linkage), 4, 1, "main",
		    "function main skipped: unknown linkage 4");
	expect_skip(d, len, c0 + offsetof(struct pp_table_call, kind), 9, 1, "main",
		    "function main skipped: call 0: unknown kind 9");
	expect_skip(d, len, c0 + offsetof(struct pp_table_call, fate), 4, 1, "main",
		    "call 0: unknown fate 4");
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, flags), 2, 1, "main",
		    "unknown flags 0x2");
	/* main's calls are timed: main must have a body. */
	expect_skip(d, len, f0 + offsetof(struct pp_table_func, flags), 0, 1, "main",
		    "call 0 is timed, the function not emitted");
	expect_skip(d, len, c0 + offsetof(struct pp_table_call, callee), 0, 4, "main",
		    "call 0: a direct call has no callee");
	expect_skip(d, len, c0 + offsetof(struct pp_table_call, file), strsize, 4, "main",
		    "call 0: call file string");
	/* A string named from inside another (a suffix of it: main's callback
	 * from inside its callee's) skips its function. */
	for (i = 0; i < 4; i++) {
		static const struct {
			size_t at, from; /* the field, the field whose string it names */
			uint32_t skew;
			const char *what;
		} in[] = {
		    {FN(name), FN(name), 1, "function name"},
		    {FN(file), FN(file), 3, "function file"},
		    {CL(callee), CL(callee), 1, "call 0: callee"},
		    {CL(callback), CL(callee), 2, "call 0: callback"},
		};
		size_t rec = i < 2 ? f0 : c0;
		uint32_t off = get32(d + rec + in[i].from) + in[i].skew;

		snprintf(msg, sizeof(msg), "skipped: %s string %u is inside another string",
			 in[i].what, off);
		expect_skip(d, len, rec + in[i].at, off, 4, "main", msg);
	}
	/* Garbage in the padding between the blobs. */
	expect_bad(d, len, size + 3, 1, 1, -ENOEXEC, "no blob magic");
	/* The second blob's version. */
	expect_bad(d, len, size + 8 + HDR(version), 7, 4, -EPROTO, "version 7 at offset");

	/* An indirect call's callee string is ignored, whatever it is. */
	pp_program_init(&p);
	put32(d + c0 + 2 * sizeof(struct pp_table_call), 1);
	CHECK_INT(pp_program_add_section(&p, d, len, "ok"), 0);
	CHECK_STR(find(&p, "main")->calls[2].callee, "");
	pp_program_free(&p);

	/* A failed section leaves what was there. */
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, d, len, "first"), 0);
	d[size + 8] = 'Q';
	CHECK_INT(pp_program_add_section(&p, d, len, "second"), -ENOEXEC);
	CHECK_INT(p.nfuncs, 8);
	CHECK_INT(p.nobjects, 1);
	CHECK(find(&p, "main") != NULL);
	pp_program_free(&p);

	/* No blob at all. */
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, "", 0, "empty"), -ENOENT);
	CHECK_INT(pp_program_add_section(&p, "\0\0\0\0\0\0\0\0\0\0\0", 11, "zeros"), -ENOENT);
	CHECK_HAS(pp_program_error(&p), "zeros: no pinpoint table: build it with clang "
					"-fpass-plugin=");
	CHECK_INT(pp_program_add_section(&p, "PINPOIN", 7, "short"), -ENOEXEC);
	CHECK_INT(pp_program_add_section(&p, "PINPOINT\1\0\0\0", 12, "hdr"), -ENOEXEC);
	CHECK_HAS(pp_program_error(&p), "header at offset 0 is truncated");
	CHECK_INT(p.nobjects, 0);
	pp_program_free(&p);
	free(d);
}

/* Every prefix of exe.bin: whole blobs plus padding parse, the rest fail. */
static void test_truncate(void)
{
	size_t len, cut;
	unsigned char *d = slurp("exe.bin", &len);
	uint32_t b1 = get32(d + HDR(size));

	for (cut = 0; cut < len; cut++) {
		unsigned char *copy = malloc(cut ? cut : 1);
		struct pp_program p;
		int ret, ok = cut >= b1 && cut <= b1 + 8;

		memcpy(copy, d, cut);
		pp_program_init(&p);
		ret = pp_program_add_section(&p, copy, cut, "cut");
		if (ok) {
			CHECK_INT(ret, 0);
			CHECK_INT(p.nfuncs, 4);
		} else {
			CHECK_INT(ret, cut ? -ENOEXEC : -ENOENT);
			CHECK_INT(p.nfuncs, 0);
		}
		pp_program_free(&p);
		free(copy);
	}
	free(d);
}

/* Random byte changes: an error or a table, never a crash (run with ASan). */
static void test_mutate(void)
{
	size_t len, i;
	unsigned char *d = slurp("exe.bin", &len), *copy = malloc(len);
	uint64_t x = 88172645463325252ull; /* xorshift: the same run every time */
	int ok = 0, bad = 0;

	for (i = 0; i < 20000; i++) {
		struct pp_program p;
		int k, ret;

		memcpy(copy, d, len);
		for (k = 0; k < 1 + (int)(i % 4); k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			copy[(x >> 8) % len] = (unsigned char)x;
		}
		pp_program_init(&p);
		ret = pp_program_add_section(&p, copy, len, "m");
		CHECK(ret == 0 || ret == -ENOEXEC || ret == -EPROTO);
		if (!ret) {
			size_t j;

			ok++;
			for (j = 0; j < p.nfuncs; j++) {
				CHECK(p.funcs[j].name[0] != '\0');
				CHECK(p.funcs[j].ncalls == 0 || p.funcs[j].calls != NULL);
			}
		} else {
			bad++;
			CHECK(pp_program_error(&p)[0] != '\0');
		}
		pp_program_free(&p);
	}
	CHECK(ok > 0 && bad > 0);
	free(copy);
	free(d);
}

/*
 * A blob of @nfuncs function and @ncalls call records, all zero, and the
 * string table @strtab of @strsize bytes, its module string at @module:
 * the tests fill the records in (func_rec(), call_rec()).  malloc'ed, its
 * size in *@len.
 */
static unsigned char *blob_alloc(uint32_t nfuncs, uint32_t ncalls, const char *strtab,
				 size_t strsize, uint32_t module, size_t *len)
{
	size_t funcs = sizeof(struct pp_table_header);
	size_t calls = funcs + (size_t)nfuncs * sizeof(struct pp_table_func);
	size_t strs = calls + (size_t)ncalls * sizeof(struct pp_table_call);
	size_t size = (strs + strsize + PP_TABLE_ALIGN - 1) / PP_TABLE_ALIGN * PP_TABLE_ALIGN;
	unsigned char *d = calloc(1, size);

	if (!d)
		abort();
	memcpy(d, PP_TABLE_MAGIC, 8);
	put32(d + HDR(version), PP_TABLE_VERSION);
	put32(d + HDR(size), (uint32_t)size);
	put32(d + HDR(nfuncs), nfuncs);
	put32(d + HDR(ncalls), ncalls);
	put32(d + HDR(funcs_off), (uint32_t)funcs);
	put32(d + HDR(calls_off), (uint32_t)calls);
	put32(d + HDR(strtab_off), (uint32_t)strs);
	put32(d + HDR(strtab_size), (uint32_t)strsize);
	put32(d + HDR(module), module);
	memcpy(d + strs, strtab, strsize);
	*len = size;
	return d;
}

static unsigned char *func_rec(unsigned char *d, uint32_t i)
{
	return d + get32(d + HDR(funcs_off)) + (size_t)i * sizeof(struct pp_table_func);
}

static unsigned char *call_rec(unsigned char *d, uint32_t i)
{
	return d + get32(d + HDR(calls_off)) + (size_t)i * sizeof(struct pp_table_call);
}

/*
 * A blob of @nfuncs functions "f" that each claim all its @ncalls calls,
 * the last of which is bad (an unknown kind): the first function is
 * skipped for it, and each of the others, were its calls read as the
 * first's, would decode them all again before failing on the last.
 * malloc'ed, its size in *@len.
 */
static unsigned char *hostile_blob(uint32_t nfuncs, uint32_t ncalls, size_t *len)
{
	static const char strtab[] = "\0f\0hostile.c"; /* "", "f" at 1, "hostile.c" at 3 */
	unsigned char *d = blob_alloc(nfuncs, ncalls, strtab, sizeof(strtab), 3, len);
	uint32_t i;

	for (i = 0; i < nfuncs; i++) {
		unsigned char *f = func_rec(d, i);

		put32(f + FN(name), 1);
		put32(f + FN(file), 3);
		put32(f + FN(line), i + 1);
		put32(f + FN(ncalls), ncalls);
		f[FN(linkage)] = PP_LINK_EXTERNAL;
		f[FN(flags)] = PP_FUNC_EMITTED;
	}
	for (i = 0; i < ncalls; i++) {
		unsigned char *c = call_rec(d, i);

		put32(c + CL(callee), 1);
		put32(c + CL(file), 3);
		put32(c + CL(line), i + 1);
		c[CL(kind)] = i + 1 < ncalls ? PP_CALL_DIRECT : 9;
		c[CL(fate)] = PP_FATE_TIMED;
	}
	return d;
}

/* Read hostile_blob(@nfuncs, @ncalls); returns the call records decoded. */
static uint64_t read_hostile(uint32_t nfuncs, uint32_t ncalls)
{
	size_t len, n;
	unsigned char *d = hostile_blob(nfuncs, ncalls, &len);
	const char *const *w;
	struct pp_program p;
	char first[80];
	uint64_t work;

	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, d, len, "hostile"), 0);
	CHECK_INT(p.nfuncs, 0);
	w = pp_program_warnings(&p, &n);
	CHECK_INT(n, nfuncs);
	snprintf(first, sizeof(first), "function f skipped: call %u: unknown kind 9", ncalls - 1);
	if (n == nfuncs && n > 1) {
		CHECK_HAS(w[0], first);
		CHECK_HAS(w[1], "function f skipped: its calls are claimed by another function");
		CHECK_HAS(w[n - 1],
			  "function f skipped: its calls are claimed by another function");
	}
	work = pp_store(&p)->calls_read;
	pp_program_free(&p);
	free(d);
	return work;
}

/*
 * Functions that each claim all the calls and fail on the last: each call
 * record is decoded once at most, whatever the functions claim, so reading
 * costs work in proportion to the section's size, not nfuncs x ncalls.
 * Counted (struct pp_store's calls_read), not timed.
 */
static void test_hostile(void)
{
	uint64_t w1 = read_hostile(1000, 1000), w2 = read_hostile(2000, 2000);

	/* (1000000 and 4000000 call records when each function read them all) */
	CHECK(w1 <= 1000);
	CHECK(w2 <= 2000);
	/* Twice the functions and calls, twice the work at most. */
	CHECK(w2 <= 2 * w1);
	CHECK(read_hostile(2000, 1000) <= 1000);
	CHECK(read_hostile(1000, 2000) <= 2000);
	/* A 24 MB section: 524288 functions of 393216 calls, 2e11 call records
	 * read one after the other, about 45 minutes, more than ctest's default
	 * time limit (1500 s); read once, a fraction of a second. */
	CHECK(read_hostile(524288, 393216) <= 393216);
}

/*
 * A blob whose records all name three strings of @n + 1 bytes: "x...xa" (A)
 * and "x...xb" (B), the names of its @nfuncs functions in turn, and
 * "y...y" (C), their file and the module.  Function i has call i: to A, in
 * C, passing B.  Every fourth function has unknown flags (skipped, B named
 * in its warning).  malloc'ed, its size in *@len.
 */
static unsigned char *long_blob(size_t n, uint32_t nfuncs, size_t *len)
{
	size_t strsize = 3 * (n + 2) + 1;
	char *strtab = calloc(1, strsize);
	uint32_t a = 1, b = (uint32_t)n + 3, c = 2 * (uint32_t)n + 5, i;
	unsigned char *d;

	if (!strtab)
		abort();
	memset(strtab + a, 'x', n);
	strtab[a + n] = 'a';
	memset(strtab + b, 'x', n);
	strtab[b + n] = 'b';
	memset(strtab + c, 'y', n + 1);
	d = blob_alloc(nfuncs, nfuncs, strtab, strsize, c, len);
	for (i = 0; i < nfuncs; i++) {
		unsigned char *f = func_rec(d, i), *k = call_rec(d, i);

		put32(f + FN(name), i % 2 ? b : a);
		put32(f + FN(file), c);
		put32(f + FN(line), i + 1);
		put32(f + FN(first_call), i);
		put32(f + FN(ncalls), 1);
		f[FN(linkage)] = PP_LINK_EXTERNAL;
		f[FN(flags)] = i % 4 == 3 ? 2 : PP_FUNC_EMITTED;
		put32(k + CL(callee), a);
		put32(k + CL(file), c);
		put32(k + CL(line), i + 1);
		put32(k + CL(callback), b);
		k[CL(kind)] = PP_CALL_DIRECT;
		k[CL(fate)] = PP_FATE_TIMED;
	}
	free(strtab);
	return d;
}

/* Read long_blob(@n, @nfuncs); returns the string bytes interned. */
static uint64_t read_long(size_t n, uint32_t nfuncs)
{
	size_t len, nw;
	unsigned char *d = long_blob(n, nfuncs, &len);
	const struct pp_prog_fn *f;
	const char *const *w;
	struct pp_program p;
	uint64_t work;

	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, d, len, "long"), 0);
	/* A and B in C, each the first of its (name, file) */
	CHECK_INT(p.nfuncs, 2);
	if (p.nfuncs == 2) {
		f = &p.funcs[0];
		CHECK(strlen(f->name) == n + 1 && f->name[n] == 'a' && f->line == 1);
		CHECK(strlen(p.funcs[1].name) == n + 1 && p.funcs[1].name[n] == 'b');
		CHECK_INT(p.funcs[1].line, 2);
		CHECK(strlen(f->file) == n + 1 && f->file == p.funcs[1].file);
		CHECK(f->module == f->file);
		/* one copy of each string */
		CHECK(f->ncalls == 1 && f->calls[0].callee == f->name);
		CHECK(f->ncalls == 1 && f->calls[0].file == f->file);
		CHECK(f->ncalls == 1 && f->calls[0].callback == p.funcs[1].name);
	}
	w = pp_program_warnings(&p, &nw);
	CHECK_INT(nw, nfuncs / 4);
	if (nw) {
		/* B's first 200 bytes, and why */
		CHECK_HAS(w[0], "long: pinpoint table at offset 0: function xxxxxxxxxx");
		CHECK_HAS(w[0], "xxx... skipped: unknown flags 0x2");
		CHECK(strlen(w[0]) < 400);
	}
	work = pp_store(&p)->str_bytes;
	pp_program_free(&p);
	free(d);
	return work;
}

/*
 * Records that all name one long string: each string is read once per
 * blob, not once per record, so reading costs work in proportion to the
 * section's size, not records x length.  Counted (struct pp_store's
 * str_bytes: at most the string table), not timed.
 */
static void test_strings(void)
{
	/* 2000 records, strings of 100 kB: 5000 references of 100 kB each
	 * when each was read on its own */
	CHECK(read_long(100000, 1000) <= 3 * 100002 + 1);
	/* A 24 MB section: 200000 functions and calls in strings of 4 MB,
	 * 4e12 bytes scanned and compared when each reference was (hours);
	 * each string once, a fraction of a second. */
	CHECK(read_long(4 << 20, 200000) <= 3 * ((4 << 20) + 2) + 1);
}

/*
 * A blob whose @n functions are named inside one string of @n + 1 bytes,
 * each by one of its suffixes: all skipped, and no suffix is copied (n x n
 * bytes were).
 */
static void test_string_inside(void)
{
	const uint32_t n = 20000;
	size_t len, strsize = n + 3, nw, i;
	char *strtab = calloc(1, strsize);
	unsigned char *d;
	const char *const *w;
	struct pp_program p;
	char msg[120];

	if (!strtab)
		abort();
	memset(strtab + 1, 'x', n + 1);
	d = blob_alloc(n, 0, strtab, strsize, 1, &len);
	for (i = 0; i < n; i++) {
		put32(func_rec(d, i) + FN(name), 2 + i);
		func_rec(d, i)[FN(flags)] = PP_FUNC_EMITTED;
	}
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, d, len, "inside"), 0);
	CHECK_INT(p.nfuncs, 0);
	w = pp_program_warnings(&p, &nw);
	CHECK_INT(nw, n);
	for (i = 0; i < nw; i += n / 4) {
		snprintf(msg, sizeof(msg),
			 "function record %zu skipped: function name string %zu is inside "
			 "another string",
			 i, 2 + i);
		CHECK_HAS(w[i], msg);
	}
	/* the module's string, once */
	CHECK(pp_store(&p)->str_bytes <= strsize);
	pp_program_free(&p);
	free(d);
	free(strtab);
}

/* A string table must end with a NUL, even when no record names its end. */
static void test_strtab_end(void)
{
	static const char strtab[] = "\0f\0hostile.c\0junk"; /* no NUL counted after junk */
	struct pp_program p;
	unsigned char *d;
	size_t len;

	d = blob_alloc(1, 0, strtab, sizeof(strtab) - 1, 3, &len);
	put32(func_rec(d, 0) + FN(name), 1);
	put32(func_rec(d, 0) + FN(file), 3);
	func_rec(d, 0)[FN(flags)] = PP_FUNC_EMITTED;
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, d, len, "end"), -ENOEXEC);
	CHECK_HAS(pp_program_error(&p),
		  "end: corrupt pinpoint table at offset 0: string table (17 bytes at 72) is "
		  "not terminated");
	CHECK_INT(p.nfuncs, 0);
	/* With its NUL, it reads. */
	pp_program_free(&p);
	put32(d + HDR(strtab_size), sizeof(strtab));
	pp_program_init(&p);
	CHECK_INT(pp_program_add_section(&p, d, len, "end"), 0);
	CHECK(p.nfuncs == 1 && !strcmp(p.funcs[0].name, "f"));
	pp_program_free(&p);
	free(d);
}

static void test_files(void)
{
	struct pp_program p;
	char tmp[] = "/tmp/pp-table-XXXXXX";
	size_t len;
	unsigned char *elf;
	int fd;

	pp_program_init(&p);
	CHECK_INT(pp_program_add_file(&p, path_of("ppt_exe")), 0);
	CHECK_INT(p.nobjects, 1);
	CHECK_STR(p.objects[0], path_of("ppt_exe"));
	/* Two objects' blobs, concatenated by the linker. */
	CHECK_INT(p.nfuncs, 8);
	CHECK(find(&p, "util_run") && find(&p, "main"));
	CHECK_STR(find(&p, "main")->object, path_of("ppt_exe"));
	pp_program_free(&p);

	pp_program_init(&p);
	CHECK_INT(pp_program_add_file(&p, path_of("ppt_obj.o")), 0);
	CHECK_INT(p.nfuncs, 4);
	CHECK_INT(pp_program_add_file(&p, path_of("libppt_lib.so")), 0);
	CHECK_INT(p.nfuncs, 6);
	CHECK_INT(p.nobjects, 2);
	CHECK_INT(pp_program_add_file(&p, path_of("no-such-file")), -ENOENT);
	CHECK_HAS(pp_program_error(&p), "no-such-file: No such file or directory");
	CHECK_INT(pp_program_add_file(&p, path_of("exe.bin")), -ENOEXEC);
	CHECK_HAS(pp_program_error(&p), "exe.bin: not an ELF file");
	CHECK_INT(pp_program_add_file(&p, dir), -ENOEXEC);
	CHECK_HAS(pp_program_error(&p), ": not a regular file");
	CHECK_INT(pp_program_add_file(&p, "/dev/zero"), -ENOEXEC);
	{
		char fifo[] = "/tmp/pp-fifo-XXXXXX";
		int tfd = mkstemp(fifo);

		/* A FIFO without a writer: an error, not a wait. */
		CHECK(tfd >= 0);
		close(tfd);
		unlink(fifo);
		CHECK(mkfifo(fifo, 0600) == 0);
		CHECK_INT(pp_program_add_file(&p, fifo), -ENOEXEC);
		unlink(fifo);
	}
	CHECK_INT(pp_program_add_file(&p, path_of("ppt_notable")), -ENOENT);
	CHECK_HAS(pp_program_error(&p), "ppt_notable: no pinpoint table: build it with");
	CHECK_INT(pp_program_add_file(&p, path_of("ppt_v1")), -EPROTO);
	CHECK_HAS(pp_program_error(&p), "ppt_v1: pinpoint table version 1 at offset 0");
	CHECK_INT(p.nfuncs, 6);

	/* Truncated copies of an ELF file with a table. */
	elf = slurp("ppt_exe", &len);
	fd = mkstemp(tmp);
	CHECK(fd >= 0);
	for (size_t cut = 0; fd >= 0 && cut < len; cut += cut < 4096 ? 61 : 1021) {
		struct pp_program q;
		int ret;

		CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, elf, cut, 0) == (ssize_t)cut);
		pp_program_init(&q);
		ret = pp_program_add_file(&q, tmp);
		CHECK(ret == -ENOEXEC || ret == -ENOENT);
		pp_program_free(&q);
	}
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(elf);
	pp_program_free(&p);
}

/* What a walk saw: its sections' types, and when to stop. */
struct seen {
	GElf_Word types[64];
	size_t n, stop_at;
	int stop_with;
};

static int see(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	struct seen *s = arg;

	CHECK(e->elf && scn);
	if (s->n < 64)
		s->types[s->n] = sh->sh_type;
	return ++s->n == s->stop_at ? s->stop_with : 0;
}

static int count_dyn(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	size_t n, *total = arg;
	Elf_Data *d = pp_elf_entries(scn, sh, &n);

	(void)e;
	CHECK(d != NULL);
	CHECK_INT(n, sh->sh_size / sh->sh_entsize);
	*total += n;
	return 0;
}

/* The section walker (core/elfsec.c) that reads every ELF file. */
static void test_elf(void)
{
	struct pp_elf e;
	struct seen s = {0};
	size_t all, ndyn = 0;

	CHECK_INT(pp_elf_open(&e, path_of("no-such-file")), -ENOENT);
	CHECK_STR(e.why, strerror(ENOENT));
	CHECK(!e.elf && e.fd < 0);
	CHECK_INT(pp_elf_open(&e, dir), -ENOEXEC);
	CHECK_STR(e.why, "not a regular file");
	CHECK_INT(pp_elf_open(&e, path_of("exe.bin")), -ENOEXEC);
	CHECK_STR(e.why, "not an ELF file");
	CHECK(!e.elf && e.fd < 0);
	pp_elf_close(&e);

	CHECK_INT(pp_elf_open(&e, path_of("ppt_exe")), 0);
	/* All sections, in order: the first is never the null section. */
	CHECK_INT(pp_elf_sections(&e, NULL, SHT_NULL, see, &s), 0);
	all = s.n;
	CHECK(all > 10 && s.types[0] != SHT_NULL);
	/* By name: the linker made one table section of the two objects'. */
	memset(&s, 0, sizeof(s));
	CHECK_INT(pp_elf_sections(&e, PP_TABLE_SECTION, SHT_NULL, see, &s), 0);
	CHECK_INT(s.n, 1);
	CHECK_INT(s.types[0], SHT_PROGBITS);
	memset(&s, 0, sizeof(s));
	CHECK_INT(pp_elf_sections(&e, PP_TABLE_SECTION, SHT_NOBITS, see, &s), 0);
	CHECK_INT(s.n, 0);
	CHECK_INT(pp_elf_sections(&e, "no_such_section", SHT_NULL, see, &s), 0);
	CHECK_INT(s.n, 0);
	/* By type, and the entries of each. */
	CHECK_INT(pp_elf_sections(&e, NULL, SHT_DYNAMIC, count_dyn, &ndyn), 0);
	CHECK(ndyn > 1);
	/* A positive return stops the walk ("found"), a negative one too. */
	s = (struct seen){.stop_at = 3, .stop_with = 1};
	CHECK_INT(pp_elf_sections(&e, NULL, SHT_NULL, see, &s), 1);
	CHECK_INT(s.n, 3);
	s = (struct seen){.stop_at = 2, .stop_with = -ENOMEM};
	CHECK_INT(pp_elf_sections(&e, NULL, SHT_NULL, see, &s), -ENOMEM);
	CHECK_INT(s.n, 2);
	CHECK_INT(pp_elf_bad(&e, "what"), -ENOEXEC);
	CHECK_HAS(e.why, "corrupt ELF file: what: ");
	pp_elf_close(&e);
	CHECK(!e.elf && e.fd < 0);
	pp_elf_close(&e); /* closing again is harmless */
}

/* Set the ch_size of the ELF64 compression header at @off of @fd. */
static void set_ch_size(int fd, off_t off, uint64_t size)
{
	CHECK(pwrite(fd, &size, sizeof(size), off + offsetof(Elf64_Chdr, ch_size)) ==
	      (ssize_t)sizeof(size));
}

/* Add file @path to a new program: its return, with its error in @why. */
static int add_file(const char *path, char *why, size_t len)
{
	struct pp_program p;
	int ret;

	pp_program_init(&p);
	ret = pp_program_add_file(&p, path);
	snprintf(why, len, "%s", pp_program_error(&p));
	if (!ret)
		CHECK_INT(p.nfuncs, 4);
	pp_program_free(&p);
	return ret;
}

/*
 * A compressed table section (SHF_COMPRESSED, as objcopy
 * --compress-sections makes it) reads, unless its compression header claims
 * more than 64 times its size, or 1 GiB (elfload.c): refused before anything
 * of that size is allocated, even a terabyte.
 */
static void test_compressed(void)
{
	char tmp[] = "/tmp/pp-zsec-XXXXXX", why[512];
	size_t len, shstrndx = 0, ndx = 0;
	unsigned char *obj = slurp("ppt_obj.o", &len);
	const uint64_t big = 17 << 20;
	Elf64_Chdr ch = {.ch_type = ELFCOMPRESS_ZLIB, .ch_addralign = 8};
	Elf64_Shdr raw;
	GElf_Ehdr eh = {0};
	Elf_Scn *scn = NULL;
	GElf_Shdr sh = {0};
	int fd = mkstemp(tmp);
	Elf *e = NULL;
	off_t end, at;

	CHECK(fd >= 0 && pwrite(fd, obj, len, 0) == (ssize_t)len);
	free(obj);
	CHECK(elf_version(EV_CURRENT) != EV_NONE);
	if (fd >= 0)
		e = elf_begin(fd, ELF_C_RDWR, NULL);
	CHECK(e && !elf_getshdrstrndx(e, &shstrndx));
	while (e && (scn = elf_nextscn(e, scn))) {
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, PP_TABLE_SECTION))
			break;
	}
	CHECK(scn != NULL);
	if (!scn)
		goto out;
	/* libelf compresses no SHF_ALLOC section (nor reads one compressed). */
	sh.sh_flags &= ~(GElf_Xword)SHF_ALLOC;
	CHECK(gelf_update_shdr(scn, &sh));
	CHECK_INT(elf_compress(scn, ELFCOMPRESS_ZLIB, ELF_CHF_FORCE), 1);
	CHECK(elf_update(e, ELF_C_WRITE) > 0);
	CHECK(gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED));
	CHECK(gelf_getehdr(e, &eh) != NULL);
	ndx = elf_ndxscn(scn);
	elf_end(e);
	e = NULL;

	/* As written, it reads. */
	CHECK_INT(add_file(tmp, why, sizeof(why)), 0);
	/* 64 times its size: libelf inflates it, and finds less. */
	set_ch_size(fd, (off_t)sh.sh_offset, 64 * sh.sh_size);
	CHECK_INT(add_file(tmp, why, sizeof(why)), -ENOEXEC);
	CHECK_HAS(why, ": corrupt ELF file: cannot decompress pinpoint_table: ");
	/* One byte more: refused, within libelf's own limit (1032 times) ... */
	set_ch_size(fd, (off_t)sh.sh_offset, 64 * sh.sh_size + 1);
	CHECK_INT(add_file(tmp, why, sizeof(why)), -EFBIG);
	CHECK_HAS(why, tmp);
	CHECK_HAS(why, ": compressed pinpoint_table of ");
	CHECK_HAS(why, "(64 times its size, 1 GiB at most): refused");
	/* ... and beyond it, a terabyte. */
	set_ch_size(fd, (off_t)sh.sh_offset, 1ull << 40);
	CHECK_INT(add_file(tmp, why, sizeof(why)), -EFBIG);
	CHECK_HAS(why, " claims 1099511627776, more than ");

	/* A section of 17 MiB (a hole at the end of the file) that claims
	 * more than 1 GiB, less than 64 times its size: refused too. */
	end = (lseek(fd, 0, SEEK_END) + 7) & ~(off_t)7;
	at = (off_t)(eh.e_shoff + ndx * eh.e_shentsize);
	ch.ch_size = (1ull << 30) + 1;
	CHECK(pwrite(fd, &ch, sizeof(ch), end) == (ssize_t)sizeof(ch));
	CHECK(ftruncate(fd, end + (off_t)big) == 0);
	CHECK(pread(fd, &raw, sizeof(raw), at) == (ssize_t)sizeof(raw));
	raw.sh_offset = (Elf64_Off)end;
	raw.sh_size = big;
	CHECK(pwrite(fd, &raw, sizeof(raw), at) == (ssize_t)sizeof(raw));
	CHECK_INT(add_file(tmp, why, sizeof(why)), -EFBIG);
	CHECK_HAS(why, " claims 1073741825, more than 1073741824 (");
out:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
}

/*
 * A file with two table sections (a relocatable link of objects made by
 * another tool may keep them apart) reads both; when the second is
 * corrupt, the file adds nothing, and a program that had read another file
 * keeps what it had (elfload.c gathers a file's sections before reading
 * them).
 */
static void test_two_sections(void)
{
	char tmp[] = "/tmp/pp-2sec-XXXXXX", why[512];
	static const char junk[16] = "not a table blob";
	size_t len, shstrndx = 0;
	unsigned char *obj = slurp("ppt_obj.o", &len), *copy = NULL;
	Elf_Scn *scn = NULL, *two;
	Elf_Data *d, *d2;
	GElf_Shdr sh = {0}, sh2;
	struct pp_program p;
	int fd = mkstemp(tmp);
	Elf *e = NULL;

	CHECK(fd >= 0 && pwrite(fd, obj, len, 0) == (ssize_t)len);
	free(obj);
	CHECK(elf_version(EV_CURRENT) != EV_NONE);
	if (fd >= 0)
		e = elf_begin(fd, ELF_C_RDWR, NULL);
	CHECK(e && !elf_getshdrstrndx(e, &shstrndx));
	while (e && (scn = elf_nextscn(e, scn))) {
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, PP_TABLE_SECTION))
			break;
	}
	CHECK(scn != NULL);
	if (!scn)
		goto out;
	/* A second section of that name, holding a copy of the first's blobs. */
	d = elf_getdata(scn, NULL);
	CHECK(d && d->d_size);
	if (!d || !d->d_size)
		goto out;
	copy = malloc(d->d_size);
	CHECK(copy != NULL);
	if (!copy)
		goto out;
	memcpy(copy, d->d_buf, d->d_size);
	two = elf_newscn(e);
	d2 = two ? elf_newdata(two) : NULL;
	CHECK(d2 != NULL);
	if (!d2)
		goto out;
	d2->d_buf = copy;
	d2->d_size = d->d_size;
	d2->d_align = d->d_align;
	d2->d_type = ELF_T_BYTE;
	CHECK(gelf_getshdr(two, &sh2) != NULL);
	sh2.sh_name = sh.sh_name;
	sh2.sh_type = sh.sh_type;
	sh2.sh_flags = sh.sh_flags;
	sh2.sh_addralign = sh.sh_addralign;
	CHECK(gelf_update_shdr(two, &sh2));
	CHECK(elf_update(e, ELF_C_WRITE) > 0);
	elf_end(e);
	e = NULL;

	/* Both read: the same functions twice, each kept once. */
	CHECK_INT(add_file(tmp, why, sizeof(why)), 0);

	/* The second section's first bytes no blob: nothing of the file. */
	e = elf_begin(fd, ELF_C_RDWR, NULL);
	scn = NULL;
	while (e && (scn = elf_nextscn(e, scn)))
		two = scn; /* the last: the one added */
	CHECK(e && two && gelf_getshdr(two, &sh2));
	if (!e || !two)
		goto out;
	CHECK(pwrite(fd, junk, sizeof(junk), (off_t)sh2.sh_offset) == (ssize_t)sizeof(junk));
	elf_end(e);
	e = NULL;
	pp_program_init(&p);
	CHECK_INT(pp_program_add_file(&p, path_of("ppt_obj.o")), 0);
	CHECK_INT(p.nfuncs, 4);
	CHECK_INT(pp_program_add_file(&p, tmp), -ENOEXEC);
	CHECK_HAS(pp_program_error(&p), ": corrupt pinpoint table: no blob magic");
	CHECK_INT(p.nfuncs, 4);
	CHECK_INT(p.nobjects, 1);
	pp_program_free(&p);
	pp_program_init(&p);
	CHECK_INT(pp_program_add_file(&p, tmp), -ENOEXEC);
	CHECK(p.nfuncs == 0 && p.nobjects == 0);
	pp_program_free(&p);
out:
	if (e)
		elf_end(e);
	free(copy);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static void test_load(void)
{
	struct pp_program p;
	const struct pp_prog_fn *f;
	char marker[] = "/tmp/pp-marker-XXXXXX", cwd[4096];
	int fd = mkstemp(marker);
	pid_t pid;

	CHECK(fd >= 0);
	close(fd);
	unlink(marker);
	setenv("PPT_MARKER", marker, 1);

	/* The executable and the library the loader finds for it. */
	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, path_of("ppt_exe")), 0);
	CHECK_INT(p.nobjects, 2);
	CHECK_STR(p.objects[0], path_of("ppt_exe"));
	CHECK(p.nobjects == 2 && strstr(p.objects[1], "/libppt_lib.so"));
	CHECK_INT(p.nfuncs, 10);
	f = find(&p, "lib_entry");
	CHECK(f && strstr(f->object, "/libppt_lib.so") && f->ncalls == 3);
	f = find(&p, "_ZN3Foo3barEv");
	CHECK(f && !strcmp(f->object, path_of("ppt_exe")));
	pp_program_free(&p);
	CHECK(!exists(marker));

	/* A bare name is a file in the current directory, as for ldd. */
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(chdir(dir) == 0);
	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, "ppt_exe"), 0);
	CHECK_INT(p.nobjects, 2);
	pp_program_free(&p);
	CHECK(chdir(cwd) == 0);

	/* A static executable is read alone, and not run. */
	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, path_of("ppt_static")), 0);
	CHECK_INT(p.nobjects, 1);
	CHECK_INT(p.nfuncs, 4);
	pp_program_free(&p);
	CHECK(!exists(marker));
	/* ... which the marker would show: run it. */
	pid = fork();
	if (pid == 0) {
		execl(path_of("ppt_static"), "ppt_static", (char *)NULL);
		_exit(127);
	}
	CHECK(pid > 0 && waitpid(pid, NULL, 0) == pid);
	CHECK(exists(marker));
	unlink(marker);

	/* Errors. */
	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, path_of("no-such-file")), -ENOENT);
	CHECK_HAS(pp_program_error(&p), "No such file or directory");
	CHECK_INT(pp_program_load(&p, path_of("ppt_notable")), -ENOENT);
	CHECK_HAS(pp_program_error(&p), "ppt_notable: no pinpoint table");
	CHECK_INT(pp_program_load(&p, path_of("ppt_v1")), -EPROTO);
	CHECK_INT(pp_program_load(&p, path_of("exe.bin")), -ENOEXEC);
	CHECK_INT(p.nfuncs, 0);
	pp_program_free(&p);
	unsetenv("PPT_MARKER");
}

/*
 * ppt_hostile_exe's PT_INTERP (fake_interp) creates hostile-interp-ran when
 * run; it needs libppt_lib.so through DT_RUNPATH $ORIGIN.  The libraries are
 * found from the ELF files: the interpreter is never run.
 */
static void test_load_hostile(void)
{
	char tmpdir[] = "/tmp/pp-load-XXXXXX", marker[1024];
	char odd[1024], cmd[8192], exe[1100], lib[1100];
	struct pp_program p;
	pid_t pid;

	snprintf(marker, sizeof(marker), "%s", path_of("hostile-interp-ran"));
	unlink(marker);
	unsetenv("LD_LIBRARY_PATH");

	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, path_of("ppt_hostile_exe")), 0);
	CHECK_INT(p.nobjects, 2);
	CHECK(p.nobjects == 2 && strstr(p.objects[1], "/libppt_lib.so"));
	CHECK(find(&p, "lib_inner") != NULL);
	pp_program_free(&p);
	CHECK(!exists(marker));

	/* $ORIGIN is the executable's directory, wherever it is copied: one
	 * whose name has a space and a parenthesis. */
	CHECK(mkdtemp(tmpdir) != NULL);
	snprintf(odd, sizeof(odd), "%s/a b (c)", tmpdir);
	snprintf(exe, sizeof(exe), "%s/ppt_hostile_exe", odd);
	snprintf(lib, sizeof(lib), "%s/libppt_lib.so", odd);
	snprintf(cmd, sizeof(cmd), "mkdir '%s' '%s/other' && cp '%s' '%s' && cp '%s' '%s'", odd,
		 tmpdir, path_of("ppt_hostile_exe"), exe, path_of("libppt_lib.so"), lib);
	CHECK(system(cmd) == 0);
	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, exe), 0);
	CHECK_INT(p.nobjects, 2);
	if (p.nobjects == 2)
		CHECK_STR(p.objects[1], lib);
	pp_program_free(&p);

	/* Not beside it: not found, the executable alone ... */
	snprintf(cmd, sizeof(cmd), "mv '%s' '%s/other/'", lib, tmpdir);
	CHECK(system(cmd) == 0);
	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, exe), 0);
	CHECK_INT(p.nobjects, 1);
	pp_program_free(&p);
	/* ... unless LD_LIBRARY_PATH names its directory. */
	snprintf(lib, sizeof(lib), "%s/other", tmpdir);
	setenv("LD_LIBRARY_PATH", lib, 1);
	strcat(lib, "/libppt_lib.so");
	pp_program_init(&p);
	CHECK_INT(pp_program_load(&p, exe), 0);
	CHECK_INT(p.nobjects, 2);
	if (p.nobjects == 2)
		CHECK_STR(p.objects[1], lib);
	pp_program_free(&p);
	unsetenv("LD_LIBRARY_PATH");
	CHECK(!exists(marker));

	/* The marker works: running the executable runs the interpreter. */
	pid = fork();
	if (pid == 0) {
		execl(exe, "ppt_hostile_exe", (char *)NULL);
		_exit(127);
	}
	CHECK(pid > 0 && waitpid(pid, NULL, 0) == pid);
#if defined(__x86_64__) || defined(__aarch64__)
	CHECK(exists(marker));
#endif
	unlink(marker);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	CHECK(system(cmd) == 0);
}

static struct pp_program loaded;

static void load_all(void)
{
	size_t elen, llen;
	unsigned char *exe = slurp("exe.bin", &elen), *lib = slurp("lib.bin", &llen);

	pp_program_init(&loaded);
	if (pp_program_add_section(&loaded, exe, elen, "exe") ||
	    pp_program_add_section(&loaded, lib, llen, "lib")) {
		fprintf(stderr, "cannot load the fixtures: %s\n", pp_program_error(&loaded));
		exit(2);
	}
	free(exe);
	free(lib);
}

static void test_lookup(void)
{
	const struct pp_prog_fn *m[8];
	const struct pp_program *p = &loaded;

	load_all();
	CHECK_INT(pp_program_lookup(p, "main", m, 8), 1);
	CHECK_INT(pp_program_lookup(p, "helper", m, 8), 2);
	CHECK_INT(pp_program_lookup(p, "helper", m, 1), 2); /* counts past max */
	CHECK_INT(pp_program_lookup(p, "helper", NULL, 0), 2);
	CHECK_INT(pp_program_lookup(p, "main.c:helper", m, 8), 1);
	CHECK_STR(m[0]->file, "app/main.c");
	CHECK_INT(pp_program_lookup(p, "app/main.c:helper", m, 8), 1);
	CHECK_INT(pp_program_lookup(p, "util.c:helper", m, 8), 1);
	CHECK_STR(m[0]->file, "app/util.c");
	CHECK_INT(pp_program_lookup(p, "pp/main.c:helper", m, 8), 0); /* not at a '/' */
	CHECK_INT(pp_program_lookup(p, "ain.c:helper", m, 8), 0);
	CHECK_INT(pp_program_lookup(p, "lib.c:helper", m, 8), 0);
	/* Demangled, with and without parameters. */
	CHECK_INT(pp_program_lookup(p, "Foo::bar()", m, 8), 1);
	CHECK_STR(m[0]->name, "_ZN3Foo3barEv");
	CHECK_INT(pp_program_lookup(p, "Foo::bar", m, 8), 1);
	CHECK_INT(pp_program_lookup(p, "foo", m, 8), 2);
	CHECK_INT(pp_program_lookup(p, "foo(int)", m, 8), 1);
	CHECK_STR(m[0]->name, "_Z3fooi");
	CHECK_INT(pp_program_lookup(p, "_Z3food", m, 8), 1);
	CHECK_INT(pp_program_lookup(p, "util.c:foo(double)", m, 8), 1);
	CHECK_STR(m[0]->name, "_Z3food");
	CHECK_INT(pp_program_lookup(p, "main.c:foo", m, 8), 0);
	CHECK_INT(pp_program_lookup(p, "foo.h:Foo::bar", m, 8), 1);
	/* Nothing. */
	CHECK_INT(pp_program_lookup(p, "nosuch", m, 8), 0);
	CHECK_INT(pp_program_lookup(p, "", m, 8), 0);
	CHECK_INT(pp_program_lookup(p, ":", m, 8), 0);
	CHECK_INT(pp_program_lookup(p, "main.c:", m, 8), 0);
	CHECK_INT(pp_program_lookup(p, ":main", m, 8), 0);
	CHECK_INT(pp_program_lookup(p, "Foo:", m, 8), 0);
	pp_program_free(&loaded);
}

static size_t suggest(const char *name, const char **out)
{
	return pp_program_suggest(&loaded, name, out, 5);
}

static void test_suggest(void)
{
	const char *s[5];
	size_t n, i;
	int inner = 0, entry = 0;

	load_all();
	CHECK(suggest("compte", s) >= 1 && !strcmp(s[0], "compute"));
	CHECK(suggest("helpr", s) >= 1 && !strcmp(s[0], "helper"));
	CHECK(suggest("hlper", s) == 1 && !strcmp(s[0], "helper")); /* once for 2 helpers */
	n = suggest("lib_", s);
	for (i = 0; i < n; i++) {
		inner |= !strcmp(s[i], "lib_inner");
		entry |= !strcmp(s[i], "lib_entry");
	}
	CHECK(inner && entry);
	CHECK(suggest("Foo::baz", s) >= 1 && !strcmp(s[0], "Foo::bar()"));
	CHECK(suggest("util_run_all", s) >= 1 && !strcmp(s[0], "util_run"));
	CHECK_INT(suggest("zzzzzzzzzz", s), 0);
	CHECK_INT(pp_program_suggest(&loaded, "compte", s, 0), 0);
	pp_program_free(&loaded);
}

static void test_resolve(void)
{
	const struct pp_prog_fn *main_f, *util_run, *lib_entry, *to;

	load_all();
	main_f = find(&loaded, "main");
	util_run = find(&loaded, "util_run");
	lib_entry = find(&loaded, "lib_entry");
	CHECK(main_f && util_run && lib_entry);
	if (!main_f || !util_run || !lib_entry)
		return;
	to = pp_program_resolve(&loaded, main_f, &main_f->calls[4]);
	CHECK(to && !strcmp(to->file, "app/main.c") && to->line == 30);
	to = pp_program_resolve(&loaded, util_run, &util_run->calls[0]);
	CHECK(to && !strcmp(to->file, "app/util.c"));
	to = pp_program_resolve(&loaded, main_f, &main_f->calls[0]);
	CHECK(to && !strcmp(to->name, "compute"));
	CHECK(pp_program_resolve(&loaded, main_f, &main_f->calls[1]) == NULL); /* printf */
	CHECK(pp_program_resolve(&loaded, main_f, &main_f->calls[2]) == NULL); /* indirect */
	to = pp_program_resolve(&loaded, main_f, &main_f->calls[3]);
	CHECK(to == lib_entry);
	to = pp_program_resolve(&loaded, lib_entry, &lib_entry->calls[2]);
	CHECK(to && !strcmp(to->name, "_ZN3Foo3barEv") && !strcmp(to->object, "exe"));
	pp_program_free(&loaded);
}

static void test_demangle(void)
{
	const char *plain = "main";

	CHECK_STR(pp_demangle("_ZN3Foo3barEv"), "Foo::bar()");
	CHECK_STR(pp_demangle("_Z3fooi"), "foo(int)");
	CHECK(pp_demangle(plain) == plain);
	CHECK_STR(pp_demangle("_Zbogus!"), "_Zbogus!");
	{
		/* Several at once: each result stays. */
		const char *a = pp_demangle("_Z3fooi"), *b = pp_demangle("_Z3food");

		CHECK_STR(a, "foo(int)");
		CHECK_STR(b, "foo(double)");
		CHECK(pp_demangle("_Z3fooi") == a);
	}
	CHECK_STR(pp_demangle(""), "");
	CHECK_STR(pp_table_strerror(-EPROTO), "pinpoint table of another version: rebuild it with "
					      "this pinpoint's plugin");
	CHECK_HAS(pp_table_strerror(-ENOENT), "-fpass-plugin=");
	CHECK_HAS(pp_table_strerror(-ENOEXEC), "not an ELF file");
	CHECK_STR(pp_table_strerror(-EACCES), strerror(EACCES));
}

static const struct test tests[] = {
    {"parse", test_parse},
    {"inlined", test_inlined},
    {"dedup", test_dedup},
    {"corrupt", test_corrupt},
    {"truncate", test_truncate},
    {"mutate", test_mutate},
    {"files", test_files},
    {"load", test_load},
    {"load_hostile", test_load_hostile},
    {"lookup", test_lookup},
    {"suggest", test_suggest},
    {"resolve", test_resolve},
    {"demangle", test_demangle},
    {"elf", test_elf},
    {"hostile", test_hostile},
    {"strings", test_strings},
    {"string_inside", test_string_inside},
    {"strtab_end", test_strtab_end},
    {"compressed", test_compressed},
    {"two_sections", test_two_sections},
};

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: table_test FIXTURE_DIR [TEST]\n");
		return 2;
	}
	dir = argv[1];
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]), argc > 2 ? argv[2] : NULL);
}
