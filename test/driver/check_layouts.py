#!/usr/bin/env python3
"""Code layouts: each revision measured with its modules linked again in
other orders of their functions (pinpoint/layouts/layouts.h).

  check_layouts.py --pinpoint P --cc PINPOINT_CC --clang CLANG --builds DIR
                   --schema FILE SCENARIO

relink     the layouts of programs/placement.c, built with pinpoint-cc:
           their functions in other orders (nm -n), each printing what the
           build prints; runs spread over them; seeds, modules and runs in
           the JSON report; kept in the cache, not the build directory;
           reused by the next session, made anew after a rebuild, and made
           anew when a cached file is damaged
swap       each run sees its layout at the binary's path (the benchmark
           hashes it), while the build directory's binary stays as built
interrupt  SIGINT, then SIGINT and SIGTERM, during a session: every file of
           both build directories as built
killed     SIGKILL at 8 moments of sessions: every file of both build
           directories as built (sha256), and nothing to put back
userfiles  cp and strip onto the binaries during a session: the user's
           files stay as they made them, the cache is not touched
readonly   read-only build directories (a read-only bind mount): varied,
           nothing written (root only, else skipped)
userns     as an unprivileged user: varied through a user namespace of the
           run's own; with user namespaces disabled (a user namespace whose
           limit of nested ones is 0, no capabilities), both revisions run
           as built and one line says why (root only, else skipped)
runvary    each run's environment variable and heap offset, as the JSON
           report records them, are what the benchmark saw: the length of
           PINPOINT_PAD, and where its first allocation landed
layoutonly one source linked in two orders 10 % apart: as built (--layouts
           1) the report warns; in layouts no regression is claimed, no
           call named, and the entry's layout spread is reported
oneside    the same binary as previous (built with pinpoint-cc, link record)
           and as current (copied alone: no link record): the current
           revision cannot be varied, so neither is, with one line saying
           why, in the text, the JSON and the runs; no regression claimed
orphans    the layouts of a build directory that is gone are removed by the
           next session that uses layouts
crossed    sessions P,C and C,P started while a third holds C's lock, then
           released: both end (locks in one order, by device and inode)
bindmount  the current directory bind-mounted elsewhere and given as its own
           previous: one usage error at once (root only, else skipped)
oneseed    one object linked in two orders of its own: in the paired
           design layout k of both revisions is one order (the build's
           own shuffle left out), the seeds are the same and the report
           says so, and a pair's two runs have one env_pad and heap
           offset; unpaired (--runs shuffled) no seed is shared
warning    --layouts 1, and a build without link records (clang
           -fpass-plugin by hand): the reports say the layouts were not
           varied and that the verdict can include their effect; with
           several layouts the runs of each revision use them all
"""
import argparse
import hashlib
import json
import math
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
from pinpoint_test import cache_path, check, fail, load_report, run, scenario_main  # noqa: E402
from pinpoint_test import wait_for  # noqa: E402
from pinpoint_test import pinpoint as harness_pinpoint  # noqa: E402

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs", "placement.c")
# Small budgets: these scenarios are about where the runs ran, not their verdict.
SHORT = ["--entry", "run", "--depth", "0", "--measurements", "6"]


def fixed_layouts(args):
    """@args with --max-layouts as many as --layouts, unless given: these scenarios
    count the layouts, which a session that finds them deciding nothing adds to."""
    args = list(args)
    if "--layouts" in args and "--max-layouts" not in args:
        i = args.index("--layouts")
        args[i + 2:i + 2] = ["--max-layouts", args[i + 1]]
    return args


def pinpoint(*args, status=None, env=None):
    return harness_pinpoint(ARGS.pinpoint, *fixed_layouts(args), status=status, env=env)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def build(tmp, name, flags=("-O2",)):
    """programs/placement.c built with pinpoint-cc in @tmp/@name, compiled and linked apart."""
    d = os.path.join(tmp, name)
    os.makedirs(d, exist_ok=True)
    run([ARGS.cc, *flags, "-fno-inline-functions", "-c", SOURCE, "-o", "placement.o"], cwd=d,
        expect=0)
    run([ARGS.cc, "placement.o", "-o", "placement"], cwd=d, expect=0)
    return d


def cache_dir(d):
    """Where pinpoint keeps @d's layouts (pinpoint/layouts/layouts.h)."""
    return cache_path("layouts", d)


def tree_sums(*dirs):
    """{path: sha256} of every file under @dirs."""
    out = {}
    for top in dirs:
        for d, _, files in os.walk(top):
            for f in files:
                out[os.path.join(d, f)] = sha(os.path.join(d, f))
    return out


def layout_files(d):
    """The layout files of @d's placement: {seed: path}."""
    lay = cache_dir(d)
    files = {}
    for n in os.listdir(lay) if os.path.isdir(lay) else []:
        m = re.match(r"placement\.[0-9a-f]{16}\.(\d+)$", n)
        if m:
            files[int(m.group(1))] = os.path.join(lay, n)
    return files


def function_order(path):
    """The program's functions as nm -n lists them (address order)."""
    out = run(["nm", "-n", path], expect=0).stdout
    return tuple(l.split()[2] for l in out.splitlines() if re.match(r"\S+ [Tt] ", l))


def as_built(d, name="placement"):
    """Nothing of the layouts is in @d: no layouts directory, no kept original, no journal."""
    check(not os.path.exists(os.path.join(d, ".pinpoint", "layouts")),
          "%s: a layouts directory in the build directory" % d)
    left = [n for n in os.listdir(cache_dir(d)) if ".tmp." in n] \
        if os.path.isdir(cache_dir(d)) else []
    check(not left, "%s: left in the cache after the session: %s" % (d, left))


def measured_layouts(report, label):
    return [r["layout"] for r in report["runs"]
            if r["revision"] == label and r["batch"] and not r["warmup"]]


def scenario_relink():
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        orig = {d: sha(os.path.join(d, "placement")) for d in (prev, cur)}
        order = function_order(os.path.join(cur, "placement"))
        printed = run([os.path.join(cur, "placement")], cwd=cur, expect=0).stdout
        js = os.path.join(tmp, "r.json")
        p = pinpoint(*SHORT, "--layouts", "3", "--max-runs", "48", "--previous", prev,
                     "--current", cur, "--json", js, "--", "./placement")
        check(p.returncode in (0, 1, 4), "first session: exit %d" % p.returncode)
        rep = load_report(js, ARGS.schema, p)
        lay = rep["layouts"]
        check(lay["varied"] and lay["requested"] == 3, "layouts: %r" % lay)
        for rev, d in zip(lay["revisions"], (prev, cur)):
            seeds = [x["seed"] for x in rev["layouts"]]
            files = layout_files(d)
            check(len(seeds) == 3 and sorted(files) == sorted(seeds),
                  "%s: seeds %s, files %s" % (rev["label"], seeds, sorted(files)))
            check([m["path"] for m in rev["modules"] if m["relinked"]]
                  == [os.path.realpath(os.path.join(d, "placement"))],
                  "%s: modules %r" % (rev["label"], rev["modules"]))
            check(not any(x["reused"] for x in rev["layouts"]), "%s: reused on the first "
                  "session" % rev["label"])
            check(set(measured_layouts(rep, rev["label"])) == {0, 1, 2},
                  "%s: runs in layouts %s" % (rev["label"],
                                              sorted(set(measured_layouts(rep, rev["label"])))))
        orders = {function_order(f) for f in layout_files(cur).values()}
        check(len(orders) == 3 and order not in orders,
              "the layouts' function orders are not three new ones: %s" % orders)
        for f in layout_files(cur).values():
            out = run([f], cwd=cur, expect=0).stdout
            check(out == printed, "%s printed %r, the build %r" % (f, out, printed))
        pads = {r["env_pad"] for r in rep["runs"]}
        heaps = {r["heap_offset"] for r in rep["runs"]}
        check(len(pads) > 1 and len(heaps) > 1 and all(h % 16 == 0 for h in heaps),
              "env_pad %s, heap_offset %s" % (sorted(pads), sorted(heaps)))
        for d in (prev, cur):
            check(sha(os.path.join(d, "placement")) == orig[d], "%s is not the build's" % d)
            as_built(d)
            direct_links(d, tmp)

        # Nothing changed: the next session links nothing.
        p = pinpoint(*SHORT, "--layouts", "3", "--max-runs", "24", "--previous", prev,
                     "--current", cur, "--json", js, "--", "./placement")
        rep = load_report(js, ARGS.schema, p)
        check(all(x["reused"] and x["relink_s"] == 0 for r in rep["layouts"]["revisions"]
                  for x in r["layouts"]), "second session: %r" % rep["layouts"])

        # A rebuild of the current revision: its layouts are made anew, the old ones go.
        old = set(layout_files(cur).values())
        build(tmp, "current", flags=("-O1",))
        p = pinpoint(*SHORT, "--layouts", "3", "--max-runs", "24", "--previous", prev,
                     "--current", cur, "--json", js, "--", "./placement")
        rep = load_report(js, ARGS.schema, p)
        revs = rep["layouts"]["revisions"]
        check(not any(x["reused"] for x in revs[1]["layouts"])
              and all(x["reused"] for x in revs[0]["layouts"]),
              "after rebuilding the current revision: %r" % revs)
        new = set(layout_files(cur).values())
        check(len(new) == 3 and not (new & old), "layout files after the rebuild: %s" % new)

        # A damaged cached file is made again, not run.
        victim = sorted(new)[0]
        with open(victim, "r+b") as f:
            f.seek(100)
            f.write(b"\xde\xad\xbe\xef")
        p = pinpoint(*SHORT, "--layouts", "3", "--max-runs", "24", "--previous", prev,
                     "--current", cur, "--json", js, "--", "./placement")
        check(re.search(r"layout \d of \S+ is not as it was made: making it again", p.stderr),
              "a damaged layout file was not said to be made again:\n%s" % p.stderr)
        rep = load_report(js, ARGS.schema, p)
        check(sum(not x["reused"] for x in rep["layouts"]["revisions"][1]["layouts"]) == 1,
              "a damaged layout file: %r" % rep["layouts"]["revisions"][1])
        check(run([victim], cwd=cur, expect=0).stdout == run([os.path.join(cur, "placement")],
                                                               cwd=cur, expect=0).stdout,
              "the layout made again does not run as the build does")


def driver_link(d, seed, out):
    """@d's placement linked through its compiler driver, as its link record
    says, in the layout of @seed (relink.c's link_argv()), into @out."""
    argv, cwd, env = [], d, dict(os.environ)
    with open(os.path.join(d, "placement.pinpoint-link")) as f:
        for line in f:
            key, _, val = line.rstrip("\n").partition(" ")
            if key == "arg":
                argv.append(val)
            elif key == "output":
                argv.append(out)
            elif key == "cwd":
                cwd = val
            elif key == "env" and val.startswith("LIBRARY_PATH="):
                env["LIBRARY_PATH"] = val.partition("=")[2].replace("%3A", ":")
    run(argv + ["-fuse-ld=lld", "-Wl,--shuffle-sections=.text*=%d" % seed, "-Wl,--strip-debug"],
        cwd=cwd, env=env, expect=0)


def direct_links(d, tmp):
    """@d's layouts were linked by ld.lld itself, with the command the driver
    names for it (-###): each layout's file is the one the driver makes."""
    with open(os.path.join(cache_dir(d), "relink.log")) as f:
        log = f.read()
    check(re.search(r"^pinpoint: \S+/placement linked by \S+/ld\.lld, the command its driver "
                    r"runs \(-###\)$", log, re.M), "%s: not linked by ld.lld:\n%s" % (d, log))
    links = re.findall(r"^pinpoint: layout \d+, in \S+: (\S+)", log, re.M)
    check(links and all(os.path.basename(l) == "ld.lld" for l in links),
          "%s: layouts linked by %s" % (d, sorted(set(links))))
    for seed, f in sorted(layout_files(d).items())[:1]:
        out = os.path.join(tmp, "through-the-driver")
        driver_link(d, seed, out)
        check(sha(out) == sha(f), "%s: layout %d linked by ld.lld differs from the driver's link"
              % (d, seed))


def hashing_command(log):
    """A benchmark that appends its directory and the hash of its binary to @log, then runs it."""
    return ["sh", "-c", 'echo "$(pwd) $(sha256sum < ./placement)" >> %s; exec ./placement' % log]


def scenario_swap():
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        orig = {d: sha(os.path.join(d, "placement")) for d in (prev, cur)}
        ino = {d: os.stat(os.path.join(d, "placement")).st_ino for d in (prev, cur)}
        log, js = os.path.join(tmp, "hashes"), os.path.join(tmp, "r.json")
        p = pinpoint(*SHORT, "--layouts", "2", "--max-runs", "24", "--previous", prev,
                     "--current", cur, "--json", js, "--", *hashing_command(log))
        check(p.returncode in (0, 1, 4), "exit %d" % p.returncode)
        rep = load_report(js, ARGS.schema, p)
        seen = {prev: [], cur: []}
        for line in open(log).read().splitlines():
            d, h = line.split()[:2]
            seen[d].append(h)
        for i, (d, label) in enumerate(((prev, "previous"), (cur, "current"))):
            layouts = {sha(f): seed for seed, f in layout_files(d).items()}
            seeds = [x["seed"] for x in rep["layouts"]["revisions"][i]["layouts"]]
            runs = [r for r in rep["runs"] if r["revision"] == label]
            check(len(seen[d]) == len(runs), "%s: %d runs, %d hashed" % (d, len(runs),
                                                                         len(seen[d])))
            for r, h in zip(runs, seen[d]):
                if r["layout"] is None:
                    check(h == orig[d], "%s: a discovery run ran no build's binary" % label)
                else:
                    seed = seeds[r["layout"]]
                    check(layouts.get(h) == seed, "%s: a run in layout %d (seed %d) ran %s"
                          % (label, r["layout"], seed, layouts.get(h, "no layout")))
            check(len(set(h for h in seen[d] if h != orig[d])) == 2,
                  "%s: the runs used %d layouts" % (label, len(set(seen[d]) - {orig[d]})))
            check(sha(os.path.join(d, "placement")) == orig[d]
                  and os.stat(os.path.join(d, "placement")).st_ino == ino[d],
                  "%s: the build's binary is not back" % d)
            as_built(d)


def start(prev, cur, js, layouts=2):
    """A long session, returned once it runs in its layouts."""
    # runs of half a second: the session lasts
    cmd = [ARGS.pinpoint, *SHORT, "--layouts", str(layouts), "--max-layouts", str(layouts),
           "--max-runs", "100000", "--previous", prev, "--current", cur, "--json", js, "--",
           "sh", "-c", "sleep 0.5; exec ./placement"]
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait_for(lambda: len(layout_files(cur)) >= layouts or proc.poll() is not None, 120):
        proc.kill()
        fail("no layouts were made within 120 s")
    time.sleep(0.5)
    if proc.poll() is not None:
        fail("the session ended before it ran in its layouts:\n" + proc.stderr.read())
    return proc


def scenario_interrupt():
    # Two different signals, so that the second is not merged into the first while pending.
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        before = tree_sums(prev, cur)
        for signals in ((signal.SIGINT,), (signal.SIGINT, signal.SIGTERM)):
            proc = start(prev, cur, os.path.join(tmp, "r.json"))
            for sig in signals:
                proc.send_signal(sig)
            out, err = proc.communicate(timeout=120)
            print(err, flush=True)
            what = "%d signal%s" % (len(signals), "s" * (len(signals) > 1))
            check(proc.returncode == 130, "%s: exit %d" % (what, proc.returncode))
            check(("pinpoint: stopped" in err) == (len(signals) > 1),
                  "%s: %s" % (what, "stopped at once" if len(signals) == 1 else
                              "not stopped at once by the second"))
            after = {k: v for k, v in tree_sums(prev, cur).items() if "/.pinpoint/" not in k}
            check(after == {k: v for k, v in before.items() if "/.pinpoint/" not in k},
                  "%s: the build directories changed" % what)
            for d in (prev, cur):
                as_built(d)


def scenario_killed():
    """SIGKILL at 8 moments of sessions: the build directories as built."""
    import random
    rnd = random.Random(20261128)
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        before = tree_sums(prev, cur)
        for i in range(8):
            cmd = [ARGS.pinpoint, *SHORT, "--layouts", "2", "--max-layouts", "2",
                   "--max-runs", "100000", "--previous", prev, "--current", cur, "--",
                   "./placement"]
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rnd.uniform(0, 1.2))
            proc.kill()
            proc.wait(timeout=60)
            if i % 3 == 2:  # a new pair of layouts now and then: a kill while linking
                shutil.rmtree(cache_dir(cur), ignore_errors=True)
            check(tree_sums(prev, cur) == before,
                  "after SIGKILL %d the build directories are not as built" % (i + 1))
        for d in (prev, cur):
            as_built(d)
        p = pinpoint(*SHORT, "--layouts", "2", "--max-runs", "24", "--previous", prev,
                     "--current", cur, "--no-save-command", "--", "./placement")
        check(p.returncode in (0, 1, 4), "the next session: exit %d" % p.returncode)
        check("put " not in p.stderr, "the next session put something back:\n%s" % p.stderr)


def scenario_userfiles():
    """The user copies a new binary over one and strips the other during a session."""
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        other = build(tmp, "other", flags=("-O1",))
        proc = start(prev, cur, os.path.join(tmp, "r.json"))
        cached = {f: sha(f) for d in (prev, cur) for f in layout_files(d).values()}
        shutil.copyfile(os.path.join(other, "placement"), os.path.join(cur, "placement"))
        run(["strip", "--strip-debug", os.path.join(prev, "placement")], expect=0)
        new_cur, new_prev = (sha(os.path.join(d, "placement")) for d in (cur, prev))
        out, err = proc.communicate(timeout=240)
        check(proc.returncode == 3 and "rebuilt during the session" in err,
              "a session whose binaries changed under it: exit %d\n%s" % (proc.returncode, err))
        check(sha(os.path.join(cur, "placement")) == new_cur and
              sha(os.path.join(prev, "placement")) == new_prev,
              "the user's binaries are not as the user made them")
        check(all(sha(f) == h for f, h in cached.items()),
              "a cached layout changed: the user's cp or strip wrote into the cache")
        for d in (prev, cur):
            as_built(d)


def scenario_readonly():
    """Read-only build directories are varied too: nothing is written there."""
    with tempfile.TemporaryDirectory() as tmp:
        dirs = [build(tmp, r) for r in ("previous", "current")]
        before = tree_sums(*dirs)
        mounted = []
        try:
            for d in dirs:
                # the directory over itself, then read-only: its own paths refuse writes
                for cmd in (["mount", "--bind", d, d], ["mount", "-o", "remount,bind,ro", d]):
                    m = subprocess.run(cmd, capture_output=True, text=True)
                    if m.returncode != 0:
                        print("SKIP: cannot make a read-only bind mount: %s" % m.stderr.strip())
                        sys.exit(77)
                    if cmd[1] == "--bind":
                        mounted.append(d)
            check(not os.access(dirs[0], os.W_OK) or
                  subprocess.run(["touch", os.path.join(dirs[0], "w")]).returncode != 0,
                  "read-only: the build directory is writable")
            js = os.path.join(tmp, "r.json")
            p = pinpoint(*SHORT, "--layouts", "2", "--max-runs", "48", "--no-save-command",
                         "--previous", dirs[0], "--current", dirs[1], "--json", js, "--",
                         "./placement")
            check(p.returncode in (0, 1, 4), "read-only: exit %d\n%s" % (p.returncode, p.stderr))
            rep = load_report(js, ARGS.schema, p)
            check(rep["layouts"]["varied"], "read-only: not varied: %r" % rep["layouts"])
        finally:
            for d in mounted:
                subprocess.run(["umount", d])
        check(tree_sums(*dirs) == before, "read-only: the build directories changed")


def scenario_userns():
    """Runs that cannot be root: a user namespace where allowed, else as built.

    As user nobody (setpriv), each run sees its layout through a user
    namespace of its own.  With user namespaces disabled, in a user namespace
    whose limit of nested ones is 0 and without capabilities (unshare -r,
    then setpriv --bounding-set=-all), both revisions run as built and one
    line says why.
    """
    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("unshare"):
        print("SKIP: needs root, setpriv and unshare")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="pp-userns-")
    try:
        os.chmod(tmp, 0o755)
        dirs = [build(tmp, r) for r in ("previous", "current")]
        cache, work = os.path.join(tmp, "cache"), os.path.join(tmp, "work")
        for d in (cache, work):
            os.makedirs(d, exist_ok=True)
        before = tree_sums(*dirs)
        env = dict(os.environ, XDG_CACHE_HOME=cache, HOME=work, TMPDIR=work)
        session = [ARGS.pinpoint, *SHORT, "--layouts", "2", "--max-layouts", "2",
                   "--max-runs", "48", "--no-save-command", "--previous", dirs[0],
                   "--current", dirs[1], "--json", os.path.join(work, "r.json"), "--",
                   "./placement"]
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        disabled = ["unshare", "-U", "-r", "sh", "-c",
                    'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', "sh",
                    "setpriv", "--bounding-set=-all", "--inh-caps=-all"]
        for allowed, prefix in ((True, nobody), (False, disabled)):
            for top, _, files in os.walk(tmp):
                for n in [top] + [os.path.join(top, f) for f in files]:
                    os.chown(n, 65534 if allowed else 0, 65534 if allowed else 0)
            p = subprocess.run(prefix + session, capture_output=True, text=True, env=env,
                               cwd=work, timeout=300)
            what = "user namespaces %s" % ("allowed" if allowed else "disabled")
            if allowed and "no private mount namespace is allowed here" in p.stderr:
                print("%s: this system allows none: %s" % (what, p.stderr.strip()))
            elif p.returncode not in (0, 1, 4):
                check(False, "%s: exit %d\n%s" % (what, p.returncode, p.stderr))
                continue
            else:
                rep = load_report(os.path.join(work, "r.json"), ARGS.schema, p)
                check(rep["layouts"]["varied"] == allowed,
                      "%s: layouts %r\n%s" % (what, rep["layouts"], p.stderr))
            if not allowed:
                check(re.search(r"both revisions run as built, not in code layouts: no private "
                                r"mount namespace is allowed here", p.stderr),
                      "%s: no line says why:\n%s" % (what, p.stderr))
            check(tree_sums(*dirs) == before, "%s: the build directories changed" % what)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# A benchmark that appends what it saw: the size of PINPOINT_PAD and where its first
# allocation is, within its page.
SEES = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) void work(const char *log)
{
	const char *pad = getenv("PINPOINT_PAD");
	void *p = malloc(24);
	FILE *f = fopen(log, "a");

	fprintf(f, "%zu %lu\n", pad ? strlen(pad) : (size_t)-1, (unsigned long)((uintptr_t)p % 4096));
	fclose(f);
	free(p);
}
int main(int argc, char **argv)
{
	work(argv[1]);
	return 0;
}
"""


def scenario_runvary():
    with tempfile.TemporaryDirectory() as tmp:
        for r in ("previous", "current"):
            d = os.path.join(tmp, r)
            os.makedirs(d)
            with open(os.path.join(d, "sees.c"), "w") as f:
                f.write(SEES)
            run([ARGS.cc, "-O1", "sees.c", "-o", "sees"], cwd=d, expect=0)
        log, js = os.path.join(tmp, "seen"), os.path.join(tmp, "r.json")
        p = pinpoint("--entry", "work", "--depth", "0", "--measurements", "6", "--layouts", "2",
                     "--max-runs", "24", "--previous", os.path.join(tmp, "previous"), "--current",
                     os.path.join(tmp, "current"), "--json", js, "--", "./sees", log)
        rep = load_report(js, ARGS.schema, p)
        seen = [tuple(int(x) for x in l.split()) for l in open(log).read().splitlines()]
        runs = rep["runs"]
        check(len(seen) == len(runs), "%d runs, %d seen" % (len(runs), len(seen)))
        # A duet's two runs write their lines in either order: each run is matched by its
        # PINPOINT_PAD among the runs of its turn (the discovery runs are one at a time).
        turn = 2 if rep["measurement"]["design"] == "duet" else 1
        ordered = list(seen[:2])
        for i in range(2, len(seen), turn):
            mine = seen[i:i + turn]
            for r in runs[i:i + turn]:
                got = [s for s in mine if s[0] == r["env_pad"]]
                ordered.append(got[0] if got else (None, None))
                if got:
                    mine.remove(got[0])
        seen = ordered
        check([s[0] for s in seen] == [r["env_pad"] for r in runs],
              "PINPOINT_PAD's lengths %s, the report's %s" % ([s[0] for s in seen],
                                                             [r["env_pad"] for r in runs]))
        # The first allocation moves with the heap: at the same place less the offset.
        base = {(s[1] - r["heap_offset"]) % 4096 for s, r in zip(seen, runs) if s[1] is not None}
        check(len(base) == 1 and len({r["heap_offset"] for r in runs}) > 1,
              "first allocations %s for heap offsets %s" % ([s[1] for s in seen],
                                                          [r["heap_offset"] for r in runs]))


def scenario_warning():
    prev, cur = (os.path.join(ARGS.builds, "placement", r) for r in ("previous", "current"))
    with tempfile.TemporaryDirectory() as tmp:
        js, html = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.html")
        for quiet in ([], ["--quiet"]):
            p = pinpoint(*SHORT, *quiet, "--layouts", "1", "--max-runs", "24", "--previous",
                         prev, "--current", cur, "--json", js, "--html", html, "--",
                         "./placement")
            check(p.returncode in (0, 1, 4), "--layouts 1: exit %d" % p.returncode)
            check(re.search(r"^Layouts: not varied \(--layouts 1\):.*the verdict can include "
                            r"the effect of where the linker put the code", p.stdout, re.M),
                  "--layouts 1%s: no warning in the text report" % " ".join([""] + quiet))
        rep = load_report(js, ARGS.schema, p)
        check(not rep["layouts"]["varied"] and "verdict can include" in rep["layouts"]["note"]
              and all(r["layout"] is None for r in rep["runs"]),
              "--layouts 1: the JSON report's layouts %r" % rep["layouts"])
        check("not varied (--layouts 1)" in open(html).read(), "--layouts 1: no warning in HTML")

        p = pinpoint(*SHORT, "--layouts", "4", "--max-runs", "64", "--previous", prev,
                     "--current", cur, "--json", js, "--", "./placement")
        check(re.search(r"^Layouts: each revision ran in 4 code layouts", p.stdout, re.M),
              "--layouts 4: no layouts line")
        rep = load_report(js, ARGS.schema, p)
        for label in ("previous", "current"):
            used = measured_layouts(rep, label)
            check(sorted(set(used)) == [0, 1, 2, 3]
                  and max(used.count(k) for k in range(4)) - min(used.count(k) for k in range(4))
                  <= 1, "--layouts 4, %s: runs in layouts %s" % (label, used))
        # Runs in pairs (--runs paired, the default): both runs of a pair in layout k of each.
        kept = [r for r in rep["runs"] if r["batch"] > 0 and not r["warmup"]]
        pairs = [(kept[i], kept[i + 1]) for i in range(0, len(kept) - 1, 2)]
        check(pairs and all(a["revision"] != b["revision"] and a["layout"] == b["layout"]
                            for a, b in pairs),
              "--layouts 4: pairs' revisions and layouts %s"
              % [(a["revision"][0] + b["revision"][0], a["layout"], b["layout"]) for a, b in pairs])

        # Built with the plugin by hand: no link record, measured as built, and said so.
        plugin = run([ARGS.pinpoint, "--print-plugin-path"], expect=0).stdout.strip()
        rt = run([ARGS.pinpoint, "--print-runtime-path"], expect=0).stdout.strip()
        for r in ("previous", "current"):
            d = os.path.join(tmp, r)
            os.makedirs(d)
            run([ARGS.clang, "-O2", "-g", "-fno-inline-functions", "-fpass-plugin=" + plugin,
                 SOURCE, rt, "-Wl,-rpath," + os.path.dirname(rt), "-o", "placement"], cwd=d,
                expect=0)
        p = pinpoint(*SHORT, "--layouts", "8", "--max-runs", "24", "--previous",
                     os.path.join(tmp, "previous"), "--current", os.path.join(tmp, "current"),
                     "--json", js, "--", "./placement")
        check(re.search(r"previous revision's \S+/placement runs as built in every layout: no "
                        r"link record", p.stderr), "no line says why the build runs as built")
        check(re.search(r"^Layouts: not varied: the previous revision ran as built \(none of its "
                        r"modules could be linked again\)", p.stdout, re.M),
              "no warning in the report of a build without link records")
        rep = load_report(js, ARGS.schema, p)
        check(not rep["layouts"]["varied"], "layouts varied without link records")



def scenario_oneside():
    """One revision that can be varied, one that cannot: both run as built.

    One over layouts beside one as built compares a draw of the linker's
    lottery with its average: identical code was called 7-22 % slower so.
    """
    with tempfile.TemporaryDirectory() as tmp:
        prev = build(tmp, "previous")
        cur = os.path.join(tmp, "current")
        os.makedirs(cur)
        shutil.copy2(os.path.join(prev, "placement"), cur)
        check(os.path.exists(os.path.join(prev, "placement.pinpoint-link")) and
              not os.path.exists(os.path.join(cur, "placement.pinpoint-link")),
              "oneside: the link records are not as the scenario needs")
        js = os.path.join(tmp, "r.json")
        p = pinpoint("--entry", "run", "--depth", "1", "--layouts", "8", "--max-runs", "200",
                     "--previous", prev, "--current", cur, "--json", js, "--", "./placement")
        check(re.search(r"the current revision runs as built, not in code layouts: .*; the "
                        r"previous revision runs as built too", p.stderr),
              "oneside: no line says why neither revision is varied:\n%s" % p.stderr)
        check(re.search(r"^Layouts: not varied: the current revision could not be \(", p.stdout,
                        re.M), "oneside: the report does not say why:\n%s" % p.stdout)
        rep = load_report(js, ARGS.schema, p)
        revs = {r["label"]: r for r in rep["layouts"]["revisions"]}
        check(not rep["layouts"]["varied"] and all(r["layout"] is None for r in rep["runs"])
              and revs["previous"]["not_varied"] and revs["current"]["not_varied"],
              "oneside: the JSON report's layouts %r" % rep["layouts"])
        check(p.returncode in (0, 4) and rep["comparisons"][0]["verdict"] != "slower"
              and not rep["bottleneck_chain"],
              "oneside: identical code: exit %d, entry %s" % (p.returncode,
                                                              rep["comparisons"][0]["verdict"]))
        as_built(prev)


def same_setup(rep):
    """(rounds whose two runs had one env_pad and heap_offset, rounds): each
    round of a batch's runs, in the order they ran (a pair, or two runs
    unpaired)."""
    runs = [r for r in rep["runs"] if r["batch"]]
    same = total = 0
    for a, b in zip(runs[0::2], runs[1::2]):
        if a["batch"] != b["batch"]:
            continue
        total += 1
        same += a["env_pad"] == b["env_pad"] and a["heap_offset"] == b["heap_offset"]
    return same, total


def scenario_oneseed():
    """Layout k of both revisions from one seed in the paired design (common random numbers).

    One object linked in two orders of its own (-Wl,--shuffle-sections, as a
    build might be): in layouts, the build's own shuffle is left out and layout
    k of both revisions is one order of the same code, so that nothing of the
    layouts is left in the pairs' differences; unpaired, no seed is shared.
    """
    with tempfile.TemporaryDirectory() as tmp:
        dirs = []
        for k, name in enumerate(("previous", "current")):
            d = os.path.join(tmp, name)
            os.makedirs(d)
            run([ARGS.cc, "-O2", "-fno-inline-functions", "-c", SOURCE, "-o", "placement.o"],
                cwd=d, expect=0)
            run([ARGS.cc, "placement.o", "-fuse-ld=lld",
                 "-Wl,--shuffle-sections=.text*=%d" % (101 + 7 * k), "-o", "placement"],
                cwd=d, expect=0)
            dirs.append(d)
        prev, cur = dirs
        built = [function_order(os.path.join(d, "placement")) for d in dirs]
        check(built[0] != built[1], "oneseed: the two builds' own orders are one order")
        js = os.path.join(tmp, "r.json")
        p = pinpoint(*SHORT, "--layouts", "3", "--max-runs", "48", "--previous", prev,
                     "--current", cur, "--json", js, "--", "./placement")
        check(p.returncode in (0, 4), "oneseed: identical code, exit %d" % p.returncode)
        rep = load_report(js, ARGS.schema, p)
        seeds = [[x["seed"] for x in r["layouts"]] for r in rep["layouts"]["revisions"]]
        check(len(seeds[0]) == 3 and seeds[0] == seeds[1],
              "oneseed: paired, the seeds are %s and %s" % tuple(seeds))
        check("layout k of both with one seed" in rep["layouts"]["note"] and
              re.search(r"^Layouts: .*layout k of both with one seed", p.stdout, re.M),
              "oneseed: the report does not say the seeds were shared:\n%s" % p.stdout)
        pairs = same_setup(rep)
        check(pairs[0] and pairs[0] == pairs[1],
              "oneseed: paired, %d of %d pairs' runs had one env_pad and heap_offset" % pairs)
        files = [layout_files(d) for d in dirs]
        for seed in seeds[0]:
            orders = [function_order(f[seed]) for f in files]
            check(orders[0] == orders[1] and orders[0] not in built,
                  "oneseed: layout %d's orders %s" % (seed, orders))
        for d in dirs:
            with open(os.path.join(cache_dir(d), "relink.log")) as f:
                links = [l for l in f if l.startswith("pinpoint: layout ")]
            check(links and not any("=.text*=101 " in l or "=.text*=108 " in l for l in links),
                  "oneseed: a layout's link kept the build's own shuffle:\n%s" % links[:1])
            as_built(d)

        # unpaired: the current revision takes none of the previous one's seeds
        p = pinpoint(*SHORT, "--runs", "shuffled", "--layouts", "3", "--max-runs", "48",
                     "--previous", prev, "--current", cur, "--json", js, "--", "./placement")
        rep = load_report(js, ARGS.schema, p)
        revs = rep["layouts"]["revisions"]
        sp, sc = ([x["seed"] for x in r["layouts"]] for r in revs)
        check(len(sp) == 3 and len(sc) == 3 and not set(sp) & set(sc),
              "oneseed: unpaired, the seeds are %s and %s" % (sp, sc))
        check(sp == seeds[0] and not any(x["reused"] for x in revs[1]["layouts"]),
              "oneseed: unpaired, the previous revision's layouts %r, the current's %r"
              % (revs[0]["layouts"], revs[1]["layouts"]))
        pairs = same_setup(rep)
        check(pairs[1] and pairs[0] < pairs[1],
              "oneseed: unpaired, all %d of %d rounds' runs had one env_pad and heap_offset"
              % pairs)
        check("one seed" not in rep["layouts"]["note"],
              "oneseed: unpaired, the report says the seeds were shared: %s"
              % rep["layouts"]["note"])


def scenario_orphans():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = build(tmp, "a"), build(tmp, "b")
        p = pinpoint(*SHORT, "--layouts", "2", "--max-runs", "24", "--no-save-command",
                     "--previous", a, "--current", b, "--", "./placement")
        gone = cache_dir(b)
        check(os.path.isdir(gone) and layout_files(b), "orphans: no layouts of b were kept")
        c = build(tmp, "c")  # before b goes: another inode than b's
        shutil.rmtree(b)
        p = pinpoint(*SHORT, "--layouts", "2", "--max-runs", "24", "--no-save-command",
                     "--previous", a, "--current", c, "--", "./placement")
        check(p.returncode in (0, 1, 4), "orphans: exit %d" % p.returncode)
        check(not os.path.exists(gone),
              "orphans: the layouts of a removed build directory are still in %s" % gone)
        check(layout_files(a) and layout_files(c), "orphans: the live layouts were removed")


def scenario_crossed():
    """Two sessions with the revisions the other way round, while a third
    holds one of their locks: each takes its locks in one order (device,
    inode), so neither holds the lock the other waits for."""
    import fcntl
    with tempfile.TemporaryDirectory() as tmp:
        p, c = build(tmp, "p"), build(tmp, "c")
        for d in (p, c):
            os.makedirs(cache_dir(d), exist_ok=True)
        # which of the two takes the released lock is a race: more than one round
        for rnd in range(2):
            crossed_round(p, c, fcntl)
        for d in (p, c):
            as_built(d)


def crossed_round(p, c, fcntl):
    held = open(os.path.join(cache_dir(c), "lock"), "a+")
    fcntl.flock(held, fcntl.LOCK_EX)
    procs = []
    for a, b in ((p, c), (c, p)):
        cmd = [ARGS.pinpoint, *SHORT, "--layouts", "2", "--max-layouts", "2", "--max-runs", "16",
               "--previous", a, "--current", b, "--no-save-command", "--", "./placement"]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    time.sleep(1)
    check(all(x.poll() is None for x in procs), "crossed: a session did not wait for the lock")
    fcntl.flock(held, fcntl.LOCK_UN)
    held.close()
    for x in procs:
        try:
            out, err = x.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            for y in procs:
                y.kill()
            fail("crossed: a session still waits 120 s after the lock was released")
        check(x.returncode in (0, 1, 4), "crossed: exit %d\n%s" % (x.returncode, err))


def scenario_bindmount():
    """The same directory through a bind mount is the same directory."""
    with tempfile.TemporaryDirectory() as tmp:
        cur = build(tmp, "current")
        other = os.path.join(tmp, "mounted")
        os.makedirs(other)
        m = subprocess.run(["mount", "--bind", cur, other], capture_output=True, text=True)
        if m.returncode != 0:
            print("SKIP: cannot bind-mount here: %s" % m.stderr.strip())
            sys.exit(77)
        try:
            p = subprocess.run([ARGS.pinpoint, *SHORT, "--layouts", "2", "--max-layouts", "2",
                                "--previous", other, "--current", cur, "--", "./placement"],
                               capture_output=True, text=True, timeout=60)
            check(p.returncode == 2 and
                  re.search(r"--previous and --current are the same directory", p.stderr),
                  "bindmount: exit %d, %s" % (p.returncode, p.stderr.strip()))
        except subprocess.TimeoutExpired:
            fail("bindmount: the session waits for itself")
        finally:
            subprocess.run(["umount", other])


def plain_time(binary, runs=3):
    """The fastest of @runs runs of @binary, in seconds."""
    best = None
    for _ in range(runs):
        t0 = time.perf_counter()
        run([binary], cwd=os.path.dirname(binary), expect=0)
        t = time.perf_counter() - t0
        best = t if best is None else min(best, t)
    return best


def rep_layout(js):
    try:
        with open(js) as f:
            return json.load(f)["comparisons"][0].get("layout")
    except (OSError, ValueError, KeyError, IndexError):
        return None


def scenario_layoutonly():
    """One source, two link orders of its functions 10 % or more apart.

    Measured as built (--layouts 1), the difference is all layout, and the
    report says the verdict can include it; measured in layouts, the
    session must not call it a regression nor name a call.
    """
    with tempfile.TemporaryDirectory() as tmp:
        times = {}
        base = build(tmp, "base")  # compiled once, linked in each order
        for seed in range(1, 13):
            d = os.path.join(tmp, "s%d" % seed)
            os.makedirs(d)
            shutil.copy2(os.path.join(base, "placement.o"), d)
            run([ARGS.cc, "placement.o", "-fuse-ld=lld", "-Wl,--shuffle-sections=.text*=%d" % seed,
                 "-o", "placement"], cwd=d, expect=0)
            times[seed] = plain_time(os.path.join(d, "placement"))
        fast = min(times, key=times.get)
        slow = max(times, key=times.get)
        print("plain, fastest of 3 runs per link order: %s" %
              " ".join("%d:%.3fs" % (k, v) for k, v in sorted(times.items())), flush=True)
        if times[slow] < 1.10 * times[fast]:
            print("SKIP: no two of 12 link orders 10 %% apart on this host (%.3f s, %.3f s)"
                  % (times[fast], times[slow]))
            sys.exit(77)
        prev, cur = os.path.join(tmp, "s%d" % fast), os.path.join(tmp, "s%d" % slow)
        js = os.path.join(tmp, "r.json")
        common = ("--entry", "run", "--depth", "1", "--confidence", "99",
                  "--previous", prev, "--current", cur)
        p = pinpoint(*common, "--layouts", "1", "--max-runs-per-comparison", "160", "--json",
                     js, "--", "./placement")
        check(re.search(r"^Layouts: not varied \(--layouts 1\):.*the verdict can include "
                        r"the effect of where the linker put the code", p.stdout, re.M),
              "--layouts 1: no warning")
        # which relinks are slow is chance: of 12 link orders, one or two
        # were slow on the tests' hosts; 16 layouts a side leave both sides
        # without one about once in 300 sessions (8 did once in 20)
        p = pinpoint(*common, "--layouts", "16", "--max-layouts", "4096",
                     "--max-runs-per-comparison", "160", "--json", js, "--", "./placement")
        print("layouts varied: the entry's layout spread %r" % (rep_layout(js),), flush=True)
        rep = load_report(js, ARGS.schema, p)
        entry = rep["comparisons"][0]
        check(p.returncode in (0, 4) and entry["verdict"] != "slower" and not rep["bottleneck_chain"],
              "layouts varied: exit %d, entry %s, chain %r: a relink passed for a regression"
              % (p.returncode, entry["verdict"], rep["bottleneck_chain"]))
        # Reported, not necessarily seen: 16 random relinks of each side may all
        # land near one another (the link orders above were picked for their
        # extremes), and then the estimate of the between-layout variance is 0.
        # Not reported where the entry had no more runs than layouts, or fewer
        # than 4 (pp_layout_components(), pp_decide_layout()): each layout's
        # one run tells no spread (a session whose layouts showed at its first
        # look that no run could decide it stops there).
        lay = entry.get("layout") or {}
        n = len(entry["previous_ns"])
        batches = {b["id"] for b in rep["batches"] if entry["id"] in b["comparisons"]}
        k = len({r["layout"] for r in rep["runs"] if r["revision"] == "previous" and
                 r["batch"] in batches and not r["warmup"]})
        if n < 4 or n <= k:
            print("layouts varied: the entry stopped at %d runs a revision, in %d layouts: no "
                  "spread to report" % (n, k))
            check(not lay, "a layout spread from one run a layout: %r" % lay)
            return
        check(len(lay.get("layouts", [])) == 2 and lay["layouts"][0] == lay["layouts"][1] >= 2 and
              all(0 <= x <= 1 for x in lay.get("share", [-1])),
              "layouts varied: the entry's layout spread is not reported: %r" % entry.get("layout"))
        check(re.search(r"^Layout spread: layout made \d+% of the entry's", p.stdout, re.M),
              "layouts varied: no Layout spread line")
        # two layouts of one revision differ by 10 %: a difference within
        # twice what single layouts make is marked, that reaching T / 2
        # (without the layouts' figures, failed above, there is nothing to mark)
        lay = entry.get("layout") or {}
        if lay and 2 * lay["pair_sd_ns"] >= entry["threshold_ns"] / 2:
            check(lay["sensitive"] == (abs(entry["difference"]["interval"]["centre"]) <=
                                       2 * lay["pair_sd_ns"]),
                  "layouts varied: the entry's layout-sensitive mark is %r for a difference of "
                  "%.0f ns against layouts' %.0f ns" % (lay["sensitive"],
                                                         entry["difference"]["interval"]["centre"],
                                                         lay["pair_sd_ns"]))
        else:
            check(not lay.get("sensitive"), "a layout spread below T/2 is marked layout-sensitive")

def scenario_budget_cache():
    """The comparisons' budget (--max-runs-per-comparison auto) pays for a link
    only past the layouts a session needs none for: those it made before
    measuring, and those an earlier session left in the cache.

    A first session on placement.c's builds (A/A, a threshold of 0.2 %, which
    no first look decides) starts from 4 layouts and an empty cache, and
    grows them, a new one every 2 pairs, while --max-runs 400 lasts; its
    debug line counts no layout ahead without a link when the first look
    fixes the budget (the first look's pairs took all there were).  A second
    session on the same builds finds the first one's in the cache: all but
    those its first look took (8, more where a load spoiled a round and it
    was run again) are ahead without a link.  The
    budget is at most half of --max-runs, and the report records it."""
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        common = ["--entry", "run", "--depth", "0", "--layouts", "4", "--max-layouts", "64",
                  "--pairs-per-layout", "2", "--precision-threshold", "0.2",
                  "--max-runs-per-comparison", "auto", "--max-runs", "400", "--verbose",
                  "--previous", prev, "--current", cur]
        made, ahead, used = [], [], []
        for k in range(2):
            js = os.path.join(tmp, "r%d.json" % k)
            p = pinpoint(*common, "--json", js, "--", "./placement")
            rep = load_report(js, ARGS.schema, p)
            check(p.returncode in (0, 4) and rep["comparisons"][0]["verdict"] != "slower",
                  "session %d: exit %d, entry %s" % (k + 1, p.returncode,
                                                      rep["comparisons"][0]["verdict"]))
            m = re.search(r"(\d+) runs a revision a comparison: .*; (\d+) layouts ahead "
                          r"without a link, then one every 2 pairs", p.stderr)
            runs = rep["measurement"].get("runs_per_comparison")
            check(m and int(m.group(1)) == runs and runs <= 200,
                  "session %d: budget %r, debug line %r" % (k + 1, runs, m and m.group(0)))
            made.append(min(len(r["layouts"]) for r in rep["layouts"]["revisions"]))
            ahead.append(int(m.group(2)) if m else -1)
            # the units the first look's batch took: its pairs, a round a load
            # spoiled and its re-run both (a loaded host spoils some), 2 a unit
            first = min(r["batch"] for r in rep["runs"] if r["batch"])
            used.append(math.ceil(sum(1 for r in rep["runs"] if r["batch"] == first and
                                      not r["warmup"]) / 2 / 2))
            print("session %d: %r runs a revision, %d layouts ahead without a link; "
                  "%d layouts at the end" % (k + 1, runs, ahead[-1], made[-1]))
        check(made[0] >= 16, "the first session made %d layouts, want 16 or more" % made[0])
        check(ahead[0] == 0 and made[0] - max(8, used[1]) <= ahead[1] < made[0],
              "layouts ahead without a link: %r, the first session made %d, the second "
              "session's first look took %d" % (ahead, made[0], used[1]))


def scenario_grow():
    """Layouts by the schedule: a new one every --pairs-per-layout pairs, during the session.

    placement.c's one source on both sides (A/A), its layouts several per
    cent apart, 4 layouts to begin with and a new one every 2 pairs up to
    --max-layouts 16, against a threshold of 5 %.  The layouts must be added
    as the runs go (both revisions alike, each layout's pairs in turn, the
    files in the cache and none in the build directories), said in the
    Layouts line and the JSON report, and no regression claimed.
    """
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        before = tree_sums(prev, cur)
        js = os.path.join(tmp, "r.json")
        p = pinpoint("--entry", "run", "--depth", "0", "--layouts", "4", "--max-layouts", "16",
                     "--pairs-per-layout", "2", "--precision-threshold", "5",
                     "--max-runs-per-comparison", "160",
                     "--previous", prev, "--current", cur, "--json", js, "--", "./placement")
        rep = load_report(js, ARGS.schema, p)
        entry = rep["comparisons"][0]
        lay = rep["layouts"]
        check(p.returncode in (0, 4) and entry["verdict"] != "slower",
              "A/A: exit %d, entry %s" % (p.returncode, entry["verdict"]))
        check(tree_sums(prev, cur) == before, "a build directory changed")
        as_built(prev)
        as_built(cur)
        check(lay["first"] == 4, "layouts to begin with: %r, want 4" % lay["first"])
        check(lay["schedule"] == dict(lay["schedule"] or {}, pairs_per_layout=2, most=16),
              "schedule %r, want a layout every 2 pairs up to 16" % lay["schedule"])
        pairs = len(measured_layouts(rep, "previous"))
        n = min(16, (pairs + 1) // 2)
        check(n > 4 and lay["added"] == dict(lay["added"] or {}, layouts=n - 4),
              "%d pairs: added %r, want %d layouts" % (pairs, lay["added"], n - 4))
        for rev in lay["revisions"]:
            runs = [l["runs"] for l in rev["layouts"]]
            check(len(runs) == n and sum(runs) == pairs and min(runs) > 0 and
                  (pairs > 32 or max(runs) <= 2),
                  "%s: %d pairs in layouts %r, want 2 in each of %d in turn" %
                  (rev["label"], pairs, runs, n))
        # the layout of each measured pair: 2 pairs in each, in turn, round them after 16
        for label in ("previous", "current"):
            used = measured_layouts(rep, label)
            check(used == [(i // 2) % 16 for i in range(len(used))],
                  "%s: runs in layouts %r, not by the schedule" % (label, used))
        for d in (prev, cur):
            check(len(layout_files(d)) >= n, "%s: %d layout files in the cache, want %d" %
                  (d, len(layout_files(d)), n))
        check(re.search(r"^Layouts: each revision ran in %d code layouts .*: 4 first, then a "
                        r"new one every 2 measured pairs, up to 16; linking took" % n,
                        p.stdout, re.M),
              "no Layouts line with the schedule")
        print("entry %s, %d pairs, %d layouts, spread: pair sd %.0f ns, threshold %.0f ns" %
              (entry["verdict"], pairs, n, (entry.get("layout") or {}).get("pair_sd_ns", 0),
               entry["threshold_ns"]))


def scenario_samecode():
    """Layout k of both revisions the same file: new layouts less often.

    placement.c built twice alike (A/A): in the paired design layout k of
    both is linked from the same objects with one seed, byte for byte one
    file, so that what it moves a pair's runs by leaves their difference.
    The schedule then links a layout of both about every 16 pairs' worth of
    linking, not every pair's worth, and says why.  A current revision built
    with other flags has other files: the schedule is the link's cost alone.
    """
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        js = os.path.join(tmp, "r.json")
        args = ["--entry", "run", "--depth", "0", "--layouts", "4", "--max-layouts", "64",
                "--precision-threshold", "5", "--max-runs-per-comparison", "120",
                "--previous", prev, "--current", cur, "--json", js, "--", "./placement"]
        p = pinpoint(*args)
        rep = load_report(js, ARGS.schema, p)
        sched = rep["layouts"]["schedule"]
        files = [layout_files(d) for d in (prev, cur)]
        check(all(sha(files[0][k]) == sha(files[1][k]) for k in files[0]),
              "the A/A layouts are not the same files")
        want = max(1, math.ceil(16 * sched["link_s"] / sched["pair_s"] - 1e-9))
        check(sched.get("same_code") is True and sched["pairs_per_layout"] >= want,
              "A/A: schedule %r, want the same code and a layout every %d pairs or more"
              % (sched, want))
        check(re.search(r"^Layouts: .*then a new one every %d measured pairs \(layout k of both "
                        r"revisions is the same file: what it moves a pair's runs by leaves "
                        r"their difference\)" % sched["pairs_per_layout"], p.stdout, re.M),
              "A/A: the Layouts line does not say why:\n%s" % p.stdout)

        build(tmp, "current", flags=("-O1",))
        p = pinpoint(*args)
        rep = load_report(js, ARGS.schema, p)
        sched = rep["layouts"]["schedule"]
        want = max(1, math.ceil(sched["link_s"] / sched["pair_s"] - 1e-9))
        check("same_code" not in sched and sched["pairs_per_layout"] == want,
              "-O1 against -O2: schedule %r, want a layout every %d pairs" % (sched, want))
        check("is the same file" not in p.stdout, "-O1 against -O2: said to be the same file")


def scenario_growfails():
    """More layouts that cannot be linked: the session goes on in the ones it has.

    The current revision's object is removed once the first 4 layouts are
    made, so that linking it again fails when the session asks for more:
    one line says so, both revisions stay in their 4 layouts (every run in
    one of them), nothing is left half-made in the cache, and the session
    ends as a session in 4 layouts ends, without a claim.
    """
    with tempfile.TemporaryDirectory() as tmp:
        prev, cur = build(tmp, "previous"), build(tmp, "current")
        js, gone = os.path.join(tmp, "r.json"), os.path.join(tmp, "gone")
        # the runs are slow until the object is gone (the first layouts are
        # made by then): the session asks for more after them
        cmd = [ARGS.pinpoint, "--entry", "run", "--depth", "0", "--layouts", "4",
               "--max-layouts", "16", "--precision-threshold", "5",
               "--max-runs-per-comparison", "200", "--previous", prev, "--current", cur,
               "--json", js, "--", "sh", "-c",
               "[ -e %s ] || sleep 0.05; exec ./placement" % gone]
        print("$ " + " ".join(cmd), flush=True)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if not wait_for(lambda: len(layout_files(cur)) >= 4 or proc.poll() is not None, 120):
            proc.kill()
            fail("no layouts were made within 120 s")
        os.unlink(os.path.join(cur, "placement.o"))
        open(gone, "w").close()
        out, err = proc.communicate(timeout=600)
        print(err, flush=True)
        rep = load_report(js, ARGS.schema, subprocess.CompletedProcess(cmd, proc.returncode,
                                                                        out, err))
        entry = rep["comparisons"][0]
        check(proc.returncode in (0, 4) and entry["verdict"] != "slower",
              "exit %d, entry %s" % (proc.returncode, entry["verdict"]))
        if "cannot be linked in more layouts" not in err:
            # placement's layouts hardly differ on this host: the first 4 did
            check("code layouts of each revision now" not in err,
                  "more layouts were made from an object that is gone")
            print("SKIP: the session asked for no more layouts on this host (entry %s)" %
                  entry["verdict"])
            sys.exit(77)
        check(re.search(r"the current revision's \S*placement cannot be linked in more layouts: "
                        r"its link record or the objects it names changed during the session",
                        err),
              "no line saying why no more layouts were made")
        check(rep["layouts"]["added"] is None, "layouts added: %r" % rep["layouts"]["added"])
        for rev in rep["layouts"]["revisions"]:
            check(len(rev["layouts"]) == 4, "%s: %d layouts, want 4" % (rev["label"],
                                                                       len(rev["layouts"])))
        for label in ("previous", "current"):
            used = set(measured_layouts(rep, label))
            check(used <= {0, 1, 2, 3}, "%s: runs in layouts %r" % (label, sorted(used)))
        for d in (prev, cur):
            as_built(d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--builds", required=True)
    ap.add_argument("--schema", required=True)
    # the layouts' cache: the test's own, gone with it
    cache = tempfile.mkdtemp(prefix="pp-layouts-cache-")
    os.environ["XDG_CACHE_HOME"] = cache
    try:
        scenario_main(ap, globals())
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
