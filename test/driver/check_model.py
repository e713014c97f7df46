#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Whole sessions on program models (pinpoint --model, doc/model.md).

The model backend stands in for the processes: the discover, search,
settle, decide and report stages run as they do on a benchmark, on results
the model computes for each arming.  A session takes milliseconds and is
the same for one seed, so these scenarios check the search's logic exactly
and many sessions at once (the A/A ones), where the scenarios of
check_pinpoint.py check the same on real programs, with a machine's noise.

Usage: check_model.py --pinpoint EXE --models DIR --schema FILE SCENARIO
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import CHAIN_PREFIX, chain, check, fail, load_report  # noqa: E402
from pinpoint_test import scenario_main  # noqa: E402


def model(name):
    return os.path.join(ARGS.models, name + ".json")


def session(name, *args, status=None, entry=None, depth=3):
    """pinpoint --model on models/@name.json, its entry @entry (the model's)."""
    if entry is None:
        with open(model(name)) as f:
            entry = json.load(f)["entry"]
    cmd = [ARGS.pinpoint, "--model", model(name), "--entry", entry, "--depth", str(depth),
           *args]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if status is not None and p.returncode != status:
        fail("$ %s -> %d, expected %d" % (" ".join(cmd), p.returncode, status), p)
    return p


def session_json(name, *args, status=None, entry=None, depth=3):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = session(name, "--json", path, *args, status=status, entry=entry, depth=depth)
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


def scenario_layouts_off():
    """--layouts 1 on the same model: each revision in its own as-built
    layout, 3 % a function apart at random; the report says the verdict can
    include the layout."""
    p = session("same", "--seed", "3", "--layouts", "1")
    check(re.search(r"^Layouts: not varied \(--layouts 1\)", p.stdout, re.M),
          "no Layouts line for --layouts 1")


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
