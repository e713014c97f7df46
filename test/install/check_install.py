#!/usr/bin/env python3
"""Installation and build-integration tests: the compiler wrappers, plain
plugin use, the installed CMake package and the Debian package.

    check_install.py --build BUILD --clang CLANG --clangxx CLANGXX SCENARIO

Each scenario works in its own temporary directory and exits non-zero with
a message on the first failure.
"""
import argparse
import glob
import json
import os
import re
import shutil
import sys
import tempfile
from urllib.parse import unquote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import pinpoint_test  # noqa: E402
from pinpoint_test import expect_chain, fail, scenario_main, skip  # noqa: E402


HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = os.path.join(HERE, "projects")


def run(cmd, cwd=None, env=None, expect=0, timeout=120):
    return pinpoint_test.run(cmd, cwd=cwd, extra_env=env or {}, expect=expect, timeout=timeout)


def copy_project(name, dst, sources=("prog.c",)):
    shutil.copytree(os.path.join(PROJECTS, name), dst)
    for s in sources:
        shutil.copy(os.path.join(PROJECTS, s), dst)


def check_program(prog, layers, entry="work", callee="leaf"):
    """The program carries the table and writes results for ENTRY."""
    out = run([layers, "--entry", entry, "--depth", "1", prog]).stdout
    if not re.search(r"\b%s\b" % callee, out):
        fail("%s: pinpoint-layers does not show %s under %s:\n%s" % (prog, callee, entry, out))
    res = prog + ".results"
    if os.path.exists(res):
        os.unlink(res)
    run([prog], cwd=os.path.dirname(prog), env={"PINPOINT": "out=%s;entry=%s" % (res, entry)})
    if not os.path.exists(res):
        fail("%s wrote no results with PINPOINT=out=...;entry=%s" % (prog, entry))
    text = open(res).read()
    m = re.search(r"^slot 0 entry %s found=1 total_ns=(\d+) count=1\b" % re.escape(entry), text, re.M)
    if not m or not text.endswith("end\n"):
        fail("%s: unexpected results:\n%s" % (prog, text))
    if int(m.group(1)) <= 0:
        fail("%s: zero time for %s:\n%s" % (prog, entry, text))


def read_record(path):
    """The link record @path (doc/formats.md, section 5): {cwd, env, argv, output}."""
    if os.path.islink(path) or not os.path.isfile(path):
        fail("no link record (a regular file) at " + path)
    with open(path) as f:
        lines = f.read().splitlines()
    if lines[0] != "pinpoint-link 1" or lines[-1] != "end":
        fail("%s is not a complete link record:\n%s" % (path, "\n".join(lines)))
    rec = {"env": {}, "argv": [], "output": None}
    for line in lines[1:-1]:
        key, value = line.split(" ", 1)
        if key == "env":
            name, value = value.split("=", 1)
            rec["env"][name] = unquote(value)
        elif key in ("arg", "output"):
            if key == "output":
                rec["output"] = len(rec["argv"])
            rec["argv"].append(unquote(value))
        else:
            rec[key] = unquote(value)
    return rec


def check_record(out, cwd, want=(), shared=False):
    """@out was linked by pinpoint's wrappers: its link record beside it names it, the
    directory the link ran in, and the arguments @want (-shared for a @shared library)."""
    rec = read_record(out + ".pinpoint-link")
    if rec["cwd"] != os.path.realpath(cwd):
        fail("%s: the record's directory is %s, not %s" % (out, rec["cwd"], cwd))
    named = os.path.join(rec["cwd"], rec["argv"][rec["output"]])
    if os.path.realpath(named) != os.path.realpath(out):
        fail("%s: the record names the output %s" % (out, named))
    for w in list(want) + (["-shared"] if shared else []):
        if w not in rec["argv"]:
            fail("%s: no %s in the recorded command %s" % (out, w, rec["argv"]))
    if "PATH" not in rec["env"]:
        fail("%s: the record keeps no PATH: %s" % (out, rec["env"]))
    return rec


def check_sections(obj, fn="work"):
    """@obj was compiled with -ffunction-sections: @fn has a section of its own."""
    out = run(["readelf", "-SW", obj]).stdout
    if not re.search(r"\.text\.%s\b" % fn, out):
        fail("%s has no section .text.%s (no -ffunction-sections):\n%s" % (obj, fn, out))


def check_rpath(prog, rtdir):
    dyn = run(["readelf", "-d", prog]).stdout
    if "libpinpoint-rt.so" not in dyn or os.path.realpath(rtdir) not in dyn:
        fail("%s does not need libpinpoint-rt.so from %s:\n%s" % (prog, rtdir, dyn))


def scenario_wrapper_make(a, tmp):
    src = os.path.join(tmp, "proj")
    copy_project("make", src)
    cc = os.path.join(a.build, "tools", "pinpoint-cc")
    # A link planted where the record goes is replaced, never followed.
    victim = os.path.join(tmp, "victim")
    with open(victim, "w") as f:
        f.write("keep\n")
    os.symlink(victim, os.path.join(src, "prog.pinpoint-link"))
    run(["make", "CC=" + cc], cwd=src)
    prog = os.path.join(src, "prog")
    check_rpath(prog, os.path.join(a.build, "runtime"))
    check_program(prog, a.layers)
    check_sections(os.path.join(src, "prog.o"))
    check_record(prog, src, want=["prog.o", "-ffunction-sections"])
    # compiled and linked by one command: recorded as the link of its object, kept
    check_record(os.path.join(src, "libprog.so"), src,
                 want=["libprog.so.pinpoint-objs/0-prog.c.o", "-ffunction-sections", "-fPIC"],
                 shared=True)
    check_sections(os.path.join(src, "libprog.so.pinpoint-objs", "0-prog.c.o"))
    if open(victim).read() != "keep\n":
        fail("the wrapper wrote through a link planted at prog.pinpoint-link")


def scenario_wrapper_cmake(a, tmp):
    src = os.path.join(tmp, "proj")
    copy_project("cmake", src)
    bld = os.path.join(tmp, "build")
    cc = os.path.join(a.build, "tools", "pinpoint-cc")
    run(["cmake", "-S", src, "-B", bld, "-DCMAKE_C_COMPILER=" + cc,
         "-DCMAKE_BUILD_TYPE=Release"])
    run(["cmake", "--build", bld])
    check_program(os.path.join(bld, "prog"), a.layers)
    check_sections(os.path.join(bld, "CMakeFiles", "prog.dir", "prog.c.o"))
    check_record(os.path.join(bld, "prog"), bld)
    # The library's record is beside the file, not beside the links to it.
    check_record(os.path.join(bld, "libshape.so.1.2"), bld, shared=True)
    for link in ("libshape.so.1", "libshape.so"):
        if os.path.lexists(os.path.join(bld, link + ".pinpoint-link")):
            fail("a link record beside the link " + link)


def scenario_wrapper_cxx(a, tmp):
    shutil.copy(os.path.join(PROJECTS, "prog.cpp"), tmp)
    cxx = os.path.join(a.build, "tools", "pinpoint-c++")
    run([cxx, "-O1", "-c", "prog.cpp", "-o", "prog.o"], cwd=tmp)
    run([cxx, "prog.o", "-o", "prog"], cwd=tmp)
    check_program(os.path.join(tmp, "prog"), a.layers, entry="_Z4workRKSt6vectorIiSaIiEE",
                  callee="leaf")
    # the mode comes from the name: pinpoint-c++ runs clang++
    cfg = run([cxx, "--pinpoint-print-config"]).stdout
    if "clang " + a.clangxx not in cfg:
        fail("pinpoint-c++ does not run %s:\n%s" % (a.clangxx, cfg))
    # commands without inputs and compile-only commands pass through
    ver = run([cxx, "--version"]).stdout
    if "clang version" not in ver:
        fail("pinpoint-c++ --version:\n" + ver)
    # clang's exit status comes back
    open(os.path.join(tmp, "bad.c"), "w").write("int main(void) { return undefined_name; }\n")
    run([os.path.join(a.build, "tools", "pinpoint-cc"), "-c", "bad.c"], cwd=tmp, expect=1)


def scenario_wrapper_args(a, tmp):
    """What the wrapper adds, read from clang -### (prints the commands, runs nothing)."""
    shutil.copy(os.path.join(PROJECTS, "prog.c"), tmp)
    cc = os.path.join(a.build, "tools", "pinpoint-cc")

    def commands(*args):
        return run([cc, "-###"] + list(args), cwd=tmp).stderr

    def expect(args, present, absent):
        out = commands(*args)
        for s in present:
            if s not in out:
                fail("pinpoint-cc %s: no %s in\n%s" % (" ".join(args), s, out))
        for s in absent:
            if s in out:
                fail("pinpoint-cc %s: unexpected %s in\n%s" % (" ".join(args), s, out))

    plugin = "-fpass-plugin=" + os.path.realpath(os.path.join(a.build, "pass", "pinpoint-pass.so"))
    rt = os.path.realpath(os.path.join(a.build, "runtime", "libpinpoint-rt.so"))
    expect(["-c", "prog.c"], [plugin, "-debug-info-kind=", "-ffunction-sections"], [rt])
    expect(["-fno-function-sections", "-c", "prog.c"], [plugin], ["-ffunction-sections"])
    expect(["-g0", "-c", "prog.c"], [plugin], ["-debug-info-kind="])
    expect(["-gz", "-c", "prog.c"], [plugin, "-debug-info-kind="], [])
    expect(["-o", "prog", "prog.c"], [plugin, rt, "-rpath", "-lpthread"], [])
    for stop in ["-S", "-E", "-M", "-MM", "-fsyntax-only"]:
        expect([stop, "prog.c"], [], [rt])
    expect(["-v"], [], [plugin, rt])

    # -oFILE and no -o at all are recorded as -o FILE; a failed link leaves no record.
    for args, out in ((["-oprog1", "prog.c"], "prog1"), (["prog.c"], "a.out")):
        run([cc] + args, cwd=tmp)
        rec = check_record(os.path.join(tmp, out), tmp, want=["-o", "-ffunction-sections"])
        if rec["argv"][rec["output"] - 1] != "-o":
            fail("%s: the output is not recorded after -o: %s" % (out, rec["argv"]))
    # A command that compiles and links at once: its compiles run apart, the
    # objects kept, and the record names them, so a code layout is one link.
    run([cc, "-O1", "-DONE", "prog.c", "-o", "one"], cwd=tmp)
    rec = check_record(os.path.join(tmp, "one"), tmp, want=["-O1"])
    objs = [x for x in rec["argv"] if x.endswith(".o")]
    if "prog.c" in rec["argv"] or objs != ["one.pinpoint-objs/0-prog.c.o"] or \
            not os.path.isfile(os.path.join(tmp, objs[0])):
        fail("a compile-and-link command is not recorded as a link of its objects: %s"
             % rec["argv"])
    check_sections(os.path.join(tmp, objs[0]))
    with open(os.path.join(tmp, "bad.c"), "w") as f:
        f.write("int main(void) { return undefined_name; }\n")
    run([cc, "bad.c", "-o", "bad"], cwd=tmp, expect=1)
    if os.path.lexists(os.path.join(tmp, "bad.pinpoint-link")):
        fail("a failed link left a link record")
    # --pinpoint-record-link runs the command as it is and records it.
    run([cc, "--pinpoint-record-link", a.clang, "-O1", "prog.c", "-o", "plain"], cwd=tmp)
    rec = check_record(os.path.join(tmp, "plain"), tmp)
    if rec["argv"][0] != a.clang or any("pinpoint" in x for x in rec["argv"]):
        fail("--pinpoint-record-link changed the command: %s" % rec["argv"])

    # alone, without a plugin beside it: one line naming what is missing
    lone = os.path.join(tmp, "bin")
    os.mkdir(lone)
    shutil.copy(cc, lone)
    p = run([os.path.join(lone, "pinpoint-cc"), "-c", "prog.c"], cwd=tmp, expect=1)
    if "pinpoint-pass.so: No such file or directory" not in p.stderr or p.stderr.count("\n") != 1:
        fail("pinpoint-cc without a plugin:\n" + p.stderr)
    shutil.copy(a.pinpoint, lone)
    p = run([os.path.join(lone, "pinpoint"), "--print-runtime-path"], expect=2)
    if "libpinpoint-rt.so: No such file or directory" not in p.stderr:
        fail("pinpoint --print-runtime-path without a runtime:\n" + p.stderr)


def scenario_plain_plugin(a, tmp):
    plugin = run([a.pinpoint, "--print-plugin-path"]).stdout.strip()
    rt = run([a.pinpoint, "--print-runtime-path"]).stdout.strip()
    if plugin != os.path.realpath(os.path.join(a.build, "pass", "pinpoint-pass.so")):
        fail("--print-plugin-path: " + plugin)
    if rt != os.path.realpath(os.path.join(a.build, "runtime", "libpinpoint-rt.so")):
        fail("--print-runtime-path: " + rt)
    shutil.copy(os.path.join(PROJECTS, "prog.c"), tmp)
    run([a.clang, "-fpass-plugin=" + plugin, "-g", "-O2", "prog.c", rt,
         "-Wl,-rpath," + os.path.dirname(rt), "-lpthread", "-o", "prog"], cwd=tmp)
    check_program(os.path.join(tmp, "prog"), a.layers)
    check_man_example(a, tmp)


def check_man_example(a, tmp):
    """pinpoint(1)'s example of a build by hand, run as it is printed, makes a program that
    starts (the shared runtime is found through its rpath)."""
    with open(os.path.join(os.path.dirname(PROJECTS), "..", "..", "man", "pinpoint.1")) as f:
        man = f.read()
    m = re.search(r"\n\.nf\n(clang [^\n]*(?:\\e\n[^\n]*)*)\n\.fi", man)
    if not m:
        fail("no clang example in pinpoint(1)")
    cmd = m.group(1).replace("\\-", "-").replace("\\e\n", " ")
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir, exist_ok=True)
    for name, target in (("pinpoint", a.pinpoint), ("clang", a.clang)):
        if not os.path.exists(os.path.join(bindir, name)):
            os.symlink(target, os.path.join(bindir, name))
    if os.path.exists(os.path.join(tmp, "prog")):
        os.unlink(os.path.join(tmp, "prog"))
    run(["sh", "-c", cmd], cwd=tmp, env={"PATH": bindir + ":" + os.environ["PATH"]})
    p = run([os.path.join(tmp, "prog")], cwd=tmp, expect=None)
    if p.returncode != 0:
        fail("the program built by pinpoint(1)'s example exits %d:\n%s\n%s"
             % (p.returncode, cmd, p.stderr))


def install_prefix(a, tmp):
    prefix = os.path.join(tmp, "prefix")
    run(["cmake", "--install", a.build, "--prefix", prefix])
    return prefix


def scenario_package(a, tmp):
    prefix = install_prefix(a, tmp)
    for f in ["bin/pinpoint", "bin/pinpoint-layers", "bin/pinpoint-cc", "bin/pinpoint-c++",
              "lib/pinpoint/pinpoint-pass.so", "lib/pinpoint/libpinpoint-rt.so",
              "lib/pinpoint/libpinpoint-rt.a", "include/pinpoint/abi.h",
              "include/pinpoint/abi_x86_64.h",
              "lib/cmake/Pinpoint/PinpointConfig.cmake",
              "lib/cmake/Pinpoint/PinpointConfigVersion.cmake",
              "share/man/man1/pinpoint.1.gz", "share/man/man1/pinpoint-cc.1.gz",
              "share/man/man1/pinpoint-layers.1.gz", "share/doc/pinpoint/copyright"]:
        if not os.path.exists(os.path.join(prefix, f)):
            fail("not installed: " + f)
    # the installed driver finds the installed plugin
    plugin = run([os.path.join(prefix, "bin", "pinpoint"), "--print-plugin-path"]).stdout.strip()
    if plugin != os.path.realpath(os.path.join(prefix, "lib/pinpoint/pinpoint-pass.so")):
        fail("installed --print-plugin-path: " + plugin)
    src = os.path.join(tmp, "proj")
    copy_project("package", src)
    bld = os.path.join(tmp, "build")
    pdir = os.path.join(prefix, "lib", "cmake", "Pinpoint")
    run(["cmake", "-S", src, "-B", bld, "-DCMAKE_C_COMPILER=" + a.clang,
         "-DCMAKE_BUILD_TYPE=Release", "-DPinpoint_DIR=" + pdir])
    run(["cmake", "--build", bld])
    layers = os.path.join(prefix, "bin", "pinpoint-layers")
    check_rpath(os.path.join(bld, "prog"), os.path.join(prefix, "lib", "pinpoint"))
    check_program(os.path.join(bld, "prog"), layers)
    check_program(os.path.join(bld, "prog_static"), layers)
    for target in ("prog", "prog_static"):
        check_sections(os.path.join(bld, "CMakeFiles", target + ".dir", "prog.c.o"))
        check_record(os.path.join(bld, target), bld)
    check_record(os.path.join(bld, "libshape.so"), bld, shared=True)
    check_package_measured_in_place(os.path.join(prefix, "bin", "pinpoint"), a, src, pdir, bld,
                                    tmp)
    # another compiler is refused with one clear line
    bad = os.path.join(tmp, "build-gcc")
    p = run(["cmake", "-S", src, "-B", bad, "-DCMAKE_C_COMPILER=gcc", "-DPinpoint_DIR=" + pdir],
            expect=None)
    if p.returncode == 0 or "needs clang" not in p.stderr:
        fail("pinpoint_instrument accepted gcc:\n" + p.stdout + p.stderr)


def check_package_measured_in_place(pinpoint, a, src, pdir, bld, tmp):
    """A build directory whose targets use pinpoint_instrument() is measured as it is: no
    instrumented copy is configured or built under the build root."""
    bld2 = os.path.join(tmp, "build2")
    run(["cmake", "-S", src, "-B", bld2, "-DCMAKE_C_COMPILER=" + a.clang,
         "-DCMAKE_BUILD_TYPE=Release", "-DPinpoint_DIR=" + pdir])
    run(["cmake", "--build", bld2])
    root = os.path.join(tmp, "copies")
    js = os.path.join(tmp, "session.json")
    # Identical builds of a tiny entry: not slower, or undecided (4) on a noisy machine; what
    # matters is that the directories were measured as they are, so the suite's budget
    # (test/harness) and a threshold of 20 % (at the default 1 % such an entry takes
    # thousands of runs to be found not slower), as built (the layouts are
    # driver-layouts-*').
    p = run([pinpoint, "--entry", "work", "--depth", "0", "--previous", bld, "--current", bld2,
             "--build-root", root, "--measurements", "5", "--no-save-command", "--json", js,
             "--precision-threshold", "20", "--layouts", "1"] + pinpoint_test.SUITE_BUDGET +
            ["--", "./prog"],
            expect=None, timeout=300)
    if p.returncode not in (0, 1, 4) or "building" in p.stderr:
        fail("the package build was not measured as it is:\n" + p.stdout + p.stderr)
    if os.path.exists(root) and os.listdir(root):
        fail("an instrumented copy of a package build was made: %s" % os.listdir(root))
    with open(js) as f:
        dirs = [r["dir"] for r in json.load(f)["revisions"]]
    if dirs != [os.path.realpath(bld), os.path.realpath(bld2)]:
        fail("the session measured %s, not the build directories themselves" % dirs)


def scenario_package_build_tree(a, tmp):
    """-DPinpoint_DIR=<build>/cmake uses the plugin and runtime where they are built."""
    src = os.path.join(tmp, "proj")
    copy_project("package", src)
    bld = os.path.join(tmp, "build")
    run(["cmake", "-S", src, "-B", bld, "-DCMAKE_C_COMPILER=" + a.clang,
         "-DPinpoint_DIR=" + os.path.join(a.build, "cmake")])
    run(["cmake", "--build", bld])
    check_rpath(os.path.join(bld, "prog"), os.path.join(a.build, "runtime"))
    check_program(os.path.join(bld, "prog"), a.layers)
    check_record(os.path.join(bld, "prog"), bld)


def build_package(a, tmp):
    out = os.path.join(tmp, "cpack")
    run(["cpack", "-G", "DEB", "--config", os.path.join(a.build, "CPackConfig.cmake"),
         "-B", out], timeout=300)
    debs = glob.glob(os.path.join(out, "*.deb"))
    if len(debs) != 1:
        fail("cpack made %s" % debs)
    return debs[0]


def check_demo(a, pinpoint):
    """The installed driver finds the demo's chain.  The budget is the test
    suite's (test/harness): the chain decides in its first round, and the
    default budget would let a sibling within the threshold take minutes;
    4 layouts, linked in a second, where the default 64 take half a minute
    on a 2-vCPU VM (the README's own session is driver-docs')."""
    demo = os.path.join(a.build, "demo")
    p = run([pinpoint, *pinpoint_test.SUITE_BUDGET, *pinpoint_test.SUITE_CONFIRM,
             "--layouts", "4", "--entry", "run", "--depth", "2", "--previous",
             os.path.join(demo, "previous"), "--current", os.path.join(demo, "current"),
             "--no-save-command", "--", "./demo"], expect=1, timeout=600)
    expect_chain(p, ["run", "bridge", "failure_run"])


def scenario_deb(a, tmp):
    pkg = build_package(a, tmp)
    info = run(["dpkg-deb", "-f", pkg, "Package", "Depends"]).stdout
    if "Package: pinpoint" not in info or "clang-%s" % a.llvm_major not in info \
            or "lld-%s" % a.llvm_major not in info \
            or "libelf1" not in info or "libgsl27" not in info or "libjansson4" not in info:
        fail("package control fields:\n" + info)
    root = os.path.join(tmp, "root")
    run(["dpkg-deb", "-x", pkg, root])
    usr = os.path.join(root, "usr")
    for f in ["bin/pinpoint", "bin/pinpoint-layers", "bin/pinpoint-cc", "bin/pinpoint-c++",
              "lib/pinpoint/pinpoint-pass.so", "lib/pinpoint/libpinpoint-rt.so",
              "lib/pinpoint/libpinpoint-rt.a", "include/pinpoint/abi.h",
              "include/pinpoint/abi_x86_64.h",
              "lib/cmake/Pinpoint/PinpointConfig.cmake", "share/doc/pinpoint/copyright"]:
        if not os.path.lexists(os.path.join(usr, f)):
            fail("not in the package: " + f)
    check_debian_docs(usr)
    # the extracted tree works where it is: the wrapper finds its plugin and runtime
    shutil.copy(os.path.join(PROJECTS, "prog.c"), tmp)
    run([os.path.join(usr, "bin", "pinpoint-cc"), "-O2", "prog.c", "-o", "prog"], cwd=tmp)
    check_rpath(os.path.join(tmp, "prog"), os.path.join(usr, "lib", "pinpoint"))
    check_program(os.path.join(tmp, "prog"), os.path.join(usr, "bin", "pinpoint-layers"))
    check_demo(a, os.path.join(usr, "bin", "pinpoint"))


def check_debian_docs(usr):
    """Man pages gzipped with -9n, a machine-readable copyright file with the MIT license."""
    import gzip
    for page in ["pinpoint", "pinpoint-cc", "pinpoint-layers"]:
        path = os.path.join(usr, "share/man/man1/%s.1.gz" % page)
        if not os.path.exists(path) or os.path.exists(path[:-3]):
            fail("the man page %s is not installed gzipped only" % page)
        with open(path, "rb") as f:
            head = f.read(10)
        # RFC 1952: FLG without FNAME (bit 3), MTIME 0, XFL 2 (maximum compression)
        if head[:3] != b"\x1f\x8b\x08" or head[3] & 8 or head[4:8] != b"\0\0\0\0" \
                or head[8] != 2:
            fail("%s is not compressed with gzip -9n: header %s" % (path, head.hex()))
        with gzip.open(path, "rt") as f:
            if not f.read().startswith(".\\\" %s.1" % page):
                fail("%s does not hold the man page" % path)
    with open(os.path.join(usr, "share/doc/pinpoint/copyright")) as f:
        text = f.read()
    for want in ["Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n",
                 "\nFiles: *\nCopyright: the pinpoint authors\nLicense: Expat\n",
                 "\nLicense: Expat\n Permission is hereby granted, free of charge",
                 "\n .\n THE SOFTWARE IS PROVIDED \"AS IS\""]:
        if want not in text:
            fail("the copyright file lacks %r:\n%s" % (want, text))


def scenario_deb_system(a, tmp):
    if os.environ.get("PINPOINT_TEST_DEB_INSTALL") != "1":
        skip("set PINPOINT_TEST_DEB_INSTALL=1 to install the package on this machine")
    pkg = build_package(a, tmp)
    run(["apt-get", "install", "-y", pkg], timeout=600)
    try:
        plugin = run(["/usr/bin/pinpoint", "--print-plugin-path"]).stdout.strip()
        if plugin != "/usr/lib/pinpoint/pinpoint-pass.so":
            fail("installed plugin path: " + plugin)
        shutil.copy(os.path.join(PROJECTS, "prog.c"), tmp)
        run(["/usr/bin/pinpoint-cc", "-O2", "prog.c", "-o", "prog"], cwd=tmp)
        check_program(os.path.join(tmp, "prog"), "/usr/bin/pinpoint-layers")
        check_demo(a, "/usr/bin/pinpoint")
    finally:
        run(["dpkg", "-r", "pinpoint"], expect=None)


def in_tmp(fn, a):
    """Run scenario @fn(a, tmp) in a temporary directory of its own."""
    a.build = os.path.realpath(a.build)
    a.pinpoint = os.path.join(a.build, "pinpoint", "pinpoint")
    a.layers = os.path.join(a.build, "tools", "pinpoint-layers")
    with tempfile.TemporaryDirectory(prefix="pp-install-") as tmp:
        fn(a, tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--llvm-major", dest="llvm_major", required=True)
    scenario_main(ap, globals(), call=in_tmp)


if __name__ == "__main__":
    main()
