#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layers_e2e_test.py - pinpoint-layers on programs built with the plugin:
the same call lists at -O0 and -O2, file:line from debug info, static
functions told apart, C++ names, an instrumented shared library."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from pinpoint_test import check, scenario_main  # noqa: E402

ARGS = None


def run(*args):
    p = subprocess.run([ARGS.layers, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def strip_paths(text):
    """Also without what optimisation did: fates, emitted bodies, the calls
    of inlined code (indented under the call they came through) and so the
    indices."""
    text = re.sub(r"  (inlined|removed|not timed)$", "", text, flags=re.M)
    text = re.sub(r"  not emitted \(.*\)$", "", text, flags=re.M)
    text = re.sub(r"^\s+\d+  \s.*\n", "", text, flags=re.M)
    text = re.sub(r"^(\s+)\d+  ", r"\1#  ", text, flags=re.M)
    return re.sub(r" in \S+$", " in OBJ", text, flags=re.M)


def json_no_objects(text, unplaced=()):
    """The JSON listing without paths of binaries, and without the place of
    calls to the functions in @unplaced."""
    doc = json.loads(text)
    doc.pop("binary")
    doc.pop("objects")
    for f in doc["functions"]:
        f.pop("object")
        f.pop("emitted")
        f["calls"] = [c for c in f["calls"] if c["via"] is None]
        for c in f["calls"]:
            c.pop("fate")
            c.pop("index")
            if c["callee"] in unplaced:
                c["line"] = c["col"] = None
    return doc


def src_line(name, text):
    """The 1-based line of @name holding @text."""
    with open(os.path.join(HERE, "e2e", name)) as f:
        for i, line in enumerate(f, 1):
            if text in line:
                return i
    raise KeyError(text)


def same_at_o0_o2(o0, o2, what, unplaced=()):
    """Both listings are equal but for paths of binaries, and the place of
    calls to functions in @unplaced."""
    def ignore(line):
        m = re.match(r"\s+#  (\S+)  ", line)
        return bool(m) and m.group(1) in unplaced

    code0, t0, _ = run(o0)
    code2, t2, _ = run(o2)
    check(code0 == 0 and code2 == 0, "%s: listing failed" % what)
    l0 = [l for l in strip_paths(t0).splitlines() if not ignore(l)]
    l2 = [l for l in strip_paths(t2).splitlines() if not ignore(l)]
    check(l0 == l2, "%s: -O0 and -O2 call lists differ:\n%s" % (
        what, "\n".join(a + "  |  " + b for a, b in zip(l0, l2) if a != b)[:3000]))
    check(len(l0) > 5, "%s: listing too short" % what)
    _, j0, _ = run("--json", o0)
    _, j2, _ = run("--json", o2)
    check(json_no_objects(j0, unplaced) == json_no_objects(j2, unplaced),
          "%s: JSON differs" % what)


def fates(path):
    _, out, _ = run("--json", path)
    doc = json.loads(out)
    return ({c["fate"] for f in doc["functions"] for c in f["calls"]},
            {f["emitted"] for f in doc["functions"]})


def test_c(d):
    o0, o2 = os.path.join(d, "ppe_prog_O0"), os.path.join(d, "ppe_prog_O2")
    same_at_o0_o2(o0, o2, "C program")
    # At -O0 every call is timed and every function emitted; not at -O2.
    check(fates(o0) == ({"timed"}, {True}), "-O0 fates %r" % (fates(o0),))
    check("inlined" in fates(o2)[0], "-O2 fates %r" % (fates(o2),))
    code, out, err = run("--json", o2)
    doc = json.loads(out)
    funcs = {(f["name"], os.path.basename(f["file"])): f for f in doc["functions"]}
    check(set(funcs) == {("main", "prog.c"), ("sum_squares", "prog.c"), ("apply", "prog.c"),
                         ("square", "prog.c"), ("square", "util.c"), ("util_scale", "util.c"),
                         ("helper_rec", "util.c")}, "C functions: %r" % sorted(funcs))
    main = funcs[("main", "prog.c")]
    check(main["line"] == src_line("prog.c", "int main("), "main's line")
    calls = [(c["callee"], c["target"], os.path.basename(c["file"]), c["line"])
             for c in main["calls"] if c["via"] is None]
    check(calls == [("sum_squares", "table", "prog.c", src_line("prog.c", "a = sum_squares")),
                    ("apply", "table", "prog.c", src_line("prog.c", "b = apply")),
                    ("util_scale", "table", "prog.c", src_line("prog.c", "c = util_scale")),
                    ("printf", "external", "prog.c", src_line("prog.c", "printf("))],
          "main's calls %r" % calls)
    check(all(c["col"] > 0 for c in main["calls"]), "columns")
    apply = funcs[("apply", "prog.c")]
    check([(c["kind"], c["callee"]) for c in apply["calls"]] ==
          [("indirect", ""), ("direct", "square")], "apply's calls")

    code, out, err = run("--entry", "main", "--depth", "2", o2)
    check(code == 0, "layers of main: %r" % err)
    layers, cur = [], None
    for line in out.splitlines():
        if line.startswith("layer "):
            cur = []
            layers.append(cur)
        elif line.startswith("  ") and not line.startswith("    "):
            cur.append(re.sub(r" \((\S*/)?(\S+?):\d+\) in .*", r" \2", line.strip()))
    # main inlines apply, whose call of square is main's too: square is
    # named in layer 0.
    check(layers == [["main prog.c"], ["sum_squares prog.c", "apply prog.c", "square prog.c",
                                       "util_scale util.c"],
                     ["square util.c", "helper_rec util.c"]],
          "layers %r" % layers)
    code, out, err = run("--entry", "square", o2)
    check(code == 2 and "prog.c:square, util.c:square" in err and out == "",
          "ambiguous square: %r" % err)
    code, out, err = run("--entry", "util.c:square", o2)
    check(code == 0 and "util.c:%d)" % src_line("util.c", "static int square") in out,
          "util.c:square: %r" % out[:200])


def test_cxx(d):
    o0, o2 = os.path.join(d, "ppe_cxx_O0"), os.path.join(d, "ppe_cxx_O2")
    # clang places the call of __clang_call_terminate (a landing pad it adds
    # in noexcept library code) at other lines when it optimises.
    same_at_o0_o2(o0, o2, "C++ program", unplaced=("__clang_call_terminate",))
    code, out, _ = run("--json", o2)
    doc = json.loads(out)
    byname = {f["display"]: f for f in doc["functions"]}
    for name in ("main", "geo::check(double)", "geo::Square::area() const",
                 "double geo::total<double>(std::vector<double, std::allocator<double> > const&)"):
        check(name in byname, "C++ function %s" % name)
    main = byname.get("main", {"calls": []})
    kinds = {c["kind"] for c in main["calls"]}
    check("invoke" in kinds and "indirect" in kinds, "main's call kinds %r" % kinds)
    check(byname.get("geo::Square::area() const", {}).get("linkage") == "linkonce",
          "inline member is linkonce")
    code, out, err = run("--entry", "geo::check", "--depth", "0", o2)
    check(code == 0 and out.startswith("layer 0\n  geo::check(double) ("), "C++ entry %r" % err)


def test_lib(d):
    exe, lib = os.path.join(d, "ppe_uselib"), os.path.join(d, "libppe.so")
    code, out, err = run("--json", "--entry", "main", "--depth", "5", exe)
    check(code == 0, "uselib: %r" % err)
    doc = json.loads(out)
    check(doc["objects"][0] == exe and lib in doc["objects"], "objects %r" % doc["objects"])
    names = [[(f["name"], f["object"]) for f in l["functions"]] for l in doc["layers"]]
    # main inlines twice, whose calls of lib_work are main's too.
    check(names == [[("main", exe)], [("twice", exe), ("lib_work", lib)],
                    [("lib_step", lib)]], "layers into the library %r" % names)


def test_plain(cc):
    with tempfile.TemporaryDirectory() as t:
        src, exe = os.path.join(t, "plain.c"), os.path.join(t, "plain")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        subprocess.run([cc, src, "-o", exe], check=True)
        code, out, err = run(exe)
        check(code == 2 and out == "" and err.count("\n") == 1 and
              "no pinpoint table: build it with clang -fpass-plugin=" in err,
              "plain program: %d %r" % (code, err))


def scenario_e2e():
    d = os.path.abspath(ARGS.dir)
    test_c(d)
    test_cxx(d)
    test_lib(d)
    test_plain(ARGS.plain)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--plain", required=True, help="a compiler without the plugin")
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
