#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How well pinpoint --changes finds change points over a nightly history:
simulated histories written as --history files, each looked at by the real
pinpoint --changes (doc/statistics.md, "Change points over the nights").

Each history has 60 nights, each night's value the current revision's time
(1 ms times the cell's level, in Gaussian noise of the cell's size), the
previous revision the night before's (so the series is the current time).
The cells:

  step 3% / noise 5%   +3 % from night 30 on, 5 % noise
  step 1% / noise 1%   +1 % from night 30 on, 1 % noise
  creep 0.5%/night     +0.5 % a night from night 30 (night 31 is +0.5 %,
                       night 59 +14.5 %), 1 % noise
  no change            1 % noise (the method is scale-free: any noise)

Per cell: detected, the share of histories with a slower change point at
the change (its first night after within 3 nights of night 30; for the
creep, any slower change point from night 27 on); delay, for the detected
ones, nights from the first changed night (30) to the first night whose
history shows the change (the shortest history of the first L nights that
shows it, found by bisection on L, taking detection as monotone in L: so
a delay of 2 is the least, as a change point needs 3 nights after it);
misplaced, the other slower change points of the cells with a change, per
history (the step found more than 3 nights off, or split twice); false
alarms per 100 nights, the change points of the wrong direction (faster),
and in "no change" every change point, over all the nights looked at.

Usage: bench/changes_rates.py --pinpoint BUILD/pinpoint/pinpoint
       [--histories N] [--jobs J] [--seed S]
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

NIGHTS = 60
AT = 30
NEAR = 3


def level_step(pct):
    return lambda i: 1 + pct / 100 if i >= AT else 1.0


def level_creep(i):
    return 1 + 0.005 * max(0, i - AT)


CELLS = [
    ("step 3% / noise 5%", level_step(3), 0.05, "step"),
    ("step 1% / noise 1%", level_step(1), 0.01, "step"),
    ("creep 0.5%/night", level_creep, 0.01, "creep"),
    ("no change", lambda i: 1.0, 0.01, "none"),
]


def history_lines(values):
    out = []
    for i, v in enumerate(values):
        out.append(json.dumps({
            "time": 1767225600 + 86400 * i, "entry": "run", "previous": "/b/n%d" % (i - 1),
            "current": "/b/n%d" % i, "machine": "sim", "previous_commit": None,
            "current_commit": None, "verdict": "same", "status": 0, "previous_ns": 1e6,
            "current_ns": v}) + "\n")
    return out


def changes(pinpoint, d, lines):
    """The change points pinpoint --changes finds in @lines: (after index, direction)."""
    path, out = os.path.join(d, "h.jsonl"), os.path.join(d, "c.json")
    with open(path, "w") as f:
        f.write("".join(lines))
    p = subprocess.run([pinpoint, "--changes", path, "--json", out, "--quiet"],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1, 4):
        sys.exit("pinpoint --changes exited %d: %s" % (p.returncode, p.stderr))
    with open(out) as f:
        return [(c["after"]["index"], c["direction"]) for c in json.load(f)["change_points"]]


def is_hit(kind, cp):
    idx, direction = cp
    if direction != "slower" or kind == "none":
        return False
    if kind == "creep":
        return idx >= AT - NEAR
    return abs(idx - AT) <= NEAR


def one(args):
    pinpoint, kind, level, noise, seed = args
    r = random.Random(seed)
    values = [1e6 * level(i) * (1 + noise * r.gauss(0, 1)) for i in range(NIGHTS)]
    lines = history_lines(values)
    d = tempfile.mkdtemp(prefix="pp-rates.")
    try:
        cps = changes(pinpoint, d, lines)
        hits = [c for c in cps if is_hit(kind, c)]
        misplaced = sum(1 for c in cps if c not in hits and c[1] == "slower" and kind != "none")
        false = len(cps) - len(hits) - misplaced
        delay = None
        if hits:
            lo, hi = AT + 3, NIGHTS  # the least L that shows it is in [lo, hi]
            while lo < hi:
                mid = (lo + hi) // 2
                if any(is_hit(kind, c) for c in changes(pinpoint, d, lines[:mid])):
                    hi = mid
                else:
                    lo = mid + 1
            delay = lo - 1 - AT
        return bool(hits), delay, misplaced, false
    finally:
        shutil.rmtree(d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--histories", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("%d histories of %d nights per cell, change from night %d; pinpoint --changes "
          "(E-Divisive means, t-test p <= 0.001)\n" % (args.histories, NIGHTS, AT))
    print("| cell | detected | delay, nights (median, 90th pct) | misplaced per history "
          "| false alarms per 100 nights | seconds |")
    print("|---|---|---|---|---|---|")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for c, (name, level, noise, kind) in enumerate(CELLS):
            t0 = time.monotonic()
            jobs = [(args.pinpoint, kind, level, noise,
                     args.seed * 1000003 + c * 100003 + h) for h in range(args.histories)]
            res = list(ex.map(one, jobs))
            hits = sum(h for h, _, _, _ in res)
            delays = sorted(d for _, d, _, _ in res if d is not None)
            misplaced = sum(m for _, _, m, _ in res)
            false = sum(f for _, _, _, f in res)
            if delays:
                q90 = delays[min(len(delays) - 1, int(0.9 * len(delays)))]
                delay = "%g, %d" % (statistics.median(delays), q90)
            else:
                delay = "-"
            none = kind == "none"
            print("| %s | %s | %s | %s | %.3f | %.0f |" % (
                name, "-" if none else "%.1f %%" % (100.0 * hits / len(res)), delay,
                "-" if none else "%.3f" % (misplaced / len(res)),
                100.0 * false / (len(res) * NIGHTS), time.monotonic() - t0), flush=True)


if __name__ == "__main__":
    main()
