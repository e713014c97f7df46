#!/usr/bin/env python3
"""The documentation shows what pinpoint prints (tools/generated_docs.py
says which parts, tools/regen-docs rewrites them).

  help-docs  man/pinpoint.1's OPTIONS and doc/using.md's table of options
             list --help's options, each with --help's letter, value and
             default; every man page's .TH gives --version.
  docs       the same, and the README's session of the demo against the
             README's first command run in the build: the same lines in the
             same order, every number masked and what the runs decide
             compared as generated_docs.py's comment lists (which lines may
             differ, and why).  Every difference is listed.

Each page can be given (--readme, --man, --using), so that a changed copy
can be checked.  Usage: check_docs.py --build DIR [--readme F] [--man DIR]
[--using F] SCENARIO
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import generated_docs as gd  # noqa: E402
from pinpoint_test import check, fail, run, scenario_main  # noqa: E402

ARGS = None


def read(path):
    with open(path) as f:
        return f.read()


def check_options():
    exe = os.path.join(ARGS.build, "pinpoint", "pinpoint")
    h = run([exe, "--help"], expect=0)
    version = run([exe, "--version"], expect=0).stdout.strip()
    pages = {n: read(os.path.join(ARGS.man, n)) for n in os.listdir(ARGS.man) if n.endswith(".1")}
    bad = gd.option_mismatches(h.stdout, version, pages, read(ARGS.using))
    for b in bad:
        check(False, b)
    if not bad:
        print("man/pinpoint.1 and doc/using.md: %d options agree with --help; %d man pages "
              "give %s" % (len(gd.help_options(h.stdout)), len(pages), version))


def scenario_help_docs():
    check_options()


def scenario_docs():
    check_options()
    readme = read(ARGS.readme)
    try:
        block = gd.demo_block(readme)[2]
        gd.first_command(readme)
    except ValueError as e:
        fail("%s: %s" % (ARGS.readme, e))
    p = gd.run_demo(ARGS.build, readme)
    real = gd.session_lines(readme, p.stdout, p.returncode, gd.source_dir(ARGS.build))
    print("the session, as the README would show it:\n    " + "\n    ".join(real), flush=True)
    if p.returncode != 1:
        print("--- stderr:\n" + p.stderr)
    bad = gd.session_mismatches(block, real)
    for b in bad:
        check(False, "README's session: " + b)
    if not bad:
        print("the README's session has the lines of this one (%d lines)" % len(real))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="the build directory")
    ap.add_argument("--readme", default=os.path.join(gd.SOURCE, "README.md"))
    ap.add_argument("--man", default=os.path.join(gd.SOURCE, "man"),
                    help="the man pages' directory")
    ap.add_argument("--using", default=os.path.join(gd.SOURCE, "doc", "using.md"))
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
