#!/usr/bin/env python3
"""A clang of another LLVM major loads the plugin: it must fail cleanly (no
crash) with pinpoint's one-line explanation.
Usage: check_wrong_major.py CLANG PLUGIN PLUGIN_MAJOR CLANG_MAJOR"""
import os
import subprocess
import sys
import tempfile

clang, plugin, ours, theirs = sys.argv[1:5]
with tempfile.TemporaryDirectory() as d:
    src = os.path.join(d, "t.c")
    with open(src, "w") as f:
        f.write("int main(void) { return 0; }\n")
    p = subprocess.run([clang, "-c", "-fpass-plugin=" + plugin, src, "-o", os.path.join(d, "t.o")],
                       capture_output=True, text=True, timeout=120)
want = "pinpoint: this plugin is for LLVM %s but was loaded by LLVM %s: use clang-%s, or pinpoint-cc" % (ours, theirs, ours)
lines = p.stderr.splitlines()
if p.returncode == 0 or p.returncode < 0 or not lines or lines[0] != want:
    print("FAIL: exit %d, stderr:\n%s" % (p.returncode, p.stderr))
    sys.exit(1)
if "Stack dump" in p.stderr or "PLEASE submit" in p.stderr:
    print("FAIL: the compiler crashed:\n" + p.stderr)
    sys.exit(1)
print("PASS: " + lines[0])
