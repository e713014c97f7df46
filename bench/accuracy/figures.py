#!/usr/bin/env python3
"""Whether a session's figures match its program: for each JSON report given,
the chain's largest step against what the entry got slower by, and the parts
measured above their function.

    python3 bench/accuracy/figures.py REPORT.json [REPORT.json ...]

A line per report, then the totals:
  - step: the chain's largest cost over the entry's difference, and the
    largest share of the entry (share_of_entry: the product of each step's share of
    its function, each taken in the runs that measured the two together).
    The cost and the entry's difference come from different runs, each with
    its interval, so their ratio moves with the host's noise; a share deep
    in the tree can have a wide interval.  A step is "over" where both are
    above 1.25, unless the report marks it inflated or a part beside it (a
    sibling in the tree) was decided faster, which the report then says
    ("above 100 %: the rest of F changed by ...");
  - above: the parts whose mean is above their function's time in either
    revision, 10 % slack (test/harness/pinpoint_test.py, parts_above(): the
    rule the model tests assert on every session).
Exit status 0 whatever the figures: this is a measurement, not a test.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "test", "harness"))
from pinpoint_test import parts_above  # noqa: E402

OVER = 1.25


def chain_steps(rep):
    """[(label, cost, share of the entry, inflated, sibling faster)] of the
    chain's steps below the entry."""
    nodes = {n["id"]: n for n in rep.get("tree", [])}
    by_cmp = {n.get("comparison"): n for n in rep.get("tree", []) if n.get("comparison")}
    out = []
    for s in rep.get("bottleneck_chain", [])[1:]:
        cost = (s.get("cost_ns") or {}).get("centre")
        if cost is None:
            continue
        node = by_cmp.get(s.get("comparison"))
        faster = False
        if node is not None:
            parent = nodes.get(node.get("parent"))
            faster = bool(parent) and any(
                nodes[k].get("sign", 0) < 0 for k in parent.get("children", []) if k in nodes)
        label = s.get("callee") or s.get("function") or s.get("kind")
        out.append(("%s %s" % (s.get("kind"), label), cost, s.get("share_of_entry"),
                    s.get("inflated"), faster))
    return out


def figures(path):
    with open(path) as f:
        rep = json.load(f)
    chain = rep.get("bottleneck_chain", [])
    entry = ((chain[0].get("cost_ns") or {}).get("centre") if chain else None)
    row = {"report": os.path.basename(path), "exit": rep.get("exit_code"),
           "entry_ns": entry, "step": None, "ratio": None, "share": None, "over": False,
           "above": parts_above(rep)}
    if entry and entry > 0:
        for label, cost, share, inflated, faster in chain_steps(rep):
            r = cost / entry
            if row["ratio"] is None or r > row["ratio"]:
                row.update(step=label, ratio=r,
                           mark="inflated" if inflated else "sibling faster" if faster else "")
            if share is not None and (row["share"] is None or share > row["share"]):
                row["share"] = share
            row["over"] |= r > OVER and (share or 0) > OVER and not inflated and not faster
    return row


def main(paths):
    rows = []
    for p in paths:
        try:
            rows.append(figures(p))
        except (OSError, ValueError, KeyError) as e:
            print("%s: cannot read: %s" % (p, e), file=sys.stderr)
    print("%-44s %4s %10s %6s %6s %-5s %5s  %s" % ("report", "exit", "entry diff", "step",
                                                   "share", "over", "above", "largest step"))
    for r in rows:
        print("%-44s %4s %10s %6s %6s %-5s %5d  %s%s" % (
            r["report"][:44], r["exit"],
            "%.0f us" % (r["entry_ns"] / 1e3) if r["entry_ns"] else "-",
            "%.2fx" % r["ratio"] if r["ratio"] is not None else "-",
            "%.2f" % r["share"] if r["share"] is not None else "-",
            "over" if r["over"] else "", len(r["above"]), r["step"] or "-",
            " (%s)" % r["mark"] if r.get("mark") else ""))
        for a in r["above"]:
            print("    above: " + a)
    n = len(rows)
    print("%d reports: %d with a chain step above %.2f of the entry unmarked, "
          "%d with a part above its function"
          % (n, sum(r["over"] for r in rows), OVER, sum(bool(r["above"]) for r in rows)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: figures.py REPORT.json [REPORT.json ...]", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
