#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layers.py - calls between the runtime's files go down its layers only.

    layers.py --readme runtime/README.md --src runtime [--nm NM] LIB.a...

The layer of every file of runtime/ is the table of runtime/README.md,
section "Layers" (rows "| N name | `file` | what it does |").  For each
static library given (libpinpoint-rt.a, a runtime built for another
architecture's directory), nm tells which symbols each object defines and
which it uses; a file that uses a function or variable defined in a higher
layer fails the check, and so does a cycle of files, within a layer too.
Every source file of runtime/ must have a layer, and every file of the
table must exist.  A self-test of the check runs first, so that a check
that finds nothing cannot pass.
"""
import argparse
import os
import re
import subprocess
import sys

ROW = re.compile(r"^\|\s*(\d+)\s+([\w-]+)\s*\|\s*`([^`]+)`\s*\|")
MEMBER = re.compile(r"^(?:.*\[)?([^\[\]]+?)(?:\])?:\s+(\S+)\s+(\S)(?:\s|$)")


def read_layers(readme):
    """{path under runtime/: (layer number, layer name)} from the table."""
    layers, inside = {}, False
    with open(readme, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == "## Layers"
                continue
            m = ROW.match(line) if inside else None
            if m:
                layers[m.group(3)] = (int(m.group(1)), m.group(2))
    return layers


def sources(src):
    """The runtime's source files, relative to runtime/."""
    found = []
    for top, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".c", ".S")):
                found.append(os.path.relpath(os.path.join(top, name), src))
    return found


def read_objects(nm, lib):
    """{object: (defined symbols, used symbols)} of a static library."""
    out = subprocess.run([nm, "-A", "-P", lib], check=True, capture_output=True,
                         text=True).stdout
    objects = {}
    for line in out.splitlines():
        m = MEMBER.match(line)
        if not m:
            continue
        obj, sym, kind = m.groups()
        defs, uses = objects.setdefault(obj, (set(), set()))
        if kind == "U":
            uses.add(sym)
        elif kind.isupper():  # global (weak undefined ones are "w", "v")
            defs.add(sym)
    return objects


def edges_of(objects):
    """{(user, definer): symbols} between objects."""
    owner = {}
    for obj, (defs, _) in objects.items():
        for sym in defs:
            owner[sym] = obj
    edges = {}
    for obj, (_, uses) in objects.items():
        for sym in uses:
            if sym in owner and owner[sym] != obj:
                edges.setdefault((obj, owner[sym]), set()).add(sym)
    return edges


def cycle(nodes, edges):
    """A cycle of the graph as a list of nodes, or None."""
    succ = {n: sorted(b for a, b in edges if a == n) for n in nodes}
    state = {}

    def visit(n, path):
        state[n] = 1
        path.append(n)
        for s in succ.get(n, []):
            if state.get(s) == 1:
                return path[path.index(s):] + [s]
            if not state.get(s):
                found = visit(s, path)
                if found:
                    return found
        path.pop()
        state[n] = 2
        return None

    for n in sorted(nodes):
        if not state.get(n):
            found = visit(n, [])
            if found:
                return found
    return None


def check(layer_of, edges):
    """The errors of a graph of files {(user, definer): symbols} whose
    layers are @layer_of {file: (number, name)}."""
    errors = []
    for (user, definer), syms in sorted(edges.items()):
        lu, ld = layer_of[user], layer_of[definer]
        if ld[0] > lu[0]:
            errors.append(f"{user} (layer {lu[0]} {lu[1]}) uses {', '.join(sorted(syms))} "
                          f"of {definer} (layer {ld[0]} {ld[1]}), a higher layer")
    loop = cycle(set(layer_of), edges)
    if loop:
        errors.append("files that use each other: " + " -> ".join(loop))
    return errors


def self_test():
    layer_of = {"a.c": (1, "low"), "b.c": (2, "high"), "c.c": (2, "high")}
    good = {("b.c", "a.c"): {"f"}, ("c.c", "b.c"): {"g"}}
    up = {("b.c", "a.c"): {"f"}, ("a.c", "b.c"): {"h"}}
    loop = {("b.c", "c.c"): {"f"}, ("c.c", "b.c"): {"g"}}
    objects = {"a.c.o": ({"f"}, {"h", "memcpy"}), "b.c.o": ({"h"}, {"f"})}
    return (not check(layer_of, good) and len(check(layer_of, up)) == 2 and
            len(check(layer_of, loop)) == 1 and
            edges_of(objects) == {("a.c.o", "b.c.o"): {"h"}, ("b.c.o", "a.c.o"): {"f"}})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--readme", required=True)
    ap.add_argument("--src", required=True, help="the runtime/ directory")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("libs", nargs="+")
    args = ap.parse_args()
    errors = []

    if not self_test():
        print("layers.py: the check itself is broken (self-test)")
        return 1
    layers = read_layers(args.readme)
    if not layers:
        print(f"{args.readme}: no layer table (section \"## Layers\")")
        return 1
    for path in sources(args.src):
        if path not in layers:
            errors.append(f"runtime/{path} has no layer in {args.readme}")
    by_object = {}
    for path in layers:
        if not os.path.exists(os.path.join(args.src, path)):
            errors.append(f"{args.readme}: runtime/{path} does not exist")
        obj = os.path.basename(path) + ".o"
        if obj in by_object:
            errors.append(f"{args.readme}: {path} and {by_object[obj]} make the same object")
        by_object[obj] = path

    for lib in args.libs:
        objects = read_objects(args.nm, lib)
        unknown = sorted(o for o in objects if o not in by_object)
        errors += [f"{lib}: {o} has no layer in {args.readme}" for o in unknown]
        edges = {(by_object[a], by_object[b]): syms
                 for (a, b), syms in edges_of(objects).items()
                 if a in by_object and b in by_object}
        if len(objects) < 2 or not edges:
            errors.append(f"{lib}: no objects that use each other (nm found {len(objects)})")
        errors += [f"{lib}: {e}" for e in check(layers, edges)]
        print(f"{lib}: {len(objects)} objects, {len(edges)} pairs of files that use one another")

    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("every file uses only its own layer or lower ones, without a cycle")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
