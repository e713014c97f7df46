#!/usr/bin/env python3
"""pinpoint --changes FILE: change points over the nights of a --history file.

Each scenario writes history files of its own (deterministic: Python's
random.Random with fixed seeds, no numpy), runs pinpoint --changes on them
and checks its stdout, exit status and --json (doc/changes.schema.json).

  step         a 3 % step in 1 % noise: one change point, at the night of the
               step, its size's interval covering 3 %, the commits around it
  none         no change, 1 % noise, ten seeds: no change point, exit 0
  two-steps    +3 % then +3 % again: two change points, each at its night
  creep        +0.5 % a night from night 30: slower change points, none
               before the creep
  old-format   lines written before "machine" and the commits: read, one
               series with no machine, no commits
  machines     two machines' nights interleaved, one 1.5x the other's time:
               two series, never mixed; a step on one machine is found on it
               alone
  baseline     one previous directory every night: the series is
               current / previous, so a drift of the machine that moved both
               revisions is no change point, and a 3 % step of the current
               one is
  bad-input    a missing file, a directory, a file of garbage, garbage lines
               among good ones, --entry of no session, options that do not
               go with --changes, too few nights: one error line (or
               warning) and the exit status doc/errors.md gives
  history-line a session's --history line (--model) has the machine and
               the commit keys, and reads back through --changes
  baselines    nights run with --baseline: a series per baseline (a new
               accepted build starts one), beside the unmarked nightly; each
               change point's nights' --label in the JSON
  investigate-recorded  --investigate on nights without commits: recorded as
               not run, read back by the next run (nothing run again), an
               investigation of other nights not taken; a night whose
               directory is gone; another machine's nights left to it; a
               history others may write is refused
  append       16 sessions, 8 at a time, append to one history: every line
               whole

Usage: check_changes.py --pinpoint P --schema FILE SCENARIO
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from pinpoint_test import check, fail, scenario_main  # noqa: E402

ARGS = None
T0 = 1767225600.0  # 2026-01-01 00:00 UTC
DAY = 86400.0


def commit(seed, i):
    """The commit of night @i of history @seed: 40 hexadecimal digits."""
    return hashlib.sha1(b"%d-%d" % (seed, i)).hexdigest()


def night(i, value, entry="run", machine="nightly-1", seed=0, previous=None, prev_ns=None,
          old=False):
    """One history line: night @i, the current revision's time @value, against
    the night before (or the baseline directory @previous, at one commit)."""
    prev_ns = value if prev_ns is None else prev_ns
    line = {"time": T0 + DAY * i, "entry": entry,
            "previous": previous or "/b/night-%d" % (i - 1), "current": "/b/night-%d" % i}
    if not old:
        line.update({"machine": machine,
                     "previous_commit": commit(seed, -1 if previous else i - 1),
                     "current_commit": commit(seed, i)})
    line.update({"verdict": "same", "status": 0, "previous_ns": prev_ns,
                 "previous_low_ns": prev_ns * 0.99, "previous_high_ns": prev_ns * 1.01,
                 "current_ns": value, "current_low_ns": value * 0.99,
                 "current_high_ns": value * 1.01, "diff_ns": value - prev_ns,
                 "diff_low_ns": value - prev_ns - 1000, "diff_high_ns": value - prev_ns + 1000,
                 "threshold_ns": value / 100, "runs": [14, 14]})
    return json.dumps(line)


def series(seed, n, noise, level=lambda i: 1.0, base=1e6):
    """@n nights' times: @base x level(i) in Gaussian noise of @noise (a fraction)."""
    r = random.Random(seed)
    return [base * level(i) * (1 + noise * r.gauss(0, 1)) for i in range(n)]


def step_at(k, pct):
    return lambda i: 1 + pct / 100 if i >= k else 1.0


def step_nights(values, k, pct, base=1e6):
    """Where a step of @pct at night @k may be found: night @k, and the night
    on either side of it too when noise put that night's value nearer the
    other side's level than its own (then the data say so, not the method)."""
    lo, hi = base, base * (1 + pct / 100)
    nights = {k}
    if abs(values[k - 1] - hi) < abs(values[k - 1] - lo):
        nights.add(k - 1)
    if abs(values[k] - lo) < abs(values[k] - hi):
        nights.add(k + 1)
    return nights


class Run:
    """pinpoint --changes on a file of @lines, in a directory of its own."""

    def __init__(self, lines, *args, status=None, json_out=True):
        self.dir = tempfile.mkdtemp(prefix="pp-changes.")
        self.path = os.path.join(self.dir, "history.jsonl")
        with open(self.path, "w") as f:
            f.write("".join(l + "\n" for l in lines))
        self.json_path = os.path.join(self.dir, "changes.json")
        cmd = [ARGS.pinpoint, "--changes", self.path, *args] + \
            (["--json", self.json_path] if json_out else [])
        self.p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        self.cmd = " ".join(cmd)
        if status is not None and self.p.returncode != status:
            fail("$ %s -> %d, expected %d" % (self.cmd, self.p.returncode, status), self.p)
        self.report = None
        if json_out and os.path.exists(self.json_path):
            with open(self.json_path) as f:
                self.report = json.load(f)
            validate(self.report, self.p)
        shutil.rmtree(self.dir)

    def points(self):
        return self.report["change_points"]

    def lines(self):
        return self.p.stdout.splitlines()


SCHEMA = None


def validate(report, p):
    global SCHEMA
    import jsonschema
    if SCHEMA is None:
        with open(ARGS.schema) as f:
            SCHEMA = json.load(f)
    try:
        jsonschema.validate(report, SCHEMA)
    except jsonschema.ValidationError as e:
        fail("--json does not match the schema: %s" % e.message, p)


def errors(p):
    return [l for l in p.stderr.splitlines() if l.startswith("pinpoint: error:")]


def warnings(p):
    return [l for l in p.stderr.splitlines() if l.startswith("pinpoint: warning:")]


def scenario_step():
    # seed 5's night 19 is 2.2 sigma high, nearer the level after the step
    exact = 0
    for seed in (1, 2, 3, 4, 5):
        values = series(seed, 40, 0.01, step_at(20, 3))
        r = Run([night(i, v, seed=seed) for i, v in enumerate(values)], status=1)
        pts = r.points()
        # the step's change point; another one, weak, may come of the noise
        # in a segment either side (seed 3: p 0.0009 at night 13), as it may
        # in any history (bench/changes_rates.py counts how often)
        at = [c for c in pts if c["direction"] == "slower" and abs(c["after"]["index"] - 20) <= 1]
        others = [c for c in pts if c not in at]
        check(len(at) == 1, "seed %d: %d change points at the step: %s" % (seed, len(at),
                                                                          r.p.stdout))
        check(all(c["p_value"] > 1e-4 for c in others),
              "seed %d: a strong change point away from the step: %s" % (seed, r.p.stdout))
        if not at:
            continue
        c = at[0]
        k = c["after"]["index"]
        check(k in step_nights(values, 20, 3) and c["before"]["index"] == k - 1,
              "seed %d: the change between nights %d and %d, not 19 and 20"
              % (seed, c["before"]["index"], k))
        check(c["after"]["time"] == T0 + k * DAY and c["before"]["time"] == T0 + (k - 1) * DAY,
              "seed %d: times %s" % (seed, c))
        s = c["size_pct"]
        check(s["low"] <= 3.0 <= s["high"], "seed %d: size %.2f%% [%.2f%%, %.2f%%] misses 3%%"
              % (seed, s["centre"], s["low"], s["high"]))
        ns = c["size_ns"]
        check(ns["low"] < ns["centre"] < ns["high"] and ns["centre"] > 0,
              "seed %d: size_ns %s" % (seed, ns))
        check(c["direction"] == "slower" and c["p_value"] <= 0.001,
              "seed %d: %s, p %g" % (seed, c["direction"], c["p_value"]))
        check(c["commits"] == {"from": commit(seed, k - 1), "to": commit(seed, k)},
              "seed %d: commits %s" % (seed, c["commits"]))
        check(c["entry"] == "run" and c["machine"] == "nightly-1" and c["series"] == "current",
              "seed %d: %s" % (seed, c))
        lines = [l for l in r.lines() if "from night %d " % k in l]
        check(len(lines) == 1 and lines[0].startswith("run on nightly-1: SLOWER by +")
              and "from night %d (2026-01-%02d 00:00 UTC) on, after night %d" % (k, k + 1, k - 1)
              in lines[0]
              and "commits %s..%s" % (commit(seed, k - 1)[:12], commit(seed, k)[:12]) in lines[0],
              "seed %d: stdout %r" % (seed, r.p.stdout))
        check(len(r.lines()) == len(pts) + 1 and r.lines()[-1].startswith(
            "Change points: %d (%d slower) in 1 series of 40 nights"
            % (len(pts), sum(c["direction"] == "slower" for c in pts))),
            "seed %d: summary %r" % (seed, r.lines()[-1]))
        check(not r.p.stderr, "seed %d: stderr %r" % (seed, r.p.stderr))
        exact += k == 20
    check(exact >= 4, "the step found at its night in %d of 5 histories" % exact)
    # a speed-up is a change point too, but not a slowdown: exit status 0
    values = series(9, 40, 0.01, step_at(20, -3))
    r = Run([night(i, v) for i, v in enumerate(values)], status=0)
    check(len(r.points()) == 1 and r.points()[0]["direction"] == "faster"
          and r.lines()[0].startswith("run on nightly-1: faster by -"),
          "a 3 %% speed-up: %s" % r.p.stdout)


def scenario_none():
    for seed in range(10, 20):
        values = series(seed, 60, 0.01)
        r = Run([night(i, v, seed=seed) for i, v in enumerate(values)], status=0)
        check(not r.points(), "seed %d: change points in a series with none: %s"
              % (seed, r.p.stdout))
        check(r.lines() == ["No change point in 1 series of 60 nights (E-Divisive means, "
                            "p <= 0.001)."], "seed %d: stdout %r" % (seed, r.p.stdout))
        check(r.report["series"] == [{"entry": "run", "machine": "nightly-1",
                                      "series": "current", "baseline": None, "nights": 60,
                                      "undecided": 0, "change_points": 0}],
              "seed %d: series %s" % (seed, r.report["series"]))


def scenario_two_steps():
    for seed in (21, 22, 23):
        values = series(seed, 60, 0.01, lambda i: 1 + 0.03 * (i >= 20) + 0.03 * (i >= 40))
        r = Run([night(i, v, seed=seed) for i, v in enumerate(values)], status=1)
        got = [c["after"]["index"] for c in r.points()]
        # E-Divisive weighs distances, not squares: a night next to a step
        # can go either side (seed 23 puts the second at 39)
        check(len(got) == 2 and abs(got[0] - 20) <= 1 and abs(got[1] - 40) <= 1,
              "seed %d: change points at %s, not [20, 40]" % (seed, got))
        for c in r.points():
            check(c["direction"] == "slower" and 1.5 < c["size_pct"]["centre"] < 4.5,
                  "seed %d: %s %.2f%%" % (seed, c["direction"], c["size_pct"]["centre"]))
        check(len(r.lines()) == 3, "seed %d: stdout %r" % (seed, r.p.stdout))


def scenario_creep():
    for seed in (31, 32, 33):
        values = series(seed, 60, 0.01, lambda i: 1 + 0.005 * max(0, i - 30))
        r = Run([night(i, v, seed=seed) for i, v in enumerate(values)], status=1)
        pts = r.points()
        check(pts, "seed %d: no change point in a creep of 14.5 %%: %s" % (seed, r.p.stdout))
        # a creep has no night of its own: the first split may come a few
        # nights before it shows (seed 33: at night 28)
        check(all(c["after"]["index"] >= 27 and c["direction"] == "slower" for c in pts),
              "seed %d: change points %s" % (seed, [(c["after"]["index"], c["direction"])
                                                   for c in pts]))


def scenario_old_format():
    values = series(41, 30, 0.01, step_at(15, 3))
    lines = [night(i, v, old=True) for i, v in enumerate(values)]
    check("machine" not in lines[0] and "commit" not in lines[0], "not an old line: " + lines[0])
    r = Run(lines, status=1)
    pts = r.points()
    check(len(pts) == 1 and pts[0]["after"]["index"] == 15, "old lines: %s" % r.p.stdout)
    if pts:
        check(pts[0]["machine"] is None and pts[0]["commits"] == {"from": None, "to": None},
              "old lines: machine %s, commits %s" % (pts[0]["machine"], pts[0]["commits"]))
    check(r.lines()[0].startswith("run (machine not recorded): SLOWER by")
          and "commits" not in r.lines()[0], "old lines: %r" % r.lines()[0])
    check(not r.p.stderr, "old lines: stderr %r" % r.p.stderr)
    # old lines, then new ones of the same entry: two series (the old have no machine)
    lines += [night(30 + i, v) for i, v in enumerate(series(42, 10, 0.01))]
    r = Run(lines, status=1)
    check([(s["machine"], s["nights"]) for s in r.report["series"]] == [(None, 30),
                                                                       ("nightly-1", 10)],
          "old and new lines: series %s" % r.report["series"])


def scenario_machines():
    a = series(51, 40, 0.01)
    b = series(52, 40, 0.01, base=1.5e6)
    lines = []
    for i in range(40):
        lines.append(night(i, a[i], machine="fast"))
        lines.append(night(i, b[i], machine="slow"))
    r = Run(lines, status=0)
    check([(s["machine"], s["nights"]) for s in r.report["series"]] == [("fast", 40),
                                                                       ("slow", 40)],
          "series %s" % r.report["series"])
    check(not r.points(), "change points where neither machine changed: %s" % r.p.stdout)
    # a step on the slow machine alone, and a second entry beside
    b = series(53, 40, 0.01, step_at(25, 4), base=1.5e6)
    lines = []
    for i in range(40):
        lines.append(night(i, a[i], machine="fast"))
        lines.append(night(i, b[i], machine="slow"))
        lines.append(night(i, 2e3 * (1 + 0.01 * random.Random(i).gauss(0, 1)), entry="parse"))
    r = Run(lines, status=1)
    got = [(c["entry"], c["machine"], c["after"]["index"]) for c in r.points()]
    check(got == [("run", "slow", 25)], "change points %s" % got)
    check(len(r.report["series"]) == 3, "series %s" % r.report["series"])
    # --entry: that entry's series only
    r = Run(lines, "--entry", "parse", status=0)
    check([s["entry"] for s in r.report["series"]] == ["parse"] and r.report["entry"] == "parse",
          "--entry parse: %s" % r.report["series"])


def scenario_baseline():
    # the machine gets 10 % faster at night 15 (both revisions); the current
    # revision 3 % slower at night 25
    n = 40
    r1 = random.Random(61)
    lines = []
    for i in range(n):
        machine = 0.9 if i >= 15 else 1.0
        prev = 1e6 * machine * (1 + 0.005 * r1.gauss(0, 1))
        cur = prev * (1.03 if i >= 25 else 1.0) * (1 + 0.005 * r1.gauss(0, 1))
        lines.append(night(i, cur, previous="/b/release", prev_ns=prev))
    r = Run(lines, status=1)
    check(r.report["series"][0]["series"] == "ratio", "series %s" % r.report["series"])
    got = [(c["after"]["index"], c["direction"]) for c in r.points()]
    check(got == [(25, "slower")], "against one baseline: change points %s" % got)
    if r.points():
        s = r.points()[0]["size_pct"]
        check(s["low"] <= 3.0 <= s["high"], "size %s" % s)
        check(", against one baseline:" in r.lines()[0], "stdout %r" % r.lines()[0])
    # the same nights with the previous directory changing: the current time,
    # whose machine step is a change point of its own
    lines = [l.replace('"/b/release"', '"/b/night-%d"' % i) for i, l in enumerate(lines)]
    r = Run(lines, status=1)
    check(r.report["series"][0]["series"] == "current", "series %s" % r.report["series"])
    check(any(c["after"]["index"] == 15 and c["direction"] == "faster" for c in r.points()),
          "the machine's step in the current time: %s" % r.p.stdout)


def scenario_baselines():
    """Nights run with --baseline are series of their own, one per baseline:
    the nightly's against yesterday (no mark) and two baselines (a new
    accepted build from night 20 on) give three series, and each night's
    --label is in the JSON beside its change point."""
    n = 40
    r1 = random.Random(81)
    lines = []
    for i in range(n):
        prev = 1e6 * (1 + 0.005 * r1.gauss(0, 1))
        cur = prev * (1.04 if i >= 10 else 1.0) * (1 + 0.005 * r1.gauss(0, 1))
        l = json.loads(night(i, cur, previous="/b/accepted", prev_ns=prev, seed=81))
        l.update(baseline=True, label="build-%d" % i)
        # the build accepted at night 20: the baseline's commit moves on
        l["previous_commit"] = commit(81, -1 if i < 20 else 19)
        lines.append(json.dumps(l))
        lines.append(night(i, 2e6 * (1 + 0.005 * r1.gauss(0, 1)), seed=82))
    r = Run(lines, status=1)
    got = [(s["series"], s["baseline"], s["nights"]) for s in r.report["series"]]
    check(got == [("ratio", {"commit": commit(81, -1)}, 20), ("current", None, 40),
                  ("ratio", {"commit": commit(81, 19)}, 20)], "series %s" % got)
    pts = r.points()
    check([(c["after"]["index"], c["baseline"]) for c in pts] == [(10, {"commit": commit(81, -1)})],
          "change points %s" % [(c["after"]["index"], c["baseline"]) for c in pts])
    if pts:
        check(pts[0]["labels"] == {"before": "build-9", "after": "build-10"}
              and pts[0]["investigation"] is None, "labels %s" % pts[0]["labels"])
    # unmarked nights with one previous directory are still read as one baseline
    r = Run([l.replace('"baseline": true', '"baseline": false') for l in lines[:40:2]], status=1)
    check(r.report["series"][0]["series"] == "ratio" and r.report["series"][0]["baseline"] is None,
          "unmarked: %s" % r.report["series"])


def scenario_investigate_recorded():
    """--investigate without git: a change point whose nights name no commit
    is recorded as not run (exit 1, a line appended); a second run reads that
    line back and runs nothing (exit 0); an investigation line whose nights
    overlap a change point's is its, one that does not is not; a history
    that others may write, or another user's, is refused."""
    values = series(91, 30, 0.01, step_at(15, 4))
    lines = [night(i, v, old=True) for i, v in enumerate(values)]
    d = tempfile.mkdtemp(prefix="pp-changes.")
    try:
        path = os.path.join(d, "h.jsonl")
        with open(path, "w") as f:
            f.write("".join(l + "\n" for l in lines))
        os.chmod(path, 0o600)
        cmd = [ARGS.pinpoint, "--changes", path, "--investigate"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        check(p.returncode == 1 and "  investigated now: not run: the commits on either side "
              "are not recorded" in p.stdout, "no commits: %d %r" % (p.returncode, p.stdout))
        with open(path) as f:
            got = [json.loads(l) for l in f]
        inv = [l for l in got if "investigation" in l]
        check(len(got) == 31 and len(inv) == 1 and inv[0]["investigation"]["status"] == 2
              and inv[0]["investigation"]["before_time"] == T0 + 14 * DAY
              and inv[0]["investigation"]["after_time"] == T0 + 15 * DAY,
              "the line appended: %s" % inv)
        p = subprocess.run(cmd + ["--json", os.path.join(d, "c.json")], capture_output=True,
                           text=True, timeout=60)
        check(p.returncode == 0 and "  investigated 20" in p.stdout and "not run" in p.stdout
              and not p.stderr, "read back: %d %r %r" % (p.returncode, p.stdout, p.stderr))
        with open(os.path.join(d, "c.json")) as f:
            rep = json.load(f)
        validate(rep, p)
        check(rep["change_points"][0]["investigation"]["new"] is False,
              "--json: %s" % rep["change_points"])
        # without --investigate the change point is still a slower one (exit 1), its
        # investigation printed
        p = subprocess.run(cmd[:-1], capture_output=True, text=True, timeout=60)
        check(p.returncode == 1 and "  investigated 20" in p.stdout, "plain --changes: %d %r"
              % (p.returncode, p.stdout))
        # an investigation of other nights is not this change point's
        other = dict(inv[0], investigation=dict(inv[0]["investigation"],
                                                before_time=T0 + 2 * DAY,
                                                after_time=T0 + 3 * DAY,
                                                last_time=T0 + 5 * DAY))
        with open(path, "w") as f:
            f.write("".join(l + "\n" for l in lines + [json.dumps(other)]))
        p = subprocess.run(cmd[:-1], capture_output=True, text=True, timeout=60)
        check(p.returncode == 1 and "investigated" not in p.stdout, "other nights: %r"
              % p.stdout)
        for mode in (0o620, 0o602):
            os.chmod(path, mode)
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            check(p.returncode == 2 and len(errors(p)) == 1 and "other users may write"
                  in p.stderr and not p.stdout, "mode %o: %d %r" % (mode, p.returncode, p.stderr))
        os.chmod(path, 0o600)
        # commits recorded, but the directory the night ran in is gone: recorded as not run
        gone = []
        for i, v in enumerate(values):
            l = json.loads(night(i, v, seed=91, machine=os.uname().nodename))
            l["rerun"] = {"cwd": os.path.join(d, "gone"), "argv": ["--entry=run", "--", "./b"]}
            gone.append(json.dumps(l))
        with open(path, "w") as f:
            f.write("".join(l + "\n" for l in gone))
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        check(p.returncode == 1 and "  investigated now: not run: the directory its night ran "
              "in is gone" in p.stdout and "--commits %s..%s" % (commit(91, 14)[:12],
                                                                 commit(91, 29)[:12]) not in p.stderr,
              "a gone directory: %d %r %r" % (p.returncode, p.stdout, p.stderr))
        # another machine's nights: left to its own runner, nothing run or recorded (exit 0)
        other = [l.replace('"machine": "%s"' % os.uname().nodename, '"machine": "elsewhere"')
                 for l in gone]
        with open(path, "w") as f:
            f.write("".join(l + "\n" for l in other))
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        with open(path) as f:
            appended = sum("investigation" in l for l in f)
        check(p.returncode == 0 and "run on elsewhere: slower from night 15 on, not "
              "investigated here" in p.stdout and not appended,
              "another machine's: %d %r, %d lines appended" % (p.returncode, p.stdout, appended))
        # --investigate goes with --changes only
        p = subprocess.run([ARGS.pinpoint, "--investigate", "--entry", "x", "--previous", d,
                            "--", "true"], capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and len(errors(p)) == 1 and "--changes" in p.stderr,
              "--investigate alone: %d %r" % (p.returncode, p.stderr))
    finally:
        shutil.rmtree(d)


def scenario_append():
    """Sessions that end at once append to one history: 16 --model sessions,
    8 at a time, each line whole and readable."""
    models = os.path.join(HERE, "models")
    d = tempfile.mkdtemp(prefix="pp-changes.")
    try:
        hist = os.path.join(d, "h.jsonl")
        cmd = [ARGS.pinpoint, "--model", os.path.join(models, "demo.json"), "--entry", "run",
               "--depth", "0", "--quiet", "--history", hist, "--label"]
        for wave in range(2):
            ps = [subprocess.Popen(cmd + ["n%d" % (8 * wave + k), "--seed", str(k + 1)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                  for k in range(8)]
            for p in ps:
                p.wait(timeout=300)
                check(p.returncode in (0, 1, 4), "a session exited %d: %s"
                      % (p.returncode, p.stderr.read()))
        with open(hist) as f:
            lines = f.read().splitlines()
        got = sorted(json.loads(l)["label"] for l in lines)
        check(got == sorted("n%d" % k for k in range(16)), "labels %s" % got)
    finally:
        shutil.rmtree(d)


def scenario_bad_input():
    tmp = tempfile.mkdtemp(prefix="pp-changes.")
    try:
        # a file that is not there
        p = subprocess.run([ARGS.pinpoint, "--changes", os.path.join(tmp, "missing.jsonl")],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and len(errors(p)) == 1 and "missing.jsonl" in p.stderr
              and "No such file" in p.stderr and not p.stdout,
              "missing file: %d %r" % (p.returncode, p.stderr))
        # a directory
        p = subprocess.run([ARGS.pinpoint, "--changes", tmp], capture_output=True, text=True,
                           timeout=60)
        check(p.returncode == 2 and len(errors(p)) == 1 and "directory" in p.stderr,
              "a directory: %d %r" % (p.returncode, p.stderr))
    finally:
        shutil.rmtree(tmp)
    # garbage only
    r = Run(["not json", "{\"a\": 1}", "[1, 2]", "\x00\xff garbage"], status=2)
    check(len(errors(r.p)) == 1 and "not a pinpoint history" in errors(r.p)[0]
          and len(warnings(r.p)) == 1 and ":1: not a pinpoint history line" in r.p.stderr
          and "4 such lines skipped" in r.p.stderr and not r.p.stdout,
          "garbage: %r" % r.p.stderr)
    check(r.report is None, "garbage: --json written")
    # garbage lines among good ones: one warning, the rest looked at
    values = series(71, 30, 0.01, step_at(15, 3))
    lines = [night(i, v) for i, v in enumerate(values)]
    lines[3:3] = ["{\"time\": 5, \"entry\": \"run\"}", "garbage", ""]
    lines.append("{\"time\": \"x\", \"verdict\": \"same\", \"entry\": \"run\"}")
    lines.append(json.dumps({"time": T0, "entry": "run", "verdict": "none", "status": 4,
                             "machine": "nightly-1"}))
    r = Run(lines, status=1)
    check(len(warnings(r.p)) == 1 and ":4: not a pinpoint history line (no \"verdict\"); "
          "3 such lines skipped" in r.p.stderr and not errors(r.p),
          "garbage among good lines: %r" % r.p.stderr)
    check([c["after"]["index"] for c in r.points()] == [15] and r.report["skipped_lines"] == 3
          and r.report["series"][0]["undecided"] == 1,
          "garbage among good lines: %s" % r.report)
    # a figure of the wrong type: that night has no time, and is left out
    bad = json.loads(lines[0])
    bad["current_ns"] = "fast"
    r = Run([json.dumps(bad)] + lines[1:], status=1)
    check(r.report["series"][0]["undecided"] == 2 and r.report["series"][0]["nights"] == 29,
          "a string for current_ns: %s" % r.report["series"])
    # --entry that no session names
    r = Run(lines, "--entry", "nosuch", status=2)
    check(len(errors(r.p)) == 1 and "no session of entry nosuch" in r.p.stderr,
          "--entry nosuch: %r" % r.p.stderr)
    # too few nights: undecided
    r = Run([night(i, 1e6) for i in range(5)], status=4)
    check(r.lines() and r.lines()[0].startswith("Undecided: no series of ")
          and "has the 6 nights a change point needs" in r.lines()[0],
          "5 nights: %r" % r.p.stdout)
    check(r.report is not None and r.report["change_points"] == [], "5 nights: --json %s"
          % r.report)
    # an empty file: nothing to look at yet
    r = Run([], status=4)
    check(r.lines() and r.lines()[0].startswith("Undecided: "), "empty: %r" % r.p.stdout)
    # options that do not go with --changes, and a COMMAND
    for extra in (["--previous", "/b"], ["--depth", "2"], ["--history", "h"], ["--", "./bench"]):
        p = subprocess.run([ARGS.pinpoint, "--changes", "h.jsonl", *extra], capture_output=True,
                           text=True, timeout=60)
        check(p.returncode == 2 and len(errors(p)) == 1 and "--changes" in p.stderr,
              "--changes %s: %d %r" % (" ".join(extra), p.returncode, p.stderr))
    # --json that cannot be written: exit status 3, the text printed
    values = series(72, 30, 0.01)
    tmp = tempfile.mkdtemp(prefix="pp-changes.")
    try:
        path = os.path.join(tmp, "h.jsonl")
        with open(path, "w") as f:
            f.write("".join(night(i, v) + "\n" for i, v in enumerate(values)))
        p = subprocess.run([ARGS.pinpoint, "--changes", path, "--json",
                            os.path.join(tmp, "no", "such", "dir.json")],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 3 and len(errors(p)) == 1 and p.stdout.startswith("No change"),
              "--json unwritable: %d %r %r" % (p.returncode, p.stdout, p.stderr))
    finally:
        shutil.rmtree(tmp)


def scenario_history_line():
    models = os.path.join(HERE, "models")
    tmp = tempfile.mkdtemp(prefix="pp-changes.")
    try:
        hist = os.path.join(tmp, "h.jsonl")
        cmd = [ARGS.pinpoint, "--model", os.path.join(models, "demo.json"), "--entry", "run",
               "--depth", "0", "--seed", "1", "--quiet", "--history", hist]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode not in (0, 1):
            fail("$ %s -> %d" % (" ".join(cmd), p.returncode), p)
        with open(hist) as f:
            lines = f.read().splitlines()
        check(len(lines) == 1, "%d history lines" % len(lines))
        line = json.loads(lines[0])
        check(line.get("machine") == os.uname().nodename,
              "machine %r, not %r" % (line.get("machine"), os.uname().nodename))
        # a model's revisions are its file, in no git work tree
        check("previous_commit" in line and line["previous_commit"] is None
              and "current_commit" in line and line["current_commit"] is None,
              "commits: %s" % lines[0])
        # no command line to run again (a model), no label, no baseline
        check(line.get("rerun", 0) is None and line.get("label", 0) is None
              and line.get("baseline") is False, "rerun, label, baseline: %s" % lines[0])
        # the line read back: nights made of it, each a little slower
        made = []
        for i in range(12):
            line["time"] += DAY
            line["current_ns"] *= 1.0 + (0.05 if i == 6 else 0.0) + 0.001 * (i % 3)
            made.append(json.dumps(line))
        r = Run(made, status=1)
        check([c["after"]["index"] for c in r.points()] == [6]
              and r.points()[0]["machine"] == os.uname().nodename,
              "the session's line read back: %s" % r.p.stdout)
        # the HTML report's trend over those nights marks the change point
        with open(hist, "w") as f:
            f.write("".join(l + "\n" for l in made))
        page = os.path.join(tmp, "r.html")
        p = subprocess.run(cmd + ["--html", page], capture_output=True, text=True, timeout=120)
        with open(page) as f:
            html = f.read()
        import re
        trend = re.search(r'<svg class="trend".*?</svg>', html, re.S)
        marks = re.findall(r'<g class="change">.*?<title>change point: ([+-][\d.]+)%', html)
        check(trend and trend.group(0).count('class="night') == 13 and len(marks) == 1
              and 4 < float(marks[0]) < 6 and "1 change point over the nights" in html,
              "the trend's change points: %s" % marks)
    finally:
        shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--schema", required=True)
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
