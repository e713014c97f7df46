#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pinpoint --replay REPORT.json: a recorded session made again from its runs.

The replayed session goes through the same search, settle, decide and
report stages on the recorded values: its text report must be the
session's, its JSON report equal to the recording and its HTML page the
same.  A recording the search goes another way on stops with one line
saying where; what is not a report gets one error line.

Usage: check_replay.py --pinpoint EXE --models DIR --schema FILE
       [--program DIR] SCENARIO
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import check, fail, json_differences, load_report  # noqa: E402
from pinpoint_test import scenario_main, skip  # noqa: E402


def run(args, status=None, env=None):
    p = subprocess.run([ARGS.pinpoint, *args], capture_output=True, text=True, timeout=600,
                       env=env)
    if status is not None and p.returncode not in (status if isinstance(status, tuple)
                                                   else (status,)):
        fail("$ pinpoint %s -> %d, expected %r" % (" ".join(args), p.returncode, status), p)
    return p


def same_again(what, session_args, status, env=None):
    """A session (@session_args, its exit status @status, its environment
    @env) and its replay: the same text, JSON and HTML."""
    with tempfile.TemporaryDirectory() as d:
        oj, oh = os.path.join(d, "o.json"), os.path.join(d, "o.html")
        rj, rh = os.path.join(d, "r.json"), os.path.join(d, "r.html")
        args = list(session_args)
        at = args.index("--") if "--" in args else len(args)
        p = run(args[:at] + ["--json", oj, "--html", oh] + args[at:], status, env)
        original = load_report(oj, ARGS.schema, p)
        # how the report is printed is the replay's own choice: the same here
        quiet = ["--quiet"] if "--quiet" in args[:at] else []
        r = run(["--replay", oj, "--json", rj, "--html", rh, *quiet], p.returncode)
        replayed = load_report(rj, ARGS.schema, r)
        diff = json_differences(original, replayed)
        check(not diff, "%s: the replayed JSON differs at %s" % (what, ", ".join(diff[:10])))
        check(r.stdout == p.stdout, "%s: the replay printed another report:\n%s\n---\n%s"
              % (what, p.stdout[-1500:], r.stdout[-1500:]))
        with open(oh, "rb") as f, open(rh, "rb") as g:
            check(f.read() == g.read(), "%s: the replayed HTML page differs" % what)
        print("%s: %d runs, %d batches replayed alike" % (what, len(original["runs"]),
                                                          len(original["batches"])))
        return original


def scenario_models():
    """Sessions on program models, each replayed: a chain through a call, a
    shared callee, an indirect call, an added call, A/A in layouts, a long
    list whose calls are counted before it is searched, one whose callee
    group spans the whole of it."""
    for name, entry, extra in (("twoslow", "job", []), ("shared", "job", []),
                               ("indirect", "run", []), ("added", "handle", []),
                               ("interp", "job", []), ("interpwide", "job", []),
                               ("warmup", "step", []), ("same", "job", ["--quiet"])):
        for seed in ("1", "2"):
            same_again("%s, seed %s" % (name, seed),
                       ["--model", os.path.join(ARGS.models, name + ".json"), "--entry", entry,
                        "--depth", "3", "--seed", seed, *extra], (0, 1, 4))


def scenario_processes():
    """Sessions of a real program (the twoslow scenario's builds), replayed
    from their reports: no run is made.  One in two code layouts; one whose
    layouts grow with its runs until --max-time stops it."""
    if not ARGS.program or not os.path.isdir(os.path.join(ARGS.program, "previous")):
        skip("no program built for the scenario")
    rep = same_again("twoslow processes",
                     ["--entry", "job", "--depth", "3", "--previous",
                      os.path.join(ARGS.program, "previous"), "--current",
                      os.path.join(ARGS.program, "current"), "--layouts", "2", "--max-layouts",
                      "2", "--max-runs-per-comparison", "120", "--no-save-command", "--",
                      "./twoslow"], (0, 1, 4))
    check(rep["measurement"]["backend"] == "processes", "the recording's backend is %r"
          % rep["measurement"]["backend"])
    # --max-time stops a session whose layouts grow while it measures, each linked anew
    # (a cache of its own): the replay's clock must take the links the session made as it
    # went, and stand where the session's did when it stopped, or it has time the session
    # did not and goes on where the session stopped
    with tempfile.TemporaryDirectory() as cache:
        rep = same_again("twoslow processes, layouts linked until --max-time",
                         ["--entry", "job", "--depth", "3", "--previous",
                          os.path.join(ARGS.program, "previous"), "--current",
                          os.path.join(ARGS.program, "current"), "--layouts", "2",
                          "--pairs-per-layout", "1", "--max-runs-per-comparison", "100000",
                          "--max-time", "1.5", "--no-save-command", "--", "./twoslow"],
                         (0, 1, 4), dict(os.environ, XDG_CACHE_HOME=cache))
    added = rep["layouts"].get("added") or {}
    spent = [c["id"] for c in rep["comparisons"]
             if (c.get("sequential") or {}).get("max_time_spent")]
    check(added.get("layouts", 0) > 0 and added.get("seconds", 0) > 0 and spent,
          "the session linked %r layouts as it measured and --max-time stopped %r: not the "
          "case the replay is checked on" % (added, spent))


def scenario_diverged():
    """A recording whose second batch armed another call than this search
    asks for: the replay stops there, exit 3, one line saying where."""
    with tempfile.TemporaryDirectory() as d:
        oj, bad = os.path.join(d, "o.json"), os.path.join(d, "bad.json")
        run(["--model", os.path.join(ARGS.models, "indirect.json"), "--entry", "run",
             "--seed", "1", "--json", oj], 1)
        with open(oj) as f:
            rep = json.load(f)
        b = next(b for b in rep["batches"] if "range=run:1-1" in b["arming_previous"])
        b["arming_previous"] = b["arming_previous"].replace("range=run:1-1", "range=run:2-2")
        with open(bad, "w") as f:
            json.dump(rep, f)
        p = run(["--replay", bad, "--quiet"], 3)
        lines = [l for l in p.stderr.splitlines() if "error" in l]
        check(len(lines) == 1 and "went another way than the session" in lines[0] and
              "range=run:2-2" in lines[0], "diverged: stderr %r" % p.stderr)
        # a run the recording lacks
        rep = json.load(open(oj))
        rep["runs"] = rep["runs"][:len(rep["runs"]) // 2]
        with open(bad, "w") as f:
            json.dump(rep, f)
        p = run(["--replay", bad, "--quiet"], 3)
        check("after the session's last run" in p.stderr, "truncated: stderr %r" % p.stderr)


def scenario_bad():
    """What is not a recording: one error line, exit 2."""
    with tempfile.TemporaryDirectory() as d:
        oj = os.path.join(d, "o.json")
        run(["--model", os.path.join(ARGS.models, "twoslow.json"), "--entry", "job", "--seed",
             "1", "--json", oj], 1)
        rep = json.load(open(oj))
        cases = []
        for text, want in (("{", "line 1"), ("[]", "not a pinpoint JSON report"),
                           ('{"format": "pinpoint-report", "version": 2}', "version 1")):
            cases.append((text, want))
        r = dict(rep)
        del r["runs"]
        cases.append((json.dumps(r), "without its options"))
        r = json.loads(json.dumps(rep))
        del r["measurement"]["backend"]
        cases.append((json.dumps(r), "cannot be replayed"))
        r = json.loads(json.dumps(rep))
        r["options"]["depth"] = "deep"
        cases.append((json.dumps(r), "\"depth\""))
        r = json.loads(json.dumps(rep))
        r["options"]["confidence"] = [1]
        cases.append((json.dumps(r), "\"confidence\""))
        path = os.path.join(d, "bad.json")
        for text, want in cases:
            with open(path, "w") as f:
                f.write(text)
            p = run(["--replay", path])
            lines = p.stderr.splitlines()
            check(p.returncode == 2 and len(lines) == 1 and want in lines[0] and not p.stdout,
                  "%s: exit %d, stderr %r (wanted one line with %r)"
                  % (text[:60], p.returncode, p.stderr, want))
        for args, want in ((["--replay", oj, "--entry", "job"], "--entry"),
                           (["--replay", oj, "--", "true"], "COMMAND"),
                           (["--replay", os.path.join(d, "none.json")], "none.json")):
            p = run(args)
            lines = p.stderr.splitlines()
            check(p.returncode == 2 and len(lines) == 1 and want in lines[0],
                  "%r: exit %d, stderr %r" % (args, p.returncode, p.stderr))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--models", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--program", help="a scenario's build: DIR/previous, DIR/current")
    scenario_main(ap, globals())
