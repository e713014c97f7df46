#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How often the search is right, wrong or undecided: many whole sessions on
program models (pinpoint --model, doc/model.md), one seed each.

A model session goes through the real discover, search, settle, decide and
report stages on results computed from a call tree, so its error rates are
the search's own, without a machine's noise beyond what the model draws:

  A/A   models whose revisions are the same (noise, per-function jitter,
        code layouts, an asymmetric duet): a claimed regression is a false
        one; undecided is the price of the layouts' floor;
  A/B   models with one planted cause: the chain must end at it; a chain
        that ends elsewhere is a wrong call.

Usage: bench/model_rates.py --pinpoint BUILD/pinpoint/pinpoint [--sessions N]
       [--models DIR] [--jobs J] [--cells | --confirm-cells | --cpu-cells |
       --tree-cells [--only CELLS]]

Prints, per model: sessions, claimed / right / wrong / undecided, runs per
session (median, 90th percentile), and milliseconds per session.

--cells runs a grid instead, on a model made for each cell: an entry of
four calls of 100 us each (the threshold T, 1 % of the entry, about 4 us;
a run's noise sd about T), one callee slower by 0, T/2, T or 1.5 T; code
layouts whose between-layout sd of the entry is 0.5, 2 or 5 T; duet sides
0 or 2 noise sd apart.  Per cell: how often the entry was called slower
(a false claim at 0 and T/2, a hit at T and 1.5 T), not slower (a miss at
T and 1.5 T), undecided, and the chain's end at the slower callee.

--confirm-cells runs the what-if's grid (pinpoint/search/confirm.c): a
callee 10 T slower, so that the what-if's threshold T' is a fifth of that,
and a difference left with the delay in of -2 to 2 T' (below 0 the claim
inflated by what timing it adds, above 0 another callee slower too).  Per
cell: how the what-if ended (confirmed is right within T'/2, a share or
overshoots beyond 3 T'/2; between, either), how many were decided by
the estimate's rule (decide.c, by_estimate()), and its runs per revision.

--tree-cells runs whole trees: the --cells model over its grid, and a
tree with an indirect call, a shared callee and a callee group, each of
them in turn the planted cause; per cell, besides the entry's verdicts,
how many sessions' trees hold a false claim (a node marked slower or
faster where the model changed nothing: the family-wise rate), the runs
and the model's seconds per session.  --only names the cells
(planted:delta:layout:asym, planted "basic" for the --cells model, "-"
for the tree model's A/A).

--cpu-cells runs the CPU term's grid (pinpoint/measure/decide_cpu.c): the
--cells model at a layout sd of 0.5 T, one callee slower by 0 to 1.5 T,
duet sides 0, 2 or 4 noise sds apart, each with --cpu-term on and off.
"""
import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# model, extra options, the chain a right call names (None: A/A, no chain)
CASES = [
    ("same", [], None),
    ("same", ["--layouts", "1"], None),
    ("twoslow", [], "job → step3 → inner → own body of inner"),
    ("shared", ["--precision-threshold", "5"], "job → lookup → own body of lookup"),
    ("indirect", [], "run → slow_path → own body of slow_path"),
    ("added", [], "handle → changed code of handle"),
]


def one(exe, path, entry, extra, seed):
    t0 = time.perf_counter()
    p = subprocess.run([exe, "--model", path, "--entry", entry, "--depth", "3", "--seed",
                        str(seed), *extra], capture_output=True, text=True, timeout=600)
    ms = 1000 * (time.perf_counter() - t0)
    m = re.search(r"^Bottleneck chain: (.*)$", p.stdout, re.M)
    runs = re.search(r"^Runs: (\d+)", p.stdout, re.M)
    return p.returncode, m.group(1) if m else None, int(runs.group(1)) if runs else 0, ms


# --layout-shared: the correlation of layout k's factors in both revisions
# (one seed for both, as the paired design links them); 0: drawn apart.
LAYOUT_SHARED = 0.0


def cell_model(path, delta, layout_t, asym_sd):
    """The grid's model: @delta and @layout_t in thresholds, @asym_sd in run-noise sds."""
    t_ns = 4005.0  # 1 % of the entry (4 x 100 us + 500 ns + 5 ns of calls)
    fns = [{"name": "job", "file": "cell.c", "line": 10, "self_ns": 500,
            "calls": [{"callee": "step%d" % i, "line": 11 + i} for i in range(4)]}]
    for i in range(4):
        f = {"name": "step%d" % i, "file": "cell.c", "line": 20 + i, "self_ns": 100000}
        if i == 2 and delta:
            f["current"] = {"self_ns": 100000 + delta * t_ns}
        fns.append(f)
    # the entry's between-layout sd is about 2 x 100 us x layout_sd (4 independent calls)
    model = {"entry": "job", "executions": 50, "noise": 0.01, "jitter": 0.002,
             "layout_sd": layout_t * t_ns / 200000.0, "asymmetry": asym_sd * 0.01,
             "layout_shared": LAYOUT_SHARED, "functions": fns}
    with open(path, "w") as f:
        json.dump(model, f)


def cells(args):
    import tempfile
    print("%-6s %-9s %-6s %8s %8s %10s %9s %8s %12s" % (
        "delta", "layout sd", "asym", "sessions", "slower", "not slower", "undecided",
        "on chain", "runs p50/p90"))
    with tempfile.TemporaryDirectory() as d:
        for delta in (0, 0.5, 1, 1.5):
            for layout_t in (0.5, 2, 5):
                for asym in (0, 2):
                    path = os.path.join(d, "cell.json")
                    cell_model(path, delta, layout_t, asym)
                    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                        res = list(ex.map(lambda s: one(args.pinpoint, path, "job", [], s),
                                          range(1, args.sessions + 1)))
                    slower = sum(r[0] == 1 for r in res)
                    chain = sum(r[0] == 1 and r[1] and "step2" in r[1] for r in res)
                    runs = sorted(r[2] for r in res)
                    print("%-6s %-9s %-6s %8d %8d %10d %9d %8d %5d/%-6d" % (
                        "%gT" % delta, "%gT" % layout_t, "%gsd" % asym, len(res), slower,
                        sum(r[0] == 0 for r in res), sum(r[0] == 4 for r in res), chain,
                        runs[len(runs) // 2], runs[int(0.9 * (len(runs) - 1))]), flush=True)


def changed_set(model, planted):
    """@planted and every function that calls it, directly or through
    others (a pointer's targets included): where a difference is true."""
    callers = {}
    for f in model["functions"]:
        for c in f.get("calls", []):
            for t in [c] + c.get("targets", []):
                if "callee" in t:
                    callers.setdefault(t["callee"], set()).add(f["name"])
    seen, todo = set(), [planted] if planted else []
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(callers.get(f, ()))
    return seen


def false_claims(model, tree, changed, planted):
    """The tree's nodes a verdict claimed slower or faster where the model
    changed nothing (the entry, a call or range whose callees reach no
    changed function, an own body not of the planted one); and any claimed
    faster, as nothing got faster.  @planted: the function whose own body
    got slower (None: none)."""
    fns = {f["name"]: f for f in model["functions"]}
    bad = 0
    for n in tree:
        if n.get("comparison") is None or not n.get("sign"):
            continue
        if n["kind"] == "entry":
            true = bool(changed)
        elif n["kind"] == "self":
            true = n["function"] == planted
        elif n["kind"] == "shared":
            true = (n.get("into") or {}).get("function") in changed
        elif n.get("callee") in fns and n["kind"] == "group":
            true = n["callee"] in changed
        else:
            calls = fns.get(n["function"], {}).get("calls", [])
            first, last = n.get("first_call", 0), n.get("last_call", n.get("first_call", 0))
            true = any(t.get("callee") in changed
                       for c in calls[first:last + 1] for t in [c] + c.get("targets", []))
        bad += not true or n["sign"] < 0
    return bad


def one_tree(exe, path, model, planted, seed):
    """One session on a model with @planted slower (None: A/A): its exit
    status, how many false claims its tree holds, whether its chain ends in
    @planted, its runs, the model's seconds and the wall milliseconds."""
    import tempfile
    changed = changed_set(model, planted)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        t0 = time.perf_counter()
        p = subprocess.run([exe, "--model", path, "--entry", model["entry"], "--depth", "4",
                            "--seed", str(seed), "--json", out], capture_output=True, text=True,
                           timeout=600)
        ms = 1000 * (time.perf_counter() - t0)
        with open(out) as f:
            r = json.load(f)
    chain = r.get("bottleneck_chain") or []
    last = chain[-1] if chain else {}
    on = bool(planted) and p.returncode == 1 and planted in (
        last.get("function"), last.get("callee"), last.get("name"))
    return (p.returncode, false_claims(model, r["tree"], changed, planted), on,
            r["measurement"]["runs_used"], r["time"]["total_s"], ms)


def tree_model(path, planted, delta, layout_t, asym_sd):
    """A tree with each kind of part the search treats apart: an indirect
    call (fast_path or slow_path, half the time each), a callee shared by two
    functions (lookup, 25 calls under each of step_a and step_b), a callee
    called from three places of one function (leaf, in step_c), and plain
    calls.  The entry costs about 820 us; T = 1 % of it.  @planted gets
    slower by @delta T at the entry."""
    fns = [{"name": "job", "file": "tree.c", "line": 10, "self_ns": 500, "calls": [
        {"callee": "step0", "line": 11},
        {"line": 12, "targets": [{"callee": "fast_path", "share": 0.5},
                                 {"callee": "slow_path", "share": 0.5}]},
        {"callee": "step_a", "line": 13}, {"callee": "step_b", "line": 14},
        {"callee": "step_c", "line": 15}, {"callee": "step_d", "line": 16}]},
        {"name": "step0", "file": "tree.c", "line": 20, "self_ns": 100000},
        {"name": "fast_path", "file": "tree.c", "line": 24, "self_ns": 200000},
        {"name": "slow_path", "file": "tree.c", "line": 28, "self_ns": 200000},
        {"name": "step_a", "file": "tree.c", "line": 32, "self_ns": 50000,
         "calls": [{"callee": "lookup", "line": 33, "count": 25}]},
        {"name": "step_b", "file": "tree.c", "line": 36, "self_ns": 50000,
         "calls": [{"callee": "lookup", "line": 37, "count": 25}]},
        {"name": "lookup", "file": "tree.c", "line": 40, "self_ns": 4000},
        {"name": "step_c", "file": "tree.c", "line": 44, "self_ns": 20000,
         "calls": [{"callee": "leaf", "line": 45 + i} for i in range(3)]},
        {"name": "leaf", "file": "tree.c", "line": 50, "self_ns": 33000},
        {"name": "step_d", "file": "tree.c", "line": 54, "self_ns": 100000}]
    t_ns = 8205.0
    per = {"slow_path": 0.5, "lookup": 50, "leaf": 3, "step0": 1}
    for f in fns:
        if f["name"] == planted and delta:
            f["current"] = {"self_ns": f["self_ns"] + delta * t_ns / per[planted]}
    # about 10 functions' layout factors add up: the entry's between-layout sd
    # is about 820 us x layout_sd / 2.3
    model = {"entry": "job", "executions": 20, "noise": 0.01, "jitter": 0.002,
             "layout_sd": layout_t * t_ns * 2.3 / 820000.0, "asymmetry": asym_sd * 0.01,
             "layout_shared": LAYOUT_SHARED, "functions": fns}
    with open(path, "w") as f:
        json.dump(model, f)
    return model


def tree_cells(args):
    """Whole trees: the family-wise rate of false claims, the entry's errors,
    the chain's end, runs and time, per cell (see bench/README.md)."""
    import tempfile
    print("%-10s %-6s %-7s %-5s %8s %7s %8s %7s %6s %8s %12s %11s %8s" % (
        "planted", "delta", "layout", "asym", "sessions", "slower", "not slow", "undec",
        "fwer", "on chain", "runs p50/p90", "model s p50", "ms/sess"), flush=True)
    with tempfile.TemporaryDirectory() as d:
        for planted, delta, layout_t, asym in args.grid:
            path = os.path.join(d, "tree.json")
            if args.basic:
                cell_model(path, delta, layout_t, asym)
                with open(path) as f:
                    model = json.load(f)
                planted = "step2"
            else:
                model = tree_model(path, planted, delta, layout_t, asym)
            who = planted if delta else None
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                res = list(ex.map(lambda s: one_tree(args.pinpoint, path, model, who, s),
                                  range(1, args.sessions + 1)))
            runs = sorted(r[3] for r in res)
            secs = sorted(r[4] for r in res)
            print("%-10s %-6s %-7s %-5s %8d %7d %8d %7d %6d %8d %5d/%-6d %11.2f %8.1f" % (
                planted if delta else "-", "%gT" % delta, "%gT" % layout_t, "%gsd" % asym,
                len(res), sum(r[0] == 1 for r in res), sum(r[0] == 0 for r in res),
                sum(r[0] == 4 for r in res), sum(r[1] > 0 for r in res),
                sum(r[2] for r in res), runs[len(runs) // 2],
                runs[int(0.9 * (len(runs) - 1))], secs[len(secs) // 2],
                statistics.mean(r[5] for r in res)), flush=True)


def cpu_cells(args):
    """The CPU term's grid (pinpoint/measure/decide_cpu.c): the --cells model
    at a layout sd of 0.5 T, duet sides 0 to 4 noise sds apart, with
    --cpu-term on and off."""
    import tempfile
    print("%-6s %-6s %-4s %8s %8s %10s %9s %8s %12s" % (
        "delta", "asym", "term", "sessions", "slower", "not slower", "undecided", "on chain",
        "runs p50/p90"))
    with tempfile.TemporaryDirectory() as d:
        for delta in (0, 0.5, 1, 1.5):
            for asym in (0, 2, 4):
                path = os.path.join(d, "cell.json")
                cell_model(path, delta, 0.5, asym)
                for term in ("on", "off"):
                    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                        res = list(ex.map(
                            lambda s: one(args.pinpoint, path, "job", ["--cpu-term", term], s),
                            range(1, args.sessions + 1)))
                    runs = sorted(r[2] for r in res)
                    print("%-6s %-6s %-4s %8d %8d %10d %9d %8d %5d/%-6d" % (
                        "%gT" % delta, "%gsd" % asym, term, len(res),
                        sum(r[0] == 1 for r in res), sum(r[0] == 0 for r in res),
                        sum(r[0] == 4 for r in res),
                        sum(r[0] == 1 and r[1] and "step2" in r[1] for r in res),
                        runs[len(runs) // 2], runs[int(0.9 * (len(runs) - 1))]), flush=True)


def confirm_model(path, rho):
    """The what-if's grid: step2 of job got 40 us (10 T) slower, so the
    what-if's threshold is a fifth of that, 8 us; the difference it leaves
    is @rho times that: below 0, the claim inflated (step2 timed costs
    -rho x 8 us more in the current revision: armed_ns); above 0, step0
    slower as well by rho times the what-if's threshold then (something
    else changed too)."""
    tol = 8010.0
    fns = [{"name": "job", "file": "cell.c", "line": 10, "self_ns": 500,
            "calls": [{"callee": "step%d" % i, "line": 11 + i} for i in range(4)]}]
    for i in range(4):
        f = {"name": "step%d" % i, "file": "cell.c", "line": 20 + i, "self_ns": 100000}
        if i == 2:
            f["current"] = {"self_ns": 140050}
            if rho < 0:
                f["current"]["armed_ns"] = -rho * tol
        if i == 0 and rho > 0:
            # the what-if's threshold grows with the entry's difference:
            # a fifth of 10 T + x, so x = rho x 8 us / (1 - rho / 5)
            f["current"] = {"self_ns": 100000 + rho * tol / (1 - 0.2 * rho)}
        fns.append(f)
    model = {"entry": "job", "executions": 50, "noise": 0.01, "jitter": 0.002,
             "functions": fns}
    with open(path, "w") as f:
        json.dump(model, f)


def one_confirm(exe, path, seed):
    """One session's what-if: (verdict, by its estimate, its runs per revision)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        subprocess.run([exe, "--model", path, "--entry", "job", "--depth", "3", "--seed",
                        str(seed), "--json", out], capture_output=True, text=True, timeout=600)
        with open(out) as f:
            c = json.load(f)["confirmation"] or {}
    return c.get("verdict"), c.get("by_estimate"), c.get("runs", 0)


def confirm_cells(args):
    import tempfile
    print("%-6s %8s %9s %9s %10s %10s %9s %12s" % (
        "left", "sessions", "confirmed", "explains", "overshoots", "undecided",
        "estimate", "runs p50/p90"))
    with tempfile.TemporaryDirectory() as d:
        for rho in (-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2):
            path = os.path.join(d, "cell.json")
            confirm_model(path, rho)
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                res = list(ex.map(lambda s: one_confirm(args.pinpoint, path, s),
                                  range(1, args.sessions + 1)))
            runs = sorted(r[2] for r in res)
            print("%-6s %8d %9d %9d %10d %10d %9d %5d/%-6d" % (
                "%gT" % rho, len(res), sum(r[0] == "confirmed" for r in res),
                sum(r[0] == "explains" for r in res), sum(r[0] == "overshoots" for r in res),
                sum(r[0] not in ("confirmed", "explains", "overshoots") for r in res),
                sum(bool(r[1]) for r in res), runs[len(runs) // 2],
                runs[int(0.9 * (len(runs) - 1))]), flush=True)


def run_tree_grid(args):
    """--tree-cells: the cells --only names, else the whole grid (basic
    model: 4 differences x 3 layout sds x 2 duet asymmetries; tree model:
    each planted cause x 4 differences at a layout sd of 2 T and 2 sd)."""
    grid = []
    if args.only:
        for c in args.only.split(","):
            p, dl, lt, a = c.split(":")
            grid.append((p, float(dl), float(lt), float(a)))
    else:
        for dl in (0, 0.5, 1, 1.5):
            for lt in (0.5, 2, 5):
                for a in (0, 2):
                    grid.append(("basic", dl, lt, a))
        grid.append(("-", 0, 2, 2))
        for p in ("slow_path", "lookup", "leaf"):
            for dl in (0.5, 1, 1.5):
                grid.append((p, dl, 2, 2))
    for p, dl, lt, a in grid:
        args.grid, args.basic = [(p, dl, lt, a)], p == "basic"
        tree_cells(args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--models", default=os.path.join(HERE, "..", "test", "driver", "models"))
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cells", action="store_true", help="the grid of differences, layouts "
                    "and duet asymmetry (above)")
    ap.add_argument("--confirm-cells", action="store_true", help="the what-if's grid: the "
                    "difference it leaves from -2 to 2 times its threshold (below)")
    ap.add_argument("--cpu-cells", action="store_true", help="the CPU term's grid: duet "
                    "sides 0 to 4 noise sds apart, --cpu-term on and off (below)")
    ap.add_argument("--tree-cells", action="store_true", help="whole trees (targets, a "
                    "shared callee, a callee group) and the basic grid, with the family-wise "
                    "rate of false claims (below)")
    ap.add_argument("--only", default=None, help="--tree-cells: a comma-separated list of "
                    "cells, each planted:delta:layout:asym (planted 'basic' for the --cells "
                    "model)")
    ap.add_argument("--layout-shared", type=float, default=0.0, help="the models' "
                    "correlation of layout k's factors in both revisions (one seed for "
                    "both); 0: drawn apart")
    args = ap.parse_args()
    global LAYOUT_SHARED
    LAYOUT_SHARED = args.layout_shared
    if args.tree_cells:
        run_tree_grid(args)
        return
    if args.cpu_cells:
        cpu_cells(args)
        return
    if args.confirm_cells:
        confirm_cells(args)
        return
    if args.cells:
        cells(args)
        return
    print("%-10s %-28s %8s %8s %8s %8s %9s %12s %9s" % (
        "model", "options", "sessions", "claimed", "right", "wrong", "undecided",
        "runs p50/p90", "ms/session"))
    for name, extra, want in CASES:
        path = os.path.join(args.models, name + ".json")
        with open(path) as f:
            entry = json.load(f)["entry"]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            res = list(ex.map(lambda s: one(args.pinpoint, path, entry, extra, s),
                              range(1, args.sessions + 1)))
        failed = [r for r in res if r[0] not in (0, 1, 4)]
        if failed:
            print("%s: %d sessions failed (exit %d)" % (name, len(failed), failed[0][0]))
            sys.exit(1)
        claimed = sum(r[0] == 1 for r in res)
        right = sum(r[0] == 1 and r[1] == want for r in res) if want else 0
        wrong = claimed - right
        undecided = sum(r[0] == 4 for r in res)
        runs = sorted(r[2] for r in res)
        print("%-10s %-28s %8d %8d %8d %8d %9d %5d/%-6d %9.1f" % (
            name, " ".join(extra) or "-", len(res), claimed, right, wrong, undecided,
            runs[len(runs) // 2], runs[int(0.9 * (len(runs) - 1))],
            statistics.mean(r[3] for r in res)))


if __name__ == "__main__":
    main()
