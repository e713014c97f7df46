#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The writers against golden files: recorded sessions replayed.

Each golden session is a JSON report recorded on a program model of
test/driver/models/ (test/driver/golden/NAME.json), the text the replay
prints (NAME.txt, its stdout) and the HTML page it writes (NAME.html).
`pinpoint --replay` makes the session again from its report with the
recorded platform, start time, clock and work directory, so its output is
fully deterministic: the replayed JSON must equal the recording (parsed,
exactly), its stdout NAME.txt and its page NAME.html, byte for byte.  A
page over HTML_MAX bytes would be compared by its SHA-256 (NAME.html.sha256)
instead; none is today.

The replays run in the source tree's root: the recordings name their
models by paths relative to it.

When a change of the output is intended, rewrite the golden files from a
build and read the difference (git diff test/driver/golden/):

    tools/regen-golden BUILD_DIR
    # or: test/driver/check_golden.py --pinpoint BUILD_DIR/pinpoint/pinpoint \\
    #         --source . --regen all

which records each session again (SESSIONS below: model, entry, options)
and writes its replay's text and page.

Usage: check_golden.py --pinpoint EXE --source DIR [--regen] SESSION|all
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import FAILURES, check, fail, json_differences  # noqa: E402

GOLDEN = os.path.join("test", "driver", "golden")
MODELS = os.path.join("test", "driver", "models")
HTML_MAX = 200 * 1024

# NAME: (model, entry, options).  Small on purpose: --depth 3 at most, and
# the A/A session at a 10 % threshold (at 1 % it takes 6000 runs, 3 MB).
SESSIONS = {
    "twoslow": ("twoslow", "job", ["--depth", "3", "--seed", "1"]),
    "shared": ("shared", "job", ["--depth", "3", "--seed", "1", "--precision-threshold", "5"]),
    "indirect": ("indirect", "run", ["--depth", "3", "--seed", "1"]),
    "added": ("added", "handle", ["--depth", "3", "--seed", "1"]),
    "same": ("same", "job", ["--depth", "3", "--seed", "1", "--precision-threshold", "10"]),
    # a what-if that overshoots, its chain steps marked inflated
    "inflated": ("inflated", "search", ["--depth", "3", "--seed", "1"]),
}


def pinpoint(args):
    return subprocess.run([ARGS.pinpoint, *args], cwd=ARGS.source, capture_output=True,
                          text=True, timeout=600)


def golden(name, ext):
    return os.path.join(ARGS.source, GOLDEN, name + ext)


def replay(name, d):
    """Replay golden session @name into directory @d: (process, JSON, page bytes)."""
    rj, rh = os.path.join(d, "r.json"), os.path.join(d, "r.html")
    p = pinpoint(["--replay", os.path.join(GOLDEN, name + ".json"), "--json", rj, "--html", rh])
    if p.returncode not in (0, 1, 4) or not os.path.exists(rj) or not os.path.exists(rh):
        fail("%s: the replay failed" % name, p)
    with open(rj) as f, open(rh, "rb") as g:
        return p, json.load(f), g.read()


def regen(name):
    model, entry, opts = SESSIONS[name]
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "rec.json")
        p = pinpoint(["--model", os.path.join(MODELS, model + ".json"), "--entry", entry, *opts,
                      "--json", rec])
        if p.returncode not in (0, 1, 4):
            fail("%s: the session failed" % name, p)
        os.replace(rec, golden(name, ".json"))
        p, _, page = replay(name, d)
    with open(golden(name, ".txt"), "w") as f:
        f.write(p.stdout)
    sha = golden(name, ".html.sha256")
    if len(page) > HTML_MAX:
        with open(sha, "w") as f:
            f.write(hashlib.sha256(page).hexdigest() + "\n")
        if os.path.exists(golden(name, ".html")):
            os.remove(golden(name, ".html"))
    else:
        with open(golden(name, ".html"), "wb") as f:
            f.write(page)
        if os.path.exists(sha):
            os.remove(sha)
    print("%s: rewritten (%d bytes of JSON, %d of HTML)"
          % (name, os.path.getsize(golden(name, ".json")), len(page)))


def compare(name):
    with open(golden(name, ".json")) as f:
        recorded = json.load(f)
    with open(golden(name, ".txt")) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as d:
        p, replayed, page = replay(name, d)
    check(p.returncode == recorded["exit_code"], "%s: the replay exited %d, the session %d"
          % (name, p.returncode, recorded["exit_code"]))
    diff = json_differences(recorded, replayed)
    check(not diff, "%s: the replayed JSON differs from the recording at %s"
          % (name, ", ".join(diff[:10])))
    check(p.stdout == text, "%s: the text differs from %s.txt:\n%s\n--- expected:\n%s"
          % (name, name, p.stdout, text))
    if os.path.exists(golden(name, ".html.sha256")):
        with open(golden(name, ".html.sha256")) as f:
            want = f.read().strip()
        check(hashlib.sha256(page).hexdigest() == want,
              "%s: the page's SHA-256 differs from %s.html.sha256" % (name, name))
    else:
        with open(golden(name, ".html"), "rb") as f:
            check(f.read() == page, "%s: the page differs from %s.html" % (name, name))


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--source", required=True, help="the source tree's root")
    ap.add_argument("--regen", action="store_true", help="rewrite the golden files")
    ap.add_argument("session", help="|".join(SESSIONS) + " or all")
    ARGS = ap.parse_args()
    ARGS.pinpoint = os.path.abspath(ARGS.pinpoint)
    names = list(SESSIONS) if ARGS.session == "all" else [ARGS.session]
    for name in names:
        if name not in SESSIONS:
            fail("unknown session " + name)
        if ARGS.regen:
            regen(name)
        else:
            compare(name)
    if FAILURES:
        print("FAIL: %s: %d failed checks" % (ARGS.session, len(FAILURES)), flush=True)
        sys.exit(1)
    print("PASS: " + ARGS.session, flush=True)


if __name__ == "__main__":
    main()
