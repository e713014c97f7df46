/* SPDX-License-Identifier: MIT */
/*
 * pinpoint-layers - print the call lists ("layers") that the pinpoint plugin
 * embedded in a build's binaries: every function's, or the layers below one
 * function down to a depth.  It reads the binaries only; nothing is run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/table.h"
#include "pinpoint/protocol.h"

#ifndef PP_VERSION
#define PP_VERSION "unknown"
#endif

#define EXIT_USAGE 2
#define MAX_SUGGEST 5

struct opt_desc {
	const char *name;
	int has_arg;
	int val;
	const char *arg;
	const char *help;
};

/* One table drives getopt_long() and the OPTIONS of the help. */
static const struct opt_desc opt_descs[] = {
    {"entry", required_argument, 'e', "[FILE:]FUNC",
     "Print the layers below FUNC instead of every function.  FUNC is a linkage name, a "
     "demangled C++ name (with or without its parameters); FILE picks among static "
     "functions of that name (a suffix of their file name)."},
    {"depth", required_argument, 'd', "N",
     "With --entry: print layers 0 to N (default 1).  Layer 0 is FUNC alone."},
    {"json", no_argument, 'j', NULL, "Print JSON instead of text: one document, on one line."},
    {"mangled", no_argument, 'm', NULL, "Print linkage names instead of demangled C++ names."},
    {"help", no_argument, 'h', NULL, "Print this help and exit."},
    {"version", no_argument, 'V', NULL, "Print the version and exit."},
};

#define NOPTS (sizeof(opt_descs) / sizeof(opt_descs[0]))

static struct {
	const char *binary, *entry;
	long depth;
	bool json, mangled;
} opt = {.depth = 1};

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("pinpoint-layers: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

/* Print @text wrapped at 72 columns, each line indented by @indent. */
static void wrap(const char *text, int indent)
{
	int col = 0;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col && col + 1 + (int)w > 72) {
			putchar('\n');
			col = 0;
		}
		if (!col)
			col = printf("%*s", indent, "");
		else
			col += printf(" ");
		col += printf("%.*s", (int)w, text);
		text += w;
		text += strspn(text, " ");
	}
	putchar('\n');
}

static void usage(void)
{
	size_t i;

	puts("NAME\n"
	     "       pinpoint-layers - print the call lists pinpoint embedded in a build\n"
	     "\n"
	     "SYNOPSIS\n"
	     "       pinpoint-layers [--json] [--mangled] BINARY\n"
	     "       pinpoint-layers [--json] [--mangled] --entry [FILE:]FUNC [--depth N] BINARY\n"
	     "\n"
	     "DESCRIPTION");
	wrap("A program compiled with clang -fpass-plugin=pinpoint-pass.so holds, in each "
	     "executable and shared library, the call list of each of its functions: its call "
	     "sites in program order, with the callee and file:line:col.  These are the layers "
	     "pinpoint searches for the call that made a program slower.  pinpoint-layers reads "
	     "BINARY and the shared libraries it loads and prints them.  The libraries are found "
	     "from the ELF files alone (DT_NEEDED, DT_RPATH, DT_RUNPATH with $ORIGIN, "
	     "LD_LIBRARY_PATH, /etc/ld.so.conf and the system directories, as the dynamic "
	     "loader searches): nothing is run, not BINARY and not its program interpreter.",
	     7);
	puts("");
	wrap("Without --entry it lists every function: name, file:line and the binary that "
	     "holds it, then one line per call: its index (the k of a range FUNC:I-J), the "
	     "callee and where the call is.  With --entry, layer 0 is FUNC and layer k+1 holds "
	     "the callees of layer k that have a call list, each shown once.",
	     7);
	puts("");
	wrap("A call is marked \"external\" when its callee has no call list (a library or "
	     "uninstrumented function), \"indirect\" when it goes through a pointer, and "
	     "\"(seen)\" when its callee is already in this layer or an earlier one, so its "
	     "list is not printed again below.  A call that cannot be timed says why: "
	     "\"inlined\" (its callee's code is in the function), \"removed\" (nothing of it "
	     "is left) or \"not timed\" (either, without debug info).",
	     7);
	puts("");
	wrap("Below a call whose callee the optimiser inlined, indented under it, come the "
	     "calls that the inlined code still makes in the function (their file:line:col in "
	     "the inlined function's source), and the calls it inlined in turn: each is timed "
	     "as a call of the function, with its own index.  In JSON, \"via\" is the index of "
	     "the call it came through (null for the function's own calls).",
	     7);
	puts("\nOPTIONS");
	for (i = 0; i < NOPTS; i++) {
		const struct opt_desc *d = &opt_descs[i];

		printf("       -%c, --%s%s%s\n", d->val, d->name, d->arg ? "=" : "",
		       d->arg ? d->arg : "");
		wrap(d->help, 14);
	}
	puts("\nEXIT STATUS\n"
	     "       0 on success; 2 on bad options, an unknown or ambiguous FUNC, or a binary\n"
	     "       without a (valid) table, with one line on standard error.\n"
	     "\n"
	     "EXAMPLES\n"
	     "       pinpoint-layers ./app\n"
	     "       pinpoint-layers --entry main --depth 2 ./app\n"
	     "       pinpoint-layers --entry src/io.c:flush --json ./app");
}

static void parse_args(int argc, char **argv)
{
	struct option longopts[NOPTS + 1];
	char shortopts[2 * NOPTS + 1], *p = shortopts, *end;
	const char *depth = NULL;
	size_t i;
	int c;

	for (i = 0; i < NOPTS; i++) {
		longopts[i] = (struct option){opt_descs[i].name, opt_descs[i].has_arg, NULL,
					      opt_descs[i].val};
		*p++ = (char)opt_descs[i].val;
		if (opt_descs[i].has_arg)
			*p++ = ':';
	}
	longopts[NOPTS] = (struct option){0};
	*p = '\0';
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			opt.entry = optarg;
			break;
		case 'd':
			depth = optarg;
			break;
		case 'j':
			opt.json = true;
			break;
		case 'm':
			opt.mangled = true;
			break;
		case 'h':
			usage();
			exit(0);
		case 'V':
			printf("pinpoint-layers %s\n", PP_VERSION);
			exit(0);
		default:
			if (optopt && strchr(shortopts, optopt) && optopt != ':')
				die("option -%c needs an argument (see --help)", optopt);
			die("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		die("no BINARY given (see --help)");
	if (optind + 1 < argc)
		die("one BINARY only, got '%s' too (see --help)", argv[optind + 1]);
	opt.binary = argv[optind];
	if (depth) {
		if (!opt.entry)
			die("--depth needs --entry");
		errno = 0;
		opt.depth = strtol(depth, &end, 10);
		if (!depth[0] || *end || errno)
			die("--depth: '%s' is not a number", depth);
		if (opt.depth < 0)
			die("--depth: %ld is negative; it must be 0 or more", opt.depth);
	}
	if (opt.entry && !opt.entry[0])
		die("--entry: empty function name");
}

static const char *display(const char *name)
{
	return opt.mangled ? name : pp_demangle(name);
}

static const char *linkage_str(uint8_t l)
{
	static const char *const s[] = {"external", "internal", "linkonce", "weak"};

	return l < 4 ? s[l] : "?";
}

static const char *kind_str(uint8_t k)
{
	static const char *const s[] = {"direct", "invoke", "indirect", "invoke-indirect"};

	return k < 4 ? s[k] : "?";
}

static const char *fate_str(uint8_t f)
{
	static const char *const s[] = {"timed", "inlined", "removed", "unknown"};

	return f < 4 ? s[f] : "?";
}

/* What the text listing says of a call that has no probes. */
static const char *fate_note(uint8_t f)
{
	static const char *const s[] = {"", "  inlined", "  removed", "  not timed"};

	return f < 4 ? s[f] : "  ?";
}

enum target { T_TABLE, T_EXTERNAL, T_INDIRECT };

/* Where a function is in the layers: not yet, in the next one, printed. */
enum { UNSEEN, QUEUED, SEEN };

static enum target target_of(const struct pp_program *prog, const struct pp_prog_fn *f,
			     const struct pp_prog_call *c, const struct pp_prog_fn **to)
{
	*to = NULL;
	if (!c->callee[0])
		return T_INDIRECT;
	*to = pp_program_resolve(prog, f, c);
	return *to ? T_TABLE : T_EXTERNAL;
}

static void print_loc(const char *file, uint32_t line, uint32_t col)
{
	if (!file[0]) {
		printf("?");
		return;
	}
	printf("%s", file);
	if (line)
		printf(":%u", line);
	if (line && col)
		printf(":%u", col);
}

/*
 * One function with its calls.  @seen (indexed like prog->funcs) marks the
 * functions of this layer and the earlier ones, or is NULL in the listing.
 */
static void print_func(const struct pp_program *prog, const struct pp_prog_fn *f,
		       const unsigned char *seen, const char *indent)
{
	uint32_t k;

	printf("%s%s (", indent, display(f->name));
	print_loc(f->file, f->line, 0);
	printf(") in %s%s\n", f->object,
	       f->flags & PP_FUNC_EMITTED ? "" : "  not emitted (inlined everywhere or removed)");
	if (!f->ncalls)
		printf("%s    no calls\n", indent);
	for (k = 0; k < f->ncalls; k++) {
		const struct pp_prog_call *c = &f->calls[k];
		const struct pp_prog_fn *to;
		enum target t = target_of(prog, f, c, &to);
		bool was_seen = seen && to && seen[to - prog->funcs] == SEEN;

		/* A call of inlined code goes under the call it came through. */
		printf("%s    %u  %*s%s  ", indent, k, 2 * (int)pp_prog_call_chain(f, k, NULL, 0),
		       "", c->callee[0] ? display(c->callee) : pp_prog_call_name(c));
		print_loc(c->file, c->line, c->col);
		if (t == T_EXTERNAL)
			printf("  external");
		else if (t == T_INDIRECT)
			printf("  indirect");
		else if (was_seen)
			printf("  (seen)");
		if (c->callback && c->callback[0])
			printf("  calls back %s", display(c->callback));
		/* Timed calls say nothing; the others cannot be measured. */
		printf("%s\n", fate_note(c->fate));
	}
}

/* Call @k of @f as JSON; "seen" only in the layers (@seen not NULL). */
static json_t *call_json(const struct pp_program *prog, const struct pp_prog_fn *f, uint32_t k,
			 const unsigned char *seen)
{
	static const char *const tstr[] = {"table", "external", "indirect"};
	const struct pp_prog_call *c = &f->calls[k];
	const struct pp_prog_fn *to;
	enum target t = target_of(prog, f, c, &to);
	json_t *o = pp_json_object(
	    "index", pp_json_int(k), "callee", pp_json_str(c->callee), "display",
	    pp_json_str(c->callee[0] ? display(c->callee) : pp_prog_call_name(c)), "file",
	    pp_json_str(c->file), "line", pp_json_int(c->line), "col", pp_json_int(c->col), "kind",
	    pp_json_str(kind_str(c->kind)), "target", pp_json_str(tstr[t]), "fate",
	    pp_json_str(fate_str(c->fate)), "via", c->via ? pp_json_int(c->via - 1) : json_null(),
	    "callback", c->callback && c->callback[0] ? pp_json_str(c->callback) : json_null(),
	    NULL);

	if (seen)
		o = pp_json_set(o, "seen", pp_json_bool(to && seen[to - prog->funcs] == SEEN));
	return o;
}

/* One function with its calls as JSON; @seen as for print_func(). */
static json_t *func_json(const struct pp_program *prog, const struct pp_prog_fn *f,
			 const unsigned char *seen)
{
	json_t *calls = json_array();

	for (uint32_t k = 0; k < f->ncalls; k++)
		calls = pp_json_push(calls, call_json(prog, f, k, seen));
	return pp_json_object("name", pp_json_str(f->name), "display",
			      pp_json_str(display(f->name)), "file", pp_json_str(f->file), "line",
			      pp_json_int(f->line), "linkage", pp_json_str(linkage_str(f->linkage)),
			      "emitted", pp_json_bool(f->flags & PP_FUNC_EMITTED), "object",
			      pp_json_str(f->object), "calls", calls, NULL);
}

/* The keys every JSON document starts with. */
static json_t *json_head(const struct pp_program *prog)
{
	json_t *objects = json_array();

	for (size_t i = 0; i < prog->nobjects; i++)
		objects = pp_json_push(objects, pp_json_str(prog->objects[i]));
	return pp_json_object("binary", pp_json_str(opt.binary), "objects", objects, NULL);
}

/* Print @doc on one line, then let it go. */
static void print_json(json_t *doc)
{
	if (!doc)
		die("out of memory");
	pp_json_dumpf(doc, stdout, 0);
	putchar('\n');
	json_decref(doc);
}

static void list_all(const struct pp_program *prog)
{
	json_t *funcs;
	size_t i;

	if (!opt.json) {
		for (i = 0; i < prog->nfuncs; i++)
			print_func(prog, &prog->funcs[i], NULL, "");
		return;
	}
	funcs = json_array();
	for (i = 0; i < prog->nfuncs; i++)
		funcs = pp_json_push(funcs, func_json(prog, &prog->funcs[i], NULL));
	print_json(pp_json_set(json_head(prog), "functions", funcs));
}

static const struct pp_prog_fn *find_entry(const struct pp_program *prog)
{
	const struct pp_prog_fn *m[64];
	size_t n = pp_program_lookup(prog, opt.entry, m, 64);
	char list[2048];

	if (n == 1)
		return m[0];
	if (n == 0) {
		if (!pp_program_suggest_list(prog, opt.entry, MAX_SUGGEST, list, sizeof(list)))
			die("no function '%s' in %s (pinpoint-layers %s lists them)", opt.entry,
			    opt.binary, opt.binary);
		die("no function '%s' in %s; did you mean: %s?", opt.entry, opt.binary, list);
	}
	pp_program_candidates(m, n < 64 ? n : 64, list, sizeof(list));
	die("'%s' is ambiguous in %s, say which: %s%s", opt.entry, opt.binary, list,
	    n > 64 ? ", ..." : "");
}

static int print_layers(const struct pp_program *prog, const struct pp_prog_fn *entry)
{
	size_t n = prog->nfuncs, nlayer = 1, nnext, i;
	const struct pp_prog_fn **layer, **next;
	json_t *layers = NULL;
	unsigned char *seen;
	long k;

	seen = calloc(n, sizeof(*seen));
	layer = calloc(n, sizeof(*layer));
	next = calloc(n, sizeof(*next));
	if (!seen || !layer || !next) {
		fprintf(stderr, "pinpoint-layers: out of memory\n");
		free(seen);
		free(layer);
		free(next);
		return EXIT_USAGE;
	}
	layer[0] = entry;
	seen[entry - prog->funcs] = SEEN;
	if (opt.json)
		layers = json_array();
	for (k = 0; nlayer; k++) {
		json_t *funcs = opt.json ? json_array() : NULL;

		nnext = 0;
		if (!opt.json)
			printf("layer %ld\n", k);
		for (i = 0; i < nlayer; i++) {
			const struct pp_prog_fn *f = layer[i];
			uint32_t c;

			if (opt.json)
				funcs = pp_json_push(funcs, func_json(prog, f, seen));
			else
				print_func(prog, f, seen, "  ");
			for (c = 0; c < f->ncalls && k < opt.depth; c++) {
				const struct pp_prog_fn *to =
				    pp_program_resolve(prog, f, &f->calls[c]);

				if (!to || seen[to - prog->funcs])
					continue;
				seen[to - prog->funcs] = QUEUED;
				next[nnext++] = to;
			}
		}
		if (opt.json)
			layers = pp_json_push(layers, pp_json_object("layer", pp_json_int(k),
								     "functions", funcs, NULL));
		/* The next layer is marked now: its functions are "(seen)" from
		 * there on, not in the layer that calls them first. */
		for (i = 0; i < nnext; i++)
			seen[next[i] - prog->funcs] = SEEN;
		memcpy(layer, next, nnext * sizeof(*next));
		nlayer = nnext;
	}
	if (opt.json)
		print_json(pp_json_set(
		    pp_json_set(pp_json_set(json_head(prog), "entry", pp_json_str(entry->name)),
				"depth", pp_json_int(opt.depth)),
		    "layers", layers));
	free(seen);
	free(layer);
	free(next);
	return 0;
}

int main(int argc, char **argv)
{
	struct pp_program prog;
	int ret;

	parse_args(argc, argv);
	pp_program_init(&prog);
	ret = pp_program_load(&prog, opt.binary);
	if (ret) {
		fprintf(stderr, "pinpoint-layers: %s\n", pp_program_error(&prog));
		pp_program_free(&prog);
		return EXIT_USAGE;
	}
	pp_program_print_warnings(&prog, 0, "pinpoint-layers", stderr);
	if (opt.entry)
		ret = print_layers(&prog, find_entry(&prog));
	else
		list_all(&prog);
	pp_program_free(&prog);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pinpoint-layers: writing the output: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	return ret;
}
