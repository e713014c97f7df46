#!/usr/bin/env python3
"""Security and data-integrity scenarios of the pinpoint driver (SECURITY.md).

symlinks        links planted on --json, --html, their temporaries' names and
                the remembered command: the reports are written, what the
                links point to is untouched, the links to files are replaced
stale           SIGKILL of the driver mid-run: the benchmark dies with it (by
                pid), and the next session removes the work directory it
                left, and nothing else (links, live sessions', other users')
sighup, sigquit the first signal stops after the running benchmark and reports,
                as SIGINT does (exit 130)
signal-twice    SIGQUIT then SIGHUP: stopped at once, nothing left behind
daemon          a benchmark whose runs leave setsid daemons: none outlives the
                session
build-sigterm   SIGTERM during a --build-cmd build: the build is killed, exit
                130, the other revision is not built, no process left
cmake-shared    two sessions on the same plain CMake build dirs at once: both
                succeed, one waits for the other's build
report-fails    --json cannot be written: --html is written all the same,
                one line for the failure, exit 3
enospc          a full file system (a 64 KiB tmpfs; root only, else skipped
                with 77): "no space left on device writing ..." and exit 3,
                for a report and for the work directory's results
Usage: check_integrity.py --pinpoint P --builds DIR --schema FILE --example DIR SCENARIO
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ARGS = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import alive, cache_path, comparison, expect_chain, fail  # noqa: E402
from pinpoint_test import scenario_main  # noqa: E402
from pinpoint_test import leftover_processes, skip, wait_for  # noqa: E402
from pinpoint_test import load_report as harness_load_report  # noqa: E402
from pinpoint_test import pinpoint as harness_pinpoint  # noqa: E402
from pinpoint_test import run, start_until_first_comparison  # noqa: E402
from pinpoint_test import SUITE_CONFIRM, SUITE_LAYOUTS  # noqa: E402

M = ["--measurements", "8", "--warmups", "1"]


def prog(name):
    base = os.path.join(os.path.abspath(ARGS.builds), name)
    return os.path.join(base, "previous"), os.path.join(base, "current")


def pinpoint(*args, status=None, env=None):
    return harness_pinpoint(ARGS.pinpoint, *args, status=status, env=env, timeout=250)


class Out:
    def __init__(self, rc, out, err):
        self.returncode, self.stdout, self.stderr = rc, out, err


def wait_dead(pids, seconds=5.0):
    """The pids of @pids still alive after at most @seconds."""
    wait_for(lambda: not any(alive(p) for p in pids), seconds)
    return [p for p in pids if alive(p)]


def children(pid):
    """The pids whose parent is @pid."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            found.append(int(name))
    return found


def load_report(path, p):
    return harness_load_report(path, ARGS.schema, p)


def start(cmd, env=None, cwd=None):
    print("$ " + " ".join(cmd), flush=True)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=cwd)


def start_slow(json_path, env=None):
    """A long session of slowrun, once its first comparison is printed."""
    prev, cur = prog("slowrun")
    return start_until_first_comparison(ARGS.pinpoint, prev, cur, json_path, "./slowrun", env)


# 1. Files: created exclusively, links never followed.

def scenario_symlinks():
    with tempfile.TemporaryDirectory() as d:
        src_prev, src_cur = prog("mutual")
        prev, cur = os.path.join(d, "previous"), os.path.join(d, "current")
        shutil.copytree(src_prev, prev)
        shutil.copytree(src_cur, cur)
        victims = {}
        for name in ("json", "html", "tmp", "command"):
            victims[name] = os.path.join(d, "victim-" + name)
            with open(victims[name], "w") as f:
                f.write("precious %s\n" % name)
        out = os.path.join(d, "out")
        os.mkdir(out)
        js, html = os.path.join(out, "r.json"), os.path.join(out, "r.html")
        os.symlink(victims["json"], js)
        os.symlink(victims["html"], html)
        # the remembered command's file in the cache (pinpoint/main.c)
        cmdfile = cache_path("commands", cur)
        os.makedirs(os.path.dirname(cmdfile), exist_ok=True)
        if os.path.lexists(cmdfile):
            os.unlink(cmdfile)
        os.symlink(victims["command"], cmdfile)

        def plant():
            # In the child, before exec: its pid is the driver's.
            pid = os.getpid()
            for path in (js, html, cmdfile):
                os.symlink(victims["tmp"], "%s.tmp.%d" % (path, pid))

        # as the suite's sessions through the harness: links, not layouts, are its question
        cmd = [ARGS.pinpoint, "--entry", "ping", "--depth", "1", "--previous", prev, "--current",
               cur, *M, *SUITE_LAYOUTS, *SUITE_CONFIRM, "--json", js, "--html", html, "--",
               "./mutual"]
        print("$ " + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=plant, timeout=250)
        if p.returncode != 1:
            fail("exit %d, expected 1" % p.returncode, p)
        for name, path in victims.items():
            with open(path) as f:
                if f.read() != "precious %s\n" % name:
                    fail("the file a planted link points to (%s) was written" % path, p)
        for path in (js, html, cmdfile):
            if os.path.islink(path) or not os.path.isfile(path):
                fail("%s is still a link, not the file written" % path, p)
        load_report(js, p)
        if "<html" not in open(html).read():
            fail("the HTML report was not written", p)
        umask = os.umask(0)
        os.umask(umask)
        for path in (js, html):
            mode = os.stat(path).st_mode & 0o777
            if mode != 0o644 & ~umask:
                fail("%s has mode %o, expected %o" % (path, mode, 0o644 & ~umask), p)
        with open(cmdfile, "rb") as f:
            if f.read() != b"pinpoint-command-of\0" + os.path.realpath(cur).encode() + \
                    b"\0./mutual\0":
                fail("the remembered command is not ./mutual", p)
        # The planted temporaries' links are left as they were, to what they pointed to.
        tmps = [n for n in os.listdir(out) if ".tmp." in n]
        if len(tmps) != 2 or not all(os.readlink(os.path.join(out, n)) == victims["tmp"]
                                     for n in tmps):
            fail("the planted temporaries changed: %r" % tmps, p)
        planted = [os.path.join(os.path.dirname(cmdfile), n)
                   for n in os.listdir(os.path.dirname(cmdfile))
                   if n.startswith(os.path.basename(cmdfile) + ".tmp.")]
        if not planted or os.readlink(planted[0]) != victims["tmp"]:
            fail("the planted temporary of the command's file changed: %r" % planted, p)
        for n in planted + [cmdfile]:
            os.unlink(n)


# 2. Processes: nothing outlives the driver, a killed driver's work directory goes.

def scenario_stale():
    with tempfile.TemporaryDirectory() as tmp:
        work_tmp = os.path.join(tmp, "tmpdir")
        os.mkdir(work_tmp)
        env = dict(os.environ, TMPDIR=work_tmp)
        prev, cur = prog("daemon")
        # Each run of ./daemon DIR hang writes DIR/hung and sleeps after the entry.
        proc = start([ARGS.pinpoint, "--entry", "run", "--previous", prev, "--current", cur,
                      "--", "./daemon", tmp, "hang"], env=env)
        hung = os.path.join(tmp, "hung")
        if not wait_for(lambda: os.path.exists(hung), 60):
            proc.kill()
            fail("the benchmark did not start")
        bench = int(open(hung).read())
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
        p = Out(proc.returncode, out, err)
        left = wait_dead([bench])
        if left:
            os.kill(bench, signal.SIGKILL)
            fail("the benchmark (pid %d) outlived the SIGKILLed driver" % bench, p)
        stale = [n for n in os.listdir(work_tmp) if n.startswith("pinpoint.%d." % proc.pid)]
        if len(stale) != 1:
            fail("expected the killed session's work directory in $TMPDIR, found %r"
                 % os.listdir(work_tmp), p)

        # Beside it: what the next session must leave alone.
        keep = os.path.join(tmp, "keep")
        os.mkdir(keep)
        with open(os.path.join(keep, "results"), "w") as f:
            f.write("keep\n")
        dead_pid = 4194000
        while alive(dead_pid) or os.path.exists("/proc/%d" % dead_pid):
            dead_pid -= 1
        os.symlink(keep, os.path.join(work_tmp, "pinpoint.%d.linked" % dead_pid))
        live = os.path.join(work_tmp, "pinpoint.%d.live12" % os.getpid())
        os.mkdir(live)
        others = None
        if os.geteuid() == 0:
            others = os.path.join(work_tmp, "pinpoint.%d.other1" % dead_pid)
            os.mkdir(others)
            os.chown(others, 65534, 65534)
        prev, cur = prog("mutual")
        p = pinpoint("--entry", "ping", "--depth", "1", "--previous", prev, "--current", cur,
                     *M, "--", "./mutual", status=1, env=env)
        now = sorted(os.listdir(work_tmp))
        want = sorted(n for n in (os.path.basename(live), "pinpoint.%d.linked" % dead_pid,
                                  others and os.path.basename(others)) if n)
        if now != want:
            fail("$TMPDIR holds %r after the next session, expected %r" % (now, want), p)
        if open(os.path.join(keep, "results")).read() != "keep\n":
            fail("a file behind a link named like a work directory was removed", p)


def signal_once(sig):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        proc, lines = start_slow(path)
        proc.send_signal(sig)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail("pinpoint did not stop within 60 s of %s" % sig.name)
        p = Out(proc.returncode, "".join(lines) + out, err)
        if p.returncode != 130:
            fail("%s: expected exit status 130" % sig.name, p)
        if "Interrupted: what was established so far" not in p.stdout:
            fail("%s: no 'Interrupted' summary" % sig.name, p)
        if comparison(p, "run (entry)")["verdict"] != "SLOWER":
            fail("the entry is not found slower", p)
        report = load_report(path, p)
        if not report["interrupted"] or report["exit_code"] != 130:
            fail("the report does not say it was interrupted", p)
        left = leftover_processes(os.path.dirname(prog("slowrun")[1]))
        if left:
            fail("benchmark processes left behind: %r" % left, p)


def scenario_sighup():
    signal_once(signal.SIGHUP)


def scenario_sigquit():
    signal_once(signal.SIGQUIT)


def scenario_signal_twice():
    with tempfile.TemporaryDirectory() as tmp:
        env_tmp = tempfile.mkdtemp(dir=tmp)
        proc, lines = start_slow(os.path.join(tmp, "r.json"), env=dict(os.environ, TMPDIR=env_tmp))
        proc.send_signal(signal.SIGQUIT)
        proc.send_signal(signal.SIGHUP)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail("pinpoint did not stop within 5 s of SIGQUIT and SIGHUP")
        p = Out(proc.returncode, "".join(lines) + out, err)
        if p.returncode != 130:
            fail("expected exit status 130", p)
        bench = os.path.dirname(prog("slowrun")[1])
        if not wait_for(lambda: not leftover_processes(bench), 10):
            fail("benchmark processes left 10 s after pinpoint exited: %r"
                 % leftover_processes(bench), p)
        if os.listdir(env_tmp):
            fail("work directory left in $TMPDIR: %r" % os.listdir(env_tmp), p)


def scenario_daemon():
    with tempfile.TemporaryDirectory() as d:
        prev, cur = prog("daemon")
        p = pinpoint("--entry", "run", "--depth", "1", "--previous", prev, "--current", cur, *M,
                     "--", "./daemon", d, status=1)
        expect_chain(p, ["run", "slow"])
        with open(os.path.join(d, "daemons")) as f:
            pids = [int(l) for l in f.read().split()]
        if len(pids) < 16:
            fail("only %d daemons were started, one per run expected" % len(pids), p)
        left = wait_dead(pids, 2.0)
        if left:
            for pid in left:
                os.kill(pid, signal.SIGKILL)
            fail("%d of the benchmark's daemons outlived the session: %r" % (len(left), left), p)


# 3. Builds: interrupted, and shared between sessions.

SLOW_MAKEFILE = """prog: prog.c
\tsh -c 'echo $$$$ > build.pid; exec sleep 120'
\t$(CC) -o prog prog.c
"""


def scenario_build_sigterm():
    with tempfile.TemporaryDirectory() as d:
        dirs = []
        for name in ("prev", "cur"):
            rd = os.path.join(d, name)
            os.mkdir(rd)
            with open(os.path.join(rd, "prog.c"), "w") as f:
                f.write("void work(void) {}\nint main(void) { work(); return 0; }\n")
            with open(os.path.join(rd, "Makefile"), "w") as f:
                f.write(SLOW_MAKEFILE)
            dirs.append(rd)
        proc = start([ARGS.pinpoint, "--build-cmd", "make", "--entry", "work", "--previous",
                      dirs[0], "--current", dirs[1], "--", "./prog"],
                     env=dict(os.environ, XDG_CACHE_HOME=os.path.join(d, "cache")))
        pidfile = os.path.join(dirs[0], "build.pid")
        if not wait_for(lambda: os.path.exists(pidfile) and open(pidfile).read().strip(), 60):
            proc.kill()
            fail("the previous revision's build did not start")
        build = int(open(pidfile).read())
        start_t = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            os.kill(build, signal.SIGKILL)
            fail("SIGTERM during the build: pinpoint did not stop within 20 s")
        p = Out(proc.returncode, out, err)
        print("stopped in %.2f s" % (time.monotonic() - start_t))
        if p.returncode != 130:
            fail("expected exit status 130", p)
        if "interrupted while building the previous revision" not in p.stderr:
            fail("no line saying the build was interrupted", p)
        left = wait_dead([build], 2.0)
        if left:
            os.kill(build, signal.SIGKILL)
            fail("the build (pid %d) outlived the stopped session" % build, p)
        if os.path.exists(os.path.join(dirs[1], "build.pid")):
            fail("the current revision was built after the stop", p)


def scenario_cmake_shared():
    tmp = tempfile.mkdtemp(prefix="pp-shared-")
    try:
        cc = shutil.which("cc") or shutil.which("gcc")
        for name, extra in (("build-old", []), ("build-new", ["-DNIGHTLY_REVISION=new"])):
            run(["cmake", "-S", ARGS.example, "-B", name, "-DCMAKE_C_COMPILER=" + cc] + extra,
                cwd=tmp, expect=0)
            run(["cmake", "--build", name], cwd=tmp, expect=0)
        root = os.path.join(tmp, "root")
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        cmd = [ARGS.pinpoint, "--build-root", root, "--entry", "parse_doc", "--depth", "1",
               "--previous", "../build-old", "--measurements", "6", "--warmups", "1",
               "--precision-threshold", "10", "--layouts", "1", "--max-runs-per-comparison",
               "200", *SUITE_CONFIRM, "--", "./bench", "input.json"]
        procs = [start(cmd, env=env, cwd=os.path.join(tmp, "build-new")) for _ in range(2)]
        outs = []
        for proc in procs:
            try:
                out, err = proc.communicate(timeout=800)
            except subprocess.TimeoutExpired:
                for q in procs:
                    q.kill()
                fail("a session did not end")
            outs.append(Out(proc.returncode, out, err))
        for p in outs:
            print("--- exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
            if p.returncode not in (0, 1, 4):
                fail("a session on the shared copies failed", p)
            if "Permission denied" in p.stderr or "error" in p.stderr:
                fail("a session on the shared copies saw an error", p)
        if not any(re.search(r"waiting for another pinpoint session building %s/build-old-"
                             % re.escape(root), p.stderr) for p in outs):
            fail("neither session waited for the other's build of the previous copy")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# 4. Write errors: said as what they are, and each report attempted.

def scenario_report_fails():
    with tempfile.TemporaryDirectory() as d:
        prev, cur = prog("mutual")
        bad = os.path.join(d, "missing", "r.json")
        html = os.path.join(d, "r.html")
        p = pinpoint("--entry", "ping", "--depth", "1", "--previous", prev, "--current", cur,
                     *M, "--json", bad, "--html", html, "--", "./mutual")
        if p.returncode != 3:
            fail("a report that cannot be written: exit %d, expected 3" % p.returncode, p)
        errors = [l for l in p.stderr.splitlines() if "error" in l]
        if errors != ["pinpoint: error: cannot write %s: No such file or directory" % bad]:
            fail("expected one line for the --json failure, got %r" % errors, p)
        if not os.path.exists(html) or "<html" not in open(html).read():
            fail("--html was not written after the failed --json", p)
        if not re.search(r"^Bottleneck chain: ", p.stdout, re.M):
            fail("the verdict is not printed", p)


def full_tmpfs(d):
    """A 64 KiB tmpfs at @d, filled up; False when it cannot be mounted."""
    os.mkdir(d)
    if os.geteuid() != 0:
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", d],
                       capture_output=True, text=True)
    if r.returncode:
        print("mount: " + r.stderr.strip())
        return False
    try:
        with open(os.path.join(d, "filler"), "wb") as f:
            while True:
                f.write(b"x" * 4096)
                f.flush()
    except OSError:
        pass
    return True


def scenario_enospc():
    tmp = tempfile.mkdtemp(prefix="pp-enospc-")
    full = os.path.join(tmp, "full")
    mounted = False
    try:
        mounted = full_tmpfs(full)
        if not mounted:
            skip("a full file system needs a tmpfs mount, which needs root")
        prev, cur = prog("mutual")
        base = ["--entry", "ping", "--depth", "1", "--previous", prev, "--current", cur, *M]
        js, html = os.path.join(full, "r.json"), os.path.join(tmp, "r.html")
        p = pinpoint(*base, "--json", js, "--html", html, "--", "./mutual")
        if p.returncode != 3:
            fail("--json on a full disk: exit %d, expected 3" % p.returncode, p)
        errors = [l for l in p.stderr.splitlines() if "error" in l]
        if errors != ["pinpoint: error: no space left on device writing " + js]:
            fail("expected one 'no space left' line for %s, got %r" % (js, errors), p)
        if os.listdir(full) != ["filler"]:
            fail("a partial report was left on the full disk: %r" % os.listdir(full), p)
        if "<html" not in open(html).read():
            fail("--html was not written after the failed --json", p)

        # The work directory on the full disk: the runtime cannot write its results.
        p = pinpoint(*base, "--", "./mutual", env=dict(os.environ, TMPDIR=full))
        if p.returncode != 3:
            fail("work directory on a full disk: exit %d, expected 3" % p.returncode, p)
        errors = [l for l in p.stderr.splitlines() if "error" in l]
        if len(errors) != 1 or not re.search(
                r"measurement failed: no space left on device writing %s/pinpoint\.\d+\.\w+/results"
                % re.escape(full), errors[0]):
            fail("expected one 'no space left on device' line, got %r" % errors, p)
        if "pinpoint-cc" in p.stderr:
            fail("a full disk is reported as a build without pinpoint", p)
        if os.listdir(full) != ["filler"]:
            fail("left on the full disk: %r" % os.listdir(full), p)
    finally:
        if mounted:
            subprocess.run(["umount", full])
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--builds", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--example", required=True)
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
