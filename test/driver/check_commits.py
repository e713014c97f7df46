#!/usr/bin/env python3
"""The nightly workflow on a generated git history.

A tiny C project (a Makefile that honours CC) is committed seven times:
the entry `entry` gets slower in commit 3 (its call to `parse` does three
times the work), commit 4 - the first one a bisection of the seven tries - does
not compile and commit 5 repairs it.  Scenarios:

  bisect   git bisect run pinpoint --bisect ... names commit 3; the broken
           commit exits 125 (skip), a fast one 0, a slow one 1.
  bisect-threshold  within a bisection, --bisect without --precision-threshold
           measures the bisection's bad commit once and compares every step
           at half its slowdown's lower end (the step's JSON and --history);
           --precision-threshold overrides it; git bisect run reuses it.
  commits  pinpoint --commits C1..C7 names commit 3 and the call to parse.
  commits-cmake  the same from a CMake build directory, without --build-cmd.
  commits-interrupt  Ctrl-C during the bisection prints the commits the
           first slow one is still among, exit 130.
  commits-interrupt-checkout  Ctrl-C while git checks a commit out (git
           dies of it too) is an interrupt, exit 130, not a failed checkout.
  commits-tmpdir  what git prints goes to files in a work directory in
           $TMPDIR, removed at the end; a $TMPDIR it cannot write to is one
           error line.
  history  --history appends one JSON line per session and the HTML report
           draws the trend of the entry.
  commits-options  the sessions --commits starts run with the options it was
           given (each session's command line, with --verbose, read back by
           --dump-options), but for the directories, depth and files it sets.
  commits-build-jobs  --build-jobs 4: GOOD, BAD and the next commits built
           at once, before the sessions; the same commit and call found.
  investigate  a night's --history line records its commits, --label and
           command line; --changes --investigate runs --commits over a step's
           commits with it, names commit 3 and the call, records them, and
           does not run again; a history others may write is refused.

Usage: check_commits.py --pinpoint P SCENARIO
"""
import argparse
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import SUITE_BUDGET, SUITE_CONFIRM, SUITE_LAYOUTS  # noqa: E402
from pinpoint_test import chain, check, check_parts_within, dump_options, fail, run, scenario_main  # noqa: E402

ARGS = None

MAKEFILE = """\
CC ?= cc
CFLAGS ?= -O1
bench: bench.c
\t$(CC) $(CFLAGS) bench.c -o bench $(LDLIBS)
"""

# {parse}: the work of parse; {extra}: one more line of the file.
SOURCE = """\
#include <stdio.h>

volatile unsigned sink;

/* Work in registers, one store at the end: a loop that updates the volatile
   itself runs 1-2.5x as long from process to process (its layout), too noisy
   for a test. */
__attribute__((noinline)) void setup(unsigned n)
{{
	unsigned acc = 0;

	for (unsigned i = 0; i < n / 8; i++)
		acc += i * i;
	sink += acc;
}}

__attribute__((noinline)) void parse(unsigned n)
{{
	unsigned acc = 0;

	for (unsigned i = 0; i < {parse} * n / 2; i++)
		acc = (acc ^ i) * 2654435761u;
	sink ^= acc;
}}

__attribute__((noinline)) void emit(unsigned n)
{{
	unsigned acc = 0;

	for (unsigned i = 0; i < n / 8; i++)
		acc += (acc >> 3) ^ i;
	sink += acc;
}}

__attribute__((noinline)) void entry(unsigned n)
{{
	setup(n);
	parse(n);
	emit(n);
}}
{extra}
int main(void)
{{
	for (int r = 0; r < 40; r++)
		entry(200000);
	printf("done\\n");
	return 0;
}}
"""

# (subject, parse factor, extra line); commit 3 is the regression, 4 does not build.
HISTORY = [
    ("Initial version", 1, ""),
    ("Say what the program is", 1, "/* a benchmark */"),
    ("Parse three times as thoroughly", 3, "/* a benchmark */"),
    ("Start a refactoring", 3, "enum { ROUNDS = 40 } this does not compile"),
    ("Finish the refactoring", 3, "enum { ROUNDS = 40 };"),
    ("Name the limit", 3, "enum { ROUNDS = 40, LIMIT = 1 };"),
    ("Document the limit", 3, "enum { ROUNDS = 40, LIMIT = 1 }; /* limit */"),
]
SLOW, BROKEN = 2, 3

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}


def git(repo, *args):
    return run(["git"] + list(args), cwd=repo, extra_env=GIT_ENV, expect=0).stdout.strip()


CMAKELISTS = """\
cmake_minimum_required(VERSION 3.20)
project(bench C)
add_executable(bench bench.c)
"""


def make_history(d):
    """The repository in @d/repo; the commit hashes, oldest first."""
    repo = os.path.join(d, "repo")
    os.mkdir(repo)
    git(repo, "init", "-q", "-b", "main")
    with open(os.path.join(repo, "Makefile"), "w") as f:
        f.write(MAKEFILE)
    with open(os.path.join(repo, "CMakeLists.txt"), "w") as f:
        f.write(CMAKELISTS)
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("bench\n.pinpoint/\nbuild/\n")
    hashes = []
    for subject, factor, extra in HISTORY:
        with open(os.path.join(repo, "bench.c"), "w") as f:
            f.write(SOURCE.format(parse=factor, extra=extra))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", subject)
        hashes.append(git(repo, "rev-parse", "HEAD"))
    return repo, hashes


# Each revision as built, in one code layout, as in the rest of the suite
# (test/harness): every commit is a new build, whose 64 layouts each session
# would link anew, and what is checked here is the walk over the commits
# (test/driver/check_layouts.py measures the layouts).
LAYOUTS = SUITE_LAYOUTS
COMMON = ["--entry", "entry", "--build-cmd", "make -s", "--measurements", "12",
          "--no-save-command"] + LAYOUTS + SUITE_CONFIRM
# Sessions that compare the same code: at the default threshold (1 %) this
# entry of a fraction of a millisecond takes thousands of runs to be found not
# slower; 20 % decides it within the suite's budget (test/harness), far below
# the regression's +200 %.
SAME_CODE = ["--precision-threshold", "20"] + SUITE_BUDGET


def bisect_cmd(good_dir):
    # The regression more than doubles the entry: a 5 % threshold given (far below
    # half of it) decides an unchanged commit in a few rounds even on a noisy
    # machine, without measuring BAD (bisect-threshold checks the threshold taken
    # from BAD, and that this one overrides it).
    return [ARGS.pinpoint, "--bisect", "--depth", "0", "--previous", good_dir,
            "--current", ".", "--precision-threshold", "5"] + COMMON + ["--", "./bench"]


def scenario_bisect():
    with tempfile.TemporaryDirectory(prefix="pp-bisect-") as d:
        repo, h = make_history(d)
        good = os.path.join(d, "good")
        git(repo, "worktree", "add", "-q", "--detach", good, h[0])
        env = dict(GIT_ENV)
        # the statuses git bisect run reads, one by one
        for i, want in [(BROKEN, 125), (SLOW - 1, 0), (SLOW, 1)]:
            git(repo, "checkout", "-q", h[i])
            p = run(bisect_cmd(good), cwd=repo, extra_env=env)
            if p.returncode != want:
                fail("commit %d (%s): --bisect exit %d, expected %d"
                     % (i + 1, HISTORY[i][0], p.returncode, want), p)
        git(repo, "checkout", "-q", "main")
        # a wrong option aborts the bisection (above 127) instead of marking a commit bad
        p = run([ARGS.pinpoint, "--bisect", "--entry", "entry", "--no-such-option"], cwd=repo)
        if p.returncode != 128:
            fail("--bisect with a wrong option exits %d, expected 128" % p.returncode, p)
        git(repo, "bisect", "start", h[-1], h[0])
        p = run(["git", "bisect", "run"] + bisect_cmd(good), cwd=repo, extra_env=env,
                timeout=1500)
        log = git(repo, "bisect", "log")
        git(repo, "bisect", "reset")
        if p.returncode != 0 or "%s is the first bad commit" % h[SLOW] not in p.stdout:
            fail("git bisect run did not name commit %d (%s)\n%s" % (SLOW + 1, h[SLOW], log), p)
        if "git bisect skip %s" % h[BROKEN] not in log:
            fail("the commit that does not compile was not skipped\n" + log, p)
        print("bisect log:\n" + log)


def bad_lines(root):
    """The bisection's bad commit's history lines kept under the build root @root."""
    lines = []
    for path in glob.glob(os.path.join(root, "commits-*", "bisect-*.jsonl")):
        with open(path) as f:
            lines += [json.loads(line) for line in f if line.strip()]
    return lines


def scenario_bisect_threshold():
    with tempfile.TemporaryDirectory(prefix="pp-bisect-threshold-") as d:
        repo, h = make_history(d)
        good = os.path.join(d, "good")
        root = os.path.join(d, "cache")
        git(repo, "worktree", "add", "-q", "--detach", good, h[0])

        def step(commit, name, *extra):
            """--bisect on @commit, checked out in the bisection; the run, its JSON
            report and its --history line (the suite's budget: an unchanged commit
            compared at 1 % would take thousands of runs)."""
            git(repo, "checkout", "-q", h[commit])
            js, hist = os.path.join(d, name + ".json"), os.path.join(d, name + ".jsonl")
            p = run([ARGS.pinpoint, "--bisect", "--depth", "0", "--previous", good,
                     "--current", ".", "--build-root", root, "--json", js, "--history", hist]
                    + list(extra) + COMMON + SUITE_BUDGET + ["--", "./bench"], cwd=repo,
                    timeout=900)
            if not os.path.exists(js) or not os.path.exists(hist):
                fail("--bisect on commit %d wrote no report" % (commit + 1), p)
            with open(js) as f, open(hist) as g:
                return p, json.load(f), json.loads(g.readlines()[-1])

        measured = "the bisection's bad commit %s" % h[-1][:12]
        # outside a bisection there is no BAD: the default threshold, and one warning
        p, report, _ = step(SLOW - 1, "outside")
        if report["options"]["precision_threshold"] != 1 or \
                "no git bisection with a bad commit is in progress" not in p.stderr:
            fail("--bisect outside a bisection: threshold %r"
                 % report["options"]["precision_threshold"], p)
        git(repo, "bisect", "start", h[-1], h[0])
        # the first step measures BAD against GOOD, once
        # (a fast commit: good, or on a noisy machine undecided, skipped)
        p, report, line = step(SLOW - 1, "first")
        if p.returncode not in (0, 125) or measured not in p.stderr:
            fail("the first step (commit %d, fast) exits %d, or did not measure BAD"
                 % (SLOW, p.returncode), p)
        bad = bad_lines(root)
        if len(bad) != 1 or bad[0]["status"] != 1 or h[-1] not in bad[0]["current"]:
            fail("BAD's session is not the one line kept under the build root: %r" % bad, p)
        # half the lower end of BAD's slowdown, in percent of GOOD's entry
        want = 50 * bad[0]["diff_low_ns"] / bad[0]["previous_ns"]
        got = report["options"]["precision_threshold"]
        print("BAD: +%.1f%% at least; the step's threshold %.2f%%, %.0f ns of %.0f ns"
              % (2 * want, got, line["threshold_ns"], line["previous_ns"]))
        # (parse does three times the work, but one run slowed down by other work on the
        # machine can take the lower end of a first look down to a few percent: above the
        # default 1 % is what makes it BAD's)
        if not want > 1:
            fail("BAD's lower end, +%.2f%%, is not above twice the default threshold"
                 % (2 * want), p)
        if abs(got - want) > 1e-9 * want:
            fail("the step's threshold %r%% is not half of BAD's lower end, %r%%" % (got, want), p)
        # the threshold in ns, in the report and the step's --history line: that share of
        # the previous entry at the first look, the median of its first --measurements runs
        # (decide.c; the line's previous_ns is the centre of all its runs)
        first = report["comparisons"][0]["previous_ns"][:12]
        base = statistics.median(first)
        if len(first) != 12 or any(abs(t - base * want / 100) > 1e-9 * t for t in
                                   (report["measurement"]["threshold_ns"], line["threshold_ns"])):
            fail("the step's threshold %r ns (report %r ns) is not %.2f%% of its first look's "
                 "previous entry, %r ns" % (line["threshold_ns"],
                                            report["measurement"]["threshold_ns"], want, base), p)
        # a later step reads BAD's line back: the same threshold, no second measurement
        p, report, _ = step(SLOW, "second")
        if p.returncode != 1 or measured in p.stderr or len(bad_lines(root)) != 1 or \
                report["options"]["precision_threshold"] != got:
            fail("the second step (commit %d, slow): exit %d, threshold %r, BAD measured again?"
                 % (SLOW + 1, p.returncode, report["options"]["precision_threshold"]), p)
        # --precision-threshold overrides it, and BAD is not read
        p, report, line = step(SLOW - 1, "given", "--precision-threshold", "7")
        if p.returncode not in (0, 125) or report["options"]["precision_threshold"] != 7 or \
                "BAD is at least" in p.stderr or measured in p.stderr:
            fail("--precision-threshold 7 did not set the step's threshold (%r)"
                 % report["options"]["precision_threshold"], p)
        # the whole bisection at BAD's threshold: every step reuses its line
        p = run(["git", "bisect", "run", ARGS.pinpoint, "--bisect", "--depth", "0",
                 "--previous", good, "--current", ".", "--build-root", root] + COMMON
                + ["--", "./bench"], cwd=repo, extra_env=GIT_ENV, timeout=1500)
        log = git(repo, "bisect", "log")
        git(repo, "bisect", "reset")
        if p.returncode != 0 or "%s is the first bad commit" % h[SLOW] not in p.stdout:
            fail("git bisect run did not name commit %d (%s)\n%s" % (SLOW + 1, h[SLOW], log), p)
        if measured in p.stdout + p.stderr or len(bad_lines(root)) != 1:
            fail("a step of git bisect run measured BAD again", p)
        if p.stderr.count("a commit counts as slower above half of that, %.2f%%" % want) < 2:
            fail("the steps of git bisect run did not compare at BAD's threshold", p)
        # a new bisection measures its BAD; one that is not slower than GOOD (the same
        # code: on a noisy machine it may stay undecided) aborts it
        git(repo, "bisect", "start", h[SLOW - 1], h[0])
        p = run([ARGS.pinpoint, "--bisect", "--depth", "0", "--previous", good, "--current",
                 ".", "--build-root", root] + COMMON + SUITE_BUDGET + ["--", "./bench"],
                cwd=repo, timeout=900)
        git(repo, "bisect", "reset")
        if p.returncode != 128 or not re.search(
                r"the bisection's bad commit %s (is not slower than|could not be told from) "
                % h[SLOW - 1][:12], p.stderr):
            fail("a bisection whose bad commit is not slower is not aborted (exit %d)"
                 % p.returncode, p)


def scenario_commits():
    with tempfile.TemporaryDirectory(prefix="pp-commits-") as d:
        repo, h = make_history(d)
        root = os.path.join(d, "cache")
        js = os.path.join(d, "report.json")
        args = [ARGS.pinpoint, "--commits", "%s..main" % h[0][:10], "--depth", "2",
                "--build-root", root, "--json", js, "--max-paths", "5", "--seed", "4242"] + \
            COMMON + ["--", "./bench"]
        p = run(args, cwd=repo, timeout=1500)
        if p.returncode != 1:
            fail("--commits exit %d, expected 1" % p.returncode, p)
        m = re.search(r"^First slower commit: ([0-9a-f]{12}) (.*)$", p.stdout, re.M)
        if not m or not h[SLOW].startswith(m.group(1)) or m.group(2) != HISTORY[SLOW][0]:
            fail("the first slower commit is not commit %d (%s)" % (SLOW + 1, h[SLOW][:12]), p)
        if not re.search(r"^Last fast commit: +%s " % h[SLOW - 1][:12], p.stdout, re.M):
            fail("the last fast commit is not commit %d" % SLOW, p)
        if not chain(p).startswith("entry → parse"):
            fail("the chain does not name the call to parse", p)
        # progress: every commit tried is announced and judged on stderr
        tried = re.findall(r"^pinpoint: \[\d+\] ([0-9a-f]{12}) is (\w+)", p.stderr, re.M)
        if (h[BROKEN][:12], "skipped") not in tried or (h[SLOW][:12], "slower") not in tried \
                or (h[SLOW - 1][:12], "fast") not in tried:
            fail("progress does not show the commits tried: %s" % tried, p)
        # without --precision-threshold the commits are compared at half of BAD's slowdown
        # (its lower end).  parse does three times the work, but the lower end of a 12 + 12
        # run first look is the host's too: runs of the previous revision slowed down by
        # other work on the machine took it to 15 % once, and to 0.7 % once (+168 % at its
        # centre, in the ASan build) where the steps still found the commit (checked above)
        m = re.search(r"^pinpoint: BAD is at least \S+ \S+ \(([\d.]+)%\) slower than GOOD: "
                      r"while bisecting, a commit counts as slower above half of that, "
                      r"([\d.]+)%", p.stderr, re.M)
        if not m or not float(m.group(1)) > 0 or \
                abs(float(m.group(2)) - float(m.group(1)) / 2) > 0.06:  # 1 decimal printed
            fail("the bisection's threshold is not half of BAD's slowdown", p)
        with open(js) as f:
            report = json.load(f)
        check_parts_within(report, p)
        if h[SLOW] not in json.dumps(report):
            fail("the JSON report of the last session is not of commit %d" % (SLOW + 1), p)
        # what the user gave reaches the sessions (the last one's report says)
        got = {k: report["options"][k] for k in ("depth", "max_paths", "measurements")}
        if got != {"depth": 2, "max_paths": 5, "measurements": 12} or \
                report["measurement"].get("seed") != 4242:
            fail("--commits' last session ran with other options: %r, seed %r"
                 % (got, report["measurement"].get("seed")), p)
        # the worktrees stay in the cache: a second run reuses them and builds nothing new
        wts = sorted(os.listdir(os.path.join(root, os.listdir(root)[0])))
        if h[0] not in wts or h[SLOW] not in wts:
            fail("the worktrees are not kept in the build root: %s" % wts, p)
        # a range whose BAD is not slower
        # (identical code: on a noisy machine its runs may stay undecided, exit 4)
        p = run(args[:2] + ["%s..%s" % (h[0], h[SLOW - 1])] + args[3:-2] + SAME_CODE
                + args[-2:], cwd=repo, timeout=900)
        if not ((p.returncode == 0 and "No regression" in p.stdout)
                or (p.returncode == 4 and p.stdout.startswith("Undecided: "))):
            fail("GOOD..commit %d is not reported as no regression (or undecided)" % SLOW, p)
        # a range that is not one
        p = run(args[:2] + ["%s..nosuchref" % h[0]] + args[3:], cwd=repo)
        if p.returncode != 2 or len(p.stderr.strip().splitlines()) != 1:
            fail("a wrong range is not one error line and exit 2", p)


def scenario_commits_cmake():
    with tempfile.TemporaryDirectory(prefix="pp-commits-cmake-") as d:
        repo, h = make_history(d)
        build = os.path.join(repo, "build")
        run(["cmake", "-S", repo, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
             "-DBENCH_NOTE=nightly run"], expect=0)
        p = run([ARGS.pinpoint, "--commits", "%s..main" % h[0], "--current", build,
                 "--depth", "1", "--build-root", os.path.join(d, "cache"), "--entry", "entry",
                 "--measurements", "8", "--no-save-command"] + LAYOUTS + SUITE_CONFIRM +
                SUITE_BUDGET + ["--", "./bench"],
                timeout=1500)
        if p.returncode != 1:
            fail("--commits on a CMake build exit %d, expected 1" % p.returncode, p)
        if not re.search(r"^First slower commit: %s " % h[SLOW][:12], p.stdout, re.M):
            fail("the first slower commit is not commit %d" % (SLOW + 1), p)
        if "cmake -S '../.' -B . -G 'Unix Makefiles' -DCMAKE_BUILD_TYPE='Release'" \
                " '-DBENCH_NOTE:UNINITIALIZED=nightly run'" not in p.stderr:
            fail("the commits are not configured like the build directory", p)


def scenario_commits_interrupt():
    import signal
    with tempfile.TemporaryDirectory(prefix="pp-commits-int-") as d:
        repo, h = make_history(d)
        cmd = [ARGS.pinpoint, "--commits", "%s..main" % h[0], "--depth", "1",
               "--build-root", os.path.join(d, "cache")] + COMMON + ["--", "./bench"]
        p = subprocess.Popen(cmd, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
        err = []
        for line in p.stderr:
            err.append(line)
            if re.match(r"pinpoint: \[2\] commit", line):
                os.killpg(p.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
                break
        rest_err = p.stderr.read()
        out = p.stdout.read()
        p.wait(timeout=300)
        print("".join(err) + rest_err + out)
        if p.returncode != 130:
            fail("interrupted --commits exits %d, expected 130" % p.returncode)
        if "Interrupted: what was established so far:" not in out or \
                "The first slower commit is one of these 6" not in out or \
                h[SLOW][:12] not in out:
            fail("the interrupted --commits does not print the commits still in question")


def scenario_commits_interrupt_checkout():
    import shutil
    import signal
    import time
    with tempfile.TemporaryDirectory(prefix="pp-commits-intco-") as d:
        repo, h = make_history(d)
        # git as pinpoint finds it on PATH: 'worktree add' of a commit other
        # than GOOD waits, so that Ctrl-C reaches it (and kills it) mid-way;
        # the wait is the script's own process (exec), never a child of it
        # that a Ctrl-C sent before it started would leave holding the pipes.
        bindir = os.path.join(d, "bin")
        os.mkdir(bindir)
        with open(os.path.join(bindir, "git"), "w") as f:
            f.write("#!/bin/sh\n"
                    "case \"$1 $2 $*\" in\n"
                    "'worktree add'*%s*) ;;\n"
                    "'worktree add'*) touch %s/in-add; exec sleep 30 ;;\n"
                    "esac\n"
                    "exec %s \"$@\"\n" % (h[0], d, shutil.which("git")))
        os.chmod(os.path.join(bindir, "git"), 0o755)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
        cmd = [ARGS.pinpoint, "--commits", "%s..main" % h[0], "--depth", "1",
               "--build-root", os.path.join(d, "cache")] + COMMON + ["--", "./bench"]
        p = subprocess.Popen(cmd, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True, env=env)
        deadline = time.monotonic() + 120
        while not os.path.exists(os.path.join(d, "in-add")):
            if p.poll() is not None or time.monotonic() > deadline:
                p.kill()
                fail("pinpoint never checked BAD out: exit %s\n%s" % (p.returncode,
                                                                      p.stderr.read()))
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group, git too
        out, err = p.communicate(timeout=120)
        print(err + out)
        if p.returncode != 130:
            fail("--commits interrupted during a checkout exits %d, expected 130" % p.returncode)
        if "cannot check out" in err:
            fail("an interrupted checkout is reported as a failed one")
        if "Interrupted before BAD was measured." not in out:
            fail("the interrupted --commits does not say BAD was not measured")


def scenario_commits_tmpdir():
    import shutil
    with tempfile.TemporaryDirectory(prefix="pp-commits-tmp-") as d:
        repo, h = make_history(d)
        # git as pinpoint finds it on PATH: it logs where its stdout goes
        bindir, log, tmp = os.path.join(d, "bin"), os.path.join(d, "stdout.log"), \
            os.path.join(d, "tmp")
        os.mkdir(bindir)
        os.mkdir(tmp)
        with open(os.path.join(bindir, "git"), "w") as f:
            f.write("#!/bin/sh\nout=$(readlink /proc/$$/fd/1)\necho \"$out\" >>%s\n"
                    "exec %s \"$@\"\n" % (log, shutil.which("git")))
        os.chmod(os.path.join(bindir, "git"), 0o755)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], TMPDIR=tmp)
        # BAD is no commit: git is asked for the work tree, GOOD and BAD, then it ends
        cmd = [ARGS.pinpoint, "--commits", "%s..nosuchref" % h[0],
               "--build-root", os.path.join(d, "cache")] + COMMON + ["--", "./bench"]
        p = run(cmd, cwd=repo, env=env)
        if p.returncode != 2 or "'nosuchref' is not a commit" not in p.stderr:
            fail("--commits with a BAD that is no commit", p)
        with open(log) as f:
            outs = [l.strip() for l in f]
        print("git's stdout: %r" % outs)
        want = re.compile(r"^%s/pinpoint\.\d+\.\w{6}/git\.\w{6} \(deleted\)$" % re.escape(tmp))
        if len(outs) < 3 or not all(want.match(o) for o in outs):
            fail("git's output does not go to the work directory in $TMPDIR %s" % tmp, p)
        if os.listdir(tmp):
            fail("$TMPDIR holds %r after --commits" % os.listdir(tmp), p)
        # a $TMPDIR that is not there: one line, before git is asked anything
        os.unlink(log)
        env["TMPDIR"] = os.path.join(d, "missing")
        p = run(cmd, cwd=repo, env=env)
        if p.returncode != 3 or p.stderr.strip().splitlines() != [
                "pinpoint: error: cannot create a work directory in %s: No such file or "
                "directory" % env["TMPDIR"]] or os.path.exists(log):
            fail("an unusable $TMPDIR is not one error line and exit 3", p)


def scenario_history():
    with tempfile.TemporaryDirectory(prefix="pp-history-") as d:
        repo, h = make_history(d)
        dirs = []
        for i in (0, SLOW - 1, SLOW):
            w = os.path.join(d, "c%d" % i)
            git(repo, "worktree", "add", "-q", "--detach", w, h[i])
            dirs.append(w)
        hist = os.path.join(d, "nightly.jsonl")
        page = os.path.join(d, "report.html")
        # two nights: the same code (a comment changed), then the regression
        for prev, cur in [(0, 1), (1, 2)]:
            p = run([ARGS.pinpoint, "--depth", "0", "--previous", dirs[prev], "--current",
                     dirs[cur], "--history", hist, "--html", page, "-q"] + COMMON + SAME_CODE
                    + ["--", "./bench"])
            # the first night compares the same code: same, a chance verdict, or undecided (4)
            if p.returncode not in (0, 1, 4) or (cur == 2 and p.returncode != 1):
                fail("session %d -> %d: exit %d" % (prev, cur, p.returncode), p)
            if not p.stdout or p.stdout.startswith("\n"):
                fail("-q output is empty or starts with an empty line", p)
        with open(hist) as f:
            lines = [json.loads(l) for l in f]
        if len(lines) != 2 or lines[1]["verdict"] != "slower" or lines[1]["status"] != 1 \
                or any(l["entry"] != "entry" for l in lines) \
                or lines[0]["status"] != {"slower": 1, "undecided": 4}.get(lines[0]["verdict"], 0) \
                or lines[1]["current"] != os.path.realpath(dirs[2]) \
                or not lines[0]["time"] <= lines[1]["time"]:
            fail("history lines: %s" % lines)
        for l in lines:
            if not l["current_low_ns"] <= l["current_ns"] <= l["current_high_ns"] \
                    or not l["diff_low_ns"] <= l["diff_ns"] <= l["diff_high_ns"]:
                fail("history figures out of order: %s" % l)
        if not lines[1]["diff_low_ns"] > 0:
            fail("the slower session's difference interval is not above 0: %s" % lines[1])
        with open(page) as f:
            html = f.read()
        m = re.search(r'<svg class="trend".*?</svg>', html, re.S)
        if not m or m.group(0).count('class="night') != 2:
            fail("the HTML report has no trend with two sessions")


def scenario_commits_build_jobs():
    """--build-jobs 4: GOOD, BAD and the first commits the bisection tries are
    built at once before anything is measured, then the commits of the next
    steps; the bisection finds the same first slower commit and call."""
    with tempfile.TemporaryDirectory(prefix="pp-commits-jobs-") as d:
        repo, h = make_history(d)
        root = os.path.join(d, "cache")
        p = run([ARGS.pinpoint, "--commits", "%s..main" % h[0][:10], "--depth", "1",
                 "--build-root", root, "--build-jobs", "4", "--seed", "4242"] + COMMON
                + ["--", "./bench"], cwd=repo, timeout=1500)
        if p.returncode != 1:
            fail("--commits --build-jobs 4: exit %d, expected 1" % p.returncode, p)
        m = re.search(r"^First slower commit: ([0-9a-f]{12}) ", p.stdout, re.M)
        if not m or not h[SLOW].startswith(m.group(1)) or not chain(p).startswith("entry → parse"):
            fail("--build-jobs 4: not commit %d and the call to parse" % (SLOW + 1), p)
        err = p.stderr
        first = err.find("pinpoint: building 4 commits at once (--build-jobs)")
        if first < 0 or first > err.find("comparing with GOOD"):
            fail("GOOD, BAD and two more were not built at once before the first session", p)
        # every commit the bisection tried was built before its session: none by the session
        built = set(re.findall(r"checking out ([0-9a-f]{12})", err))
        tried = re.findall(r"^pinpoint: \[\d+\] ([0-9a-f]{12}) is", err, re.M)
        check(set(tried) <= built, "tried %s, built ahead %s" % (tried, built))


def scenario_investigate():
    """From a nightly history to the commit and the call: one real night (the
    slow commit against a fast one) records its commits, its --label and its
    command line; nights made of it put a step in the series, and
    --changes --investigate runs --commits over the step's commits with that
    command line, names commit 3 and the call to parse, and records them in
    the history; a second run reads them back instead of running again."""
    with tempfile.TemporaryDirectory(prefix="pp-investigate-") as d:
        repo, h = make_history(d)
        fast, slow = os.path.join(d, "fast"), os.path.join(d, "slow")
        git(repo, "worktree", "add", "-q", "--detach", fast, h[SLOW - 1])
        git(repo, "worktree", "add", "-q", "--detach", slow, h[-1])
        hist = os.path.join(d, "nightly.jsonl")
        root = os.path.join(d, "cache")
        p = run([ARGS.pinpoint, "--depth", "1", "--previous", fast, "--current", ".",
                 "--history", hist, "--label", "night 7", "--build-root", root, "-q"]
                + COMMON + SUITE_BUDGET + ["--", "./bench"], cwd=slow, timeout=900)
        if p.returncode != 1:
            fail("the slow night against the fast one: exit %d" % p.returncode, p)
        with open(hist) as f:
            line = json.loads(f.read().splitlines()[-1])
        rerun = line.get("rerun") or {}
        argv = rerun.get("argv", [])
        check(line.get("previous_commit") == h[SLOW - 1] and line.get("current_commit") == h[-1]
              and line.get("label") == "night 7" and line.get("baseline") is False,
              "the night's commits and label: %s" % line)
        check(rerun.get("cwd") == os.path.realpath(slow) and "--entry=entry" in argv
              and "--build-cmd=make -s" in argv and argv[argv.index("--"):] == ["--", "./bench"],
              "the night's command line: %s" % rerun)
        # 12 nights at a fast commit, then 12 at the slow one, the real night's line each
        nights = []
        for i in range(24):
            n = dict(line, time=line["time"] - (24 - i) * 86400.0)
            late = i >= 12
            n["current_commit"] = h[-1] if late else h[SLOW - 1]
            n["current_ns"] = (line["current_ns"] if late else line["previous_ns"]) * \
                (1 + 0.002 * ((i * 7) % 5 - 2))
            nights.append(json.dumps(n))
        with open(hist, "w") as f:
            f.write("".join(n + "\n" for n in nights))
        os.chmod(hist, 0o644)
        js = os.path.join(d, "changes.json")
        inv = [ARGS.pinpoint, "--changes", hist, "--investigate", "--build-root", root,
               "--json", js]
        p = run(inv, timeout=1500)
        if p.returncode != 1:
            fail("--changes --investigate: exit %d, expected 1" % p.returncode, p)
        m = re.search(r"^  investigated now: first slower commit ([0-9a-f]{12}), the call: (.*)$",
                      p.stdout, re.M)
        if not m or not h[SLOW].startswith(m.group(1)) or "parse" not in m.group(2):
            fail("the investigation does not name commit %d and the call to parse"
                 % (SLOW + 1), p)
        check("--commits %s..%s" % (h[SLOW - 1][:12], h[-1][:12]) in p.stderr,
              "the range run: %s" % p.stderr[-2000:])
        with open(js) as f:
            c = json.load(f)["change_points"]
        check(len(c) == 1 and c[0]["investigation"]["new"] and
              c[0]["investigation"]["first_slower"] == h[SLOW] and
              c[0]["investigation"]["status"] == 1, "--json: %s" % c)
        with open(hist) as f:
            recorded = [json.loads(l) for l in f if "investigation" in l]
        check(len(recorded) == 1 and recorded[0]["investigation"]["first_slower"] == h[SLOW]
              and recorded[0]["investigation"]["from"] == h[SLOW - 1]
              and recorded[0]["investigation"]["to"] == h[-1],
              "the investigation line: %s" % recorded)
        # again: read back, not run again, nothing new
        p = run(inv, timeout=300)
        if p.returncode != 0 or "investigating" in p.stderr or \
                not re.search(r"^  investigated 20.*: first slower commit %s" % h[SLOW][:12],
                              p.stdout, re.M):
            fail("a second --investigate: exit %d (expected 0), or it ran again" % p.returncode, p)
        with open(hist) as f:
            check(sum("investigation" in l for l in f) == 1, "a second investigation line")
        # a history others may write to: its commands are not run
        os.chmod(hist, 0o664)
        p = run(inv, timeout=60)
        errs = [l for l in p.stderr.splitlines() if l.startswith("pinpoint: error:")]
        if p.returncode != 2 or len(errs) != 1 or "other users may write" not in errs[0]:
            fail("--investigate on a group-writable history: exit %d" % p.returncode, p)


# What --commits sets in each session's options itself: the directories, the
# build command, --no-save-command; a probe's depth (0), its threshold and
# its files (none, or the history it reads BAD's slowdown from).
SET_BY_COMMITS = {"previous", "current", "build-cmd", "no-save-command"}
SET_FOR_PROBES = {"depth", "precision-threshold", "json", "html", "history"}


def scenario_commits_options():
    with tempfile.TemporaryDirectory(prefix="pp-commits-opt-") as d:
        repo, h = make_history(d)
        js = os.path.join(d, "report.json")
        # BAD is the slow commit, GOOD its parent: one probe of BAD, then the session
        # (a budget and a threshold that keep the siblings of parse from taking minutes)
        given = ["--seed", "4242", "--max-paths", "3", "--timing", "all", "--test", "welch",
                 "--exclude", "emit*", "--warmups", "1", "--layouts", "1", "--confidence", "97.5",
                 "--executions", "30", "--max-runs", "20000", "--max-time", "60.5",
                 "--max-runs-per-comparison", "150", "--precision-threshold", "5",
                 "--runs", "paired", "--search", "attrib", "--depth", "1"]
        opts = ["--commits", "%s..%s" % (h[SLOW - 1], h[SLOW]), "--build-root",
                os.path.join(d, "cache"), "--json", js, "--verbose"] + given + COMMON
        p = run([ARGS.pinpoint] + opts + ["--", "./bench"], cwd=repo, timeout=1500)
        if p.returncode != 1:
            fail("--commits exit %d, expected 1" % p.returncode, p)
        parent = {r["name"]: r for r in dump_options(ARGS.pinpoint, opts + ["--", "./bench"])
                  ["options"]}
        sessions = re.findall(r"^pinpoint: \S+:\d+: session: (.*)$", p.stderr, re.M)
        if len(sessions) != 2:
            fail("%d sessions' command lines printed, expected 2 (BAD, then the call)"
                 % len(sessions), p)
        for i, line in enumerate(sessions):
            argv = shlex.split(line)
            probe = i == 0
            if argv[0] != os.path.realpath(ARGS.pinpoint):
                fail("session %d is not pinpoint itself: %s" % (i, argv[0]), p)
            sub = {r["name"]: r for r in dump_options(ARGS.pinpoint, argv[1:])["options"]}
            for name, r in sorted(parent.items()):
                if r["local"] or name in SET_BY_COMMITS or (probe and name in SET_FOR_PROBES):
                    continue
                if sub[name]["value"] != r["value"]:
                    fail("session %d ran with --%s %r, --commits was given %r\n%s"
                         % (i, name, sub[name]["value"], r["value"], line), p)
            for name in ("commits", "bisect", "dump-options"):
                if any(a.split("=")[0] == "--" + name for a in argv):
                    fail("session %d was given --%s: %s" % (i, name, line), p)
            want_depth = 0 if probe else 1
            if sub["depth"]["value"] != want_depth or not sub["no-save-command"]["value"] \
                    or sub["json"]["value"] != (None if probe else js):
                fail("session %d: depth %r, --json %r" % (i, sub["depth"]["value"],
                                                          sub["json"]["value"]), p)
        # the last session's report records what it ran with
        with open(js) as f:
            report = json.load(f)
        check_parts_within(report, p)
        rec = report["options"]
        for name, r in parent.items():
            key = r["report"]
            if key and key not in ("previous", "current", "timeout") and rec[key] != r["value"]:
                fail("the last session's report has %s %r, --commits was given %r"
                     % (key, rec[key], r["value"]), p)
        if rec["seed"] != 4242 or rec["timing"] != "all" or rec["max_paths"] != 3 \
                or report["measurement"]["seed"] != 4242:
            fail("the report's options: %r" % rec, p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
