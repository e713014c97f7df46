#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Whole sessions on program models (pinpoint --model, doc/model.md).

The model backend stands in for the processes: the discover, search,
settle, decide and report stages run as they do on a benchmark, on results
the model computes for each arming.  A session takes milliseconds and is
the same for one seed, so these scenarios check the search's logic exactly
and many sessions at once (the A/A ones).  Most mirror a program of
programs/ (models/ holds it as a call tree with its planted change) and
assert what its real-process scenario asserted; check_pinpoint.py keeps
what needs real processes, as integration, with what holds on a noisy
machine.

Usage: check_model.py --pinpoint EXE --models DIR --schema FILE SCENARIO
"""
import argparse
import collections
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import CHAIN_PREFIX, chain, check, fail, load_report  # noqa: E402
from pinpoint_test import SUITE_BUDGET, SUITE_LAYOUTS, check_attribution  # noqa: E402
from pinpoint_test import check_parts_within, scenario_main  # noqa: E402


def model(name):
    return os.path.join(ARGS.models, name + ".json")


def session(name, *args, status=None, entry=None, depth=3):
    """pinpoint --model on models/@name.json, its entry @entry (the model's)."""
    if entry is None:
        with open(model(name)) as f:
            entry = json.load(f)["entry"]
    cmd = [ARGS.pinpoint, "--model", model(name), "--entry", entry, "--depth", str(depth),
           *args]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if status is not None and p.returncode != status:
        fail("$ %s -> %d, expected %d" % (" ".join(cmd), p.returncode, status), p)
    return p


# The scenario's first report is checked against the schema; its others,
# the same model's at other seeds or options, are read as they are (a
# schema check costs a model session's time many times over).
SCHEMA_CHECKED = []


def session_json(name, *args, status=None, entry=None, depth=3):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = session(name, "--json", path, *args, status=status, entry=entry, depth=depth)
        if SCHEMA_CHECKED:
            with open(path) as f:
                report = json.load(f)
            check_parts_within(report, p)
            return p, report
        SCHEMA_CHECKED.append(name)
        return p, load_report(path, ARGS.schema, p)


def expect_chain(p, steps):
    got, want = chain(p), " → ".join(steps)
    check(got == want, "chain is %r, expected %r" % (CHAIN_PREFIX + got, CHAIN_PREFIX + want))


def node_label(n):
    return n.get("name") or n.get("callee") or n.get("function") or ""


def scenario_chain():
    """step3's callee inner got 20 % slower and step1 6 %: the chain goes
    through step3 to inner's own body, step1 is a further contributor."""
    p, rep = session_json("twoslow", "--seed", "1", status=1)
    expect_chain(p, ["job", "step3", "inner", "own body of inner"])
    ranked = [n for n in rep["tree"] if n.get("rank")]
    check(any(node_label(n) == "step1" for n in ranked),
          "step1 is not a further contributor: %r" % [node_label(n) for n in ranked])
    # the model is exact: inner's 10 calls of 1 us more each, +10 us an execution of job
    step = [c for c in rep["bottleneck_chain"] if c.get("callee") == "inner"]
    check(step and step[0]["cost_ns"]["low"] <= 10000 <= step[0]["cost_ns"]["high"],
          "inner's cost %r does not hold its true +10 us" % (step[0]["cost_ns"] if step else None))


def scenario_same_seed():
    """One seed, one session: the report and its figures are the same twice
    (the times the session took and its work directory aside)."""
    outs, reps = [], []
    for _ in range(2):
        p, rep = session_json("twoslow", "--seed", "7", status=1)
        outs.append([l for l in p.stdout.splitlines() if not l.startswith("Time:")])
        for k in ("started", "duration_s", "time"):
            rep.pop(k, None)
        for b in rep["batches"]:
            for r in ("arming_previous", "arming_current"):
                b[r] = re.sub(r"^out=[^;]*;", "", b[r])
        reps.append(rep)
    check(outs[0] == outs[1], "the same seed printed two reports")
    check(reps[0] == reps[1], "the same seed wrote two JSON reports")
    p = session("twoslow", "--seed", "8", status=1)
    check([l for l in p.stdout.splitlines() if not l.startswith("Time:")] != outs[0],
          "another seed printed the same report")


def scenario_shared():
    """lookup, called 100 times from each of four steps, 75 % slower: each
    step slower by less than the threshold, the callee they share is named."""
    p = session("shared", "--seed", "1", "--precision-threshold", "5", status=1)
    expect_chain(p, ["job", "lookup", "own body of lookup"])
    check(re.search(r"called from step1, step2, step3 and step4", p.stdout),
          "the shared callee's callers are not named")


def scenario_indirect():
    """An indirect call half of whose executions go to slow_path, 30 %
    slower: the chain goes through the pointer into slow_path, the targets'
    shares of the call's time as the model has them."""
    p, rep = session_json("indirect", "--seed", "1", status=1)
    expect_chain(p, ["run", "slow_path", "own body of slow_path"])
    check(re.search(r"call 1 of run at indirect\.c:42, through its pointer", p.stdout),
          "the indirect call is not named as one")
    node = [n for n in rep["tree"] if n.get("targets")]
    if check(node, "no node with targets in the JSON tree"):
        shares = {t["name"]: t["share"] for t in node[0]["targets"]}
        # in the current revision: 130 of the call's 230 us go to slow_path
        check(abs(shares.get("slow_path", 0) - 130 / 230) < 0.01 and
              abs(shares.get("fast_path", 0) - 100 / 230) < 0.01,
              "the targets' shares are %r, not 0.565 and 0.435" % shares)


def scenario_added():
    """A call only the current revision makes: its function's call list
    changed, and the added call is what costs."""
    p = session("added", "--seed", "1", status=1)
    expect_chain(p, ["handle", "changed code of handle"])
    check(re.search(r"added call audit\s+call 1 of handle at audit\.c:32", p.stdout),
          "the added call is not in the tree")


def scenario_warmup():
    """The first 40 executions of every run take 4 times as long: the runs
    skip at least those."""
    p = session("warmup", "--seed", "1", status=1)
    m = re.search(r"skipping the first (\d+)", p.stdout)
    check(m and int(m.group(1)) >= 40, "the warm-up is not skipped: %r"
          % (m.group(0) if m else p.stdout[-400:]))
    expect_chain(p, ["step", "work", "own body of work"])


def scenario_aa():
    """Identical revisions, code layouts that move each function by 3 %,
    and a duet whose second side is 5 % slower: in 30 sessions of as many
    seeds, no regression is claimed and no call named."""
    undecided = 0
    for seed in range(1, 31):
        p = session("same", "--seed", str(seed), "--quiet")
        if p.returncode == 4:
            undecided += 1
        check(p.returncode in (0, 4) and "Bottleneck chain" not in p.stdout,
              "seed %d: exit %d: %s" % (seed, p.returncode, p.stdout[:300]))
    print("A/A: %d of 30 sessions undecided, none claimed a regression" % undecided)


def scenario_load():
    """A competing load that slows 30 % of the current revision's runs by
    30 % (the same code in both revisions): where the runs' waits are seen
    (the kernel's schedstats), every round with such a run is measured again
    and none of its values is compared, so no session claims a regression
    and each says so; where they are not seen, the same load is called a
    regression (what the rule prevents).  A load on 90 % of all runs stops
    the session undecided, saying why."""
    for seed in range(1, 6):
        p, rep = session_json("loaded", "--seed", str(seed), "--spoiled-rounds", "again")
        m, runs = rep["measurement"], rep["runs"]
        check(p.returncode in (0, 4) and "Bottleneck chain" not in p.stdout,
              "seed %d, load seen: exit %d: %s" % (seed, p.returncode, p.stdout[:300]))
        measured = [r for r in runs if r["batch"] and not r["warmup"]]
        waited = [r for r in measured if r["waited_s"] >= 0.2 * r["wall_s"]]
        spoiled = [r for r in measured if r["spoiled"]]
        # a waiting run spoils its round: its pair's other run too
        check(waited and all(r["spoiled"] for r in waited) and len(spoiled) >= len(waited)
              and len(spoiled) == 2 * m["rounds_spoiled"]
              and len(measured) - len(spoiled) == 2 * m["rounds_kept"],
              "seed %d: %d runs waited, %d spoiled, measurement %r"
              % (seed, len(waited), len(spoiled), {k: m[k] for k in ("rounds_spoiled",
                                                                     "rounds_kept")}))
        # the entry's values in its batch: the rounds kept, none of a spoiled one
        entry = rep["comparisons"][0]
        mine = [r for r in measured if r["batch"] == entry["batch"]
                and r["revision"] == "current"]
        have = collections.Counter(entry["current_ns"])
        kept = collections.Counter(r["values_ns"][0] for r in mine if not r["spoiled"])
        spoilt = [r["values_ns"][0] for r in mine if r["spoiled"]]
        check(spoilt and not kept - have and not any(v in have for v in spoilt),
              "seed %d: the entry's values hold a spoiled run's, or miss a kept one's" % seed)
        check(re.search(r"^Competing load: .* The %d measured rounds such runs were in \(of %d\) "
                        r"were measured again, and no comparison holds their values\.$"
                        % (m["rounds_spoiled"], m["rounds_spoiled"] + m["rounds_kept"]),
                        p.stdout, re.M), "seed %d: no Competing load line" % seed)
    claimed = sum(session("loaded_unseen", "--seed", str(seed), "--quiet", "--spoiled-rounds",
                          "again").returncode == 1
                  for seed in range(1, 6))
    check(claimed >= 3, "the load unseen was called a regression in %d of 5 sessions, "
          "expected 3 or more (the model no longer makes the case the rule is for)" % claimed)
    p, rep = session_json("busy", "--seed", "1", "--spoiled-rounds", "again", status=4)
    m = rep["measurement"]
    check(m["load_spent"] and m["rounds_spoiled"] >= 32
          and m["rounds_spoiled"] >= 3 * m["rounds_kept"]
          and rep["comparisons"][0]["verdict"] == "undecided"
          and rep["comparisons"][0]["sequential"]["load_spent"],
          "busy: measurement %r, entry %r" % (m, rep["comparisons"][0]["verdict"]))
    check("Undecided: other work on the machine spoiled most rounds before job could be "
          "compared." in p.stdout and "the session stopped measuring" in p.stdout,
          "busy: %s" % p.stdout)
    # the environment sets the default (the suite's ctest sets keep), the command line wins
    env = dict(os.environ, PINPOINT_SPOILED_ROUNDS="keep")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        q = subprocess.run([ARGS.pinpoint, "--model", model("busy"), "--entry", "job", "--seed",
                            "1", "--json", path], capture_output=True, text=True, env=env,
                           timeout=120)
        with open(path) as f:
            kept = json.load(f)
    check(kept["options"]["spoiled_rounds"] == "keep" and not kept["measurement"]["load_spent"]
          and kept["measurement"]["rounds_spoiled"] == 0,
          "PINPOINT_SPOILED_ROUNDS=keep: options %r, measurement %r"
          % (kept["options"]["spoiled_rounds"], kept["measurement"]["rounds_spoiled"]))
    env["PINPOINT_SPOILED_ROUNDS"] = "sometimes"
    q = subprocess.run([ARGS.pinpoint, "--model", model("busy"), "--entry", "job"],
                       capture_output=True, text=True, env=env, timeout=60)
    check(q.returncode == 2 and q.stderr.strip().splitlines() == [
        "pinpoint: error: PINPOINT_SPOILED_ROUNDS: 'sometimes' is not one of --spoiled-rounds's "
        "values (see --help)"], "a bad PINPOINT_SPOILED_ROUNDS: %d %r" % (q.returncode, q.stderr))
    print("load seen: no claim in 5 sessions; unseen: %d of 5 claimed; busy: undecided after "
          "%d spoiled rounds" % (claimed, m["rounds_spoiled"]))


def scenario_aa_layouts():
    """Identical revisions whose code layouts move each function by 12 %
    (the entry's layout sd about 7 times the threshold, as a layout-sensitive
    text program's was), at the defaults: by the layouts' schedule (a new
    layout every pair: the model's links cost nothing), "not slower" in 95 %
    of sessions or more, none slower, and the time they took is stated.  A
    fixed set of 64 layouts (--max-layouts 64) cannot get its interval below
    the floor they put under it: fewer sessions decide, and those it stops
    say truthfully what can decide them."""
    seeds = range(1, 41)
    decided, pairs, secs = 0, [], []
    for seed in seeds:
        p, rep = session_json("sensitive", "--seed", str(seed), "--quiet")
        entry = rep["comparisons"][0]
        check(p.returncode in (0, 4) and entry["verdict"] != "slower",
              "seed %d: exit %d, entry %s" % (seed, p.returncode, entry["verdict"]))
        # "not slower" or below the threshold either way: no regression, exit 0
        decided += p.returncode == 0 and entry["verdict"] != "undecided"
        pairs.append(entry["sequential"]["runs"] // 2)
        secs.append(rep["time"]["total_s"])
        sched = rep["layouts"]["schedule"]
        check(sched and sched["pairs_per_layout"] == 1 and sched["most"] == 4096,
              "seed %d: schedule %r" % (seed, sched))
    check(decided >= 38, "%d of 40 sessions not slower, want 38 (95 %%) or more" % decided)
    pairs.sort()
    secs.sort()
    print("schedule: %d of 40 not slower; pairs median %d (%d-%d), the model's seconds median "
          "%.1f (most %.1f)" % (decided, pairs[20], pairs[0], pairs[-1], secs[20], secs[-1]))
    fixed = 0
    for seed in range(1, 11):
        p = session("sensitive", "--seed", str(seed), "--quiet", "--layouts", "64",
                    "--max-layouts", "64")
        check(p.returncode in (0, 4), "fixed 64, seed %d: exit %d" % (seed, p.returncode))
        fixed += p.returncode == 0
        if "The code layouts move it" in p.stdout:
            check("Layouts that grow with the runs (--max-layouts above --layouts) can decide "
                  "it." in p.stdout, "fixed 64, seed %d: what can decide it: %s"
                  % (seed, p.stdout[-400:]))
    check(fixed < 10 * decided / 40, "fixed 64: %d of 10 not slower, by the schedule %d of 40"
          % (fixed, decided))
    print("fixed 64: %d of 10 not slower" % fixed)


def scenario_aa_layouts_shared():
    """The aa-layouts model with layout k of both revisions from one seed
    (models/sensitive-shared.json: "layout_shared": 1, as the paired design
    links them): the pairs' differences hold nothing of the layouts, every
    session says "not slower" in at most half the pairs the same model takes
    with its layouts drawn apart, and a fixed set of 16 layouts puts no floor
    under it (the units' differences have none)."""
    pairs = {}
    for name in ("sensitive", "sensitive-shared"):
        pairs[name] = []
        for seed in range(1, 11):
            p, rep = session_json(name, "--seed", str(seed), "--quiet")
            entry = rep["comparisons"][0]
            check(p.returncode in (0, 4) and entry["verdict"] != "slower",
                  "%s seed %d: exit %d, entry %s" % (name, seed, p.returncode,
                                                     entry["verdict"]))
            if name == "sensitive-shared":
                check(p.returncode == 0 and entry["verdict"] != "undecided",
                      "shared, seed %d: exit %d, entry %s" % (seed, p.returncode,
                                                             entry["verdict"]))
            pairs[name].append(entry["sequential"]["runs"] // 2)
    apart, shared = (sorted(pairs[n])[5] for n in ("sensitive", "sensitive-shared"))
    check(2 * shared <= apart, "pairs' median %d with one seed, %d apart" % (shared, apart))
    print("pairs' median: %d with layouts drawn apart, %d with one seed" % (apart, shared))
    for seed in range(1, 6):
        p = session("sensitive-shared", "--seed", str(seed), "--quiet", "--layouts", "16",
                    "--max-layouts", "16")
        check(p.returncode == 0 and "The code layouts move it" not in p.stdout,
              "shared, fixed 16, seed %d: exit %d: %s" % (seed, p.returncode, p.stdout[-400:]))


def scenario_cpu_check():
    """The check each duet session makes of its two CPUs (outcome_cpus.c).
    The same model's second side is 5 % slower: the check finds a run on
    CPU 1 5 % longer (of a run on CPU 0: the mean over both sides less the
    half of it), as many pairs of each assignment within one a batch, says
    they differ and that each comparison took its own such difference out
    (the entry's within the check's interval), or with --cpu-term off that
    it widened the intervals, in the
    text and the JSON alike.  twoslow's CPUs are alike: in 20 sessions at
    95 %, at most 4 say they differ (1 expected; 5 or more has probability
    0.003 at a right level: scipy.stats.binom.sf(4, 20, 0.05)).  The same
    model's check holds the 5 % in its 95 % interval in 17 of 20 sessions or
    more (4 misses or more: 0.016, scipy.stats.binom.sf(3, 20, 0.05)); with a
    layout a pair, the layouts are part of each pair's noise.  Paired runs
    make no check."""
    misses = 0
    for seed in range(1, 21):
        _, r = session_json("same", "--seed", str(seed), "--quiet")
        k, s0 = r["measurement"]["cpu_check"], r["comparisons"][0]["previous"]["mean"] / 1.025
        misses += not (k and k["slower_ns"]["low"] < 0.05 * s0 < k["slower_ns"]["high"])
    check(misses <= 3, "same: the 5 %% outside the check's interval in %d of 20 sessions"
          % misses)
    print("same: the 5 %% outside the check's interval in %d of 20 sessions" % misses)
    p, rep = session_json("same", "--seed", "4")
    c = rep["measurement"]["cpu_check"]
    side0 = rep["comparisons"][0]["previous"]["mean"] / 1.025
    check(c and c["differ"] and c["matters"] and c["cpus"] == [0, 1] and
          abs(c["pairs"][0] - c["pairs"][1]) <= 0.05 * sum(c["pairs"]),
          "same: the CPUs' check %r" % c)
    if c:
        check(0.045 < c["slower_ns"]["centre"] / side0 < 0.055 and
              c["slower_ns"]["low"] < 0.05 * side0 < c["slower_ns"]["high"],  # seed 4's does
              "same: CPU 1 slower by %r, want 5 %% of %.0f ns" % (c["slower_ns"], side0))
        check(c["sentence"] in p.stdout and
              c["sentence"].startswith("CPU check: on CPU 1 a run of the entry took ") and
              "took its own such difference out of its pairs (--cpu-term), which would have "
              "widened the entry's interval by about" in c["sentence"],
              "same: the check's sentence %r" % c["sentence"])
        # the entry took its own CPUs' difference out of its pairs (decide_cpu.c)
        term = rep["comparisons"][0]["cpu_term_ns"]
        check(term is not None and c["slower_ns"]["low"] <= term <= c["slower_ns"]["high"],
              "same: the entry's CPU term %r, the check's %r" % (term, c["slower_ns"]))
    p, rep = session_json("same", "--seed", "3", "--cpu-term", "off")
    c = rep["measurement"]["cpu_check"]
    check(c and c["matters"] and "widened the intervals by about" in c["sentence"] and
          "--cpu-term on, two CPUs alike (--cpu), or --runs paired, would narrow them" in
          c["sentence"] and all(k["cpu_term_ns"] is None for k in rep["comparisons"]),
          "same, --cpu-term off: %r, terms %r" % (c, [k["cpu_term_ns"] for k in
                                                    rep["comparisons"]]))
    differ = 0
    for seed in range(1, 21):
        p, rep = session_json("twoslow", "--seed", str(seed), "--quiet")
        c = rep["measurement"]["cpu_check"]
        if not check(c is not None and c["pairs"][0] >= 4 and c["pairs"][1] >= 4,
                     "twoslow, seed %d: no check (%r)" % (seed, c)):
            continue
        differ += c["differ"]
        check(c["differ"] or c["sentence"].startswith("CPU check: CPUs 0 and 1 ran the entry "
                                                      "alike"),
              "twoslow, seed %d: %r" % (seed, c["sentence"]))
    check(differ <= 4, "twoslow: %d of 20 sessions said the CPUs differ" % differ)
    p, rep = session_json("same", "--seed", "3", "--runs", "paired")
    check(rep["measurement"]["cpu_check"] is None and "CPU check" not in p.stdout,
          "paired runs: a CPU check %r" % rep["measurement"]["cpu_check"])
    print("alike CPUs: %d of 20 sessions said they differ" % differ)


def scenario_entry_share():
    """Each node's share of the entry comes with an interval: the product of
    the shares' intervals along its path from the entry (interval
    arithmetic, recomputed here from the tree's share_interval), each of
    them at its node's level, that of the verdict it stands for (its
    comparison's last look, else its function's), so the product holds at
    1 - the sum of their 1 - level (Bonferroni); the text prints it on the
    chain's lines; a remainder without an interval of its own has none."""
    p, rep = session_json("twoslow", "--seed", "2")
    nodes = {n["id"]: n for n in rep["tree"]}
    seen = 0
    for n in rep["tree"]:
        if n["parent"] is None or n["parent"] < 0:
            continue
        path, k = [], n
        while k["parent"] is not None and k["parent"] >= 0:
            path.append(k)
            k = nodes[k["parent"]]
        if any(x["kind"] == "structural" for x in path) or n.get("inflated"):
            continue
        ci, level = n["share_of_entry_interval"], n["share_of_entry_level"]
        if any(x["share_interval"] is None or x["point_estimate"] for x in path):
            check(ci is None and level is None, "node %d: an interval %r from a point share"
                  % (n["id"], ci))
            continue
        lo = hi = 1.0
        for x in path:
            a, b = x["share_interval"]["low"], x["share_interval"]["high"]
            prods = [lo * a, lo * b, hi * a, hi * b]
            lo, hi = min(prods), max(prods)
        want = 1 - sum(1 - x["level"] for x in path)
        for x in path:
            # a part's level is its verdict's: the level of the look that decided it
            cmp = rep["comparisons"][x["comparison"]] if x.get("comparison") is not None \
                else None
            if cmp and cmp["decided"] and cmp["verdict"] != "undecided":
                check(math.isclose(x["level"], cmp["difference"]["confidence"], rel_tol=1e-12),
                      "node %d: level %r, its verdict's %r"
                      % (x["id"], x["level"], cmp["difference"]["confidence"]))
        seen += 1
        check(ci is not None and math.isclose(ci["low"], lo, rel_tol=1e-9, abs_tol=1e-12) and
              math.isclose(ci["high"], hi, rel_tol=1e-9, abs_tol=1e-12) and
              ci["low"] <= n["share_of_entry"] <= ci["high"] and
              math.isclose(level, want, rel_tol=1e-9),
              "node %d (%d steps): share of the entry %r [%r] at %r, want [%g, %g] at %g"
              % (n["id"], len(path), n["share_of_entry"], ci, level, lo, hi, want))
    check(seen >= 5, "only %d nodes with a share of the entry" % seen)
    step = [l for l in p.stdout.splitlines() if l.lstrip().startswith("→ inner ")]
    check(len(step) == 1 and re.search(r"= \d+\.\d% \[\d+\.\d%, \d+\.\d%\] of job", step[0]),
          "the chain's inner line: %r" % step)


def scenario_layouts_off():
    """--layouts 1 on the same model: each revision in its own as-built
    layout, 3 % a function apart at random; the report says the verdict can
    include the layout."""
    p = session("same", "--seed", "3", "--layouts", "1")
    check(re.search(r"^Layouts: not varied \(--layouts 1\)", p.stdout, re.M),
          "no Layouts line for --layouts 1")


# The search's logic on the programs of test/driver/programs: each model
# below mirrors one program's call tree, counts and planted change (its
# functions' names, files and lines the program's, a spin of N iterations N
# ns), and each scenario asserts what check_pinpoint.py's scenario of that
# program asserted when it ran real processes.  Where the outcome depends
# on the draw (a further contributor decided or left open, a near
# threshold part), the checks hold for every one of SEEDS, each one session:
# no session is ever retried.  The sessions run as the suite's real ones do
# (SUITE_BUDGET, SUITE_LAYOUTS: test/harness).
SEEDS = range(1, 6)
PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")


def line_of(source, text):
    """The 1-based line of test program @source that holds @text."""
    with open(os.path.join(PROGRAMS, source)) as f:
        for i, l in enumerate(f, 1):
            if text in l:
                return i
    raise AssertionError("%s has no line with %r" % (source, text))


def mirrored(name, seed, *args, status=1, depth=3):
    """A session of models/@name.json as the suite ran its program: (process, report)."""
    return session_json(name, "--seed", str(seed), *SUITE_BUDGET, *SUITE_LAYOUTS, *args,
                        status=status, depth=depth)


def attrib(name, chain, contributors=(), improvements=(), extra=(), depth=3, text_chain=None):
    """check_attribution() of a session of @name for each seed of SEEDS:
    [(process, report)] of each."""
    out = []
    for seed in SEEDS:
        p, rep = mirrored(name, seed, *extra, depth=depth)
        check_attribution(p, rep, chain, contributors, improvements, text_chain)
        out.append((p, rep))
    return out


def alphas(report):
    """Each decided comparison's alpha, by its label."""
    return {c["label"].split("  ")[0].strip(): c["sequential"]["alpha"]
            for c in report["comparisons"] if c["decided"] and c.get("sequential")}


def expect_alphas(report, want):
    got = alphas(report)
    for label, a in want.items():
        check(label in got and abs(got[label] - a) <= 1e-9 * a,
              "comparison %r has alpha %r, expected %g (all: %r)" % (label, got.get(label), a, got))


def scenario_two_slower():
    """twoslow.c: step1() 2 units slower, step3() 6: step3 heads the chain,
    step1 follows it as a further contributor."""
    attrib("twoslower", ["job", "step3", "own body of step3"], ["step1"])


def scenario_side_effect():
    """sibling.c: width_of() 8 units slower, lower() 2: the chain names
    width_of, lower is a contributor; their shares about 80 % and 20 %."""
    for p, rep in attrib("sibling", ["format", "width_of", "own body of width_of"], ["lower"]):
        share = {n.get("callee"): n["share"] for n in rep["tree"] if n["kind"] == "call"}
        check(0.6 < share["width_of"] < 0.95 and 0.05 < share["lower"] < 0.4,
              "shares of width_of and lower are %r, about 80 %% and 20 %% expected" % share)


def scenario_masked():
    """masked.c: c3() 6 units slower and c11() 6 faster in the first half
    (unchanged as a whole), c21() 3 slower in the second: the chain names c3,
    c21 contributes, c11 is reported faster."""
    attrib("masked", ["run", "c3", "own body of c3"], ["c21"], ["c11"])


def scenario_range_first():
    """rangefirst.c: part0() .. part3() each 5 % of the entry slower, below
    the 12 % threshold, and part6() more than the entry again: the chain
    names part6, the range of the four small ones contributes."""
    attrib("rangefirst", ["pipeline", "part6", "own body of part6"], ["calls 0-3 of pipeline"],
           extra=("--precision-threshold", "12", "--measurements", "25"))


def scenario_added_call():
    """audit.c: a cheap call added at the entry, parse() two layers below 90 %
    slower: the chain goes to parse, the added call is reported with its
    cost, and not as a structural change."""
    for p, rep in attrib("audit", ["serve", "handle", "parse", "own body of parse"]):
        added = [n for n in rep["tree"] if n["kind"] == "added"]
        check([n.get("callee") for n in added] == ["audit_hook"] and
              added[0]["cost_ns"]["centre"] > 0,
              "the added call audit_hook and its cost are not reported")
        check(re.search(r"added call audit_hook  call 0 of serve at \S*audit\.c:\d+:\d+  \+",
                        p.stdout), "the added call is not printed with its cost")
        check("[structural change]" not in p.stdout,
              "the cheap added call is named a structural change")
        # a share against an open end of the added call's interval is printed as such
        check(not re.search(r"(inf|nan)%", p.stdout), "a share is printed as a non-number")


def scenario_removed_call():
    """removed.c: legacy_check() no longer called, decode() 8 units slower."""
    for p, rep in attrib("removed", ["load", "decode", "own body of decode"]):
        gone = [n for n in rep["tree"] if n["kind"] == "removed"]
        check([n.get("callee") for n in gone] == ["legacy_check"] and
              gone[0]["cost_ns"]["high"] < 0,
              "the removed call legacy_check and its cost in the previous revision are not "
              "reported")


DEEP_CHAIN = ["main_loop", "stage_a", "inner_a", "leaf3"]


def scenario_deep():
    """deep.c: leaf3() three layers down 8 units slower, stage_b()'s own body
    4, leaf2() 2: the chain to leaf3, then stage_b and leaf2 in that order,
    in the JSON's contributors too."""
    for p, rep in attrib("deep", DEEP_CHAIN, ["stage_b", "leaf2"]):
        named = [c["function"] for c in rep["contributors"]]
        want = ["stage_b", "leaf2"]
        for f in named:
            if want and f == want[0]:
                want.pop(0)
        check(not want, "the JSON contributors %r miss %r" % (named, want))


def scenario_budget():
    """--max-paths 2 on deep.c: the search is cut short after two paths, the
    contributors are stage_b and stage_c (not dug into), and it says so."""
    for p, rep in attrib("deep", DEEP_CHAIN, ["stage_b", "stage_c"],
                         extra=("--max-paths", "2")):
        check(rep["search_cut_short"] and "cut short by --max-paths 2" in p.stdout,
              "the report does not say the budget cut the search short")


def scenario_time_budget():
    """The comparisons' budget, auto: what --max-time and --max-runs pay for
    (decide_budget.c).  models/noisy.json has identical revisions whose runs
    vary by 15 % (a pair's difference by 21 %, 10 times the 1 % threshold):
    "not slower" takes more pairs than a fixed 3000 holds in most sessions,
    and fewer than the defaults' time and runs pay for.  In 8 sessions, the
    fixed budget leaves at least 3 undecided at its 3000 runs (5 of 12 when
    this was written); auto says "not slower" in every one.  The budget a
    session fixed is in its measurement: half of --max-runs where that binds
    (a model's pair costs 2 ms of its clock: 300 s pay for 150,000), and
    where only the time binds (--max-runs 0, --max-time 20), the runs a
    revision 85 % of the time left pays for at the pace recorded (at
    least 0.75 of the 20 s).  With --max-time 2 the undecided entry reaches
    its budget's last look, all its alpha spent, before the time is out, and
    says that more time can decide it.  A given budget records none and is
    the comparisons' own."""
    fixed = auto = 0
    for seed in range(1, 9):
        p, rep = session_json("noisy", "--seed", str(seed), "--quiet", "--max-runs-per-comparison",
                              "3000")
        e = rep["comparisons"][0]
        check("runs_per_comparison" not in rep["measurement"] and
              e["sequential"]["budget"] == 6000 and p.returncode in (0, 4) and
              e["verdict"] in ("not-slower", "undecided"),
              "seed %d, 3000: exit %d, %s, budget %r, measurement %r" % (
                  seed, p.returncode, e["verdict"], e["sequential"]["budget"],
                  rep["measurement"].get("runs_per_comparison")))
        fixed += e["verdict"] == "undecided"
        p, rep = session_json("noisy", "--seed", str(seed), "--quiet")
        e, m = rep["comparisons"][0], rep["measurement"]
        check(p.returncode == 0 and e["verdict"] == "not-slower" and
              m["runs_per_comparison"] == 15000 and e["sequential"]["budget"] == 30000,
              "seed %d, auto: exit %d, %s after %d runs, budget %r" % (
                  seed, p.returncode, e["verdict"], e["sequential"]["runs"],
                  m.get("runs_per_comparison")))
        auto += e["verdict"] == "not-slower"
    check(fixed >= 3, "a fixed 3000 left %d of 8 undecided" % fixed)
    print("undecided at a fixed 3000: %d of 8; not slower with auto: %d of 8" % (fixed, auto))
    for seed in (1, 2):
        p, rep = session_json("noisy", "--seed", str(seed), "--quiet", "--max-runs", "0",
                              "--max-time", "20")
        m = rep["measurement"]
        paid = m["runs_per_comparison"] * m["pair_s"]
        check(0.75 * 20 <= paid <= 0.85 * 20,
              "--max-time 20: %d runs a revision at %.4f s a pair: %.1f s"
              % (m["runs_per_comparison"], m["pair_s"], paid))
        print("--max-time 20, seed %d: %d runs a revision at %.2f ms a pair, %s after %.1f s"
              % (seed, m["runs_per_comparison"], 1e3 * m["pair_s"],
                 rep["comparisons"][0]["verdict"], rep["time"]["total_s"]))
    p, rep = session_json("noisy", "--seed", "1", "--max-runs", "0", "--max-time", "2")
    q = rep["comparisons"][0]["sequential"]
    check(p.returncode == 4 and q["runs"] == q["budget"] == 2 * rep["measurement"][
        "runs_per_comparison"] and abs(q["alpha_spent"] - q["alpha"]) < 1e-9 and
          not q["max_time_spent"] and rep["time"]["total_s"] <= 2 and
          "More runs (--max-time, which sets the runs a comparison gets; --max-runs)" in p.stdout,
          "--max-time 2: exit %d, %r, %.2f s: %s" % (p.returncode, q, rep["time"]["total_s"],
                                                     p.stdout[-300:]))


def scenario_riders():
    """Nothing is armed inside the entry while it is compared; riders after.

    With --measurements 3 the entry's first round is its first look whose
    interval can exist at its level (3 and 3 values give a rank test no
    interval at 95 %): every round of the entry arms the entry alone (its
    verdict decides the session, and a probe's cost is never taken out
    exactly), and the search still names the chain.  Later, while a
    function's parts are settled, the parts of the call to be dug into next
    ride along: some round arms the parts of two functions."""
    for p, report in attrib("deep", DEEP_CHAIN, ["stage_b", "leaf2"],
                            extra=("--measurements", "3")):
        entry = report["comparisons"][0]["id"]
        rounds = [b for b in report["batches"] if entry in b["comparisons"]]
        first = [r for r in report["runs"] if r["batch"] == rounds[0]["id"] and not r["warmup"]] \
            if rounds else []
        check(rounds and len(first) > 2 * 3,
              "the entry's first round measured %d runs, more than 3 + 3 expected (the first "
              "look whose interval can exist)" % len(first))
        for b in rounds:
            for key in ("arming_previous", "arming_current"):
                items = [i.split("=")[0] for i in b[key].split(";")]
                check(not set(items) - {"out", "entry", "samples", "skip", "stop", "timing"},
                      "a round of the entry arms %r" % b[key])

        def functions(b):
            return {c["function"] for c in report["comparisons"]
                    if c["id"] in b["comparisons"] and c["kind"] != "entry"}
        check(any(len(functions(b)) >= 2 for b in report["batches"]),
              "no round carried the next layer's parts as riders")


WIDE_CHAIN = ["top", "w11", "mid", "leaf"]


def scenario_wide():
    """wide.c: leaf() three layers down under a list of 16 calls, three
    times the work."""
    for seed in SEEDS:
        p, _ = mirrored("wide", seed)
        expect_chain(p, WIDE_CHAIN)


def scenario_wide_linear():
    """LinearFind; the 16 calls of top and its own body share the entry's
    alpha.  At 99.9 % as the real scenario was (it follows the first call
    found slower at all)."""
    a = 0.001 / 17
    for seed in SEEDS:
        p, rep = mirrored("wide", seed, "--search", "linear", "--confidence", "99.9")
        expect_chain(p, WIDE_CHAIN)
        expect_alphas(rep, {"top (entry)": 0.001, "top: call 0 w0": a, "top: call 11 w11": a,
                            # w11 calls spin and mid: 3 comparisons share w11's
                            "w11: call 1 mid": a / 3})


def scenario_wide_seed():
    """BinaryFind three layers down: the calls and the own body share the
    entry's alpha, halves share their range's."""
    for seed in SEEDS:
        p, rep = mirrored("wide", seed, "--search", "seed", "--confidence", "99.9")
        expect_chain(p, WIDE_CHAIN)
        expect_alphas(rep, {"top (entry)": 0.001, "top: calls 0-15 (w0 .. w15)": 0.0005,
                            "top: calls 0-7 (w0 .. w7)": 0.00025,
                            "top: calls 8-15 (w8 .. w15)": 0.00025})


def scenario_exclude():
    """--exclude m?d: digging stops at mid."""
    p = session("wide", "--seed", "1", *SUITE_BUDGET, *SUITE_LAYOUTS, "--exclude", "m?d",
                "--warmups", "2", "--measurements", "10", status=1)
    expect_chain(p, ["top", "w11", "mid"])
    check("[excluded]" in p.stdout, "digging did not stop at the excluded function")


def scenario_depth0():
    """--depth 0 compares the entry alone."""
    p = session("wide", "--seed", "1", *SUITE_BUDGET, *SUITE_LAYOUTS, status=1, depth=0)
    expect_chain(p, ["top"])
    check(len(re.findall(r"^\[\d+\]", p.stdout, re.M)) == 1, "depth 0 compared more than the entry")


def scenario_self():
    """self.c: the entry's own loop three times as long, its calls unchanged."""
    for seed in SEEDS:
        p, _ = mirrored("self", seed, depth=2)
        expect_chain(p, ["crunch", "own body of crunch"])


def scenario_structural():
    """structural.c: the current revision calls validate() between step1()
    and step2(): the entry's call list changed."""
    p, _ = mirrored("structural", 1, depth=2)
    expect_chain(p, ["process", "changed code of process"])
    check("validate" in p.stdout and "2 calls before, 3 now" in p.stdout,
          "the structural change is not described")


def scenario_changed():
    """Calls only one revision makes are one comparison with an ordinary
    verdict (doc/statistics.md, "A session"): in changed.json the current
    revision adds audit and log_it (3 us each) and drops legacy (1 us), so
    the structural change is +5 us, compared as the added calls' time less
    the removed one's in the same runs, at its share of the entry's alpha,
    and found slower; the chain ends at it.  In changed_small.json the same
    change costs +100 ns while parse got 10 % slower: the change's
    comparison finds it below the threshold, the group is not marked, and
    the chain goes to parse."""
    for seed in SEEDS:
        p, rep = session_json("changed", "--seed", str(seed), status=1)
        expect_chain(p, ["handle", "changed code of handle"])
        g = [n for n in rep["tree"] if n["kind"] == "structural"]
        check(len(g) == 1 and g[0].get("comparison") is not None,
              "seed %d: the structural group has no comparison: %r" % (seed, g))
        c = rep["comparisons"][g[0]["comparison"]]
        entry = rep["comparisons"][0]
        check(c["kind"] == "changed" and c["verdict"] == "slower" and g[0]["sign"] == 1
              and 4000 < c["difference"]["interval"]["centre"] < 6000
              and c["sequential"]["alpha"] < entry["sequential"]["alpha"]
              and g[0]["cause"] is None,
              "seed %d: the change's comparison: %s %s %r, alpha %r of the entry's %r"
              % (seed, c["kind"], c["verdict"], c["difference"]["interval"], c["sequential"]["alpha"],
                 entry["sequential"]["alpha"]))
        p, rep = session_json("changed_small", "--seed", str(seed), status=1)
        expect_chain(p, ["handle", "parse", "own body of parse"])
        g = [n for n in rep["tree"] if n["kind"] == "structural"]
        c = rep["comparisons"][g[0]["comparison"]] if g and g[0].get("comparison") is not None \
            else None
        check(c and c["kind"] == "changed" and c["verdict"] not in ("slower", "faster")
              and g[0]["sign"] == 0 and 0 < c["difference"]["interval"]["centre"] < 300,
              "seed %d: a change of 100 ns: %r" % (seed, c and (c["verdict"], c["difference"])))
    print("the structural change compared as one part: slower at +5 us, not marked at +100 ns")


def scenario_external():
    """external.c: the slower call is to a library's usleep: named, and said external."""
    p, _ = mirrored("external", 1)
    expect_chain(p, ["work", "usleep"])
    check("[external" in p.stdout, "the call is not named external")


def demo(seed, *args, status=1):
    """The demo (demo/current/demo.c) as its model, at depth 2 as the README runs it."""
    return mirrored("demo", seed, *args, status=status, depth=2)


DEMO_CHAIN = ["run", "bridge", "failure_run"]


def scenario_seed_demo():
    """--search seed is the method's BinaryFind, the thesis's case study:
    DiggingFind hands each slower function's alpha on, its call list and its
    own body share it, a range's halves share the range's
    (doc/statistics.md); the chain's detail lines start at the entry; no
    attribution tree."""
    for seed in SEEDS:
        p, rep = demo(seed, "--search", "seed", "--confidence", "99.9")
        expect_chain(p, DEMO_CHAIN)
        expect_alphas(rep, {
            "run (entry)": 0.001, "run: calls 0-1 (bridge .. ok_main)": 0.0005,
            "run: call 0 bridge": 0.00025, "bridge: calls 0-1 (foo .. failure_run)": 0.000125,
            "bridge: call 0 foo": 0.0000625, "bridge: call 1 failure_run": 0.0000625})
        detail = p.stdout.split("Bottleneck chain:", 1)[1].splitlines()[1:4]
        check(len(detail) >= 3 and detail[0].startswith("  run ") and "→ bridge" in detail[1]
              and "→ failure_run" in detail[2],
              "the chain's steps are not run, bridge, failure_run from the entry")
        check("Attribution tree" not in p.stdout, "--search seed printed an attribution tree")


def scenario_welch():
    """--test welch finds the demo's chain."""
    for seed in SEEDS:
        p, _ = demo(seed, "--test", "welch")
        expect_chain(p, DEMO_CHAIN)


def scenario_quiet():
    """--quiet prints the report at the end, the verdict with its chain and
    tree, and nothing of the comparisons as they are decided or the noise
    summary."""
    p, _ = demo(1, "--quiet")
    expect_chain(p, DEMO_CHAIN)
    check(p.stdout.startswith("Bottleneck chain: ") and "\nAttribution tree " in p.stdout,
          "--quiet does not print the chain first, then the attribution tree")
    check(not re.search(r"^(\[\d+\] |Noise: |Runs: )", p.stdout, re.M),
          "--quiet prints comparison, noise or runs lines")
    check(not re.search(r"^pinpoint: (?!warning: |error: )", p.stderr, re.M),
          "--quiet prints messages that are neither warnings nor errors")


def scenario_run_order():
    """Each batch's kept runs come in pairs, one run of each revision, which
    first drawn at random with as many pairs of each order (one more of
    either for an odd count), both runs of a pair in layouts of the same
    index; the same for the same --seed, another for another seed; the
    report records the seed and compares the pairs (duets: the model's runs
    are; the real duet scenario checks the CPUs).  --runs shuffled: a random
    order with as many of each revision, not in pairs.  The order is the
    driver's (measure/), the same whatever the backend."""
    def first_orders(seed, *extra):
        # the entry and its calls: batches enough (the entry's looks, then its
        # layer's) for the order of each
        p, report = session_json("demo", "--seed", str(seed), *SUITE_BUDGET, *SUITE_LAYOUTS,
                                 *extra, status=1, depth=1)
        check(report["measurement"]["seed"] == seed,
              "the report gives seed %r, not %d" % (report["measurement"]["seed"], seed))
        paired = "--runs" not in extra
        check(report["measurement"]["design"] == ("duet" if paired else "shuffled"),
              "the report gives the runs' design %r" % report["measurement"]["design"])
        diffs = [c["difference"] for c in report["comparisons"] if c.get("difference")]
        check(diffs and all(d["paired"] == paired for d in diffs),
              "%d comparisons, not all %s" % (len(diffs), "paired" if paired else "unpaired"))
        orders, layouts = {}, {}
        for r in report["runs"]:
            if r["batch"] > 0 and not r["warmup"]:
                orders.setdefault(r["batch"], []).append(r["revision"][0])
                layouts.setdefault(r["batch"], []).append(r["layout"])
        unpaired = 0
        for b, o in orders.items():
            check(o.count("p") == o.count("c"),
                  "batch %d ran %d previous and %d current runs" % (b, o.count("p"), o.count("c")))
            pairs = ["".join(o[i:i + 2]) for i in range(0, len(o), 2)]
            if any(q not in ("pc", "cp") for q in pairs):
                unpaired += 1
                check(not paired, "batch %d is not in pairs: %s" % (b, "".join(o)))
                continue
            check(not paired or abs(pairs.count("pc") - pairs.count("cp")) <= 1,
                  "batch %d: %d pairs previous first, %d current first"
                  % (b, pairs.count("pc"), pairs.count("cp")))
            lay = layouts[b]
            check(not paired or all(lay[i] == lay[i + 1] for i in range(0, len(lay), 2)),
                  "batch %d: a pair's runs in layouts of different indices: %r" % (b, lay))
        check(paired or unpaired > 0, "--runs shuffled: every batch of %d came in pairs"
              % len(orders))
        abba = [o for o in orders.values() if "".join(o) == ("pccp" * len(o))[:len(o)]]
        check(len(orders) >= 2 and len(abba) < len(orders),
              "%d batches, %d of them in ABBA order" % (len(orders), len(abba)))
        return "".join(orders[min(orders)]) if orders else ""

    a, b, c = first_orders(7), first_orders(7), first_orders(8)
    print("first batch, seed 7: %s, again: %s; seed 8: %s" % (a, b, c))
    check(a == b, "the same --seed gave the first batch two orders: %s and %s" % (a, b))
    check(a != c, "seeds 7 and 8 gave the first batch the same order %s" % a)
    print("shuffled, seed 7: %s" % first_orders(7, "--runs", "shuffled"))


def indirect_checks(p, report, source, target, line, share):
    """The chain goes through the indirect call into @target, defined at
    @source:@line, which the text and JSON reports name with that place;
    the call's targets are listed, @target with a share of its time within
    @share (low, high), slower in its own comparison."""
    where = "through its pointer into "
    steps = [l for l in p.stdout.splitlines() if where in l and ("→ " + target) in l]
    check(steps and steps[0].split(where)[1].split()[0].endswith("%s:%d" % (source, line)),
          "the chain does not name %s at %s:%d" % (target, source, line))
    step = [n for n in report["bottleneck_chain"] if "into" in n]
    check(len(step) == 1 and step[0]["into"]["function_demangled"] == target and
          step[0]["into"]["file"].endswith(source) and step[0]["into"]["line"] == line,
          "the JSON chain's indirect step is %r" % step)
    shares = {t["name"]: t["share"] for t in (step[0].get("targets", []) if step else [])}
    check(len(shares) == 2 and share[0] <= shares.get(target, -1) <= share[1],
          "the call's targets are %r, %s with %g-%g of its time expected" %
          (shares, target, share[0], share[1]))
    check(re.search(r"^\s+targets: %s \d+ %% \(\+[\d.]+ \w+ \[[^]]+\] slower\), "
                    % re.escape(target), p.stdout, re.M),
          "no targets line under the indirect call, %s slower on its own" % target)
    verdicts = {t["name"]: t["verdict"] for t in (step[0].get("targets", []) if step else [])}
    check(verdicts.get(target) == "slower",
          "the JSON's targets are %r, %s slower expected" % (verdicts, target))


def scenario_indirect_scan():
    """indirect.c: scan()'s one indirect call goes to cmp_keys() nine times
    in ten, 4 units slower a call: the chain goes through the pointer into
    cmp_keys, 9000 of the call's 9200 units (97.8 %)."""
    for p, rep in attrib("scan", ["job", "scan", "cmp_keys", "own body of cmp_keys"]):
        indirect_checks(p, rep, "indirect.c", "cmp_keys", line_of("indirect.c", "long cmp_keys("),
                        (0.97, 0.985))


def scenario_indirect_both():
    """indirect.c -DBOTH: cmp_keys() 4 units slower in 1800 calls, cmp_names()
    36 in 200: half of the difference each, where 80 % is needed.  Each is
    compared on its own in the same runs, both are slower, and the search
    digs into each, under the call; the one not on the chain contributes."""
    for seed in SEEDS:
        p, report = mirrored("scanboth", seed)
        got = chain(p).split(" → ")
        check(got[:3] == ["job", "scan", "<indirect>"] and len(got) == 5 and
              got[3] in ("cmp_keys", "cmp_names") and got[4] == "own body of " + got[3],
              "chain is %r: job → scan → <indirect> → a comparator → its own body expected"
              % chain(p))
        other = "cmp_names" if got[3:4] == ["cmp_keys"] else "cmp_keys"
        check([c for c in report["contributors"] if c["function"] == other],
              "the other comparator %s is not a further contributor" % other)
        tree = report["tree"]
        call = [n for n in tree if n["kind"] == "call" and n.get("targets")]
        kids = [n for n in tree if call and n["parent"] == call[0]["id"]]
        check(sorted(n["into"]["function"] for n in kids) == ["cmp_keys", "cmp_names"],
              "the comparators are not nodes under the indirect call: %r" % kids)
        check(all(n["accounting"] is not None for n in kids),
              "a comparator under the call was not searched (no accounting)")
        check(re.search(r"^\s+targets: cmp_\w+ \d+ % \([^)]* slower\), "
                        r"cmp_\w+ \d+ % \([^)]* slower\)$", p.stdout, re.M),
              "no targets line with each target's own comparison under the call")


def scenario_indirect_external():
    """extcall.c: memchr() through a pointer, four times the buffer: the call
    and its target, outside every table, are named, and the search stops
    there."""
    p, report = mirrored("extcall", 1)
    expect_chain(p, ["job", "scan", "<indirect>"])
    stop = re.compile(r"\[indirect call into (libc\.so\.6|\w*memchr\w*) \(not instrumented\)\]")
    check([l for l in p.stdout.splitlines() if "→ <indirect>" in l and stop.search(l)],
          "the chain's last step does not stop at the uninstrumented target")
    last = report["bottleneck_chain"][-1]
    targets = last.get("targets", [])
    check(len(targets) == 1 and targets[0]["name"].startswith("ext:") and
          targets[0]["verdict"] == "slower" and "into" not in last,
          "the call's one target is not reported outside the instrumented modules, slower: %r"
          % targets)
    check(re.search(r"^\s+targets: ext:\S+ 100 % \(\+", p.stdout, re.M),
          "no targets line naming the external target")


def scenario_groups():
    """manysites.c: mix() 1.5 % of the entry slower at each of its twelve
    calls, the threshold 5 %: no call alone names it, their group (18 %)
    does, with each call's figure and place."""
    first = line_of("manysites.c", "mix(0);")
    for p, report in attrib("manysites", ["rounds", "12 calls of mix", "own body of mix"],
                            extra=("--precision-threshold", "5")):
        tree = report["tree"]
        group = [n for n in tree if n["kind"] == "group"]
        if not check(len(group) == 1 and group[0]["callee"] == "mix" and
                     len(group[0]["sites"]) == 12,
                     "one group of the twelve calls of mix expected, got %r" % group):
            continue
        g = group[0]
        lines = [x["line"] for x in g["sites"]]
        check(lines == list(range(first, first + 12)),
              "the group's calls are at lines %r, %d.. expected" % (lines, first))
        # the calls are the group: none of them is a node of its own beside it
        check(not any(n["kind"] == "call" and n.get("callee") == "mix" for n in tree),
              "a call of mix is named beside its group")
        # the premise: no call is a regression alone
        check(not any(x["sign"] > 0 for x in g["sites"]),
              "a call of mix alone was found slower by the threshold: the scenario shows "
              "nothing")
        # each call's figure beside the group's: the group is their sum in each run
        total = sum(x["cost_ns"]["centre"] for x in g["sites"] if x["cost_ns"])
        check(0.7 * g["cost_ns"]["centre"] <= total <= 1.3 * g["cost_ns"]["centre"],
              "the calls' differences add up to %g, the group's is %g"
              % (total, g["cost_ns"]["centre"]))
        check(len(re.findall(r"^ +\S? ?call \d+ at \S*manysites\.c:\d+:\d+  [+-]", p.stdout,
                             re.M)) == 12, "the text report does not list the group's twelve calls")
        check(re.search(r"12 calls of mix  in rounds at \S*manysites\.c:%d:\d+, :%d:"
                        % (first, first + 1), p.stdout), "the group's places are not printed")


def scenario_groups_off():
    """--groups off: call sites only; the slowdown ends at a range (or the
    halves tie), mix is not named and no group printed."""
    for seed in SEEDS:
        p, _ = mirrored("manysites", seed, "--precision-threshold", "5", "--groups", "off",
                        status=None)
        check("mix" not in chain(p), "--groups off still names mix: %r" % chain(p))
        check("calls of" not in p.stdout, "--groups off printed a group")


def scenario_shared_steps():
    """shared.c: lookup() 2 % of the entry slower in each of step1() ..
    step4(), the threshold 5 %: no call of job() names it; one layer down,
    the callee they share is named, beside job's parts, not one of them;
    --groups off does not name it."""
    for seed in SEEDS:
        p, report = mirrored("sharedsteps", seed, "--precision-threshold", "5")
        check_attribution(p, report, ["job", "lookup", "own body of lookup"])
        tree = report["tree"]
        shared = [n for n in tree if n["kind"] == "shared"]
        if not check(len(shared) == 1 and shared[0]["into"]["function"] == "lookup",
                     "one shared callee, lookup, expected: %r" % shared):
            continue
        check(re.search(r"called from (step\d, )*step\d and step\d, calls of job each slower",
                        shared[0]["detail"] or ""),
              "the shared callee does not say which calls call it: %r" % shared[0]["detail"])
        steps = [n for n in tree if n["parent"] == 0 and n["kind"] == "call"]
        check(not any(n["sign"] > 0 for n in steps),
              "a step alone was found slower by the threshold: the scenario shows nothing")
        acc = tree[0]["accounting"]
        check(not (acc and any(x["node"] == shared[0]["id"] for x in acc["parts"])),
              "the shared callee is counted as a part of job")
        off = session("sharedsteps", "--seed", str(seed), *SUITE_BUDGET, *SUITE_LAYOUTS,
                      "--precision-threshold", "5", "--groups", "off")
        check("lookup" not in chain(off), "--groups off still names lookup: %r" % chain(off))


def count_model(d, paint_current):
    """count.json with paint's current revision changed as @paint_current, in @d."""
    with open(model("count")) as f:
        m = json.load(f)
    for fn in m["functions"]:
        if fn["name"] == "paint":
            fn["current"] = paint_current
    path = os.path.join(d, "count.json")
    with open(path, "w") as f:
        json.dump(m, f)
    return path


def scenario_counts():
    """Counts beside times (pinpoint/session/counts.c).  count.c: render()
    calls paint() 100 times per execution in the previous revision and 115 in
    the current one, each call as before: the chain's paint step is "more
    calls", the counts 100 and 115 per execution of render, the time per call
    unchanged, and the text says so in words.  The same with each call 30 %
    slower too: "both", the time per call's difference in the sentence.
    twoslow's steps, each call slower at the same count: "slower calls", and
    no sentence.  Every run records its executions."""
    # seeded: the time per call's interval holds 0 at its level, not in every session
    p, rep = session_json("count", "--seed", "1", status=1)
    expect_chain(p, ["render", "paint"])
    cmp = {c["label"]: c for c in rep["comparisons"]}
    # (paint's whole and own body ride along in render's runs, never decided)
    check(not any(c["label"].startswith("paint:") and c.get("verdict") for c in rep["comparisons"]),
          "paint dug into: %r" % [(c["label"], c.get("verdict")) for c in rep["comparisons"]])
    paint = cmp["render: call 1 paint"]
    ex = paint["executions"]
    check(ex["previous"] == 100 and ex["current"] == 115 and ex["changed"],
          "paint's executions per render: %r, want 100 and 115, changed" % ex)
    per = paint["per_execution_ns"]
    check(per is not None and per["low"] <= 0 <= per["high"],
          "paint's time per call changed: %r" % per)
    check(paint["cause"] == "more calls", "paint's cause %r, want more calls" % paint["cause"])
    step = [n for n in rep["bottleneck_chain"] if n.get("callee") == "paint"]
    check(len(step) == 1 and step[0]["cause"] == "more calls",
          "the chain's paint step: %r" % [(n.get("callee"), n.get("cause")) for n in step])
    said = "[called 1.15x as often (100 → 115 per execution of render), each call the same]"
    lines = [l for l in p.stdout.splitlines() if l.lstrip().startswith("→ paint ")]
    check(len(lines) == 1 and said in lines[0], "the chain's paint line says %r, want %r"
          % (lines, said))
    check("[more calls: what changed is how often it is called" in lines[0],
          "the chain's paint line does not say why it ends there: %r" % lines)
    layout = cmp["render: call 0 layout"]
    check(layout["executions"]["previous"] == layout["executions"]["current"] == 1 and
          layout["cause"] is None, "layout's executions and cause: %r %r"
          % (layout["executions"], layout["cause"]))
    runs = [r for r in rep["runs"] if r["batch"] > 0]
    check(runs and all(len(r["executions"]) == len(r["values_ns"]) for r in runs),
          "runs without their executions")
    with tempfile.TemporaryDirectory() as d:
        path = count_model(d, {"self_ns": 3900})
        cmd = [ARGS.pinpoint, "--model", path, "--entry", "render", "--depth", "2",
               "--seed", "1", "--json", os.path.join(d, "r.json")]
        print("$ " + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        with open(os.path.join(d, "r.json")) as f:
            labels = {c["label"]: c for c in json.load(f)["comparisons"]}
        both = labels["render: call 1 paint"]
        # each call slower too: into paint, as any slower call
        check(any(k.startswith("paint:") and c.get("verdict") for k, c in labels.items()),
              "paint with slower calls not dug into: %r" % list(labels))
        per = both["per_execution_ns"]
        check(p.returncode == 1 and both["cause"] == "both" and per["low"] > 0 and
              600 < per["centre"] < 1200,
              "paint 1.15x as often, each call 900 ns slower: cause %r, per call %r"
              % (both["cause"], per))
        check(re.search(r"\[called 1\.15x as often \(100 → 115 per execution of render\), "
                        r"each call \+[0-9.]+ ns \[[0-9.]+ ns, [0-9.]+ ns\]\]", p.stdout),
              "no sentence with the time per call:\n" + p.stdout)
    p, rep = session_json("twoslower", "--seed", "1", status=1)
    steps = {n.get("callee"): n for n in rep["tree"] if n["kind"] == "call"}
    check(steps["step3"]["cause"] == "slower calls" and steps["step1"]["cause"] == "slower calls",
          "twoslow's steps: %r" % {k: v["cause"] for k, v in steps.items()})
    check("called " not in p.stdout, "a sentence about counts that did not change")


def scenario_calls_ran():
    """The calls that ran (pinpoint/search/attrib_count.c).  interp.json:
    an interpreter's loop of 140 calls to 12 operations, of which 7 run
    (and an eighth, call 100, only in the current revision); op5, called
    from calls 5, 17, 41 and 77, got 30 % slower.  The list is counted
    before it is searched, and only the calls that ran are measured: call
    by call, with op5's four calls grouped over the whole list (far more
    than 24 places apart), none of the 132 that never ran, no range of the
    list halved.  The counting runs are comparisons of kind count, never
    decided; the report says how many calls ran."""
    p, rep = session_json("interp", "--seed", "1", status=1)
    expect_chain(p, ["job", "interp", "4 calls of op5", "own body of op5"])
    counted = [c for c in rep["comparisons"] if c["kind"] == "count"]
    check(counted and not any(c["decided"] for c in counted),
          "count comparisons: %d, decided %r" % (len(counted), [c["decided"] for c in counted]))
    calls = {c["first_call"] for c in rep["comparisons"]
             if c["kind"] == "range" and c["function"] == "interp" and c.get("decided")
             and c["first_call"] == c["last_call"]}
    check(calls == {5, 17, 40, 41, 77, 90, 100, 120},
          "interp's calls measured: %r, want the 8 that ran" % sorted(calls))
    # the list's two halves, added up from its calls in the same runs, and no other range
    ranges = sorted((c["first_call"], c["last_call"]) for c in rep["comparisons"]
                    if c["kind"] == "range" and c["function"] == "interp" and c.get("decided")
                    and c["first_call"] != c["last_call"])
    check(len(ranges) == 2 and ranges[0][0] == 0 and ranges[0][1] + 1 == ranges[1][0] and
          ranges[1][1] == 139, "interp was halved: %r" % ranges)
    node = [n for n in rep["tree"] if n["kind"] == "call" and n.get("callee") == "interp"]
    check(len(node) == 1 and node[0]["calls_counted"] == {"listed": 140, "ran": 8, "rounds": 2},
          "interp's calls_counted: %r" % (node[0]["calls_counted"] if node else None))
    check("(8 of its 140 calls ran; counted in 2 rounds of runs)" in p.stdout,
          "the text does not say how many of interp's calls ran:\n" + p.stdout)
    added = [c for c in rep["comparisons"] if c["kind"] == "range" and c["first_call"] == 100]
    check(len(added) == 1 and added[0]["executions"]["previous"] == 0 and
          added[0]["executions"]["current"] == 20,
          "call 100 (only the current revision runs it): %r"
          % [c.get("executions") for c in added])
    group = [n for n in rep["tree"] if n["kind"] == "group"]
    check(len(group) == 1 and [x["call"] for x in group[0]["sites"]] == [5, 17, 41, 77],
          "op5's group: %r" % [[x.get("call") for x in n["sites"]] for n in group])
    # a short list's counts plan its arming (scenario_arm_budget), the report
    # says nothing of them: every call of it is measured anyway
    p, rep = session_json("twoslow", "--seed", "1", status=1)
    check(not any(n["calls_counted"] for n in rep["tree"]), "a short list's counts reported")


def scenario_list_groups():
    """A long list's callee groups over the whole of it (attrib_halve.c,
    pp_attrib_list_groups()).  interpwide.json: an interpreter's loop of 48
    calls to 12 operations, every one of which runs, twice as many as are
    measured call by call; op5, called from calls 5, 17, 29 and 41, a
    quarter of the list apart, got 30 % slower: +1.5 us a call, half the
    threshold, +6 us together.  The list's first batch arms op5's calls one
    by one beside its halves and quarters and compares them as one group:
    the chain runs through the four calls, with each call's own figure (the
    same, not slower alone) beside the group's, and no call of op5 and no
    range of the list is named beside it.  Before, the halving grouped a
    callee's calls within a half only: "2 calls of op5"."""
    for seed in SEEDS:
        p, rep = session_json("interpwide", "--seed", str(seed), status=1)
        expect_chain(p, ["job", "interp", "4 calls of op5", "own body of op5"])
        tree = rep["tree"]
        group = [n for n in tree if n["kind"] == "group"]
        if not check(len(group) == 1 and [x["call"] for x in group[0]["sites"]] == [5, 17, 29, 41],
                     "op5's group over the list: %r"
                     % [[x.get("call") for x in n["sites"]] for n in group]):
            continue
        sites = group[0]["sites"]
        check(all(x["cost_ns"] for x in sites), "a call of the group has no figure: %r" % sites)
        # the premise: no call alone is a regression by the threshold
        check(not any(x["sign"] > 0 for x in sites),
              "a call of op5 alone was found slower: the scenario shows nothing")
        total = sum(x["cost_ns"]["centre"] for x in sites if x["cost_ns"])
        check(0.7 * group[0]["cost_ns"]["centre"] <= total <= 1.3 * group[0]["cost_ns"]["centre"],
              "the calls' differences add up to %g, the group's is %g"
              % (total, group[0]["cost_ns"]["centre"]))
        check(not any(n["kind"] in ("call", "range") and n.get("function") == "interp"
                      for n in tree), "a call or range of interp is named beside the group")
        check(len(re.findall(r"^ +\S? ?call \d+ at interp\.c:\d+:\d+  [+-]", p.stdout, re.M)) == 4,
              "the text report does not list the group's four calls with their figures")


def scenario_arm_budget():
    """The arming plan (pinpoint/search/attrib_budget.c).  hotleaf.json: the
    entry's inner function calls a 30 ns distance function 10^5 times an
    execution, 15 % slower in the current revision; timing each call costs
    15 ns that the runtime takes out, and leaves 40 ns in (60 in the current
    revision: the timer reads serialise the core).  Its probes would add 45
    % to a run, beyond the default budget of 5 %: the call is left untimed,
    its time in layer's own body, which the chain ends at, with the call
    named and why, and a figure that matches the entry's (no inflation).
    With --arm-budget 100 it is timed, and its figure is inflated."""
    p, rep = session_json("hotleaf", "--seed", "1", status=1)
    expect_chain(p, ["search", "layer", "own body of layer"])
    last = rep["bottleneck_chain"][-1]
    check(re.search(r"not timed here \(--arm-budget 5 %\): call 0 dist \(knn\.c:52\): "
                    r"100000 calls an execution of the entry, .* its probes \+4[0-9] % of the "
                    r"run: beyond the arming budget", last["detail"] or ""),
          "the own body does not name the untimed call: %r" % last["detail"])
    # measured alone (it is beyond the budget, not too short), it came out more
    # than the own body that holds it: no node, the own body says why
    check("call 0 dist, measured alone, came out" in last["detail"] and
          "more than this own body that holds it" in last["detail"],
          "the call measured alone is not said: %r" % last["detail"])
    entry = rep["bottleneck_chain"][0]["cost_ns"]["centre"]
    cost = last["cost_ns"]["centre"]
    check(0.8 * entry <= cost <= 1.25 * entry and last["inflated"] is None,
          "the own body's +%.0f ns against the entry's +%.0f ns" % (cost, entry))
    # compared alone, in a batch of its own: never with layer's parts
    alone = [c for c in rep["comparisons"] if c["kind"] == "range" and
             c["function"] == "layer" and c["first_call"] == 0 and c.get("decided")]
    parts = {c["batch"] for c in rep["comparisons"] if c["function"] == "layer" and
             c["kind"] == "self"}
    check(len(alone) == 1 and alone[0]["batch"] not in parts,
          "layer's call of dist: %r, layer's parts in batches %r"
          % ([c["batch"] for c in alone], parts))
    check(rep["options"]["arm_budget"] == 5, "options.arm_budget %r" % rep["options"]["arm_budget"])
    # layer's line: what its parts' probes were planned to cost, and the call untimed
    layer = [n for n in rep["tree"] if n.get("callee") == "layer"]
    check(len(layer) == 1 and layer[0]["armed"] is not None and
          layer[0]["armed"]["untimed_calls"] == 1 and
          0 <= layer[0]["armed"]["share_of_run"] <= 0.05,
          "layer's arming plan: %r" % (layer[0]["armed"] if layer else None))
    check(re.search(r"\(armed: its parts' probes (\+[0-9.]+|under 0\.1) % of the run, 1 call "
                    r"untimed\)",
                    p.stdout), "the tree does not say layer's arming plan:\n" + p.stdout)
    # a budget that holds it: timed, and its figure several times the entry's
    p, rep = session_json("hotleaf", "--seed", "1", "--arm-budget", "100", status=1)
    dist = [n for n in rep["tree"] if n.get("callee") == "dist"]
    check(len(dist) == 1 and dist[0]["cost_ns"]["centre"] > 2 * entry,
          "with --arm-budget 100, dist: %r" % [n["cost_ns"] for n in dist])
    # and its line says what its own probes cost: 10^5 calls of 15 ns, of a 3.4 ms execution
    check(len(dist) == 1 and 0.40 <= (dist[0]["probes_share_of_run"] or 0) <= 0.50,
          "dist's probes_share_of_run: %r" % [n["probes_share_of_run"] for n in dist])
    check(re.search(r"\+ dist  call 0 of layer .*\(armed: its probes \+4[0-9] % of the run\)",
                    p.stdout), "dist's line does not say what its probes cost:\n" + p.stdout)


def scenario_measured_alone():
    """A call made once a row, beyond the arming budget, named anyway.
    perrow.json: an interpreter's exec calls next() 40,000 times an
    execution (60 ns, 75 ns in the current revision; its probes 10 ns a
    call, +9 % of a run) and column() as often (5 ns: too short to time).
    Both are left untimed, and exec's own body holds the slowdown; then
    each is measured alone, in runs of its own (next first: its counting
    runs differed), and next is named under the own body with what its
    probes cost; column, the same in both revisions, is no node.  The chain
    names next as a step of exec, as it would had the plan timed it with
    exec's other parts (a call near the budget goes either way from one
    session to the next): the own body that holds it is in the tree, not
    on the chain."""
    p, rep = session_json("perrow", "--seed", "1", status=1)
    expect_chain(p, ["query", "exec", "next"])
    tree = {n["id"]: n for n in rep["tree"]}
    nxt = [n for n in rep["tree"] if n.get("callee") == "next"]
    check(len(nxt) == 1 and tree[nxt[0]["parent"]]["kind"] == "self" and
          tree[nxt[0]["parent"]]["chain"],
          "next is not under exec's own body, on the chain, in the tree: %r" % nxt)
    step = rep["bottleneck_chain"][-1]
    check(40000 * 15 * 0.7 <= step["cost_ns"]["centre"] <= 40000 * 15 * 1.3,
          "next's cost %r, want about +600 us" % step["cost_ns"])
    check(re.search(r"measured alone, in runs of its own, part of the own body: beyond the "
                    r"arming budget \(its probes add 9\.[0-9] % to a run, --arm-budget 5 %\)",
                    step["stop"] or ""),
          "next's stop: %r" % step["stop"])
    own = [n for n in rep["tree"] if n["kind"] == "self" and n["function"] == "exec"]
    check(own and re.search(r"call 1 column \(vdbe\.c:190\): 40000 calls .* too short to time",
                            own[0]["detail"] or ""),
          "column not said too short: %r" % [n["detail"] for n in own])
    measured = {c["first_call"] for c in rep["comparisons"] if c["kind"] == "range" and
                c["function"] == "exec" and c.get("decided")}
    check(measured == {0, 1, 2}, "exec's calls compared: %r, want next and column alone, and "
          "step" % measured)
    check(not any(n.get("callee") == "column" for n in rep["tree"]), "column is a node")


def confirm_line(p, word):
    lines = [l for l in p.stdout.splitlines() if l.startswith(word)]
    check(len(lines) == 1, "no line %r... under the chain:\n%s" % (word, p.stdout))
    return lines[0] if lines else ""


def scenario_confirm():
    """The chain's claim put to the test (pinpoint/search/confirm.c): the
    previous revision with the chain's last part delayed by its difference,
    against the current one at the entry.

      * demo: list_size's +9.7 ms is the claim, but list_size runs 200000
        times an execution of run, too often for its probes' own cost: the
        delay goes one chain step up, at failure_run's one call, and says
        why; "confirmed", the delay the claim, what the runs delayed counted;
        the what-if's runs are batches of its own, the delay in the previous
        revision's arming only;
      * count: paint called 115 times where it was 100, each call the same:
        the chain ends at the call, the delay spread over its calls, one call
        in K by K times the difference per call (2 us or more), "confirmed";
      * twoslow: the chain names inner's own body (+10 us of +16 us; step1
        got 6 us slower too): "explains" about 62 %, the rest still slower,
        where the line names the further contributor the search found,
        step1's own body; with --max-paths 1 the search had left step1
        slower and unexamined, and after the what-if it goes on into it
        (continued_into 1, its own body the contributor, the line says so),
        where with --confirm off step1 stays cut; the chain's own inner,
        cut too, stays as it is;
      * added: the chain ends at an added call, which no delay stands for:
        the entry delayed in its place;
      * --depth 0: no part below the entry, "not tried";
      * --confirm off: no what-if, no line, confirmation null."""
    p, rep = session_json("demo", "--seed", "3", status=1)
    c = rep["confirmation"]
    check(c and c["verdict"] == "confirmed", "demo: confirmation %r" % c)
    if not c or c["verdict"] != "confirmed":
        return
    tree = {n["id"]: n for n in rep["tree"]}
    claim, at = tree[c["claim_node"]], tree[c["node"]]
    check(claim["chain"] and claim.get("callee") == "list_size" and
          c["claim_ns"] == claim["cost_ns"]["centre"] and
          at.get("callee") == "failure_run" and claim["parent"] == at["id"] and
          "runs too often" in c["moved"],
          "demo: the claim %r, delayed at %r: %r" % (claim, at, c))
    cmps = {x["id"]: x for x in rep["comparisons"]}
    q = cmps.get(c["comparison"], {})
    check(q.get("kind") == "confirm" and q.get("decided"), "demo: its comparison %r" % q)
    check(c["delay_every"] == 1 and c["executions"] == 1 and
          abs(c["delay_ns"] - c["claim_ns"]) <= 1 and c["delayed_executions"] == 1,
          "demo: delay %r" % c)
    e = c["explained_share"]
    check(e["low"] <= 1 <= e["high"], "demo: explained share %r" % e)
    line = confirm_line(p, "Confirmed: the previous revision with failure_run (call 1 of "
                           "bridge) delayed by ")
    check("in place of list_size: it runs too often" in line and line == c["sentence"],
          "demo: the line %r, the JSON's %r" % (line, c["sentence"]))
    batches = [b for b in rep["batches"] if c["comparison"] in b["comparisons"]]
    check(batches and all(b["comparisons"] == [c["comparison"]] and
                          ";delay=" in b["arming_previous"] and
                          "delay=" not in b["arming_current"] for b in batches),
          "demo: its batches %r" % batches)
    check(rep["time"]["confirm_runs"] == sum(1 for r in rep["runs"] if r["batch"] in
                                             {b["id"] for b in batches}),
          "demo: the what-if's runs in the time: %r" % rep["time"])

    p, rep = session_json("count", "--seed", "2", status=1)
    c = rep["confirmation"]
    check(c and c["verdict"] == "confirmed" and c["part"] == "paint (call 1 of render)" and
          c["moved"] is None and abs(c["executions"] - 100) < 0.5 and c["delay_every"] > 1 and
          c["delay_ns"] >= 2000 and
          abs(c["delay_ns"] / c["delay_every"] * c["executions"] - c["claim_ns"]) <=
          0.01 * c["claim_ns"] and
          abs(c["delayed_executions"] - c["executions"] / c["delay_every"]) <= 1,
          "count: confirmation %r" % c)

    p, rep = session_json("twoslow", "--seed", "1", status=1)
    c = rep["confirmation"]
    # inner's +10 us of the entry's +16 us
    check(c and c["verdict"] == "explains" and
          c["explained_share"]["low"] <= 10 / 16 <= c["explained_share"]["high"] and
          c["difference"]["low"] > 0, "twoslow: confirmation %r" % c)
    line = confirm_line(p, "Explains ")
    check("of the slowdown: with the own body of inner delayed by" in line and
          "something else changed too; the search's further contributors: own body of "
          "step1 +" in line, "twoslow: %r" % line)

    check(c and c["continued_into"] == 0, "twoslow: continued %r" % c)

    def step1(rep):
        """step1's node and its parts."""
        n = [x for x in rep["tree"] if x["parent"] == 0 and x.get("callee") == "step1"]
        return n[0] if n else {}, [x for x in rep["tree"] if n and x["parent"] == n[0]["id"]]

    p, rep = session_json("twoslow", "--seed", "1", "--max-paths", "1", status=1)
    c = rep["confirmation"]
    node, parts = step1(rep)
    inner = [x for x in rep["tree"] if x.get("callee") == "inner"]
    check(c and c["verdict"] == "explains" and c["continued_into"] == 1 and
          node.get("stop") is None and
          [x["kind"] for x in parts if x["kind"] == "self"] == ["self"] and
          [x["function"] for x in rep["contributors"]] == ["step1"] and
          rep["contributors"][0]["node"] in {x["id"] for x in parts} and
          inner and inner[0]["chain"] and inner[0]["stop"] == "budget: --max-paths reached" and
          rep["search_cut_short"],
          "twoslow --max-paths 1: confirmation %r, step1 %r, its parts %r, contributors %r"
          % (c, node, parts, rep["contributors"]))
    line = confirm_line(p, "Explains ")
    check("the search's further contributors: own body of step1 +" in line and
          "(after the what-if, the search went on into 1 call --max-paths had left); " in line and
          "the search went on into 1 call --max-paths had left" in p.stderr,
          "twoslow --max-paths 1: %r" % line)
    p, rep = session_json("twoslow", "--seed", "1", "--max-paths", "1", "--confirm", "off",
                          status=1)
    node, parts = step1(rep)
    check(node.get("stop") == "budget: --max-paths reached" and not parts,
          "twoslow --max-paths 1 --confirm off: step1 %r, its parts %r" % (node, parts))

    p, rep = session_json("added", "--seed", "1", status=1)
    c = rep["confirmation"]
    check(c and c["verdict"] == "confirmed" and c["part"] == "handle (the entry)" and
          c["node"] == 0 and "no delay can stand for" in c["moved"],
          "added: confirmation %r" % c)

    p, rep = session_json("demo", "--seed", "3", status=1, depth=0)
    c = rep["confirmation"]
    check(c and c["verdict"] == "not tried" and c["comparison"] is None and
          "no part below the entry" in c["why"], "--depth 0: confirmation %r" % c)
    confirm_line(p, "Not confirmed: the chain names no part below the entry.")

    p, rep = session_json("demo", "--seed", "3", "--confirm", "off", status=1)
    check(rep["confirmation"] is None and rep["options"]["confirm"] == "off" and
          not any(x["kind"] == "confirm" for x in rep["comparisons"]) and
          not re.search(r"^(Confirmed|Explains|Overshoots|Offset|Not confirmed)", p.stdout,
                        re.M),
          "--confirm off: %r" % rep["confirmation"])


def chain_line(p, name):
    """The bottleneck chain's line of step @name in the text report."""
    for l in p.stdout.splitlines():
        if re.match(r"^\s+(→ )?%s  " % re.escape(name), l):
            return l
    return ""


def scenario_confirm_estimate():
    """A what-if whose difference left lies near its threshold T
    (pinpoint/measure/decide.c, by_estimate()): nearby.json's parse got
    10 us slower, but timed it shows 1.4 us more, so the claim is some
    11.4 us and the what-if's difference about -1.4 us, against a T of
    about 2 us.  Its interval would take hundreds of runs more to lie
    within +-T; it is decided once no wider than +-T/2, by its centre:
    confirmed within T, beyond it a share or overshoots.  Over six seeds:
    one at least decided by its estimate, each of those within its rule, its
    line saying so; every what-if decided but one at most, which ran out of
    its time (as long as the session measured before it, at least a tenth
    of --max-time): in 40 seeds none did (1 did, with --cpu-term on or off,
    before the tenth of --max-time)."""
    estimated = undecided = 0
    for seed in range(1, 7):
        p, rep = session_json("nearby", "--seed", str(seed), status=1)
        c = rep["confirmation"]
        if c and c["verdict"] == "undecided" and "could not decide in its time" in c["sentence"]:
            undecided += 1
        else:
            check(c and c["verdict"] in ("confirmed", "explains", "overshoots"),
                  "nearby, seed %d: the what-if %r" % (seed, c))
        if not c or not c["by_estimate"]:
            continue
        estimated += 1
        q = [x for x in rep["comparisons"] if x["id"] == c["comparison"]][0]
        t, d = q["threshold_ns"], c["difference"]
        want = ("confirmed" if abs(d["centre"]) < t else
                "explains" if d["centre"] > 0 else "overshoots")
        check((d["high"] - d["low"]) / 2 <= t / 2 * (1 + 1e-9) and c["verdict"] == want,
              "nearby, seed %d: by its estimate %r at T %r: %s" % (seed, d, t, c["verdict"]))
        if want == "confirmed":
            check("its estimate within " in c["sentence"] and
                  "its interval no wider than +-half that" in c["sentence"],
                  "nearby, seed %d: %r" % (seed, c["sentence"]))
    check(estimated >= 1, "nearby: no what-if decided by its estimate in six seeds")
    check(undecided <= 1, "nearby: %d of six what-ifs ran out of their time" % undecided)


def scenario_inflated():
    """A figure more than it can cost (pinpoint/session/outcome_inflated.c).
    inflated.json's dist, 1000 calls an execution of search, got 1 ns
    slower a call, but timing it adds 20 ns a call in the current revision
    where it adds 5 in the previous (its armed_ns): timed, it shows +16 us
    in an entry +1 us slower.

      * the what-if delays the previous revision by the claim (at layer's
        one call: dist runs too often for its probes) and "overshoots";
        every chain step of the claim's figure or more is marked inflated,
        with at most the slowdown the what-if's runs show (at_most_ns: the
        delay less the difference, about the entry's +1 us), and no share
        of the entry, nor the steps under it;
      * --confirm off: the same steps marked by their size alone (1.25x the
        entry's, their intervals wholly beyond it, nothing faster beside);
      * masked: a part larger than the entry's slowdown because a sibling
        got faster: the what-if's difference is negative as well, "offset",
        and nothing is marked;
      * twoslow and the demo: nothing marked."""
    p, rep = session_json("inflated", "--seed", "1", status=1)
    c = rep["confirmation"]
    entry = rep["tree"][0]
    check(c and c["verdict"] == "overshoots", "inflated: confirmation %r" % c)
    tree = {n["id"]: n for n in rep["tree"]}
    claim = tree.get(c["claim_node"]) if c else None
    check(claim is not None and claim["chain"] and "dist" in node_label(claim) and
          claim["cost_ns"]["low"] > 5 * entry["cost_ns"]["high"],
          "inflated: the claim %r against the entry %r" % (claim, entry["cost_ns"]))
    marked = [n for n in rep["tree"] if n.get("inflated")]
    check(claim in marked and all(
        n["inflated"].startswith("inflated: more than the what-if (below) allows; it explains at "
                                 "most +") and n["share_of_entry"] is None and
        n["at_most_ns"] == c["slowdown_ns"] for n in marked if n["chain"]),
          "inflated: the chain's marked steps %r" % marked)
    under = [n for n in rep["tree"] if any(m["id"] == n.get("parent") for m in marked)]
    check(all(n["share_of_entry"] is None for n in under),
          "inflated: shares of the entry under an inflated step %r" % under)
    # the steps above it, dist's callers, keep theirs: +1 us of +1 us
    above = [n for n in rep["tree"] if n["chain"] and not n.get("inflated")]
    check(len(above) >= 2 and all(n["share_of_entry"] is not None for n in above),
          "inflated: the chain above the claim %r" % above)
    for n in marked:
        if not n["chain"]:
            continue
        line = chain_line(p, node_label(n) if n["kind"] != "self" else "own body of dist")
        check("[inflated: more than the what-if (below) allows; it explains at most +" in line and
              "% of search" not in line,
              "inflated: the chain's line %r" % line)
    line = confirm_line(p, "Overshoots: ")
    sd = c["slowdown_ns"]
    check(sd["low"] <= 1000 <= sd["high"] and "the part explains at most +" in line,
          "inflated: the what-if's slowdown %r, %r" % (sd, line))

    p, rep = session_json("inflated", "--seed", "1", "--confirm", "off", status=1)
    entry = rep["tree"][0]
    marked = [n for n in rep["tree"] if n.get("inflated")]
    check(marked and all(re.match(r"inflated: \d+\.\dx search's \+", n["inflated"]) and
                         n["at_most_ns"] is None and n["share_of_entry"] is None and
                         n["cost_ns"]["low"] > entry["cost_ns"]["high"] and
                         n["cost_ns"]["centre"] > 1.25 * entry["cost_ns"]["centre"]
                         for n in marked) and
          any(n["chain"] for n in marked), "inflated, --confirm off: %r" % marked)
    # masked.json: c3 +6 ms, masked by c11 -6 ms, in an entry +3 ms slower:
    # the delayed previous revision is slower, as for an inflated claim, but
    # the improvement is why: "offset", and nothing marked
    p, rep = session_json("masked", "--seed", "1", status=1)
    c = rep["confirmation"]
    check(c and c["verdict"] == "offset" and not any(n.get("inflated") for n in rep["tree"]),
          "masked: %r, marked %r" % (c, [n for n in rep["tree"] if n.get("inflated")]))
    line = confirm_line(p, "Offset: ")
    check("but parts of run got faster (see the improvements below)" in line,
          "masked: %r" % line)
    for name, seed in (("twoslow", "1"), ("demo", "3")):
        p, rep = session_json(name, "--seed", seed, status=1)
        check(not any(n.get("inflated") for n in rep["tree"]) and "[inflated" not in p.stdout,
              "%s: a step marked inflated: %r" % (name, [n for n in rep["tree"]
                                                         if n.get("inflated")]))


def scenario_undecided():
    """An entry that cannot be decided is reported undecided with exit status
    4, never as "no regression": by its own budget, then by --max-runs or
    --max-time (same.c's identical revisions as a model)."""
    base = ["--seed", "1", *SUITE_LAYOUTS]
    # Threshold 0: no interval can lie inside +-0, and 20 runs cannot exclude 0
    # at 99.9 % for identical revisions (but with probability 0.001: this seed does not)
    p, report = session_json("steady", *base, "--precision-threshold", "0", "--confidence",
                             "99.9", "--measurements", "10", "--max-runs-per-comparison", "20",
                             status=4, depth=2)
    check(re.search(r"^Undecided: could not decide within 40 runs whether steady got slower: "
                    r"difference \S+ \S+ \[\S+ \S+, \S+ \S+\] at [\d.]+% confidence, "
                    r"threshold 0 ns, minimum detectable effect \S+ \S+\.$", p.stdout, re.M),
          "no undecided line with interval, runs and minimum detectable effect")
    m = re.search(r"^At the noise (?:and the difference measured, a verdict needs at least "
                  r"about (\d+) runs per revision \(20 so far\)|measured, a difference this "
                  r"close to the threshold needs more than 2000 runs per revision)\.$",
                  p.stdout, re.M)
    check(m and (not m.group(1) or 20 <= int(m.group(1)) <= 2000),
          "no line of the runs the undecided entry would need")
    check("No regression" not in p.stdout, "an undecided entry reported as no regression")
    # the first look is the first whose 99.9 % interval can exist (more than 10 pairs)
    line = re.search(r"^\[1\] steady \(entry\).*UNDECIDED \(20\+20 runs, (\d+) looks?, "
                     r"minimum detectable effect", p.stdout, re.M)
    if not line:
        fail("the entry's comparison line does not say undecided", p)
    looks = int(line.group(1))
    check(re.search(r"^Runs: \d+ of --max-runs 30000 decided 0 comparisons; 1 stayed "
                    r"undecided\.  Each pair's two runs ran ", p.stdout, re.M),
          "no line of what the runs bought")
    check(re.search(r"^Noise: the entry varied by [\d.]+% \(previous\) and [\d.]+% \(current\)",
                    p.stdout, re.M), "no noise line")
    e = report["comparisons"][0]
    check(report["outcome"] == "undecided" and report["exit_code"] == 4 and
          e["verdict"] == "undecided",
          "JSON outcome %r, verdict %r" % (report["outcome"], e["verdict"]))
    seq = e["sequential"]
    check(seq["runs"] == 40 and seq["looks"] == looks and 1 <= looks <= 2 and
          seq["mde_ns"] is not None and not seq["max_runs_spent"], "JSON sequential %r" % seq)
    check(0 < seq["alpha_spent"] <= seq["alpha"] + 1e-12 and abs(seq["alpha"] - 0.001) <= 1e-9,
          "JSON alpha %r" % seq)
    # --max-runs spent after the first round: undecided, and said so.  The first look is
    # the first whose 99.9 % interval can exist (more than the 10 pairs asked for, 2^-n
    # below its alpha / 2); the second is 1.4 times as large and would pass 40.
    p = session("steady", *base, *SUITE_BUDGET, "--precision-threshold", "0", "--confidence",
                "99.9", "--measurements", "10", "--max-runs", "40", status=4, depth=2)
    m = re.search(r"^Undecided: could not decide within (\d+) runs .*\(--max-runs was spent\)$",
                  p.stdout, re.M)
    check(m and 2 * 10 < int(m.group(1)) <= 40, "the --max-runs stop is not reported")
    check(m and re.search(r"^Runs: %s of --max-runs 40 " % m.group(1), p.stdout, re.M),
          "runs used not reported")
    # Too few runs for even the first round: nothing is measured, and the entry is undecided.
    p = session("steady", *base, *SUITE_BUDGET, "--measurements", "10", "--max-runs", "10",
                status=4, depth=2)
    check(re.search(r"^Undecided: --max-runs was spent before steady could be compared\.$",
                    p.stdout, re.M), "an entry --max-runs left unmeasured is not reported undecided")
    # --max-time spent before the first round (the discovery runs took longer, on the
    # model's clock): the same, said of --max-time.
    p, report = session_json("steady", *base, *SUITE_BUDGET, "--max-time", "0.001", status=4,
                             depth=2)
    check(re.search(r"^Undecided: --max-time was spent before steady could be compared\.$",
                    p.stdout, re.M), "an entry --max-time left unmeasured is not reported undecided")
    seq = report["comparisons"][0]["sequential"]
    check(seq["max_time_spent"] and not seq["max_runs_spent"] and
          not report["measurement"]["runs_used"],
          "JSON does not say --max-time stopped the entry before any run: %r" % seq)
    p = session("steady", "--max-time", "-1", status=2)
    check(len(p.stderr.splitlines()) == 1 and "--max-time: '-1'" in p.stderr and not p.stdout,
          "--max-time -1 is not one error line: %r" % p.stderr)


BAD = [
    ("{", "line 1"),
    ("[]", "\"functions\""),
    ('{"entry": "f", "functions": []}', "\"functions\""),
    ('{"entry": "g", "functions": [{"name": "f"}]}', "the entry \"g\""),
    ('{"entry": "f", "functions": [{"name": "f", "self_ns": -1}]}', "0 or more"),
    ('{"entry": "f", "functions": [{"name": "f", "self_ns": "x"}]}', "must be a number"),
    ('{"entry": "f", "functions": [{"name": "f", "calls": [{"callee": "h"}]}]}',
     "callee \"h\""),
    ('{"entry": "f", "functions": [{"name": "f", "calls": [{"callee": "f"}]}]}',
     "calls itself"),
    ('{"entry": "f", "functions": [{"name": "f", "calls": [{"callee": "g"}]},'
     ' {"name": "g", "calls": [{"callee": "f"}]}]}', "calls itself"),
    ('{"entry": "f", "functions": [{"name": "f"}, {"name": "f"}]}', "two functions"),
    ('{"entry": "f", "functions": [{"name": "f", "calls": [{"line": 1, "targets": '
     '[{"callee": "g", "share": 0.5}]}]}, {"name": "g"}]}', "add up to 0.5"),
    ('{"entry": "f", "functions": [{"name": "f", "colour": 1}]}', "unknown key \"colour\""),
    ('{"entry": "f", "typo": 1, "functions": [{"name": "f"}]}', "unknown key \"typo\""),
    ('{"entry": "f", "functions": [{"name": "f", "only": "both"}]}', "\"only\""),
    ('{"entry": "f", "functions": [{"name": "f", "external": true}]}', "external"),
    ('{"entry": "f", "noise": 5, "functions": [{"name": "f"}]}', "2 or less"),
    ('{"entry": "f", "functions": [{"name": "f", "current": {"self_ns": 1, "x": 2}}]}',
     "unknown key \"x\""),
]


def scenario_bad():
    """A model that is not one: one error line naming the file, exit 2."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.json")
        for text, want in BAD:
            with open(path, "w") as f:
                f.write(text)
            p = subprocess.run([ARGS.pinpoint, "--model", path, "--entry", "f"],
                               capture_output=True, text=True, timeout=60)
            lines = p.stderr.splitlines()
            check(p.returncode == 2 and len(lines) == 1 and path in lines[0] and
                  want in lines[0] and not p.stdout,
                  "model %s: exit %d, stderr %r (wanted one line with %r)"
                  % (text, p.returncode, p.stderr, want))
        for args, want in ((["--model", os.path.join(d, "none.json")], "none.json"),
                           (["--model", model("twoslow"), "--previous", d], "--model"),
                           (["--model", model("twoslow"), "--", "true"], "--model")):
            p = subprocess.run([ARGS.pinpoint, "--entry", "job", *args], capture_output=True,
                               text=True, timeout=60)
            lines = p.stderr.splitlines()
            check(p.returncode == 2 and len(lines) == 1 and want in lines[0],
                  "%r: exit %d, stderr %r" % (args, p.returncode, p.stderr))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--models", required=True)
    ap.add_argument("--schema", required=True)
    scenario_main(ap, globals())
