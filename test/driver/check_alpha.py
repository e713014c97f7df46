#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The error budget of the attribution tree, read back from the JSON report.

doc/statistics.md, "A session": a comparison's alpha is handed on to the
comparisons made under it only when it is found slower (faster), shared
among them.  From a report's comparisons (their sequential.alpha) and its
tree (each node's comparison and parent, an indirect call's targets with
their comparisons), each scenario rebuilds the tree of gates of a session
on a program model and checks that

  (a) no comparison but the entry's (and the what-if's) has the session's
      alpha, unless it is the only one made under a slower gate that has it;
  (b) the comparisons made under one gate share at most its alpha;
  (c) an indirect call's targets, where compared, are sequential
      comparisons (kind target) at the call's alpha shared among them.

Usage: check_alpha.py --pinpoint EXE --models DIR SCENARIO
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import check, fail, scenario_main  # noqa: E402

SEEDS = (1, 2, 3)
# the comparisons' alphas are printed with every digit: a relative margin for sums
EPS = 1e-9


def session(name, seed, *args, depth=3):
    path = os.path.join(ARGS.models, name + ".json")
    with open(path) as f:
        entry = json.load(f)["entry"]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        cmd = [ARGS.pinpoint, "--model", path, "--entry", entry, "--depth", str(depth),
               "--seed", str(seed), "--json", out, *args]
        print("$ " + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode not in (0, 1):
            fail("$ %s -> %d" % (" ".join(cmd), p.returncode), p)
        with open(out) as f:
            return json.load(f)


def alpha_of(c):
    return (c.get("sequential") or {}).get("alpha")


def gates(rep):
    """{gate comparison id: [comparison ids made under it]}, and the ids of
    the decided comparisons no gate was found for."""
    comps = {c["id"]: c for c in rep["comparisons"]}
    nodes = {n["id"]: n for n in rep["tree"]}
    under = {}
    placed = set()

    def add(gate, cid):
        under.setdefault(gate, []).append(cid)
        placed.add(cid)

    for n in nodes.values():
        kids = [k for k in nodes.values() if k["parent"] == n["id"]]
        gate = n.get("comparison")
        if gate is None:
            continue
        # an indirect call's targets, compared under the call
        into_target = None
        for t in n.get("targets") or []:
            if t.get("comparison") is not None:
                add(gate, t["comparison"])
                into = n.get("into")
                into_name = into.get("function") if isinstance(into, dict) else into
                if into_name and t["name"] == into_name:
                    into_target = t["comparison"]
        # the function searched under n: its parts' function
        fns = {k["function"] for k in kids if k["kind"] in ("call", "self", "range", "group")
               and (k.get("comparison") is None
                    or comps[k["comparison"]]["kind"] != "target")}
        if not fns:
            continue
        searched_gate = into_target if into_target is not None else gate
        parts = [c for c in comps.values()
                 if c["function"] in fns and c["kind"] in ("range", "self", "group")
                 and c.get("decided") and alpha_of(c)]
        if not parts:
            continue
        # the batch that shares the gate's alpha: the largest alpha among them
        # (the halves of a long call list hand theirs on to smaller ones)
        top = max(alpha_of(c) for c in parts)
        for c in parts:
            if abs(alpha_of(c) - top) <= EPS * top:
                add(searched_gate, c["id"])
            else:
                placed.add(c["id"])
        # a shared callee, measured beside F's parts under F's gate
        for k in kids:
            if k["kind"] == "shared" and k.get("comparison") is not None:
                add(searched_gate, k["comparison"])
    unplaced = [c["id"] for c in comps.values()
                if c.get("decided") and c["kind"] not in ("entry", "confirm", "total")
                and c["id"] not in placed]
    return under, unplaced


def check_report(rep, what):
    comps = {c["id"]: c for c in rep["comparisons"]}
    session_alpha = 1 - rep["options"]["confidence"]
    under, unplaced = gates(rep)
    check(not unplaced, "%s: comparisons %s have no gate in the tree" % (what, unplaced))
    gate_of = {cid: g for g, kids in under.items() for cid in kids}
    # (a) the session's alpha only at the entry, or alone under a slower gate that has it
    for c in comps.values():
        a = alpha_of(c)
        if not c.get("decided") or a is None or c["kind"] in ("entry", "confirm"):
            continue
        if abs(a - session_alpha) > EPS:
            continue
        g = gate_of.get(c["id"])
        alone = (g is not None and len(under[g]) == 1 and comps[g].get("verdict") == "slower"
                 and abs(alpha_of(comps[g]) - session_alpha) <= EPS)
        check(alone, "%s: comparison %d (%s) has the session's alpha %.4g below the entry"
              % (what, c["id"], c["label"], a))
    # (b) what is made under one gate shares at most its alpha
    for g, kids in under.items():
        ga = alpha_of(comps[g])
        total = sum(alpha_of(comps[k]) or 0 for k in kids)
        check(total <= ga * (1 + EPS),
              "%s: under comparison %d (%s, alpha %.4g) the comparisons %s spend %.4g"
              % (what, g, comps[g]["label"], ga, kids, total))
        check(comps[g].get("verdict") in ("slower", "faster"),
              "%s: comparison %d (%s) hands its alpha on, found %s"
              % (what, g, comps[g]["label"], comps[g].get("verdict")))
    # (c) an indirect call's targets: sequential comparisons at the call's alpha shared
    for n in rep["tree"]:
        ts = n.get("targets") or []
        compared = [t for t in ts if t.get("verdict") is not None or t.get("comparison") is not None]
        if not compared:
            continue
        call = comps[n["comparison"]]
        for t in compared:
            cid = t.get("comparison")
            if not check(cid is not None, "%s: target %s of node %d has a verdict but no "
                         "comparison of its own" % (what, t["name"], n["id"])):
                continue
            c = comps[cid]
            check(c["kind"] == "target" and c.get("decided") and "sequential" in c,
                  "%s: target %s's comparison %d is not a sequential one (kind %s)"
                  % (what, t["name"], cid, c["kind"]))
            check(c.get("verdict") == t["verdict"],
                  "%s: target %s shows %s, its comparison says %s"
                  % (what, t["name"], t["verdict"], c.get("verdict")))
            want = alpha_of(call) / len(compared)
            check(abs((alpha_of(c) or 0) - want) <= EPS * want,
                  "%s: target %s at alpha %s, the call's %.4g shared by %d is %.4g"
                  % (what, t["name"], alpha_of(c), alpha_of(call), len(compared), want))
    return under


def run(name, *args, depth=3, want_targets=False):
    seen_targets = False
    for seed in SEEDS:
        rep = session(name, seed, *args, depth=depth)
        check_report(rep, "%s seed %d" % (name, seed))
        seen_targets = seen_targets or any(
            c["kind"] == "target" for c in rep["comparisons"])
    if want_targets:
        check(seen_targets, "%s: no target was compared on its own" % name)


def scenario_indirect():
    """indirect.c: one target holds the call's difference."""
    run("indirect")


def scenario_scan_both():
    """Two targets slower, neither holding 80 % of the difference: each is
    compared on its own and dug into at its own alpha."""
    run("scanboth", depth=4, want_targets=True)


def scenario_shared():
    """A shared callee under the entry, compared at the slice kept for it."""
    run("shared", "--precision-threshold", "5")


def scenario_structural():
    run("structural")


def scenario_deep():
    run("deep")


def scenario_targets():
    """alpha_targets.json: an indirect call whose two targets are dug into,
    one with three callees calling a shared function."""
    run("alpha_targets", depth=5, want_targets=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--models", required=True)
    scenario_main(ap, globals())
