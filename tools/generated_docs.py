"""The parts of pinpoint's documentation that a run of pinpoint prints.

  options   --help's options (letter, name, value, default) in the OPTIONS
            of man/pinpoint.1 and the table of doc/using.md; their texts
            say more than --help and are written by hand, but every option
            is there, under its --help tag, with --help's default.
  version   --version in the .TH line of every man/*.1 page.
  demo      the README's session of the demo, between the markers
            <!-- demo-output:begin ... --> and <!-- demo-output:end -->:
            the README's first command's session: its two commands, what
            it prints and its exit status.

tools/regen-docs rewrites these from a build; test/driver/check_docs.py
compares them with one (the demo's session by its structure, every number
masked: see session_mismatches()).
"""
import os
import re
import shlex
import subprocess

HELP_OPTION = re.compile(r"^  (?:-(\w), |    )--([\w-]+)(?: (\S+))? +(.*)$")
DOC_OPTION = re.compile(r"^(?:-(\w), )?--([\w-]+)(?: (\S+))?$")
HELP_DEFAULT = re.compile(r"\(default ([^,;:)\s]+)")

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- demo-output:begin"
END = "<!-- demo-output:end -->"
# The clone's path as the README shows it: a session prints where each
# function's source is, which would otherwise be the path of whichever
# clone the README was last written from.
CLONE = "~/pinpoint"


# ---------------------------------------------------------------- --help


def help_options(text):
    """--help's options, in its order: {name: (letter, value, default or
    None, text)}; the default is the one a "(default X" shows, not a
    described one ("(default: 20x the first run")."""
    opts = {}
    for line in text.splitlines():
        m = HELP_OPTION.match(line)
        if m:
            d = HELP_DEFAULT.search(m.group(4))
            opts[m.group(2)] = (m.group(1), m.group(3), d.group(1) if d else None, m.group(4))
    return opts


def mentions_default(text, default):
    """Whether a page's text of an option gives @default as its default."""
    return re.search(r"default:? `?%s`?(?![\w.])" % re.escape(default), text) is not None


# ---------------------------------------------------------------- man page


def roff_plain(s):
    """Text of roff source @s without font changes and escapes."""
    return re.sub(r"\\f[BIRP]", "", s.replace("\\-", "-").replace("\\e", "\\"))


def roff_escape(s):
    return s.replace("\\", "\\e").replace("-", "\\-")


def man_tag(letter, name, value):
    """The .TP tag line of an option, as the page writes them."""
    opt = "\\-\\-" + roff_escape(name)
    if value is None:
        return ".BR \\-%s \", \" %s" % (letter, opt) if letter else ".B " + opt
    if not letter and re.fullmatch(r"[A-Z]+", value):
        return ".BI %s \" %s\"" % (opt, value)
    shown = "".join("\\fI%s\\fR" % t if re.fullmatch(r"[A-Z]+", t) else roff_escape(t)
                    for t in re.split(r"(\||\.\.)", value))
    tags = "\\-%s \", \" %s" % (letter, opt) if letter else opt
    return ".BR %s \" %s\"" % (tags, shown)


def man_tag_option(line):
    """(letter, name, value) of a .TP tag line, or None."""
    macro, _, rest = line.partition(" ")
    args = [a if a or not b else b for a, b in re.findall(r'"([^"]*)"|(\S+)', rest)]
    # .B joins its arguments with spaces, .BR, .BI and the like alternate fonts without
    tag = roff_plain((" " if macro == ".B" else "").join(args))
    m = DOC_OPTION.match(tag)
    return (m.group(1), m.group(2), m.group(3)) if m else None


class ManOptions:
    """The OPTIONS section of a man page: what comes before its first .TP,
    one [tag line, body, tail] per .TP (the tail: a .PP paragraph after
    the item, not part of it), and the rest of the page."""

    def __init__(self, page):
        start = page.index("\n.SH OPTIONS\n") + len("\n.SH OPTIONS\n")
        end = page.find("\n.SH ", start)
        end = len(page) if end < 0 else end
        self.head, self.foot = page[:start], page[end:]
        chunks = ("\n" + page[start:end]).split("\n.TP\n")
        self.lead = chunks[0][1:]
        self.items = []
        for chunk in chunks[1:]:
            # the body keeps the newline after the tag: a tag alone is "tag"
            tag, sep, rest = chunk.partition("\n")
            body, pp, tail = rest.partition("\n.PP\n")
            self.items.append([tag, sep + body, pp + tail])

    def text(self):
        items = "".join("\n.TP\n%s%s%s" % tuple(i) for i in self.items)
        return self.head + self.lead + (items if self.lead else items[1:]) + self.foot

    @staticmethod
    def plain(body):
        """An item's body as text: its lines joined, macros and fonts dropped."""
        return roff_plain(" ".join(re.sub(r"^\.[A-Z]+ ", "", l)
                                   for l in body.splitlines())).replace('"', "")

    def options(self):
        """{name: (letter, value, text)}; a tag that is not an option: ValueError."""
        opts = {}
        for tag, body, _ in self.items:
            o = man_tag_option(tag)
            if not o:
                raise ValueError("man page option %r is not -X, --NAME VALUE" % tag)
            opts[o[1]] = (o[0], o[2], self.plain(body))
        return opts


def man_options(page):
    return ManOptions(page).options()


def man_version(page):
    m = re.search(r'^\.TH \S+ \S+ "[^"]*" "([^"]*)"', page, re.M)
    return m.group(1) if m else None


def set_default(raw, default, escape, quote):
    """@raw with its first "default X" made "default @default", or, when it
    names none, "(default @default)" added at its end."""
    m = re.search(r"(default:?\s+(?:\.[BIR]{1,2}\s+)?`?)([^\s`;,)]+)", raw)
    if m:
        return raw[:m.start(2)] + escape(default) + raw[m.end(2):]
    end = raw.rstrip()
    dot = "." if end.endswith(".") else ""
    end = end[:len(end) - len(dot)]
    return "%s (default %s)%s%s" % (end, quote(escape(default)), dot, raw[len(raw.rstrip()):])


def rewrite_man(page, opts, version):
    """@page with --help's options @opts in its OPTIONS (tags, defaults;
    missing options added with --help's text, others removed) and
    @version in its .TH line; the items' own texts stay."""
    m = ManOptions(page)
    have = {}
    for item in m.items:
        o = man_tag_option(item[0])
        if not o:
            raise ValueError("man page option %r is not -X, --NAME VALUE" % item[0])
        if o[1] in opts:
            have[o[1]] = item
    m.items = [i for i in m.items if any(i is v for v in have.values())]
    after = None
    for name, (letter, value, default, text) in opts.items():
        item = have.get(name)
        if item is None:
            body = roff_escape(text[0].upper() + text[1:])
            item = [man_tag(letter, name, value),
                    "\n" + body + ("" if body.endswith(".") else "."), ""]
            at = m.items.index(after) + 1 if after is not None else 0
            if after is not None and after[2] and at == len(m.items):
                item[2], after[2] = after[2], ""
            m.items.insert(at, item)
        elif man_tag_option(item[0]) != (letter, name, value):
            item[0] = man_tag(letter, name, value)
        if default is not None and not mentions_default(m.plain(item[1]), default):
            item[1] = set_default(item[1], default, roff_escape, lambda s: s)
        after = item
    return set_man_version(m.text(), version)


def set_man_version(page, version):
    """@page with @version in its .TH line."""
    return re.sub(r'^(\.TH \S+ \S+ "[^"]*" ")[^"]*"', lambda t: t.group(1) + version + '"',
                  page, count=1, flags=re.M)


# ---------------------------------------------------------------- doc/using.md

USING_TABLE = "\n## Options\n"


def table_cells(row):
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)[1:-1]]


def doc_tag(letter, name, value):
    return "`%s--%s%s`" % ("-%s, " % letter if letter else "", name,
                            " " + value.replace("|", "\\|") if value else "")


def using_table(doc):
    """(text before the table's rows, its rows, text after them)."""
    start = doc.index(USING_TABLE) + len(USING_TABLE)
    table = doc[start:]
    lead = len(table) - len(table.lstrip("\n"))
    end = table.find("\n\n", lead)
    end = len(table) if end < 0 else end
    lines = table[lead:end].split("\n")
    return doc[:start + lead] + "\n".join(lines[:2]) + "\n", lines[2:], table[end:]


def doc_row_options(row):
    """[(letter, name, value)] of a row's first cell; a tag that is not an option: ValueError."""
    out = []
    for tag in re.findall(r"`([^`]+)`", table_cells(row)[0]):
        m = DOC_OPTION.match(tag)
        if not m:
            raise ValueError("doc/using.md option %r is not -X, --NAME VALUE" % tag)
        out.append((m.group(1), m.group(2), m.group(3)))
    return out


def doc_options(doc):
    """doc/using.md's table of options: {name: (letter, value, text)}."""
    opts = {}
    for row in using_table(doc)[1]:
        for letter, name, value in doc_row_options(row):
            opts[name] = (letter, value, table_cells(row)[1])
    return opts


def rewrite_using(doc, opts):
    """@doc with --help's options @opts in its table of options, as
    rewrite_man() does for the man page."""
    head, rows, tail = using_table(doc)
    kept = []
    for row in rows:
        tags = [o for o in doc_row_options(row) if o[1] in opts]
        if not tags:
            continue
        cells = re.split(r"(?<!\\)\|", row)
        if any(o != (opts[o[1]][0], o[1], opts[o[1]][1]) for o in tags) or \
                len(tags) != len(doc_row_options(row)):
            cells[1] = " %s " % ", ".join(doc_tag(opts[n][0], n, opts[n][1]) for _, n, _ in tags)
        kept.append(["|".join(cells), [n for _, n, _ in tags]])
    after = None
    for name, (letter, value, default, text) in opts.items():
        row = next((r for r in kept if name in r[1]), None)
        if row is None:
            row = ["| %s | %s |" % (doc_tag(letter, name, value), text.replace("|", "\\|")),
                   [name]]
            kept.insert(kept.index(after) + 1 if after is not None else 0, row)
        if default is not None and not mentions_default(table_cells(row[0])[1], default):
            cells = re.split(r"(?<!\\)\|", row[0])
            cells[2] = set_default(cells[2].rstrip(), default, lambda s: s,
                                   lambda s: "`%s`" % s) + " "
            row[0] = "|".join(cells)
        after = row
    return head + "\n".join(r for r, _ in kept) + tail


def option_mismatches(help_text, version, man_pages, doc):
    """What man/*.1 (@man_pages: {file name: text}) and doc/using.md (@doc)
    say otherwise than --help (@help_text) and --version (@version)."""
    want = help_options(help_text)
    bad = []
    if len(want) < 30:
        bad.append("--help lists %d options: is this pinpoint's --help?" % len(want))
    for name, page in sorted(man_pages.items()):
        if man_version(page) != version:
            bad.append("man/%s: .TH gives version %r, --version %r" % (
                name, man_version(page), version))
    pages = []
    for what, parse, text in (("man/pinpoint.1", man_options, man_pages.get("pinpoint.1")),
                              ("doc/using.md", doc_options, doc)):
        try:
            pages.append((what, parse(text)))
        except (ValueError, AttributeError) as e:
            bad.append("%s: %s" % (what, e))
    for what, got in pages:
        if sorted(got) != sorted(want):
            bad.append("%s lists other options than --help: missing %s, extra %s" % (
                what, sorted(set(want) - set(got)), sorted(set(got) - set(want))))
        for name, (letter, value, default, _) in sorted(want.items()):
            if name not in got:
                continue
            if got[name][:2] != (letter, value):
                bad.append("%s: --%s is %r, --help says %r" % (what, name, got[name][:2],
                                                               (letter, value)))
            if default is not None and not mentions_default(got[name][2], default):
                bad.append("%s: --%s does not say its default is %s: %r" % (
                    what, name, default, got[name][2]))
    return bad


# ---------------------------------------------------------------- the demo


def first_command(readme):
    """The README's first command's session: (its directory, e.g.
    "build/demo/current", and its command line there), from its
    "(cd DIR && COMMAND)"."""
    for line in readme.splitlines():
        if line.startswith("    "):
            m = re.search(r"\(cd (\S+) && ([^()]+)\)\s*$", line)
            if not m:
                raise ValueError("the README's first command does not end in (cd DIR && COMMAND)")
            return m.group(1), m.group(2).strip()
    raise ValueError("the README has no command")


def run_demo(build, readme, timeout=900):
    """Run the README's first session in build directory @build: the
    subprocess.CompletedProcess, stdout and stderr as text."""
    where, command = first_command(readme)
    cwd = os.path.join(build, *where.split("/")[1:])
    return subprocess.run(shlex.split(command), cwd=cwd, capture_output=True, text=True,
                          errors="replace", timeout=timeout)


def source_dir(build):
    """The source tree of build directory @build, from its CMakeCache.txt."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    raise ValueError("%s/CMakeCache.txt names no source directory" % build)


def session_lines(readme, stdout, status, source):
    """The README's block for a session: its two commands, what it printed
    (the source tree @source written CLONE) and its exit status."""
    where, command = first_command(readme)
    out = stdout.replace(os.path.realpath(source) + "/", CLONE + "/")
    if source != os.path.realpath(source):
        out = out.replace(source.rstrip("/") + "/", CLONE + "/")
    return ["$ cd " + where, "$ " + command] + out.rstrip("\n").split("\n") + \
        ["$ echo $?", str(status)]


def demo_block(readme):
    """(start, end, lines) of the README's block between the markers:
    readme[start:end] is the block, indented by four spaces."""
    b = readme.find(BEGIN)
    e = readme.find(END)
    if b < 0 or e < b:
        raise ValueError("the README has no %s ... --> / %s block" % (BEGIN, END))
    start = readme.index("\n", b) + 1
    block = readme[start:e]
    lines = [l[4:] if l.startswith("    ") else l for l in block.strip("\n").split("\n")]
    return start, e, lines


def replace_demo_block(readme, lines):
    start, end, _ = demo_block(readme)
    body = "\n".join(("    " + l) if l else "" for l in lines)
    return readme[:start] + "\n" + body + "\n\n" + readme[end:]


# ---------------------------------------------------------------- the session's structure
#
# Two sessions of the demo print the same lines in the same order, every
# number aside (times, percentages, intervals, run counts, looks, CPUs,
# seeds; mask()), but for what depends on how the runs fell, listed here;
# each is masked or compared as a set, and nothing else is:
#  - the comparison lines ("[n] ...") are printed as they are decided, and
#    one that takes more looks comes later: they are compared as a set,
#    the entry's first.  The parts off the chain (the own bodies, ok_main,
#    foo) end "same", "left open" or UNDECIDED (this one with a minimum
#    detectable effect) as their runs fall, and one left open can be
#    measured again for further contributors (a second line of the same
#    part): their verdicts are masked, when they are verdicts pinpoint
#    prints (verdict_words()).  The chain's steps are SLOWER in both.
#  - "Runs:" adds "; N stayed undecided" and "; N was/were left open" for those,
#    and says whether each pair's runs ran at the same time on two CPUs
#    (duet) or one after the other, which a loaded machine decides.
#  - a function's "probe cost left in" is "not measured" when the next layer's
#    parts rode along in every round that timed it: its content is masked.
#  - a share above 100 % is marked with the rest of its function beside it,
#    and a part the probes' calibration could move by half the threshold
#    "probe cost uncertain": both depend on the runs' noise, on any line.
#  - "Time:" lists a layer only where it had runs of its own: one whose
#    parts all rode along in the runs of the layer above (which the runs'
#    noise decides) is left out, so its layers are compared as one item.
#  - "Time:" adds ", linking the layouts N s", and "Layouts:" leaves out
#    "(all reused from an earlier session)", when this session linked the
#    layouts: whether an earlier one did depends on the cache, not the demo.
#  - "Layout spread:" is printed once the entry has had more runs than
#    there are layouts, which it seldom needs.
#  - a call off the chain is a node of the tree unless it was decided the
#    same (then its time is in its function's unexplained remainder, which
#    is printed when not zero): the tree is compared without them.
#  - the attribution tree orders a function's parts by size, and marks a
#    part off the chain with a sign and with what its comparison ended in
#    ([left open: ...], [undecided: ...], [layout-sensitive: ...]): each
#    function's parts are compared as a set, those marks masked.
#  - the what-if under the chain (--confirm) ends "Confirmed", "Explains",
#    "Overshoots" or "Not confirmed" as its runs and the host's load fall
#    (the demo's failure_run is memory-bound: a loaded host moves its
#    slowdown between the search's runs and the what-if's): the line is
#    masked whole; its comparison line is one off the chain.  Where it
#    overshoots, the chain's steps above the slowdown it shows are marked
#    "[inflated: ...]" in place of their share of the entry: both are
#    taken out of every line.
#  - "Left open (...)" lists the comparisons that ended left open or
#    undecided, and is not printed when none did: each of the README's
#    must name a part off the chain and, when the session has the block
#    too, have the form of its lines, the reason (which depends on how the
#    comparison ended) masked.
# The commands, the exit status, the entry's line, the summary lines, the
# chain and the tree's structure are compared line for line.  The chain
# ends where --depth 2 stops it, at failure_run, whose slowdown is tens of
# times the threshold: four sessions on two cores other work loaded (noise
# from 0.3 % to 12 %) printed the same chain and tree, and differed only as
# listed above.

NUMBER = re.compile(r"(?<![\w.:])(?:[+-]inf\b|[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?"
                    r"(?: ?(?:ns|us|ms|s)\b|%)?)")
SOURCE_PATH = re.compile(r"\S*(/demo/\w+/demo\.c)")
# marks whose presence depends on how the runs fell, on any line: a share
# above 100 % (its centre over 1 by noise), and a part the calibration's
# error could move by half the threshold
RUN_MARK = re.compile(r"  \[(?:above # %: [^\[\]]*(?:\[[^\]]*\])?|probe cost uncertain: [^\]]*)\]")
# how the pairs ran: at the same time on two CPUs when two are free, else one
# after the other (a loaded machine)
RUNS_HOW = re.compile(r"Each pair's two runs ran [^.]*\.|The runs ran one at a time [^.]*\.")
# whether a function had runs with nothing armed inside it to tell the probe
# cost left in depends on whether the next layer's parts rode along in all of
# its caller's rounds
LEFT_IN = re.compile(r"; probe cost left in: .*\)$")
# a figure the what-if (or its size against the entry's) shows inflated:
# its mark, and its share of the entry, which it then does not have
INFLATED = re.compile(r" = #(?: \[#, #\])? of \S+|  \[inflated: [^\[\]]*(?:\[[^\]]*\][^\[\]]*)?\]")
OFF_CHAIN_MARK = re.compile(r"  (?:\[(?:left open|undecided|layout-sensitive)\b[^\]]*\]|"
                            r"\(contributor #\))")


def mask(line):
    """@line with every number masked "#" (file:line:col kept), a plural
    after a number made "(s)", and the clone's path made CLONE."""
    line = SOURCE_PATH.sub(CLONE + r"\1", line)
    line = NUMBER.sub("#", line)
    line = RUN_MARK.sub("", line)
    line = INFLATED.sub("", line)
    line = RUNS_HOW.sub("<how the pairs ran>", line)
    line = LEFT_IN.sub("; probe cost left in: <as the runs fell>)", line)
    return re.sub(r"# (look|comparison|run)s?\b", r"# \1(s)", line)


WHAT_IF = ("Confirmed: ", "Explains ", "Overshoots: ", "Offset: ", "Not confirmed: ")


def chain_form(line):
    """A line of the chain's block, masked; the what-if's line whole."""
    return "<the what-if's line>" if line.startswith(WHAT_IF) else mask(line)


def split_session(lines):
    """A session's block in parts: {"commands", "status", and the lines of
    "comparisons", "summary" (Noise: to Layouts:), "chain", "tree" and
    "open" (Left open), blank lines left out}."""
    parts = {k: [] for k in ("comparisons", "summary", "chain", "tree", "open")}
    parts["commands"], parts["status"] = lines[:2], lines[-2:]
    part = "comparisons"
    heads = (("Noise: ", "summary"), ("Bottleneck chain: ", "chain"),
             ("Attribution tree ", "tree"), ("Left open ", "open"))
    for line in lines[2:-2]:
        part = next((p for h, p in heads if line.startswith(h)), part)
        if line:
            parts[part].append(line)
    return parts


def chain_names(parts):
    head = [l for l in parts["chain"] if l.startswith("Bottleneck chain: ")]
    return head[0][len("Bottleneck chain: "):].split(" → ") if head else []


COMPARISON = re.compile(r"^\[#\] (.*?) +previous .*\)  (.+?) \(#\+# run\(s\), # look\(s\)"
                        r"(?:, minimum detectable effect #)?\)$")
LABEL = re.compile(r"^\[#\] (.*?) +previous ")


def verdict_words():
    """The verdicts as the text report prints them: pinpoint/session/session.c's table."""
    with open(os.path.join(SOURCE, "pinpoint", "session", "session.c")) as f:
        words = re.findall(r'\[PP_V_\w+\] = \{"[^"]*", "([^"]*)"\}', f.read())
    if not words:
        raise ValueError("no verdicts in pinpoint/session/session.c")
    return set(words)


def comparison_forms(parts):
    """Each comparison line's form, in order: masked, the verdict of a part
    off the chain made <verdict> (when it is one) and a minimum detectable
    effect dropped."""
    chain = chain_names(parts)
    on_chain = {"%s (entry)" % chain[0]} if chain else set()
    on_chain |= {"%s: call # %s" % (a, b) for a, b in zip(chain, chain[1:])}
    forms, words = [], verdict_words()
    for line in parts["comparisons"]:
        line = mask(line)
        m = COMPARISON.match(line)
        if m and m.group(1) not in on_chain and m.group(2) in words:
            line = line[:m.start(2)] + "<verdict>" + line[m.end(2):]
        if m:
            line = line.replace(", minimum detectable effect #)", ")")
        forms.append(line)
    return forms


def summary_forms(parts):
    out = []
    for line in parts["summary"]:
        # the spread of layouts, a competing load and the CPU check: the host's,
        # not the session's
        if line.startswith(("Layout spread: ", "Competing load: ", "CPU check: ")):
            continue
        line = mask(line)
        line = line.replace("; # stayed undecided", "")
        line = line.replace("; # were left open", "").replace("; # was left open", "")
        line = line.replace(", linking the layouts #", "")
        # a layer whose parts all rode along in the runs of the layer above has
        # no runs of its own, and "Time:" does not list it
        line = re.sub(r"(?:, layer # # \(# run\(s\)\))+", ", <the layers' runs>", line)
        line = line.replace(" (all reused from an earlier session)", "")
        # the layouts' schedule: its pairs a layout and costs are the host's
        line = re.sub(r": # first, then .*; linking took", ": <the schedule>; linking took", line)
        out.append(line)
    return out


def tree_form(lines):
    """The attribution tree (@lines, its header first) as (header, nodes,
    lines after it): each node (its form, its children), a node off the
    chain masked of its sign and marks, a node's children sorted."""
    nodes = []
    for line in map(mask, lines[1:]):
        # "%*s%c %s": the sign of a part neither slower nor faster is a space
        indent = len(line) - len(line.lstrip(" "))
        text = line[indent:]
        if not text.startswith(("+ ", "- ")):
            indent, text = indent - 2, "  " + text
        if "  (chain)" not in text:
            text = "? " + OFF_CHAIN_MARK.sub("", text[2:])
            # a call off the chain is a node unless it was decided the same,
            # when its time is in the remainder, printed when not zero
            if re.match(r"\? (\S+  call # of |unexplained remainder )", text):
                continue
        nodes.append((indent, text))

    def build(i, indent):
        out = []
        while i < len(nodes) and nodes[i][0] == indent:
            kids, j = build(i + 1, indent + 4)
            out.append((nodes[i][1], kids))
            i = j
        return sorted(out, key=repr), i

    tree, used = build(0, 2)
    return (mask(lines[0]) if lines else None, tree, [t for _, t in nodes[used:]])


OPEN_ENTRY = re.compile(r"^  \[#\] (.*?)  # \[#, #\] after #\+# run\(s\)  (.+)$")


def open_forms(parts, off_chain):
    """The "Left open" block: (header, [(entry's form, its label if one of
    @off_chain)]), a form with its label made <label> and its reason <why>."""
    if not parts["open"]:
        return None, []
    entries = []
    for line in map(mask, parts["open"][1:]):
        m = OPEN_ENTRY.match(line)
        if not m:
            entries.append((line, None))
            continue
        form = line[:m.start(1)] + "<label>" + line[m.end(1):m.start(2)] + "<why>"
        entries.append((form, m.group(1) if m.group(1) in off_chain else None))
    return mask(parts["open"][0]), entries


def session_mismatches(readme_lines, real_lines):
    """How the README's session (@readme_lines) differs from a real one
    (@real_lines, as session_lines() gives it) in what two sessions of the
    demo share; [] when it does not."""
    want, got = split_session(real_lines), split_session(readme_lines)
    bad = []

    def differ(what, a, b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                bad.append("%s, line %d: the README has\n    %s\n  a session prints\n    %s"
                           % (what, i + 1, x, y))
                return
        if len(a) != len(b):
            bad.append("%s: the README has %d lines, a session prints %d:\n    %s" % (
                what, len(a), len(b), "\n    ".join(a[len(b):] or b[len(a):])))

    differ("the commands", got["commands"], want["commands"])
    differ("the exit status", got["status"], want["status"])
    w, g = comparison_forms(want), comparison_forms(got)
    if not g or not w or g[0] != w[0]:
        bad.append("the first comparison line: the README has\n    %s\n  a session prints\n    %s"
                   % (g[0] if g else None, w[0] if w else None))
    for line in sorted(set(g) - set(w)):
        bad.append("the comparisons: a session prints no line like the README's\n    %s" % line)
    for line in sorted(set(w) - set(g)):
        bad.append("the comparisons: the README has no line like a session's\n    %s" % line)
    differ("the summary (Noise: to Layouts:)", summary_forms(got), summary_forms(want))
    differ("the bottleneck chain", [chain_form(l) for l in got["chain"]],
           [chain_form(l) for l in want["chain"]])
    tg, tw = tree_form(got["tree"]), tree_form(want["tree"])
    if tg != tw:
        bad.append("the attribution tree (each function's parts in any order, the marks of "
                   "parts off the chain masked): the README has\n    %s\n  a session prints\n"
                   "    %s" % ("\n    ".join(map(mask, got["tree"])),
                               "\n    ".join(map(mask, want["tree"]))))
    labels = {LABEL.match(l).group(1) for l in w if LABEL.match(l) and "<verdict>" in l}
    hw, ew = open_forms(want, labels)
    hg, eg = open_forms(got, labels)
    if hg and hw and hg != hw:
        bad.append("the Left open header: the README has\n    %s\n  a session prints\n    %s"
                   % (hg, hw))
    forms = {f for f, _ in ew}
    for form, label in eg:
        if label is None:
            bad.append("the Left open block: no comparison left open like the README's\n"
                       "    %s" % form)
        elif forms and form not in forms:
            bad.append("the Left open block: a session prints no line like the README's\n"
                       "    %s\n  but\n    %s" % (form, "\n    ".join(sorted(forms))))
    return bad
