"""The runner and the checks the Python test suites share.

test/driver, test/build, test/robust, test/install, test/runtime and
test/table import this module (their scripts put test/harness on sys.path):
one way to run a command and fail with its output, one way to run pinpoint,
one bottleneck-chain checker, one comparison-line parser, one schema check
of the JSON report, one check of an attribution tree (check_attribution:
test/driver's real-process and model sessions alike), one way to wait for a condition, one scenario
dispatcher and its result lines: "FAIL: ..." for each failure, then exit
status 1; "SKIP: ..." and exit status 77 (ctest's SKIP_RETURN_CODE); else
"PASS: SCENARIO".
"""
import json
import math
import os
import re
import subprocess
import sys
import time

CHAIN_PREFIX = "Bottleneck chain: "


# The failures of check() so far: scenario_main() fails the scenario at its end.
FAILURES = []


def fail(msg, out=None):
    """Print FAIL with @msg (and the exit status and output of @out) and exit 1."""
    print("FAIL: " + msg, flush=True)
    if out is not None:
        print("--- exit status: %d\n--- stdout:\n%s--- stderr:\n%s"
              % (out.returncode, out.stdout, out.stderr), flush=True)
    sys.exit(1)


def check(cond, msg):
    """Unless @cond, print FAIL with @msg and go on: the scenario fails at its
    end (for suites that report every wrong figure of a run).  Returns @cond."""
    if not cond:
        FAILURES.append(msg)
        print("FAIL: " + msg, flush=True)
    return cond


def skip(why):
    """Print SKIP with @why and exit 77: ctest counts the test as skipped."""
    print("SKIP: " + why, flush=True)
    sys.exit(77)


def cache_path(kind, d):
    """Where pinpoint keeps @kind ("layouts", "commands") of directory @d in the cache:
    $XDG_CACHE_HOME/pinpoint/KIND/DEV-INO (pinpoint/layouts/layouts.h)."""
    st = os.stat(d)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pinpoint", kind, "%x-%x" % (st.st_dev, st.st_ino))


def wait_for(cond, seconds, interval=0.05):
    """Call @cond every @interval seconds until it returns a true value or
    @seconds have passed; returns its last value (false: timed out)."""
    deadline = time.monotonic() + seconds
    while True:
        got = cond()
        if got or time.monotonic() >= deadline:
            return got
        time.sleep(interval)


def run(cmd, cwd=None, env=None, extra_env=None, expect=None, timeout=900, echo=False):
    """Run @cmd; @extra_env is added to the environment (or to @env).

    With @expect, another exit status fails the test.  With @echo, the
    command's output is printed as well as its command line.
    """
    if extra_env is not None:
        env = dict(os.environ if env is None else env)
        env.update(extra_env)
    where = "(cd %s && " % cwd if cwd else ""
    # (a path in the output may hold any byte)
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, errors="replace",
                       timeout=timeout)
    print("$ %s%s%s -> %d" % (where, " ".join(cmd), ")" if cwd else "", p.returncode), flush=True)
    if echo:
        print(p.stdout, flush=True)
        print(p.stderr, file=sys.stderr, flush=True)
    if expect is not None and p.returncode != expect:
        fail("%s: exit status %d, expected %d" % (" ".join(cmd), p.returncode, expect), p)
    return p


def alive(pid):
    """Whether process @pid exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def leftover_processes(directory):
    """Live processes whose executable lies under @directory: (pid, path)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            exe = os.readlink("/proc/%s/exe" % pid)
        except OSError:
            continue
        if exe.startswith(directory + "/") and alive(int(pid)):
            found.append((pid, exe))
    return found


# Sessions of the suite decide each comparison within 200 runs per revision
# unless a test sets its own budget: its programs are tiny and its questions
# clear, and the default budget (auto: what --max-time pays for, tens of
# thousands of a tiny program's runs) would spend minutes deciding
# near-threshold siblings "same".
SUITE_BUDGET = ["--max-runs-per-comparison", "200"]


# They measure each revision as built, in one code layout, unless a test asks
# for layouts (--layouts): the suite's questions are about the search, and two
# revisions built from the same source but linked in different orders differ
# by where the linker put their code (test/driver/programs/placement.c, 30 %),
# which the layout scenarios measure on their own.
SUITE_LAYOUTS = ["--layouts", "1"]


# And without the what-if on the chain's claim (--confirm), unless a test asks
# for it: it re-runs the previous revision, a fifth to a third of a small
# session's runs, and answers a question about the claim's size that the
# scenarios asserting it (the demo's report, the setup's executions) and the
# program models (check_model.py confirm) ask; the README's demo runs it at
# the defaults (driver-docs).
SUITE_CONFIRM = ["--confirm", "off"]


def pinpoint(exe, *args, status=None, env=None, timeout=800):
    """Run the pinpoint driver @exe with @args; @status is the exit status expected."""
    args = list(args)
    opts = args[:args.index("--")] if "--" in args else args
    if ("--entry" in opts or "--commits" in opts) and not any(
            a.startswith("--max-runs-per-comparison") for a in opts):
        args = SUITE_BUDGET + args
    if ("--entry" in opts or "--commits" in opts) and not any(
            a.startswith("--layouts") for a in opts):
        args = SUITE_LAYOUTS + args
    if ("--entry" in opts or "--commits" in opts) and not any(
            a.startswith("--confirm") for a in opts):
        args = SUITE_CONFIRM + args
    return run([exe] + args, env=env, expect=status, timeout=timeout)


def dump_options(exe, args):
    """What pinpoint makes of the command line @args (--dump-options put
    first): {"options": [each row of its option table, with its "value"],
    "argv": [the command line it gives back], "report": {the report's
    "options"}}."""
    p = run([exe, "--dump-options"] + list(args), expect=0)
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        fail("--dump-options printed no JSON: %s" % e, p)


def start_until_first_comparison(exe, prev, cur, json_path, command, env=None):
    """A long session of @command, started in the background and returned with the lines it
    printed once its first comparison is printed (to be signalled mid-session)."""
    cmd = [exe, "--entry", "run", "--depth", "3", "--previous", prev, "--current", cur,
           "--measurements", "6", "--json", json_path] + SUITE_LAYOUTS + ["--", command]
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    lines = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("[1] "):
            return proc, lines
    proc.kill()
    fail("no comparison printed before the signal:\n" + "".join(lines) + proc.stderr.read())


def chain(p):
    """The first bottleneck chain @p (a finished process, or its stdout) printed, as text."""
    text = p if isinstance(p, str) else p.stdout
    for line in text.splitlines():
        if line.startswith(CHAIN_PREFIX):
            return line[len(CHAIN_PREFIX):].strip()
    fail("no bottleneck chain printed", None if isinstance(p, str) else p)


def expect_chain(p, steps):
    """The chain @p printed is exactly @steps."""
    got, want = chain(p), " → ".join(steps)
    if got != want:
        fail("chain is %r, expected %r" % (CHAIN_PREFIX + got, CHAIN_PREFIX + want), p)


def node_name(n, by_id):
    """What a node of the JSON report's tree names, as the chain line prints it."""
    k = n["kind"]
    fn = n["function_demangled"]
    if k == "entry":
        return fn
    if k == "call" and "into" in n:  # an indirect call dug into: its target
        return n["into"]["function_demangled"]
    if k == "call":
        return n.get("call_label", n.get("callee", "?"))
    if k == "range":
        return "calls %d-%d of %s" % (n["first_call"], n["last_call"], fn)
    if k == "shared":
        return n["into"]["function_demangled"]
    if k == "group":
        return "%d calls of %s" % (len(n["sites"]), n.get("into", {}).get("function_demangled",
                                                                        n["callee"]))
    if k == "self":
        return "own body of " + fn
    if k == "structural":
        return "changed code of " + fn
    if k in ("added", "removed"):
        return "%s call %s" % (k, n.get("call_label", n.get("callee", "?")))
    return "unexplained remainder of " + fn


def node_path(n, by_id):
    """@n's path from the entry, as node_name() names each step."""
    names = []
    while n is not None:
        names.append(node_name(n, by_id))
        n = by_id.get(n["parent"])
    return " → ".join(reversed(names))


def check_attribution(p, report, chain, contributors=(), improvements=(), text_chain=None,
                      contributors_may_be_open=False):
    """The attribution tree of a session (@p, its JSON @report) names what it must.

    The chain must be @chain (as the JSON names functions: demangled whole;
    the text report's must be @text_chain, its short C++ names, when given);
    the further contributors must include, in this order, one whose path
    holds each name of @contributors, and any other one must be small (half
    the smallest of those, else 15 % of the entry); @improvements must be
    reported as faster; at every node, the parts' intervals summed must reach
    the node's difference (the shares add up within their intervals).

    @contributors_may_be_open: a contributor of @contributors may be missing
    (a real process on a noisy machine: a further contributor whose first
    look could not tell is left open when its answer cannot change the
    chain, doc/search.md); those found must still come in order.  The
    models check that every one is found.  Returns the contributors' paths
    and the faster parts' paths.
    """
    expect_chain(p, text_chain or chain)
    tree = report["tree"]
    by_id = {n["id"]: n for n in tree}
    total = tree[0]["cost_ns"]["centre"]
    chain_nodes = [node_name(n, by_id) for n in tree if n["chain"]]
    if chain_nodes != list(chain):
        fail("chain in the JSON tree is %r" % chain_nodes, p)
    ranked = sorted((n for n in tree if n["rank"]), key=lambda n: n["rank"])
    paths = [node_path(n, by_id) for n in ranked]
    want, found, others = list(contributors), [], []
    for n, pth in zip(ranked, paths):
        if want and re.search(r"(^| )%s( |$)" % re.escape(want[0]), pth):
            want.pop(0)
            found.append(n["cost_ns"]["centre"])
        elif any(re.search(r"(^| )%s( |$)" % re.escape(w), pth) for w in want[1:]):
            # a later one first: out of order, unless the earlier ones were left open
            if not contributors_may_be_open:
                fail("contributors %r missing or out of order in %r" % (want, paths), p)
            want = want[[i for i, w in enumerate(want) if re.search(
                r"(^| )%s( |$)" % re.escape(w), pth)][0] + 1:]
            found.append(n["cost_ns"]["centre"])
        else:
            others.append((n["cost_ns"]["centre"], pth))
    if want and not contributors_may_be_open:
        fail("contributors %r missing or out of order in %r" % (want, paths), p)
    # Others are noise: small beside the planted ones.
    limit = 0.5 * min(found) if found else 0.15 * total
    for cost, pth in others:
        if cost > limit:
            fail("unexpected large contributor %s" % pth, p)
    if found and "Further contributors:" not in p.stdout:
        fail("no list of further contributors printed", p)
    faster = [node_path(n, by_id) for n in tree if n["sign"] < 0]
    for imp in improvements:
        if not any(re.search(r"(^| )%s$" % re.escape(imp), f) for f in faster):
            fail("improvement %s not reported (faster: %r)" % (imp, faster), p)
        if not re.search(r"^  \S.*%s  -" % re.escape(imp), p.stdout, re.M):
            fail("improvement %s not printed with its sign" % imp, p)

    # An interval's open end (the rank interval's, where ties keep its level out of reach:
    # doc/statistics.md) is null in the JSON.
    def end(c, k, inf):
        return inf if c["cost_ns"][k] is None else c["cost_ns"][k]
    for n in tree:
        # A shared callee is inside calls of n, named here as ranges or not:
        # its time may be counted again in a named range, so it is not a
        # share of its own (below).  The named parts without it may not
        # exceed n's difference; with it, they must reach it.
        parts = [by_id[c] for c in n["children"] if by_id[c]["kind"] != "remainder"]
        if not parts or n["kind"] == "structural":
            continue
        # Parts measured in other batches than their node: allow for the drift of a loaded machine.
        tol = 0.5 * max(abs(total), abs(n["cost_ns"]["centre"]))
        low = sum(end(c, "low", -math.inf) for c in parts if c["kind"] != "shared")
        high = sum(end(c, "high", math.inf) for c in parts)
        if high < end(n, "low", -math.inf) - tol or low > end(n, "high", math.inf) + tol:
            fail("the parts of %s [%g, %g] do not add up to its difference %r"
                 % (node_path(n, by_id), low, high, n["cost_ns"]), p)
        rest = [by_id[c] for c in n["children"] if by_id[c]["kind"] == "remainder"]
        shares = sum(by_id[c]["share"] for c in n["children"] if by_id[c]["kind"] != "shared")
        if rest and abs(shares - 1) > 1e-6:
            fail("the shares under %s add up to %g" % (node_path(n, by_id), shares), p)
    print("chain %s; contributors %r; faster %r" % (" → ".join(chain), paths, faster))
    return paths, faster


def comparison(p, label):
    """The line of the comparison whose label starts with @label, as a dict."""
    for l in p.stdout.splitlines():
        m = re.match(r"\[\d+\] (.*?)\s+previous (\S+) .*current (\S+) .*"
                     r"\(([-+]?[\d.]+)% of entry\)\s+(\w+)", l)
        if m and m.group(1).startswith(label):
            return {"label": m.group(1), "pct": float(m.group(4)), "verdict": m.group(5),
                    "line": l}
    fail("no comparison %r" % label, p)


def json_differences(a, b, path="", out=None):
    """Where JSON values @a and @b differ, as paths."""
    out = [] if out is None else out
    if type(a) is not type(b):
        out.append(path)
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(path + "." + k)
            else:
                json_differences(a[k], b[k], path + "." + k, out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append(path + "[len]")
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                json_differences(x, y, "%s[%d]" % (path, i), out)
    elif a != b:
        out.append(path)
    return out


def load_report(path, schema, p):
    """The JSON report at @path, validated against the schema file @schema."""
    import jsonschema
    if not os.path.exists(path):
        fail("no JSON report written to " + path, p)
    with open(path) as f:
        report = json.load(f)
    with open(schema) as f:
        schema = json.load(f)
    try:
        jsonschema.validate(report, schema)
    except jsonschema.ValidationError as e:
        fail("report does not match the schema: %s" % e.message, p)
    check_parts_within(report, p)
    return report


def parts_above(report):
    """The parts above their function, a sentence each.  In every function
    the tree accounts, each part's mean over the runs that measured them
    together should be at most the function's time, 10 % slack (and a quarter of the probes' cost taken
    out of the part), in both revisions, unless the report marks the part
    "probe cost uncertain" (the calibration's error, as the function's
    runs measured it, could move it by half the threshold).  The function's time is
    its mean with nothing armed inside it (clean_ns) where runs measured it
    so, else its whole's mean measured with its parts.  Taking out too
    much of the probes' cost only makes a part smaller, and the whole,
    which holds the part's own probes too, smaller still: a part above the
    clean function is one that kept probe cost the calibration missed, on
    whatever CPU.  Not where executions were abandoned (longjmp,
    exceptions): an abandoned execution of the whole is not counted while
    the calls it finished are, which the report says ("executions were
    abandoned")."""
    out = []
    if any(r.get("lost_executions") for r in report.get("runs", [])):
        return out
    by_id = {n["id"]: n for n in report.get("tree", [])}
    for n in report.get("tree", []):
        acc = n.get("accounting")
        if not acc:
            continue
        name = n["function"] if n["kind"] == "entry" else n.get("callee", n["function"])
        for part in acc["parts"]:
            node = by_id.get(part["node"], {})
            # a part the report marks: its figure is as good as the
            # calibration, and the report says so
            if node.get("kind") == "remainder" or part.get("probe_cost_uncertain"):
                continue
            for r, rev in enumerate(("previous", "current")):
                clean, v = acc["clean_ns"][r], part["mean_ns"][r]
                whole = max(x for x in (clean, acc["whole_mean_ns"][r], -math.inf)
                            if x is not None)
                if whole == -math.inf or v is None:
                    continue
                # and a quarter of the probes' cost taken out of the part: the
                # calibration's error where the processor overlaps probes with
                # the program (bench/README.md: about 25 %), which a function of
                # a few ns a call (hotcalls.c's step, 1.5 ns) cannot hide
                removed = (part.get("probe_cost_removed_ns") or [None, None])[r] or 0.0
                if v > 1.10 * whole + 0.25 * abs(removed) + 1.0:
                    out.append("%s revision: part %d (%s %s) of %s is %.0f ns, above the "
                               "function's %.0f ns (%s; %.0f ns of probes taken out of the part)"
                               % (rev, part["node"], node.get("kind"), node.get("callee", ""),
                                  name, v, whole,
                                  "clean" if whole == clean else "its whole measured with it",
                                  removed))
    return out


def check_parts_within(report, p):
    """No part above its function (parts_above()): fail with the first."""
    above = parts_above(report)
    if above:
        fail(above[0], p)


def scenario_main(ap, namespace, call=None):
    """Parse the arguments of @ap (with a 'scenario' positional), store them
    as ARGS in @namespace (a script's globals()) and run its scenario_NAME;
    @call(fn, args) runs it when it takes arguments.  Each scenario runs
    once: one that measures real processes asserts what holds on a noisy
    machine, and what needs a quiet one is asserted on program models.
    PASS, or FAIL and exit status 1 when a check() failed."""
    ap.add_argument("scenario")
    args = ap.parse_args()
    namespace["ARGS"] = args
    fn = namespace.get("scenario_" + args.scenario.replace("-", "_"))
    if not fn:
        fail("unknown scenario " + args.scenario)
    if call:
        call(fn, args)
    else:
        fn()
    if FAILURES:
        print("FAIL: %s: %d failed checks" % (args.scenario, len(FAILURES)), flush=True)
        sys.exit(1)
    print("PASS: " + args.scenario, flush=True)
    return args
