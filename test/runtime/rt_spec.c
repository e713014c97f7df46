// SPDX-License-Identifier: MIT
/*
 * rt_spec.c - unit test of the PINPOINT parser (runtime/spec.c) against
 * doc/formats.md, section 2: every accepted form and every refusal.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

static struct pp_spec sp;
static int failures;

#define CHECK(cond, text)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "FAIL %s:%d: '%s': %s\n", __FILE__, __LINE__, text,        \
				#cond);                                                            \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static int parse(const char *text, char *err, size_t errlen)
{
	err[0] = '\0';
	return pp_spec_parse(&sp, text, err, errlen);
}

static void expect_bad(const char *text, const char *why)
{
	char err[256];
	int ret = parse(text, err, sizeof(err));

	CHECK(ret == -EINVAL, text);
	CHECK(strstr(err, why) != NULL, text);
	CHECK(!strchr(err, '\n'), text);
	CHECK(sp.out == NULL && sp.nslots == 0 && !sp.has_delay && !sp.delay_ns && !sp.delay_every,
	      text);
}

static void test_good(void)
{
	char err[256];
	const char *t;

	t = "out=/tmp/r;entry=run;fn=a.c:helper;range=lib/b.c:bridge:0-1;samples=1000";
	CHECK(parse(t, err, sizeof(err)) == 0, t);
	CHECK(sp.out && !strcmp(sp.out, "/tmp/r"), t);
	CHECK(sp.nslots == 3 && sp.entry == 0, t);
	CHECK(sp.has_samples && sp.samples == 1000, t);
	CHECK(sp.slots[0].kind == PP_KIND_ENTRY && !sp.slots[0].file, t);
	CHECK(!strcmp(sp.slots[0].name, "run") && !strcmp(sp.slots[0].spec, "run"), t);
	CHECK(sp.slots[1].kind == PP_KIND_FN && !strcmp(sp.slots[1].file, "a.c"), t);
	CHECK(!strcmp(sp.slots[1].name, "helper") && !strcmp(sp.slots[1].spec, "a.c:helper"), t);
	CHECK(sp.slots[2].kind == PP_KIND_RANGE && !strcmp(sp.slots[2].file, "lib/b.c"), t);
	CHECK(!strcmp(sp.slots[2].name, "bridge"), t);
	CHECK(sp.slots[2].first == 0 && sp.slots[2].last == 1, t);
	CHECK(!strcmp(sp.slots[2].spec, "lib/b.c:bridge:0-1"), t);

	/* entry need not come first; slots keep the variable's order */
	t = "fn=x;range=y:3-3;entry=_ZN1A3runEv;out=o;";
	CHECK(parse(t, err, sizeof(err)) == 0, t);
	CHECK(sp.nslots == 3 && sp.entry == 2 && !sp.has_samples, t);
	CHECK(sp.slots[1].first == 3 && sp.slots[1].last == 3 && !sp.slots[1].file, t);
	CHECK(!strcmp(sp.slots[2].name, "_ZN1A3runEv"), t);

	/* no out: parsed, nothing armed */
	t = "entry=run";
	CHECK(parse(t, err, sizeof(err)) == 0 && !sp.out && sp.nslots == 1, t);

	/* empty items are skipped; the output path may hold spaces */
	t = ";;out=/tmp/a b;;";
	CHECK(parse(t, err, sizeof(err)) == 0 && !strcmp(sp.out, "/tmp/a b"), t);
	CHECK(parse("", err, sizeof(err)) == 0 && !sp.out, "");

	t = "out=o;samples=0";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.has_samples && sp.samples == 0, t);
	t = "out=o;samples=1048576";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.samples == 1048576, t);
	t = "out=o;entry=run;stop=25";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.stop == 25, t);
	t = "out=o;entry=run;stop=4294967295";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.stop == 4294967295u, t);
	t = "out=o;entry=run";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.stop == 0 && sp.skip == 0, t);
	CHECK(!sp.keep_probes && !sp.has_probes && !sp.every, t);
	t = "out=o;entry=run;skip=5;stop=6";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.skip == 5 && sp.stop == 6, t);
	t = "out=o;skip=4294967295;entry=run";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.skip == 4294967295u && !sp.stop, t);
	t = "out=o;probes=keep";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.keep_probes && sp.has_probes, t);
	t = "out=o;probes=remove";
	CHECK(parse(t, err, sizeof(err)) == 0 && !sp.keep_probes && sp.has_probes, t);
	/* whole=: a body alone, sampled like fn= */
	t = "out=o;whole=a.c:f;entry=g";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.nslots == 2 && sp.entry == 1, t);
	CHECK(sp.slots[0].kind == PP_KIND_WHOLE && !strcmp(sp.slots[0].file, "a.c") &&
		  !strcmp(sp.slots[0].name, "f") && !strcmp(sp.slots[0].spec, "a.c:f"),
	      t);
	t = "out=o;range=f:4294967294-4294967294";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.slots[0].last == 4294967294u, t);

	/* delay=: a body or calls, no slot; with delay_ns= */
	t = "out=o;delay=leaf;delay_ns=2000";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.nslots == 0 && sp.has_delay, t);
	CHECK(sp.delay.kind == PP_KIND_WHOLE && !sp.delay.file && !strcmp(sp.delay.name, "leaf") &&
		  !strcmp(sp.delay.spec, "leaf") && sp.delay_ns == 2000,
	      t);
	CHECK(!sp.delay_every, t);
	t = "out=o;delay_ns=1000000000;delay=a.c:loop:0-3;entry=run";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.nslots == 1 && sp.entry == 0, t);
	CHECK(sp.has_delay && sp.delay.kind == PP_KIND_RANGE && !strcmp(sp.delay.file, "a.c") &&
		  !strcmp(sp.delay.name, "loop") && sp.delay.first == 0 && sp.delay.last == 3 &&
		  !strcmp(sp.delay.spec, "a.c:loop:0-3") && sp.delay_ns == PP_MAX_DELAY_NS,
	      t);
	/* delay_every=K: one execution in K waits */
	t = "out=o;delay_every=7;delay=leaf;delay_ns=2000";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.has_delay && sp.delay_ns == 2000 &&
		  sp.delay_every == 7,
	      t);
	t = "out=o;delay=leaf;delay_ns=1;delay_every=1";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.delay_every == 1, t);
	t = "out=o;delay=leaf;delay_ns=1;delay_every=2147483647";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.delay_every == PP_MAX_DELAY_EVERY, t);
	t = "out=o;delay=ns::f;delay_ns=1";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.delay.kind == PP_KIND_WHOLE, t);
	CHECK(!sp.delay.file && !strcmp(sp.delay.name, "ns::f") && sp.delay_ns == 1, t);
	t = "out=o;delay=a%3Ab.c:ns::f:2-2;delay_ns=1";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.delay.kind == PP_KIND_RANGE, t);
	CHECK(!strcmp(sp.delay.file, "a:b.c") && !strcmp(sp.delay.name, "ns::f") &&
		  sp.delay.first == 2 && sp.delay.last == 2,
	      t);
	t = "out=o;delay=dir/f.c:g;delay_ns=1";
	CHECK(parse(t, err, sizeof(err)) == 0 && sp.delay.kind == PP_KIND_WHOLE, t);
	CHECK(!strcmp(sp.delay.file, "dir/f.c") && !strcmp(sp.delay.name, "g"), t);
	t = "out=o;entry=run";
	CHECK(parse(t, err, sizeof(err)) == 0 && !sp.has_delay && !sp.delay_ns && !sp.delay_every,
	      t);

	/* 64 slots is the limit */
	{
		static char big[PP_SPEC_MAX];
		size_t n = (size_t)snprintf(big, sizeof(big), "out=o");

		for (int i = 0; i < PP_MAX_SLOTS; i++)
			n += (size_t)snprintf(big + n, sizeof(big) - n, ";fn=f%d", i);
		CHECK(parse(big, err, sizeof(err)) == 0 && sp.nslots == PP_MAX_SLOTS, "64 slots");
		snprintf(big + n, sizeof(big) - n, ";delay=f0;delay_ns=5");
		CHECK(parse(big, err, sizeof(err)) == -EINVAL && strstr(err, "at most 63"),
		      "64 slots and delay=");
		CHECK(!sp.has_delay && !sp.delay_ns && !sp.out, "64 slots and delay=");
		snprintf(big + n, sizeof(big) - n, ";fn=one_more");
		CHECK(parse(big, err, sizeof(err)) == -EINVAL && strstr(err, "more than 64"),
		      "65 slots");
		/* delay= takes the 64th slot's place */
		n = (size_t)snprintf(big, sizeof(big), "out=o;delay=f0;delay_ns=5");
		for (int i = 0; i < PP_MAX_SLOTS - 1; i++)
			n += (size_t)snprintf(big + n, sizeof(big) - n, ";fn=f%d", i);
		CHECK(parse(big, err, sizeof(err)) == 0 && sp.nslots == PP_MAX_SLOTS - 1 &&
			  sp.has_delay,
		      "63 slots and delay=");
	}
}

/* Values are percent-encoded (pinpoint/protocol.h): any byte but NUL gets through. */
static void test_escapes(void)
{
	static char text[PP_SPEC_MAX], name[256];
	char err[256];
	const char *t;
	size_t n;

	t = "out=/tmp/a%3Bb%25;fn=dir%20with%20space/f.c:helper;range=a%3Ab.c:_Z1fv:0-1";
	CHECK(parse(t, err, sizeof(err)) == 0, t);
	CHECK(!strcmp(sp.out, "/tmp/a;b%"), t);
	CHECK(!strcmp(sp.slots[0].file, "dir with space/f.c"), t);
	CHECK(!strcmp(sp.slots[0].name, "helper"), t);
	CHECK(!strcmp(sp.slots[0].spec, "dir%20with%20space/f.c:helper"), t);
	CHECK(!strcmp(sp.slots[1].file, "a:b.c") && !strcmp(sp.slots[1].name, "_Z1fv"), t);
	CHECK(sp.slots[1].first == 0 && sp.slots[1].last == 1, t);
	/* lower-case hex digits, an escaped escape, escapes in NAME */
	t = "out=o;fn=%2a%25%41:x%3b";
	CHECK(parse(t, err, sizeof(err)) == 0, t);
	CHECK(!strcmp(sp.slots[0].file, "*%A") && !strcmp(sp.slots[0].name, "x;"), t);
	/* a C++ scope is not a FILE separator: one name rule with the driver */
	t = "out=o;fn=ns::f";
	CHECK(parse(t, err, sizeof(err)) == 0 && !sp.slots[0].file, t);
	CHECK(!strcmp(sp.slots[0].name, "ns::f"), t);

	/* every byte from 1 to 255, encoded as the driver does, decodes to itself */
	for (int c = 1; c < 256; c++)
		name[c - 1] = (char)c;
	name[255] = '\0';
	n = (size_t)snprintf(text, sizeof(text), "out=o;fn=");
	for (int i = 0; i < 255; i++) {
		unsigned char c = (unsigned char)name[i];

		if (pp_spec_needs_escape(c))
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%%%02X", c);
		else
			text[n++] = (char)c;
	}
	text[n] = '\0';
	CHECK(parse(text, err, sizeof(err)) == 0, "bytes 1-255");
	CHECK(sp.nslots == 1 && !sp.slots[0].file && !strcmp(sp.slots[0].name, name),
	      "bytes 1-255");

	expect_bad("out=o;fn=a%2", "want [FILE:]NAME");
	expect_bad("out=o;fn=a%", "want [FILE:]NAME");
	expect_bad("out=o;fn=a%zz", "want [FILE:]NAME");
	expect_bad("out=o;fn=a%00b", "want [FILE:]NAME");
	expect_bad("out=o;fn=f.c:a%4", "want [FILE:]NAME");
	expect_bad("out=o;range=f%g0:0-1", "I <= J");
	expect_bad("out=a%G0", "bad %XX escape");
	expect_bad("out=o;fn=a%20b c", "white space");
}

static void test_bad(void)
{
	static char huge[PP_SPEC_MAX + 16];

	expect_bad("out=o;entry", "not KEY=VALUE");
	expect_bad("out=o;bogus=1", "unknown item 'bogus'");
	expect_bad("out=o;out=p", "out= given twice");
	expect_bad("out=", "out= needs a path");
	expect_bad("out=o;entry=a;entry=b", "entry= given twice");
	expect_bad("out=o;samples=1;samples=2", "samples= given twice");
	expect_bad("out=o;entry=r;stop=1;stop=2", "stop= given twice");
	expect_bad("out=o;entry=r;stop=0", "stop=0: want a number from 1");
	expect_bad("out=o;entry=r;stop=-3", "stop=-3");
	expect_bad("out=o;entry=r;stop=4294967296", "stop=4294967296");
	expect_bad("out=o;fn=r;stop=3", "stop= counts the entry's executions: it needs entry=");
	expect_bad("out=o;entry=r;skip=1;skip=2", "skip= given twice");
	expect_bad("out=o;entry=r;skip=0", "skip=0: want a number from 1");
	expect_bad("out=o;entry=r;skip=x", "skip=x");
	expect_bad("out=o;whole=r;skip=3", "skip= counts the entry's executions: it needs entry=");
	expect_bad("out=o;entry=r;skip=5;stop=5", "skip=5 leaves nothing of stop=5");
	expect_bad("out=o;entry=r;stop=3;skip=9", "skip=9 leaves nothing of stop=3");
	expect_bad("out=o;probes=drop", "probes=drop: want keep or remove");
	expect_bad("out=o;probes=keep;probes=keep", "probes= given twice");
	expect_bad("out=o;whole=", "want [FILE:]NAME");
	expect_bad("out=o;whole=a b", "white space");
	expect_bad("out=o;samples=1048577", "samples=1048577");
	expect_bad("out=o;samples=-1", "samples=-1");
	expect_bad("out=o;samples=", "samples=");
	expect_bad("out=o;samples=12x", "samples=12x");
	expect_bad("out=o;samples=99999999999", "samples=99999999999");
	expect_bad("out=o;entry=", "want [FILE:]NAME");
	expect_bad("out=o;fn=a.c:", "want [FILE:]NAME");
	expect_bad("out=o;fn=:f", "want [FILE:]NAME");
	expect_bad("out=o;fn=my func", "white space");
	expect_bad("out=o;entry=f\n", "white space");
	expect_bad("out=o;range=f", "want [FILE:]NAME:I-J");
	expect_bad("out=o;range=f:1", "want [FILE:]NAME:I-J");
	expect_bad("out=o;range=f:2-1", "I <= J");
	expect_bad("out=o;range=f:-1", "I <= J");
	expect_bad("out=o;range=f:1-", "I <= J");
	expect_bad("out=o;range=f:a-b", "I <= J");
	expect_bad("out=o;range=f:1-2-3", "I <= J");
	expect_bad("out=o;range=:0-1", "I <= J");
	expect_bad("out=o;range=f:0-4294967295", "I <= J");
	expect_bad("out=o;range=f:0-99999999999", "I <= J");
	expect_bad("out=o;delay=leaf", "delay= needs delay_ns=");
	expect_bad("out=o;entry=r;delay_ns=5", "delay_ns= needs delay=");
	expect_bad("out=o;delay=leaf;delay_ns=0", "delay_ns=0: want a number from 1 to 1000000000");
	expect_bad("out=o;delay=leaf;delay_ns=1000000001", "delay_ns=1000000001: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=4294967296", "delay_ns=4294967296: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=-1", "delay_ns=-1: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=", "delay_ns=: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=2e3", "delay_ns=2e3: want a number");
	expect_bad("out=o;delay=a;delay=b;delay_ns=1", "delay= given twice");
	expect_bad("out=o;delay=a;delay_ns=1;delay_ns=1", "delay_ns= given twice");
	expect_bad("out=o;entry=r;delay_every=7", "delay_every= needs delay=");
	expect_bad("out=o;delay=leaf;delay_ns=5;delay_every=0",
		   "delay_every=0: want a number from 1 to 2147483647");
	expect_bad("out=o;delay=leaf;delay_ns=5;delay_every=2147483648",
		   "delay_every=2147483648: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=5;delay_every=4294967296",
		   "delay_every=4294967296: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=5;delay_every=-7", "delay_every=-7: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=5;delay_every=", "delay_every=: want a number");
	expect_bad("out=o;delay=leaf;delay_ns=5;delay_every=7;delay_every=7",
		   "delay_every= given twice");
	expect_bad("out=o;delay=leaf;delay_every=7", "delay= needs delay_ns=");
	expect_bad("out=o;delay=f:2-1;delay_ns=1", "want [FILE:]NAME or [FILE:]NAME:I-J");
	expect_bad("out=o;delay=f:1;delay_ns=1", "want [FILE:]NAME or [FILE:]NAME:I-J");
	expect_bad("out=o;delay=f:1-;delay_ns=1", "I <= J");
	expect_bad("out=o;delay=f:-1;delay_ns=1", "I <= J");
	expect_bad("out=o;delay=f:a-b;delay_ns=1", "I <= J");
	expect_bad("out=o;delay=a.c:f:1-2-3;delay_ns=1", "I <= J");
	expect_bad("out=o;delay=:0-1;delay_ns=1", "I <= J");
	expect_bad("out=o;delay=f:0-4294967295;delay_ns=1", "I <= J");
	expect_bad("out=o;delay=;delay_ns=1", "want [FILE:]NAME");
	expect_bad("out=o;delay=a.c:;delay_ns=1", "want [FILE:]NAME");
	expect_bad("out=o;delay=:f;delay_ns=1", "want [FILE:]NAME");
	expect_bad("out=o;delay=a%2;delay_ns=1", "want [FILE:]NAME");
	expect_bad("out=o;delay=my f;delay_ns=1", "white space");
	memset(huge, 'a', sizeof(huge) - 1);
	memcpy(huge, "out=", 4);
	expect_bad(huge, "longer than");
}

int main(void)
{
	test_good();
	test_escapes();
	test_bad();
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("spec: all passed\n");
	return failures ? 1 : 0;
}
