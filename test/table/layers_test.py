#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layers_test.py - pinpoint-layers on the synthetic binaries of ppblob.py:
the listing, the layers, JSON, and every error (one line, exit status 2)."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import check, scenario_main  # noqa: E402

ARGS = None


def run(*args):
    p = subprocess.run([ARGS.layers, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def expect_error(args, *needles):
    code, out, err = run(*args)
    what = "pinpoint-layers %s" % " ".join(args)
    check(code == 2, "%s: exit %d, expected 2" % (what, code))
    check(out == "", "%s: printed on stdout: %r" % (what, out))
    lines = err.splitlines()
    check(len(lines) == 1, "%s: %d lines on stderr: %r" % (what, len(lines), err))
    check(err.startswith("pinpoint-layers: "), "%s: no prefix: %r" % (what, err))
    for n in needles:
        check(n in err, "%s: %r not in %r" % (what, n, err))


def test_list(exe, lib):
    code, out, err = run(exe)
    check(code == 0 and err == "", "listing: exit %d, %r" % (code, err))
    want = [
        "Foo::bar() (app/foo.h:5) in %s" % exe,
        "    0  puts  app/foo.h:6:5  external",
        "foo(double) (app/util.c:14) in %s" % exe,
        "    0  <indirect>  ?  indirect",
        "compute (app/main.c:20) in %s" % exe,
        "    0  helper  app/main.c:22:5",
        "    2  compute  app/main.c:24:12",
        "helper (app/main.c:30) in %s" % exe,
        "    no calls",
        "lib_entry (lib/lib.c:5) in %s" % lib,
        "    0  lib_inner  lib/lib.c:6:9  inlined",
        "    1  malloc  lib/lib.c:7:9  external  removed",
        "lib_inner (lib/lib.c:15) in %s  not emitted (inlined everywhere or removed)" % lib,
        "main (app/main.c:10) in %s" % exe,
        "    1  printf  app/main.c:13:3  external",
        "    2  <indirect>  app/main.c:14:10  indirect",
        "    3  lib_entry  app/main.c:15:3",
    ]
    lines = out.splitlines()
    for w in want:
        check(w in lines, "listing lacks %r" % w)
    heads = [l for l in lines if not l.startswith(" ")]
    check(len(heads) == 10, "listing: %d functions, expected 10" % len(heads))
    # Sorted by linkage name: _Z3food, _Z3fooi, _ZN3Foo3barEv, compute, ...
    check(heads[0].startswith("foo(double)") and heads[2].startswith("Foo::bar()")
          and heads[-1].startswith("util_run"),
          "listing order: %r" % heads)
    code, out2, _ = run("--mangled", exe)
    check("_ZN3Foo3barEv (app/foo.h:5) in %s" % exe in out2.splitlines(),
          "--mangled shows linkage names")


def test_json(exe, lib):
    code, out, err = run("--json", exe)
    check(code == 0, "--json exit %d %r" % (code, err))
    doc = json.loads(out)
    check(doc["binary"] == exe, "json binary")
    check(doc["objects"] == [exe, lib], "json objects %r" % doc["objects"])
    byname = {(f["name"], f["file"]): f for f in doc["functions"]}
    check(len(doc["functions"]) == 10, "json: 10 functions")
    main = byname[("main", "app/main.c")]
    check(main["line"] == 10 and main["linkage"] == "external" and main["object"] == exe,
          "json main")
    targets = [c["target"] for c in main["calls"]]
    check(targets == ["table", "external", "indirect", "table", "table"],
          "json main targets %r" % targets)
    check(main["calls"][2]["kind"] == "indirect" and main["calls"][2]["callee"] == "",
          "json indirect call")
    check(main["calls"][0] == {"index": 0, "callee": "compute", "display": "compute",
                               "file": "app/main.c", "line": 12, "col": 3,
                               "kind": "direct", "target": "table", "fate": "timed",
                               "via": None, "callback": None},
          "json call record %r" % main["calls"][0])
    foo = byname[("_ZN3Foo3barEv", "app/foo.h")]
    check(foo["display"] == "Foo::bar()" and foo["linkage"] == "linkonce", "json linkonce")
    check(foo["calls"][0]["kind"] == "invoke", "json invoke")
    check("seen" not in main["calls"][0], "no 'seen' in the listing")
    lib_entry = byname[("lib_entry", "lib/lib.c")]
    check([c["fate"] for c in lib_entry["calls"]] == ["inlined", "removed", "timed"],
          "json fates %r" % lib_entry["calls"])
    check(lib_entry["emitted"] is True and byname[("lib_inner", "lib/lib.c")]["emitted"] is False,
          "json emitted")


def layers_text(out):
    """{layer: [(function line, [call lines])]} of the text output."""
    layers, cur = {}, None
    for line in out.splitlines():
        if line.startswith("layer "):
            cur = layers.setdefault(int(line.split()[1]), [])
        elif line.startswith("    "):
            cur[-1][1].append(line.strip())
        elif line.startswith("  "):
            cur.append((line.strip(), []))
        else:
            check(False, "unexpected line %r" % line)
    return layers


def test_layers(exe, lib):
    code, out, err = run("--entry", "main", "--depth", "2", exe)
    check(code == 0 and err == "", "layers: exit %d %r" % (code, err))
    layers = layers_text(out)
    names = {k: [f.split(" (")[0] for f, _ in v] for k, v in layers.items()}
    check(names == {0: ["main"], 1: ["compute", "lib_entry", "helper"],
                    2: ["lib_inner", "Foo::bar()"]}, "layers %r" % names)
    l1 = dict(layers[1])
    compute = l1["compute (app/main.c:20) in %s" % exe]
    check(compute == ["0  helper  app/main.c:22:5  (seen)", "1  helper  app/main.c:23:5  (seen)",
                      "2  compute  app/main.c:24:12  (seen)"], "compute's calls %r" % compute)
    main = layers[0][0][1]
    check(main[0] == "0  compute  app/main.c:12:3" and main[1].endswith("external")
          and main[2].endswith("indirect"), "main's calls %r" % main)
    lib_entry = l1["lib_entry (lib/lib.c:5) in %s" % lib]
    check(lib_entry[2] == "2  Foo::bar()  lib/lib.c:8:2", "lib_entry %r" % lib_entry)
    # The helper of main's call is main.c's, not util.c's.
    check(any(f.startswith("helper (app/main.c:30)") for f, _ in layers[1]), "helper resolved")

    code, out, _ = run("--entry", "main", "--depth", "0", exe)
    check(sorted(layers_text(out)) == [0], "depth 0 is the entry alone")
    code, out, _ = run("--entry", "main", exe)
    check(sorted(layers_text(out)) == [0, 1], "default depth 1")
    code, out, _ = run("--entry", "main", "--depth", "100", exe)
    check(sorted(layers_text(out)) == [0, 1, 2], "layers stop when nothing is new")
    code, out, _ = run("-e", "util.c:helper", "-d", "5", exe)
    check(code == 0 and layers_text(out)[0][0][0].startswith("helper (app/util.c:3)"),
          "FILE:NAME entry")
    code, out, _ = run("--entry", "Foo::bar", exe)
    check(code == 0 and out.startswith("layer 0\n  Foo::bar() (app/foo.h:5)"), "demangled entry")

    code, out, _ = run("--json", "--entry", "main", "--depth", "2", exe)
    doc = json.loads(out)
    check(doc["entry"] == "main" and doc["depth"] == 2, "json layers head")
    check([[f["name"] for f in l["functions"]] for l in doc["layers"]] ==
          [["main"], ["compute", "lib_entry", "helper"], ["lib_inner", "_ZN3Foo3barEv"]],
          "json layers")
    calls = doc["layers"][1]["functions"][0]["calls"]
    check([c["seen"] for c in calls] == [True, True, True], "json seen")
    check([c["seen"] for c in doc["layers"][0]["functions"][0]["calls"]] ==
          [False, False, False, False, False], "json seen in layer 0")


def test_errors(exe, fixtures):
    f = lambda name: os.path.join(fixtures, name)
    expect_error(["--entry", "compte", exe], "no function 'compte'", "did you mean: compute")
    expect_error(["--entry", "zzzzzzzzzzzz", exe], "no function 'zzzzzzzzzzzz'",
                 "pinpoint-layers %s lists them" % exe)
    expect_error(["--entry", "lib.c:helper", exe], "no function 'lib.c:helper'",
                 "did you mean: helper")
    expect_error(["--entry", "helper", exe], "'helper' is ambiguous",
                 "main.c:helper, util.c:helper")
    expect_error(["--entry", "foo", exe], "'foo' is ambiguous",
                 "say which: foo(double), foo(int)")
    expect_error([f("ppt_notable")], "ppt_notable: no pinpoint table: build it with clang "
                 "-fpass-plugin=")
    expect_error([f("ppt_v1")], "pinpoint table version 1", "this pinpoint reads versions 2 to 4")
    expect_error([f("exe.bin")], "exe.bin: not an ELF file")
    expect_error([f("nonexistent")], "nonexistent: No such file or directory")
    expect_error([], "no BINARY given")
    expect_error([exe, exe], "one BINARY only")
    expect_error(["--bogus", exe], "unknown option '--bogus'")
    expect_error(["-x", exe], "unknown option '-x'")
    expect_error([exe, "--entry"], "option -e needs an argument")
    expect_error(["--depth", "2", exe], "--depth needs --entry")
    expect_error(["--entry", "main", "--depth", "-1", exe], "-1 is negative")
    expect_error(["--entry", "main", "--depth", "two", exe], "'two' is not a number")
    expect_error(["--entry", "main", "--depth", "", exe], "'' is not a number")
    expect_error(["--entry", "main", "--depth", "99999999999999999999999", exe],
                 "is not a number")
    expect_error(["--entry", "", exe], "empty function name")
    code, out, err = run("--help")
    check(code == 0 and "SYNOPSIS" in out and "--depth=N" in out and "EXIT STATUS" in out,
          "--help")
    code, out, err = run("--version")
    check(code == 0 and out.startswith("pinpoint-layers "), "--version")


def test_hostile_interp(fixtures):
    """ppt_hostile_exe's PT_INTERP creates hostile-interp-ran when run: the
    listing must come from the ELF files alone, its library included."""
    exe = os.path.join(fixtures, "ppt_hostile_exe")
    marker = os.path.join(fixtures, "hostile-interp-ran")
    if os.path.exists(marker):
        os.unlink(marker)
    code, out, err = run("--mangled", exe)
    check(code == 0 and err == "", "hostile interpreter: exit %d, %r" % (code, err))
    check("lib_entry (lib/lib.c:5) in %s" % os.path.join(fixtures, "libppt_lib.so") in out,
          "hostile interpreter: the library is not listed: %r" % out)
    check(not os.path.exists(marker), "hostile interpreter: it was run")


def scenario_synthetic():
    fixtures = os.path.abspath(ARGS.fixtures)
    exe = os.path.join(fixtures, "ppt_exe")
    lib = os.path.join(fixtures, "libppt_lib.so")
    test_list(exe, lib)
    test_json(exe, lib)
    test_layers(exe, lib)
    test_errors(exe, fixtures)
    test_hostile_interp(fixtures)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", required=True)
    ap.add_argument("--fixtures", required=True)
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
