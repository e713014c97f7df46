#!/usr/bin/env python3
"""Robustness scenarios of the pinpoint driver, end to end.

Programs of awkward shapes (threads, shared and dlopen'd libraries, C++
exceptions, longjmp, fork, signal handlers, exit() inside the entry, mutual
recursion), misbehaving benchmarks, bad input and interruption.  Each program
is built as a previous and a current revision (programs/); each scenario runs
the real driver and checks its stdout, stderr, exit status, its JSON report
against the schema, and that it leaves nothing behind.
Usage: check_robust.py --pinpoint P --builds DIR --schema FILE SCENARIO
"""
import argparse
import json
import os
import re
import statistics
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ARGS = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import chain, comparison, expect_chain, fail, scenario_main  # noqa: E402
from pinpoint_test import leftover_processes, start_until_first_comparison, wait_for  # noqa: E402
from pinpoint_test import load_report as harness_load_report  # noqa: E402
from pinpoint_test import pinpoint as harness_pinpoint  # noqa: E402
M = ["--measurements", "8", "--warmups", "1"]


def prog(name):
    base = os.path.join(ARGS.builds, name)
    return os.path.join(base, "previous"), os.path.join(base, "current")


def pinpoint(*args, status=None, env=None):
    return harness_pinpoint(ARGS.pinpoint, *args, status=status, env=env, timeout=250)


def session(name, entry, depth, *extra, status=1, command=None, env=None):
    prev, cur = prog(name)
    command = command or ["./" + name]
    return pinpoint("--entry", entry, "--depth", str(depth), "--previous", prev, "--current", cur,
                    *M, *extra, "--", *command, status=status, env=env)


def load_report(path, p):
    return harness_load_report(path, ARGS.schema, p)


def check_json_numbers(report, p, lost=False):
    """Every decided comparison has positive centres in both revisions.

    With @lost (executions abandoned), an own body (a time less its calls')
    can come out negative: the report must give it no verdict instead.
    """
    if lost:
        for n in report["tree"]:
            if n["kind"] == "self" and n["sign"] != 0:
                fail("an own body measured with abandoned executions has a verdict", p)
    entry = report["comparisons"][0]
    for c in report["comparisons"]:
        if not c["decided"] or (lost and c["label"].endswith(": own body")):
            continue
        for key in ("previous_ns", "current_ns"):
            if not c[key]:
                fail("comparison %s has no values in %s" % (c["label"], key), p)
            if c["label"].endswith(": own body"):
                # a whole less its calls, each net of its probes: a run's value
                # can fall below 0 by noise, never its mean by more than that
                if statistics.mean(c[key]) < -0.01 * statistics.mean(entry[key]):
                    fail("comparison %s has a negative mean in %s" % (c["label"], key), p)
            elif min(c[key]) <= 0:
                fail("comparison %s has non-positive values in %s" % (c["label"], key), p)


# 1. Program shapes.

def scenario_threads():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = session("threads", "bench", 2, "--json", path)
        expect_chain(p, ["bench", "worker", "slow"])
        # 8 threads each 5 ms slower: the range adds them up, the entry is wall time.
        c = comparison(p, "worker: call 1 slow")
        e = comparison(p, "bench (entry)")
        print("entry %+.1f%%, slow on 8 threads %+.1f%% of the entry" % (e["pct"], c["pct"]))
        if c["pct"] < 150:
            fail("the range's time is not summed over threads (%.1f%% of the entry)" % c["pct"], p)
        if c["pct"] < 3 * e["pct"]:
            fail("8 threads' slowdown is not several times the entry's", p)
        check_json_numbers(load_report(path, p), p)


def scenario_shlib():
    p = session("shlib", "run", 2)
    expect_chain(p, ["run", "lib_work", "lib_slow"])
    if not re.search(r"→ lib_slow  call \d+ of lib_work at \S*shlib_lib\.c:\d+", p.stdout):
        fail("the call in the library has no location", p)


def scenario_dlopen():
    p = session("dl", "plug_run", 1)
    expect_chain(p, ["plug_run", "plug_slow"])


def expect_lost_sane(path, p, entry):
    report = load_report(path, p)
    check_json_numbers(report, p, lost=True)
    # The runtime's lost= counts reach the report.
    if not re.search(r"^Dropped executions: [1-9]\d* measured executions in [1-9]\d* runs",
                     p.stdout, re.M):
        fail("the abandoned executions are not reported", p)
    # The entry is never abandoned: its values are whole executions.
    for c in report["comparisons"]:
        if c["decided"] and c["label"].startswith(entry + " (entry)"):
            ratio = sorted(c["current_ns"])[len(c["current_ns"]) // 2] / \
                sorted(c["previous_ns"])[len(c["previous_ns"]) // 2]
            # 6x the work in the current revision; generous bounds for busy machines.
            if not 1.5 < ratio < 30:
                fail("the entry's slowdown %.2fx is not plausible for 6x the work" % ratio, p)
            return
    fail("no entry comparison in the report", p)


def scenario_exceptions():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = session("exc", "run", 2, "--json", path)
        # the text names C++ functions short, the JSON's labels whole
        expect_chain(p, ["run", "work", "leaf_slow"])
        expect_lost_sane(path, p, "run()")


def scenario_longjmp():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = session("jump", "run", 2, "--json", path)
        expect_chain(p, ["run", "work", "leaf_slow"])
        expect_lost_sane(path, p, "run")


def scenario_fork():
    p = session("forkchild", "run", 1)
    expect_chain(p, ["run", "slow"])
    # The child outlives the parent and exits inside the entry: it must write nothing.
    prev, cur = prog("forkchild")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "results")
        env = dict(os.environ, PINPOINT="out=%s;entry=run" % out)
        child = subprocess.Popen(["./forkchild", "late"], cwd=cur, env=env, stdout=subprocess.DEVNULL)
        child.wait()
        # what its child writes, if anything, it has written once it is gone
        cur = os.path.realpath(cur)
        if not wait_for(lambda: not leftover_processes(cur), 30):
            fail("the child of ./forkchild late is running 30 s after its parent exited: %r"
                 % leftover_processes(cur))
        with open(out) as f:
            text = f.read()
        if not re.search(r"^pid %d$" % child.pid, text, re.M):
            fail("the results are not the parent's:\n" + text)
        if not re.search(r"^slot 0 entry run found=1 total_ns=\d+ count=1\b", text, re.M):
            fail("the parent's entry is not counted once:\n" + text)


def scenario_signal():
    p = session("signal", "run", 3)
    expect_chain(p, ["run", "tick", "raise"])
    if "[external" not in p.stdout:
        fail("raise is not named external", p)


def scenario_deep_exit():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = session("deepexit", "run", 2, "--json", path)
        expect_chain(p, ["run", "work", "slow"])
        check_json_numbers(load_report(path, p), p)


def scenario_mutual():
    # The method's search stops at the first slower call, the recursive one.
    p = session("mutual", "ping", 5, "--search", "seed")
    expect_chain(p, ["ping", "pong", "ping"])
    if "[recursion" not in p.stdout:
        fail("digging did not stop at the recursion", p)
    # The attribution search follows tick(); the recursive call is not dug into again.
    p = session("mutual", "ping", 5)
    if not chain(p).startswith("ping → pong → tick → "):
        fail("the chain does not follow tick()", p)
    if "[recursion" not in p.stdout:
        fail("digging did not stop at the recursion", p)


# 2. Misbehaving benchmarks.

def misbehave(mode, at, *extra, timeout=None):
    """Runs pinpoint on misbehave MODE; returns (process, report or None)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        counter = os.path.join(d, "count")
        more = ["--timeout", str(timeout)] if timeout else []
        start = time.monotonic()
        p = session("misbehave", "job", 2, "--json", path, *more, *extra,
                    command=["./misbehave", mode, counter, str(at)], status=3)
        p.elapsed = time.monotonic() - start
        return p, load_report(path, p)


def expect_failed_report(p, report, min_runs):
    if report["outcome"] != "measurement-failed" or report["exit_code"] != 3:
        fail("outcome %r, exit code %r" % (report["outcome"], report["exit_code"]), p)
    if not report["failure"]:
        fail("the failure is not in the report", p)
    if len(report["runs"]) < min_runs:
        fail("%d runs in the report, at least %d were done" % (len(report["runs"]), min_runs), p)


def scenario_crash():
    p, report = misbehave("segv", 6, "--verbose")
    if not re.search(r"current revision, batch 1, run 5: '\./misbehave' was killed by signal 11", p.stderr):
        fail("the crashing revision and run are not named", p)
    # Discovery (one run each) then the batch (a warm-up each, then the
    # runs in a random order) until the 6th run of the current revision.
    expect_failed_report(p, report, 2 + 2 + 4)
    runs = report["runs"]
    cur = [r for r in runs if r["revision"] == "current"]
    if len(cur) != 6 or runs[-1] is not cur[-1] or runs[-1]["status"] == "succeeded":
        fail("the report's runs do not end with the current revision's 6th run, failed", p)
    # Every run of the batch that finished is in the report (the driver logs each).
    done = len(re.findall(r"batch 1, run \d+, previous[: ]", p.stderr))
    prev = [r for r in runs if r["revision"] == "previous" and r["batch"] == 1]
    if len(prev) != done or not done or any(r["status"] != "succeeded" for r in prev):
        fail("%d runs of the previous revision finished in the batch, %d are in the report" %
             (done, len(prev)), p)


def scenario_abort():
    p, report = misbehave("abort", 1)
    if not re.search(r"current revision, batch 0, run 1: '\./misbehave' was killed by signal 6", p.stderr):
        fail("the aborting revision and run are not named", p)
    expect_failed_report(p, report, 2)


def scenario_hang():
    p, report = misbehave("hang", 3, timeout=2)
    if not re.search(r"current revision, batch 1, run \d+: '\./misbehave' timed out after 2\.\d s", p.stderr):
        fail("the hanging revision and run are not named", p)
    if p.elapsed > 60:
        fail("pinpoint took %.0f s" % p.elapsed, p)
    expect_failed_report(p, report, 4)
    left = leftover_processes(os.path.dirname(prog("misbehave")[1]))
    if left:
        fail("benchmark processes left behind: %r" % left, p)


def scenario_output_differs():
    p = session("output", "job", 1, status=None)
    if p.returncode not in (0, 1, 4):
        fail("the session did not finish", p)
    n = p.stderr.count("previous and current revisions print different output")
    if n != 1:
        fail("the differing output is warned about %d times, expected once" % n, p)
    if "[" not in p.stdout:
        fail("no comparison printed", p)


def scenario_never_called():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = session("misbehave", "job", 2, "--json", path,
                    command=["./misbehave", "never", os.path.join(d, "c"), "1"], status=3)
        if not re.search(r"previous revision: the entry job was never called by '\./misbehave'", p.stderr):
            fail("the entry that was never called is not named", p)
        report = load_report(path, p)
        expect_failed_report(p, report, 1)


def scenario_inlined_entry():
    prev, cur = prog("inlined")
    expect_error(["--entry", "run", "--previous", prev, "--current", cur, *M, "--", "./inlined"],
                 r"previous revision's entry run was inlined into its callers \(at \S*inlined\.c:\d+\) "
                 r"and never ran as a function: mark it __attribute__\(\(noinline\)\)",
                 dirs=(prev, cur))


# 3. Bad input: one clear line, a documented exit status, nothing left behind.

def tree(d):
    out = set()
    for root, _, files in os.walk(d):
        for f in files:
            out.add(os.path.relpath(os.path.join(root, f), d))
    return out


def expect_error(args, pattern, status=2, dirs=()):
    before = {d: tree(d) for d in dirs}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TMPDIR=tmp)
        p = pinpoint(*args, env=env)
        left = os.listdir(tmp)
    if p.returncode != status:
        fail("expected exit status %d for %r" % (status, args), p)
    lines = p.stderr.strip().splitlines()
    if len(lines) != 1:
        fail("expected one error line for %r" % (args,), p)
    if not re.search(pattern, lines[0]):
        fail("error line %r does not match %r" % (lines[0], pattern), p)
    if left:
        fail("left in $TMPDIR: %r" % left, p)
    for d in dirs:
        new = tree(d) - before[d]
        if new:
            fail("left in %s: %r" % (d, sorted(new)), p)
    return p


def scenario_ambiguous():
    prev, cur = prog("ambig")
    base = ["--previous", prev, "--current", cur, *M]
    expect_error(["--entry", "step", *base, "--", "./ambig"],
                 r"ambiguous entry 'step'.*give one of \S*ambig_a\.c:step, \S*ambig_b\.c:step",
                 dirs=(prev, cur))
    p = session("ambig", "ambig_b.c:step", 1, command=["./ambig"])
    expect_chain(p, ["step", "slow"])
    # Two links of the same code differ by a few % (layout): a 10 % threshold.
    p = session("ambig", "ambig_a.c:step", 1, "--precision-threshold", "10", command=["./ambig"],
                status=None)
    # 4: undecided on a machine too noisy to tell 10% within its runs - honest, not a regression.
    if p.returncode not in (0, 4):
        fail("the unchanged step() of ambig_a.c is reported as a regression", p)


def scenario_no_table():
    prev, cur = prog("plain")
    expect_error(["--entry", "ping", "--previous", prev, "--current", cur, "--", "./plain"],
                 r"previous revision's '\./plain' .* wrote no measurements: build it with "
                 r"pinpoint-cc, or clang -g -fpass-plugin=", dirs=(prev, cur))


def scenario_table_version():
    prev, cur = prog("badtable")
    expect_error(["--entry", "ping", "--previous", prev, "--current", cur, "--", "./badtable"],
                 r"badtable: .*pinpoint table version 5.*this pinpoint reads versions 2 to 4",
                 dirs=(prev, cur))


FAKE = """#!/bin/sh
out=$(printf '%s' "$PINPOINT" | tr ';' '\\n' | sed -n 's/^out=//p')
printf 'pinpoint-results 2\\npid %d\\nend\\n' $$ > "$out"
"""


def scenario_results_version():
    with tempfile.TemporaryDirectory() as d:
        dirs = []
        for rev in ("previous", "current"):
            rd = os.path.join(d, rev)
            os.mkdir(rd)
            with open(os.path.join(rd, "bench.sh"), "w") as f:
                f.write(FAKE)
            os.chmod(os.path.join(rd, "bench.sh"), 0o755)
            dirs.append(rd)
        expect_error(["--entry", "job", "--previous", dirs[0], "--current", dirs[1], "--", "./bench.sh"],
                     r"previous revision, batch 0, run 1: unreadable results .*another version "
                     r"of the pinpoint runtime", status=3, dirs=dirs)


def scenario_bad_input():
    prev, cur = prog("mutual")
    dirs = (prev, cur)
    base = ["--previous", prev, "--current", cur]
    cmd = ["--", "./mutual"]
    expect_error(["--entry", "pingg", *base, *cmd], r"unknown entry 'pingg'.*did you mean: .*\bping\b", dirs=dirs)
    expect_error(["--entry", "ping", "--previous", "/nonexistent/dir", "--current", cur, *cmd],
                 r"--previous /nonexistent/dir: No such file or directory", dirs=dirs)
    expect_error(["--entry", "ping", "--previous", prev, "--current", "/nonexistent/cur", *cmd],
                 r"--current /nonexistent/cur: No such file or directory", dirs=dirs)
    expect_error(["--entry", "ping", "--previous", os.path.join(prev, "mutual"), "--current", cur, *cmd],
                 r"--previous \S+/mutual: not a directory", dirs=dirs)
    if os.geteuid() != 0:
        with tempfile.TemporaryDirectory() as d:
            os.chmod(d, 0)
            expect_error(["--entry", "ping", "--previous", d, "--current", cur, *cmd],
                         r"--previous .*: Permission denied", dirs=dirs)
            os.chmod(d, 0o700)
    expect_error(["--entry", "ping", "--previous", cur, "--current", cur, *cmd], r"same directory", dirs=dirs)
    expect_error(["--entry", "ping", "--depth", "-1", *base, *cmd], r"--depth: '-1' is not an integer", dirs=dirs)
    expect_error(["--entry", "ping", "--depth", "x", *base, *cmd], r"--depth: 'x'", dirs=dirs)
    expect_error(["--entry", "ping", "--measurements", "2", *base, *cmd], r"--measurements: '2'", dirs=dirs)
    expect_error(["--entry", "ping", "--timeout", "0", *base, *cmd], r"--timeout: '0'", dirs=dirs)
    expect_error(["--entry", "ping", "--confidence", "abc", *base, *cmd], r"--confidence: 'abc'", dirs=dirs)
    expect_error(["--entry", "ping", "--precision-threshold", "-5", *base, *cmd], r"--precision-threshold", dirs=dirs)
    expect_error(["--entry", "", *base, *cmd], r"--entry: empty function name", dirs=dirs)
    expect_error(["--entry", "ping", *base, "--", "./no-such-benchmark"],
                 r"measurement failed: cannot run '\./no-such-benchmark' in \S+/previous: No such file", status=3, dirs=dirs)


# 4. Interruption.

def start_slow(json_path):
    prev, cur = prog("slowrun")
    return start_until_first_comparison(ARGS.pinpoint, prev, cur, json_path, "./slowrun")


class Out:
    def __init__(self, rc, out, err):
        self.returncode, self.stdout, self.stderr = rc, out, err


def scenario_interrupt():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        proc, lines = start_slow(path)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        p = Out(proc.returncode, "".join(lines) + out, err)
        if p.returncode != 130:
            fail("expected exit status 130", p)
        if "Interrupted: what was established so far" not in p.stdout:
            fail("no 'Interrupted' summary", p)
        # The entry (twice as slow) was found slower before the interrupt: the chain so far starts with it.
        if comparison(p, "run (entry)")["verdict"] != "SLOWER":
            fail("the entry is not found slower", p)
        if not re.search(r"^Bottleneck chain: run\b", p.stdout, re.M):
            fail("the partial chain is not printed", p)
        report = load_report(path, p)
        if not report["interrupted"] or report["exit_code"] != 130:
            fail("the report does not say it was interrupted", p)
        kept = [r for r in report["runs"] if not r["warmup"]]
        if len(kept) < 12:
            fail("the report has %d kept runs, at least 12 were done" % len(kept), p)
        if not any(c["decided"] and len(c["previous_ns"]) >= 6 for c in report["comparisons"]):
            fail("the decided comparison's samples are missing", p)
        left = leftover_processes(os.path.dirname(prog("slowrun")[1]))
        if left:
            fail("benchmark processes left behind: %r" % left, p)


def scenario_interrupt_twice():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "r.json")
        env_tmp = tempfile.mkdtemp(dir=tmp)
        os.environ["TMPDIR"] = env_tmp
        proc, lines = start_slow(path)
        del os.environ["TMPDIR"]
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail("pinpoint did not stop within 5 s of two interrupts")
        p = Out(proc.returncode, "".join(lines) + out, err)
        print("stopped in %.2f s" % (time.monotonic() - start))
        if p.returncode != 130:
            fail("expected exit status 130", p)
        bench = os.path.dirname(prog("slowrun")[1])
        if not wait_for(lambda: not leftover_processes(bench), 10):
            fail("benchmark processes left 10 s after pinpoint exited: %r"
                 % leftover_processes(bench), p)
        if os.listdir(env_tmp):
            fail("work directory left in $TMPDIR: %r" % os.listdir(env_tmp), p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--builds", required=True)
    ap.add_argument("--schema", required=True)
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
