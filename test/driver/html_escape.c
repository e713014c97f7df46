// SPDX-License-Identifier: MIT
/*
 * html_escape.c - every string of the HTML report that comes from outside
 * pinpoint is escaped (pinpoint/report/): a session made by hand whose
 * entry option, revision directories, function names (one a demangled C++
 * template), source paths, indirect call targets, callee group, stop
 * reason, detail, layouts reason and failure message each carry markup, and
 * a --history whose lines carry it in every field, go through
 * pp_outcome_build() and pp_html_write().  The page must hold none of that
 * markup as markup, and each source's text escaped.  The session is
 * scribbled over between the two: the outcome holds no pointer into it.
 *
 *   test-driver-html-escape DIR   (a directory to write the page and history in)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pinpoint/log.h"
#include "pinpoint/report/html.h"
#include "pinpoint/session/outcome.h"
#include "pinpoint/session/session.h"

#include "check.h"

int pp_verbose = -1; /* the driver's, from main.c: quiet here */

/*
 * Markup number @n: it closes a double- or single-quoted attribute and opens
 * an element; and as the page must show it.  Short enough for a verdict.
 */
#define MARK(n) "'\"><img src=x onerror=alert(" #n ")>"
#define SHOWN(n) "&#39;&quot;&gt;&lt;img src=x onerror=alert(" #n ")&gt;"

static const struct {
	const char *shown, *what;
} sources[] = {
    {SHOWN(1), "the --entry option"},
    {SHOWN(2), "the previous revision's directory"},
    {SHOWN(3), "the current revision's directory"},
    {SHOWN(4), "the entry function's name"},
    {SHOWN(5), "the entry function's source path"},
    {"cmp&lt;img const&amp;&gt;", "a demangled C++ callee (its short name)"},
    {SHOWN(6), "a call's source path"},
    {SHOWN(7), "an indirect call's target"},
    {SHOWN(8), "a callee group's callee"},
    {SHOWN(9), "a history line's verdict"},
    {"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;", "a history line's verdict"},
    {SHOWN(10), "a callee group's call site"},
    {SHOWN(11), "a stop reason"},
    {SHOWN(12), "a node's detail"},
    {SHOWN(13), "why the layouts were not varied"},
    {SHOWN(14), "the benchmark command in the failure"},
    {SHOWN(15), "the benchmark's last words in the failure"},
};

/* Calls of the entry: C++ cmp<img const&>(), an indirect call, two calls of the group's callee. */
static struct pp_prog_call calls[] = {
    {.callee = "_Z3cmpIRK3imgEvv", .file = "/src/" MARK(6) ".c", .line = 3, .col = 5},
    {.callee = "", .file = "/src/b.c", .line = 4, .col = 5, .kind = PP_CALL_INDIRECT},
    {.callee = MARK(8), .file = "/src/" MARK(10) ".c", .line = 5, .col = 5},
    {.callee = MARK(8), .file = "/src/" MARK(10) ".c", .line = 6, .col = 5},
};
static struct pp_prog_fn entry_fn = {.name = "run" MARK(4),
				     .file = "/src/" MARK(5) ".c",
				     .line = 2,
				     .object = "prog",
				     .ncalls = 4,
				     .calls = calls,
				     .module = "a.c"};

#define NQ 6
static struct pp_quantity quantities[NQ];
static struct pp_quantity *qs[NQ];
static struct pp_quantity *terms[2] = {&quantities[4], &quantities[5]};
static signed char signs[2] = {1, 1};
static double values[2][NQ][4];

/* Quantity @i, decided slower in order @i + 1, over calls @first..@last. */
static void quantity(int i, enum pp_qkind kind, unsigned first, unsigned last, double prev,
		     double cur)
{
	struct pp_quantity *q = &quantities[i];

	*q = (struct pp_quantity){.id = (unsigned)i,
				  .kind = kind,
				  .fn = {&entry_fn, &entry_fn},
				  .first = first,
				  .last = last,
				  .prev_first = first,
				  .prev_last = last,
				  .decided = true,
				  .verdict = PP_V_SLOWER,
				  .order = (unsigned)i + 1,
				  .threshold_ns = 5,
				  .ci = {{prev, prev - 2, prev + 2}, {cur, cur - 2, cur + 2}},
				  .cmp = {.diff = {cur - prev, cur - prev - 3, cur - prev + 3}}};
	for (int r = 0; r < 2; r++) {
		for (int k = 0; k < 4; k++)
			values[r][i][k] = (r ? cur : prev) + k - 1.5;
		q->series[r] = (struct pp_series){.v = values[r][i], .n = 4, .cap = 4};
	}
	qs[i] = q;
}

/* The indirect call's runs (quantity 2, batch 1): its one target's time. */
#define RUNS 6
static unsigned batch_q[1] = {2};
static struct pp_batch batch = {.id = 1, .layer = 1, .nq = 1, .qids = batch_q};
static struct pp_run_record runs[RUNS];
static double run_values[RUNS];
static struct pp_run_target run_targets[RUNS];

static void make_runs(void)
{
	for (int i = 0; i < RUNS; i++) {
		enum pp_rev_id r = i % 2 ? PP_CUR : PP_PREV;

		run_values[i] = r ? 40 + i : 20 + i;
		run_targets[i] =
		    (struct pp_run_target){.qi = 0, .key = MARK(7), .v = run_values[i], .count = 1};
		runs[i] = (struct pp_run_record){.batch = 1,
						 .rev = r,
						 .index = (unsigned)i / 2,
						 .turn_s = 0.1,
						 .nvalues = 1,
						 .values = &run_values[i],
						 .ntargets = 1,
						 .targets = &run_targets[i]};
	}
}

/* The entry, its C++ call, its indirect call, its callee group and its remainder. */
static struct pp_node nodes[5];

static void node(int i, enum pp_node_kind kind, int parent, int next, unsigned call, int qi,
		 double diff)
{
	nodes[i] = (struct pp_node){.kind = kind,
				    .fn = {&entry_fn, &entry_fn},
				    .first = {call, call},
				    .last = {call, call},
				    .q = qi >= 0 ? &quantities[qi] : NULL,
				    .parent = parent,
				    .child = -1,
				    .next = next,
				    .depth = parent < 0 ? 0 : 1,
				    .diff = {diff, diff - 3, diff + 3},
				    .share = parent < 0 ? 1 : diff / 100,
				    .share_ci = {NAN, NAN, NAN},
				    .sign = 1,
				    .others = {NAN, NAN, NAN},
				    .probe_unc = NAN,
				    .entry_share = parent < 0 ? 1 : diff / 100,
				    .lead = -1,
				    .tie = -1};
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Every occurrence of @mid in @html comes after @before and, past the digits
 * that follow it, before @after: the markup of the input around it escaped.
 */
#define SHOWN_BEFORE "&#39;&quot;&gt;&lt;img"
static void each_escaped(const char *html, const char *mid, const char *before, const char *after)
{
	size_t lb = strlen(before), n = 0;

	for (const char *p = html; (p = strstr(p, mid)); p++) {
		const char *end = p + strlen(mid);

		end += strspn(end, "0123456789");
		n++;
		CHECK((size_t)(p - html) >= lb && !strncmp(p - lb, before, lb) &&
			  !strncmp(end, after, strlen(after)),
		      "markup unescaped at byte %zu: %.60s", (size_t)(p - html),
		      p - html >= 30 ? p - 30 : html);
	}
	CHECK(n, "no '%s' on the page", mid);
}

/* The history: two nights of the entry, their verdicts markup, every other field too. */
static int write_history(const char *path)
{
	FILE *f = fopen(path, "w");
	/* as JSON strings: "><script>alert(1)</script> and MARK(9) */
	static const char *const verdicts[2] = {"\\\"><script>alert(1)</script>",
						"'\\\"><img src=x onerror=alert(9)>"};

	if (!f)
		return -1;
	for (int i = 0; i < 2; i++)
		fprintf(
		    f,
		    "{\"time\":%d,\"entry\":\"run'\\\"><img src=x onerror=alert(1)>\","
		    "\"previous\":\"/b/\\\"><script>alert(1)</script>\","
		    "\"current\":\"/b/\\\"><script>alert(1)</script>\","
		    "\"verdict\":\"%s\",\"status\":1,\"label\":\"\\\"><script>alert(1)</script>\","
		    "\"commit\":\"\\\"><script>alert(1)</script>\","
		    "\"machine\":\"\\\"><script>alert(1)</script>\","
		    "\"date\":\"\\\"><script>alert(1)</script>\","
		    "\"call\":\"\\\"><script>alert(1)</script>\","
		    "\"previous_ns\":100,\"previous_low_ns\":98,\"previous_high_ns\":102,"
		    "\"current_ns\":%d,\"current_low_ns\":%d,\"current_high_ns\":%d,"
		    "\"diff_ns\":10,\"diff_low_ns\":8,\"diff_high_ns\":12,\"threshold_ns\":5,"
		    "\"runs\":[10,10]}\n",
		    1700000000 + 86400 * i, verdicts[i], 110 + i, 108 + i, 112 + i);
	return fclose(f);
}

int main(int argc, char **argv)
{
	struct pp_options opt = {.entry = "run" MARK(1),
				 .confidence = 0.95,
				 .precision = 1,
				 .layouts = 2,
				 .runs = PP_RUNS_SHUFFLED,
				 .test = PP_TEST_MANN_WHITNEY,
				 .search = PP_SEARCH_ATTRIB};
	struct pp_session s = {.opt = &opt};
	char page[4096], hist[4096];
	struct pp_outcome o;
	char *html;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: test-driver-html-escape DIR\n");
		return 2;
	}
	snprintf(page, sizeof(page), "%s/escape.html", argv[1]);
	snprintf(hist, sizeof(hist), "%s/escape.jsonl", argv[1]);
	if (write_history(hist)) {
		fprintf(stderr, "test-driver-html-escape: cannot write %s\n", hist);
		return 2;
	}
	opt.history = hist;

	s.rev[PP_PREV] = (struct pp_revision){.label = "previous", .dir = "/b/" MARK(2)};
	s.rev[PP_CUR] = (struct pp_revision){.label = "current", .dir = "/b/" MARK(3)};
	s.rev[PP_PREV].lay.not_varied = "no link record: " MARK(13);
	s.started_wall = 1700000000 + 86400 * 2;

	quantity(0, PP_Q_ENTRY, 0, 0, 100, 160);
	quantity(1, PP_Q_RANGE, 0, 0, 10, 40);
	quantity(2, PP_Q_RANGE, 1, 1, 20, 40);
	quantity(3, PP_Q_GROUP, 2, 3, 5, 15);
	quantity(4, PP_Q_RANGE, 2, 2, 2, 7);
	quantity(5, PP_Q_RANGE, 3, 3, 3, 8);
	quantities[3].callee = MARK(8);
	quantities[3].terms = terms;
	quantities[3].signs = signs;
	quantities[3].nterms = 2;
	s.q = qs;
	s.nq = NQ;

	make_runs();
	s.batches = &batch;
	s.nbatches = 1;
	s.runs = runs;
	s.nruns = RUNS;
	s.runs_used = RUNS;

	node(0, PP_NODE_ENTRY, -1, -1, 0, 0, 60);
	node(1, PP_NODE_CALL, 0, 2, 0, 1, 30);
	node(2, PP_NODE_CALL, 0, 3, 1, 2, 20);
	node(3, PP_NODE_GROUP, 0, 4, 2, 3, 10);
	node(4, PP_NODE_REST, 0, -1, 0, -1, 1);
	nodes[3].last[PP_PREV] = nodes[3].last[PP_CUR] = 3;
	nodes[0].child = 1;
	nodes[0].chain = nodes[1].chain = true;
	nodes[1].stop = "excluded by --exclude " MARK(11);
	nodes[1].detail = "inlined here: " MARK(12);
	s.nodes = nodes;
	s.nnodes = 5;
	s.failure = "current revision, batch 1, run 1: '" MARK(14) "' exited with status 3; its "
								   "last words: " MARK(15);

	if (pp_outcome_build(&o, &s, PP_EXIT_MEASUREMENT)) {
		fprintf(stderr, "test-driver-html-escape: cannot build the outcome\n");
		return 2;
	}
	/* The outcome holds no pointer into the session: scribbled over, it is not read. */
	memset(quantities, 0xa5, sizeof(quantities));
	memset(values, 0xa5, sizeof(values));
	memset(nodes, 0xa5, sizeof(nodes));
	memset(runs, 0xa5, sizeof(runs));
	memset(run_targets, 0xa5, sizeof(run_targets));
	memset(calls, 0xa5, sizeof(calls));
	memset(&entry_fn, 0xa5, sizeof(entry_fn));
	memset(&batch, 0xa5, sizeof(batch));
	memset(&s, 0xa5, sizeof(s));
	memset(&opt, 0xa5, sizeof(opt));
	err = pp_html_write(&o, page);
	pp_outcome_free(&o);
	html = err ? NULL : read_all(page);
	if (!html) {
		fprintf(stderr, "test-driver-html-escape: cannot write %s\n", page);
		return 2;
	}

	/* No markup but the report's own: no element of the input, no attribute closed. */
	CHECK(!strcasestr(html, "<img"), "an <img> of the input is in the page");
	CHECK(!strcasestr(html, "<script"), "a <script> of the input is in the page");
	CHECK(!strstr(html, "'\""), "a quote of the input is in the page unescaped");
	each_escaped(html, " src=x onerror=alert(", SHOWN_BEFORE, ")&gt;");
	each_escaped(html, "alert(1)&lt;/script", "&quot;&gt;&lt;script&gt;", "&gt;");
	/* Each source on the page, escaped (the checks above are not about an empty page). */
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
		CHECK(strstr(html, sources[i].shown), "%s is not on the page escaped as %s",
		      sources[i].what, sources[i].shown);
	CHECK(strstr(html, "<svg class=\"trend\""), "no trend of the history");
	CHECK(strstr(html, "<h2>The entry over 3 sessions</h2>"),
	      "the trend does not draw the history's two nights and this session");
	free(html);
	if (failures)
		fprintf(stderr, "the page: %s\n", page);
	return report("test-driver-html-escape");
}
