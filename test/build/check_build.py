#!/usr/bin/env python3
"""End-to-end tests of pinpoint building the revisions itself.

  check_build.py --pinpoint PATH --example DIR SCENARIO

nightly      plain CMake build dirs of examples/nightly (system cc): pinpoint
             builds instrumented copies under --build-root, names
             unescape_string, and a second session rebuilds nothing; the
             user's build dirs are left as they were.
build-cmd    a plain Makefile project built with --build-cmd make.
build-fails  a failing --build-cmd, and a CMake build dir whose sources are
             gone: one error line naming the revision and the log, exit 2.
ccache       plain builds whose compiles go through ccache: pinpoint's copies
             keep it over pinpoint-cc, made again elsewhere they are ccache
             hits, and ccache keys them by pinpoint's toolchain.
distcc       ccache over distcc (CCACHE_PREFIX) over pinpoint-cc, compiled by
             a distccd on localhost.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import pinpoint_test  # noqa: E402
from pinpoint_test import chain, fail, scenario_main  # noqa: E402


# The planted slowdowns cost more than the entry's whole previous time: a
# 30 % threshold keeps a noisy machine's false "slower" ranges out of the
# chain, and decides the parts that did not change within the suite's budget
# (test/harness: 200 runs per revision) instead of the thousands of runs a
# part of a few percent takes at the default threshold.  The copies are
# varied in 4 code layouts, not 64: linking them is most of a small build's
# session, and the layouts are test/driver/check_layouts.py's subject.
BASE = ["--measurements", "12", "--warmups", "1", "--precision-threshold", "30"] + \
    pinpoint_test.SUITE_BUDGET + pinpoint_test.SUITE_CONFIRM
MEASURE = BASE + ["--layouts", "4"]
# Where the question is how the copies are compiled (ccache, distcc), they run
# as built, as the rest of the suite's sessions do (test/harness).
AS_BUILT = BASE + pinpoint_test.SUITE_LAYOUTS


def run(cmd, cwd, timeout=900):
    return pinpoint_test.run(cmd, cwd=cwd, timeout=timeout, echo=True)


def snapshot(top):
    """Every file under top with its mtime and size."""
    files = {}
    for d, _, names in os.walk(top):
        for n in names:
            path = os.path.join(d, n)
            st = os.lstat(path)
            files[os.path.relpath(path, top)] = (st.st_mtime_ns, st.st_size)
    return files


def cmake_dirs(tmp, example):
    """The user's two plain builds: yesterday's and today's."""
    cc = shutil.which("cc") or shutil.which("gcc")
    for d, extra in (("build-old", []), ("build-new", ["-DNIGHTLY_REVISION=new"])):
        p = run(["cmake", "-S", example, "-B", d, "-DCMAKE_C_COMPILER=" + cc] + extra, tmp)
        if p.returncode:
            fail("configuring the example")
        p = run(["cmake", "--build", d], tmp)
        if p.returncode:
            fail("building the example")


def scenario_nightly(a, tmp):
    cmake_dirs(tmp, a.example)
    old, new, root = (os.path.join(tmp, d) for d in ("build-old", "build-new", "root"))
    before = {d: snapshot(d) for d in (old, new)}
    cmd = [a.pinpoint, "--build-root", root, "--entry", "parse_doc", "--depth", "3",
           "--previous", "../build-old"] + MEASURE + ["--", "./bench", "input.json"]

    p = run(cmd, new)
    if p.returncode != 1:
        fail("first session: exit %d, expected 1 (regression)" % p.returncode)
    first = chain(p.stdout)
    if not first.endswith("unescape_string"):
        fail("the chain does not end at unescape_string: " + first)
    if not re.search(r"unescape_string .*value\.c:\d+", p.stdout):
        fail("unescape_string is not named with its file:line")
    for label in ("previous", "current"):
        if not re.search(r"pinpoint: building the %s revision \(log: %s/[^)]*pinpoint-build\.log\)"
                         % (label, re.escape(root)), p.stderr):
            fail("no progress line for building the %s revision" % label)

    copies = sorted(os.path.join(root, d) for d in os.listdir(root))
    if len(copies) != 2 or not all(os.path.basename(c).startswith(("build-old-", "build-new-"))
                                   for c in copies):
        fail("expected the two instrumented copies in --build-root, found %s" % copies)
    # The copies are linked by pinpoint-cc: each run was in one of their code layouts.
    check_layouts(p, [os.path.join(c, "bench") for c in copies])
    bins = {c: os.stat(os.path.join(c, "bench")).st_mtime_ns for c in copies}

    # The second session's question is the copies: reused, not rebuilt (at
    # depth 0: the chain was the first's, and the copies are the same).
    depth = cmd.index("--depth") + 1
    p = run(cmd[:depth] + ["0"] + cmd[depth + 1:], new)
    if p.returncode != 1:
        fail("second session: exit %d, expected 1" % p.returncode)
    if chain(p.stdout) != "parse_doc":
        fail("second session's chain at depth 0: %s" % chain(p.stdout))
    for c in copies:
        if os.stat(os.path.join(c, "bench")).st_mtime_ns != bins[c]:
            fail("%s/bench was rebuilt by the second session" % c)
        log = open(os.path.join(c, "pinpoint-build.log")).read()
        if re.search(r"Building C object|Linking C", log):
            fail("the second session rebuilt something in %s:\n%s" % (c, log))
        if "Built target bench" not in log:
            fail("the second session's log of %s shows no build:\n%s" % (c, log))

    # The user's build dirs are untouched: nothing is new (the command is
    # remembered in the cache).
    for d in (old, new):
        after = snapshot(d)
        expect = dict(before[d])
        if after != expect:
            changed = sorted(k for k in set(after) | set(expect) if after.get(k) != expect.get(k))
            fail("the user's build dir %s changed: %s" % (d, changed))

    # --no-build uses the dirs as they are: plain builds are measured as they
    # are, and the session fails on their missing instrumentation.
    p = run([a.pinpoint, "--no-build", "--entry", "parse_doc", "--previous", "../build-old"]
            + MEASURE + ["--", "./bench", "input.json"], new)
    if p.returncode not in (2, 3) or not re.search(r"no pinpoint table|no measurements",
                                                   p.stderr):
        fail("--no-build on plain builds: exit %d, expected a failure naming the missing "
             "instrumentation" % p.returncode)
    if "building" in p.stderr:
        fail("--no-build built something")


PROG = r"""
#include <stdio.h>
static volatile double sink;
__attribute__((noinline)) void fast_part(void)
{
	for (int i = 0; i < 200000; i++)
		sink += i * 0.5;
}
__attribute__((noinline)) void changed_part(void)
{
	for (int i = 0; i < ITER; i++)
		sink += i * 0.25;
}
__attribute__((noinline)) void work(void)
{
	fast_part();
	changed_part();
}
int main(void)
{
	for (int i = 0; i < 5; i++)
		work();
	printf("done\n");
	return 0;
}
"""

MAKEFILE = """prog: prog.c
\t@echo PINPOINT_BUILD=$$PINPOINT_BUILD CC=$(CC)
\t$(CC) -O1 -DITER=%d -o prog prog.c
"""


def make_project(tmp, name, iters, makefile=MAKEFILE):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    with open(os.path.join(d, "prog.c"), "w") as f:
        f.write(PROG)
    with open(os.path.join(d, "Makefile"), "w") as f:
        f.write(makefile % iters if "%d" in makefile else makefile)
    return d


def scenario_build_cmd(a, tmp):
    make_project(tmp, "prev", 200000)
    cur = make_project(tmp, "cur", 2000000)
    p = run([a.pinpoint, "--build-cmd", "make", "--entry", "work", "--depth", "1",
             "--previous", "../prev"] + MEASURE + ["--", "./prog"], cur)
    if p.returncode != 1:
        fail("exit %d, expected 1" % p.returncode)
    if not chain(p.stdout).endswith("changed_part"):
        fail("the chain does not end at changed_part: " + chain(p.stdout))
    check_layouts(p, [os.path.join(tmp, d, "prog") for d in ("prev", "cur")])
    for d in ("prev", "cur"):
        log = os.path.join(tmp, d, ".pinpoint", "build.log")
        if not os.path.exists(log):
            fail("no build log " + log)
        text = open(log).read()
        if not re.search(r"PINPOINT_BUILD=1 CC=\S*pinpoint-cc|PINPOINT_BUILD=1 CC=\S*clang", text):
            fail("the build did not see PINPOINT_BUILD=1 and the wrapper as CC:\n" + text)
        if ("building the %s revision (log: %s)" % ("previous" if d == "prev" else "current", log)
                not in p.stderr):
            fail("no progress line naming " + log)


def check_layouts(p, binaries):
    """@binaries have link records, and the session @p linked them again in its layouts."""
    for b in binaries:
        if not os.path.isfile(b + ".pinpoint-link"):
            fail("no link record beside " + b)
        cache = pinpoint_test.cache_path("layouts", os.path.dirname(b))
        if not any(re.match(re.escape(os.path.basename(b)) + r"\.[0-9a-f]{16}\.\d+$", n)
                   for n in (os.listdir(cache) if os.path.isdir(cache) else [])):
            fail("no layout of %s was made in the cache %s" % (b, cache))
        if os.path.exists(os.path.join(os.path.dirname(b), ".pinpoint", "layouts")):
            fail("layouts in the build directory of %s" % b)
    if not re.search(r"^Layouts: each revision ran in \d+ code layouts", p.stdout, re.M):
        fail("the report says no layouts were measured")


def one_error(p, label, log):
    errors = [l for l in p.stderr.splitlines() if "error" in l]
    if p.returncode != 2:
        fail("a failed build: exit %d, expected 2" % p.returncode)
    if len(errors) != 1:
        fail("expected one error line, got %s" % errors)
    if label not in errors[0] or log not in errors[0]:
        fail("the error line names neither the %s revision nor %s: %s" % (label, log, errors[0]))
    if p.stdout.strip():
        fail("a failed build printed a verdict: " + p.stdout)


def scenario_build_fails(a, tmp):
    prev = make_project(tmp, "prev", 1000)
    cur = make_project(tmp, "cur", 1000, makefile="prog: prog.c\n\t$(CC) -o prog no-such-file.c\n")
    p = run([a.pinpoint, "--build-cmd", "make", "--entry", "work", "--previous", "../prev"]
            + MEASURE + ["--", "./prog"], cur)
    log = os.path.join(cur, ".pinpoint", "build.log")
    one_error(p, "current revision", log)
    if "no-such-file.c" not in open(log).read():
        fail("the log does not hold the compiler's complaint")
    if not os.path.exists(os.path.join(prev, "prog")):
        fail("the previous revision was not built first")

    # A CMake build dir whose sources were removed since.
    src = os.path.join(tmp, "src")
    shutil.copytree(a.example, src)
    cmake_dirs_at(tmp, src)
    shutil.rmtree(src)
    root = os.path.join(tmp, "root")
    p = run([a.pinpoint, "--build-root", root, "--entry", "parse_doc", "--previous",
             "../build-old"] + MEASURE + ["--", "./bench", "input.json"],
            os.path.join(tmp, "build-new"))
    logs = [os.path.join(root, d, "pinpoint-build.log") for d in os.listdir(root)]
    if len(logs) != 1:
        fail("expected one copy (the previous revision's) in --build-root, got %s" % logs)
    one_error(p, "previous revision", logs[0])

    # --no-build and --build-cmd exclude each other.
    p = run([a.pinpoint, "--no-build", "--build-cmd", "make", "--entry", "work", "--previous",
             "../prev", "--", "./prog"], cur)
    if p.returncode != 2:
        fail("--no-build --build-cmd: exit %d, expected 2" % p.returncode)


def launcher_dirs(tmp, example, launcher):
    """The user's two plain builds, their compiles through @launcher
    (CMAKE_C_COMPILER_LAUNCHER), as a project using ccache or distcc is
    configured."""
    cc = shutil.which("cc") or shutil.which("gcc")
    for d, extra in (("build-old", []), ("build-new", ["-DNIGHTLY_REVISION=new"])):
        p = run(["cmake", "-S", example, "-B", d, "-DCMAKE_C_COMPILER=" + cc,
                 "-DCMAKE_C_COMPILER_LAUNCHER=" + launcher] + extra, tmp)
        if p.returncode or run(["cmake", "--build", d], tmp).returncode:
            fail("configuring and building the example with %s" % launcher)


def ccache_stats(env):
    """ccache's counters, as `ccache --print-stats` gives them."""
    p = pinpoint_test.run(["ccache", "--print-stats"], cwd="/", extra_env=env)
    return {k: int(v) for k, v in (l.split("\t") for l in p.stdout.splitlines() if "\t" in l)}


def copy_cache(root):
    """The CMakeCache.txt of each instrumented copy under @root, as text."""
    return {d: open(os.path.join(root, d, "CMakeCache.txt")).read() for d in os.listdir(root)}


def scenario_ccache(a, tmp):
    """A project whose compiles go through ccache keeps it in pinpoint's
    copies, with pinpoint-cc under it: the first copies' compiles are
    ccache's misses and their chain is right; copies made again elsewhere
    are all hits, and their entry as slower (depth 0: the hits are the
    question, the chain the first copies'); ccache takes pinpoint's
    toolchain (the wrappers and the plugin) for the compiler, not the
    wrapper's file alone."""
    env = {"CCACHE_DIR": os.path.join(tmp, "ccache"), "CCACHE_LOGFILE":
           os.path.join(tmp, "ccache.log")}
    os.environ.update(env)
    launcher_dirs(tmp, a.example, "ccache")
    new = os.path.join(tmp, "build-new")
    base = ccache_stats(env)
    chains = []
    for root, depth in (("root1", "3"), ("root2", "0")):
        root = os.path.join(tmp, root)
        p = run([a.pinpoint, "--build-root", root, "--entry", "parse_doc", "--depth", depth,
                 "--previous", "../build-old"] + AS_BUILT + ["--", "./bench", "input.json"], new)
        if p.returncode != 1:
            fail("with ccache: exit %d, expected 1" % p.returncode)
        chains.append(chain(p.stdout))
        for d, text in copy_cache(root).items():
            if not re.search(r"^CMAKE_C_COMPILER_LAUNCHER:\w+=ccache$", text, re.M) or \
                    not re.search(r"^CMAKE_C_COMPILER:\w+=\S*pinpoint-cc$", text, re.M):
                fail("the copy %s is not configured with ccache over pinpoint-cc" % d)
        st = ccache_stats(env)
        print("ccache after %s: %s" % (os.path.basename(root), {k: st.get(k, 0) - base.get(k, 0)
              for k in ("direct_cache_hit", "preprocessed_cache_hit", "cache_miss")}))
        if root.endswith("1"):
            first = st
    if not chains[0].endswith("unescape_string") or chains[1] != "parse_doc":
        fail("the chains with ccache: %s" % chains)
    hits = lambda s: s.get("direct_cache_hit", 0) + s.get("preprocessed_cache_hit", 0)
    # 5 sources of the library, bench.c and mkinput.c, in each of the two copies (the
    # copy of build-old hits what the copy of build-new compiled alike)
    if first.get("cache_miss", 0) - base.get("cache_miss", 0) < 5 or \
            first.get("cache_miss", 0) + hits(first) - base.get("cache_miss", 0) - hits(base) < 14:
        fail("the first copies' compiles did not go through ccache: %s" % first)
    if st.get("cache_miss", 0) != first.get("cache_miss", 0) or hits(st) - hits(first) < 14:
        fail("the copies made again were not ccache hits: %s, then %s" % (first, st))
    log = open(env["CCACHE_LOGFILE"]).read()
    if not re.search(r"compiler_check = string:pinpoint-[0-9a-f]{16}", log):
        fail("ccache did not take pinpoint's toolchain for the compiler (its log)")


def scenario_distcc(a, tmp):
    """ccache over distcc over pinpoint-cc (CCACHE_PREFIX=distcc): the
    copies' compiles are run by a distccd on localhost, and the chain is
    right."""
    # run by root, distccd drops to its own user, which must reach pinpoint-cc
    # and the plugin, as an installed pinpoint's are
    user = "distccd" if os.getuid() == 0 else None
    if user:
        cc = os.path.join(os.path.dirname(os.path.dirname(a.pinpoint)), "tools", "pinpoint-cc")
        plugin = pinpoint_test.run([a.pinpoint, "--print-plugin-path"], cwd=tmp).stdout.strip()
        p = subprocess.run(["su", "-s", "/bin/sh", user, "-c",
                            'test -x "$0" && test -r "$1"', cc, plugin],
                           capture_output=True, text=True)
        if p.returncode:
            pinpoint_test.skip("distccd runs as the user %s, which cannot reach %s or %s "
                               "(a build tree in a private directory)" % (user, cc, plugin))
    port = 3632 + os.getpid() % 1000
    log = os.path.join(tmp, "distccd.log")
    # run by root, distccd runs as its own user, which cannot write in @tmp:
    # its log goes to a file opened here (and pinpoint-cc must be readable to
    # it, as an installed one is)
    logf = open(log, "w")
    daemon = subprocess.Popen(["distccd", "--no-detach", "--daemon", "--allow", "127.0.0.1",
                               "--listen", "127.0.0.1", "--port", str(port), "--log-stderr",
                               "--log-level", "info", "--enable-tcp-insecure", "--jobs", "2"],
                              stdout=subprocess.DEVNULL, stderr=logf)
    try:
        env = {"CCACHE_DIR": os.path.join(tmp, "ccache"), "CCACHE_PREFIX": "distcc",
               "DISTCC_HOSTS": "127.0.0.1:%d" % port, "DISTCC_FALLBACK": "0",
               "DISTCC_DIR": os.path.join(tmp, "distcc")}
        os.makedirs(env["DISTCC_DIR"])
        os.environ.update(env)
        launcher_dirs(tmp, a.example, "ccache")
        jobs = open(log).read().count("COMPILE_OK") if os.path.exists(log) else 0
        before = ccache_stats(env).get("cache_miss", 0)
        root = os.path.join(tmp, "root")
        p = run([a.pinpoint, "--build-root", root, "--entry", "parse_doc", "--depth", "3",
                 "--previous", "../build-old"] + AS_BUILT + ["--", "./bench", "input.json"],
                os.path.join(tmp, "build-new"))
        if p.returncode != 1 or not chain(p.stdout).endswith("unescape_string"):
            fail("with ccache and distcc: exit %d, chain %s" % (p.returncode, chain(p.stdout)))
        text = open(log).read()
        ours = [l for l in text.splitlines() if "COMPILE_OK" in l and "pinpoint-cc" in l]
        misses = ccache_stats(env).get("cache_miss", 0) - before
        print("distccd: %d compiles of the user's builds, %d of pinpoint-cc (ccache's misses: %d)"
              % (jobs, len(ours), misses))
        # what ccache does not have compiled goes to distccd: the copies share some
        if misses < 5 or len(ours) < misses:
            fail("the copies' compiles did not go to distccd as pinpoint-cc:\n" + text[-3000:])
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
        logf.close()


def cmake_dirs_at(tmp, example):
    cmake_dirs(tmp, example)


def in_tmp(fn, a):
    """Run scenario @fn(a, tmp) in a temporary directory of its own."""
    a.pinpoint = os.path.abspath(a.pinpoint)
    a.example = os.path.abspath(a.example)
    tmp = tempfile.mkdtemp(prefix="pp-build-")
    try:
        # Keep the default build root out of the user's home.
        os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        fn(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--example", required=True)
    scenario_main(ap, globals(), call=in_tmp)


if __name__ == "__main__":
    main()
