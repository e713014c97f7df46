#!/usr/bin/env python3
"""pinpoint-cc's objects directory where the output's directory is shared
(SECURITY.md, The compiler wrappers).

    check_cc_objs.py --build BUILD --clang CLANG SCENARIO

`pinpoint-cc a.c b.c -o prog` compiles to prog.pinpoint-objs/K-NAME.o and
then links those objects, and the driver links them again for each code
layout: the directory must be the user's alone, and the objects linked the
ones compiled.

fresh           the directory is made with mode 0700; a 0755 one of the
                user's (an older pinpoint-cc's) is used
symlink         a link on the directory's name is refused, nothing written
                through it
writable        a directory of the user's that its group or others can write
                is refused, with how to fix it
swapped-object  an object replaced (or rewritten) between its compile and the
                link is not linked
swapped-dir     the directory replaced between the compiles and the link
attacker-dir    (root) a second account plants the directory in a shared
                output directory and replaces an object in the window: its
                code never runs
attacker-link   (root) the same with a link to the attacker's directory

The window between a compile and the link is made deterministic by a
compiler (PINPOINT_CLANG) that runs the real one and, right after the
compile of b.c, the attacker's command: a.c's object is made and noted by
then, and the link is still to come.
"""
import argparse
import os
import pwd
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import pinpoint_test  # noqa: E402
from pinpoint_test import fail, scenario_main, skip  # noqa: E402

ATTACKER = "pinpoint-attacker"

A_C = """#include <stdio.h>
int helper(int x);
int main(void)
{
	printf("good %d\\n", helper(20));
	return 0;
}
"""
B_C = "int helper(int x) { return x + 1; }\n"
# The attacker's object: another main, which leaves a mark when it runs.
EVIL_C = """#include <stdio.h>
int main(void)
{
	FILE *f = fopen(MARK, "w");
	if (f)
		fclose(f);
	puts("evil");
	return 0;
}
"""
# A compiler with someone acting in pinpoint-cc's window (see the top).
WINDOW_CC = """#!/bin/sh
"%s" "$@" || exit
prev=
for a in "$@"; do
	if [ "$prev" = -o ]; then
		case $a in
		*.pinpoint-objs/1-b.c.o) DIR=${a%%/*} sh -c "$PP_TEST_WINDOW" || exit 1 ;;
		esac
	fi
	prev=$a
done
"""


def run(cmd, cwd=None, env=None, expect=0):
    return pinpoint_test.run(cmd, cwd=cwd, extra_env=env or {}, expect=expect, timeout=120)


class Setup:
    """Sources a.c and b.c in @src, the attacker's evil.o (leaving @mark when it
    runs), and the window compiler."""

    def __init__(self, a, src, mark):
        self.a, self.src, self.mark = a, src, mark
        self.cc = os.path.join(a.build, "tools", "pinpoint-cc")
        for name, text in (("a.c", A_C), ("b.c", B_C), ("evil.c", EVIL_C)):
            with open(os.path.join(src, name), "w") as f:
                f.write(text)
        self.evil = os.path.join(src, "evil.o")
        run([a.clang, "-c", "-DMARK=\"%s\"" % mark, "evil.c", "-o", self.evil], cwd=src)
        self.window_cc = os.path.join(src, "window-cc")
        with open(self.window_cc, "w") as f:
            f.write(WINDOW_CC % a.clang)
        os.chmod(self.window_cc, 0o755)
        os.chmod(src, 0o755)
        for f in os.listdir(src):
            os.chmod(os.path.join(src, f), 0o755)

    def build(self, out, window=None, expect=0):
        """pinpoint-cc a.c b.c -o @out in the sources' directory; with @window,
        through the window compiler running that command in the window."""
        env = {}
        if window is not None:
            env = {"PINPOINT_CLANG": self.window_cc, "PP_TEST_WINDOW": window,
                   "EVIL": self.evil}
        return run([self.cc, "-O1", "a.c", "b.c", "-o", out], cwd=self.src, env=env,
                   expect=expect)


def refused(p, out, words):
    """@p (pinpoint-cc) failed with one line holding @words, and linked nothing at @out."""
    lines = p.stderr.splitlines()
    if len(lines) != 1 or not lines[0].startswith("pinpoint-cc: ") or \
            any(w not in lines[0] for w in words):
        fail("pinpoint-cc did not refuse in one line saying %s" % (words,), p)
    if os.path.lexists(out) or os.path.lexists(out + ".pinpoint-link"):
        fail("pinpoint-cc refused, yet linked %s" % out, p)


def never_ran(s, out):
    """The attacker's main did not run, and is not in the program at @out."""
    if os.path.lexists(out):
        p = run([out], expect=None)
        if "evil" in p.stdout:
            fail("the program was linked with the attacker's object", p)
    if os.path.lexists(s.mark):
        fail("the attacker's code ran")


def tree(d):
    """What is in directory @d, as (name, type, owner) sorted."""
    return sorted((n, stat.S_IFMT(st.st_mode), st.st_uid)
                  for n in os.listdir(d) for st in [os.lstat(os.path.join(d, n))])


def scenario_fresh(a, tmp):
    s = Setup(a, tmp, os.path.join(tmp, "mark"))
    old = os.umask(0o022)
    try:
        s.build("prog")
    finally:
        os.umask(old)
    st = os.lstat(os.path.join(tmp, "prog.pinpoint-objs"))
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & 0o077:
        fail("prog.pinpoint-objs was made with mode %o, not 0700" % stat.S_IMODE(st.st_mode))
    if run([os.path.join(tmp, "prog")]).stdout != "good 21\n":
        fail("prog does not run as built")
    # an older pinpoint-cc's directory (mode 0755, the user's) is used
    os.mkdir(os.path.join(tmp, "old.pinpoint-objs"))
    os.chmod(os.path.join(tmp, "old.pinpoint-objs"), 0o755)
    s.build("old")
    if not os.path.isfile(os.path.join(tmp, "old.pinpoint-objs", "1-b.c.o")):
        fail("no object in a 0755 objects directory of the user's")
    # through the window compiler, doing nothing in the window: as built
    s.build("plain", window="true")
    if run([os.path.join(tmp, "plain")]).stdout != "good 21\n":
        fail("the window compiler does not build the program")


def scenario_symlink(a, tmp):
    s = Setup(a, tmp, os.path.join(tmp, "mark"))
    other = os.path.join(tmp, "other")
    os.mkdir(other, 0o700)
    os.symlink(other, os.path.join(tmp, "prog.pinpoint-objs"))
    p = s.build("prog", expect=1)
    refused(p, os.path.join(tmp, "prog"), ["prog.pinpoint-objs", "symbolic link", "remove it"])
    if os.listdir(other):
        fail("pinpoint-cc wrote through a link: %s" % os.listdir(other))
    # and a link to a directory that does not exist is not made one
    os.unlink(os.path.join(tmp, "prog.pinpoint-objs"))
    os.symlink(os.path.join(tmp, "nowhere"), os.path.join(tmp, "prog.pinpoint-objs"))
    p = s.build("prog", expect=1)
    refused(p, os.path.join(tmp, "prog"), ["prog.pinpoint-objs", "symbolic link"])
    if os.path.lexists(os.path.join(tmp, "nowhere")):
        fail("pinpoint-cc made the directory a link pointed to")


def scenario_writable(a, tmp):
    s = Setup(a, tmp, os.path.join(tmp, "mark"))
    for mode, who in ((0o777, "others"), (0o770, "its group"), (0o1777, "others")):
        d = os.path.join(tmp, "prog.pinpoint-objs")
        os.mkdir(d)
        os.chmod(d, mode)
        p = s.build("prog", expect=1)
        refused(p, os.path.join(tmp, "prog"),
                ["prog.pinpoint-objs", "writable by " + who, "chmod go-w"])
        if os.listdir(d):
            fail("pinpoint-cc compiled into a directory of mode %o: %s" % (mode, os.listdir(d)))
        os.rmdir(d)


def scenario_swapped_object(a, tmp):
    s = Setup(a, tmp, os.path.join(tmp, "mark"))
    windows = {
        "replaced": 'cp "$EVIL" "$DIR/0-a.c.o.new" && mv -f "$DIR/0-a.c.o.new" "$DIR/0-a.c.o"',
        "rewritten": 'cat "$EVIL" > "$DIR/0-a.c.o"',
        "linked": 'rm "$DIR/0-a.c.o" && ln -s "$EVIL" "$DIR/0-a.c.o"',
    }
    for name, window in windows.items():
        out = os.path.join(tmp, name)
        p = s.build(name, window=window, expect=None)
        never_ran(s, out)
        refused(p, out, [name + ".pinpoint-objs/0-a.c.o", "changed", "refusing to link"])


def scenario_swapped_dir(a, tmp):
    s = Setup(a, tmp, os.path.join(tmp, "mark"))
    window = ('mv "$DIR" "$DIR.old" && mkdir -m 700 "$DIR" && cp "$EVIL" "$DIR/0-a.c.o" && '
              'cp "$DIR.old/1-b.c.o" "$DIR/"')
    p = s.build("prog", window=window, expect=None)
    never_ran(s, os.path.join(tmp, "prog"))
    refused(p, os.path.join(tmp, "prog"), ["prog.pinpoint-objs", "replaced", "refusing to link"])


def attacker():
    """The second account's (uid, gid), made when missing."""
    if os.geteuid() != 0:
        skip("not root: no second account to attack with")
    for tool in ("useradd", "setpriv"):
        if not shutil.which(tool):
            skip("no %s to act as a second account" % tool)
    try:
        pw = pwd.getpwnam(ATTACKER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                        "/usr/sbin/nologin", ATTACKER], capture_output=True)
        pw = pwd.getpwnam(ATTACKER)  # made, here or by a test running at once
    return pw.pw_uid, pw.pw_gid


def as_attacker(ids, cmd):
    """@cmd, a shell command, run as the attacker's account."""
    return ["setpriv", "--reuid=%d" % ids[0], "--regid=%d" % ids[1], "--clear-groups",
            "sh", "-c", cmd]


def shared_dir(mode):
    """A directory anyone can write (a /tmp of its own), mode @mode."""
    d = tempfile.mkdtemp(prefix="pp-shared-", dir="/tmp")
    os.chmod(d, mode)
    return d


def scenario_attacker_dir(a, tmp):
    ids = attacker()
    shared = shared_dir(0o1777)
    try:
        s = Setup(a, tmp, os.path.join(shared, "mark"))
        shutil.copy(s.evil, os.path.join(shared, "evil.o"))
        os.chown(os.path.join(shared, "evil.o"), *ids)
        out = os.path.join(shared, "prog")
        # The attacker's directory comes first: mode 0755, theirs.
        run(as_attacker(ids, 'mkdir -m 755 "%s.pinpoint-objs"' % out))
        window = " ".join(shlex.quote(w) for w in as_attacker(
            ids, 'cp "%s/evil.o" "$DIR/0-a.c.o.new" && mv -f "$DIR/0-a.c.o.new" "$DIR/0-a.c.o"'
            % shared))
        p = s.build(out, window=window, expect=None)
        never_ran(s, out)
        refused(p, out, ["prog.pinpoint-objs", "belongs to uid %d" % ids[0], "not to you"])
        if os.listdir(out + ".pinpoint-objs"):
            fail("pinpoint-cc compiled into the attacker's directory")
    finally:
        shutil.rmtree(shared)


def scenario_attacker_link(a, tmp):
    ids = attacker()
    # not sticky: the kernel's protected_symlinks would refuse to follow the link
    shared = shared_dir(0o777)
    try:
        s = Setup(a, tmp, os.path.join(shared, "mark"))
        out = os.path.join(shared, "prog")
        theirs = os.path.join(shared, "theirs")
        run(as_attacker(ids, 'mkdir -m 777 "%s" && ln -s "%s" "%s.pinpoint-objs"'
                        % (theirs, theirs, out)))
        p = s.build(out, expect=None)
        if os.listdir(theirs):
            fail("pinpoint-cc wrote into the attacker's directory: %s" % tree(theirs))
        refused(p, out, ["prog.pinpoint-objs", "symbolic link"])
        never_ran(s, out)
    finally:
        shutil.rmtree(shared)


def in_tmp(fn, a):
    """Run scenario @fn(a, tmp) in a temporary directory of its own."""
    a.build = os.path.realpath(a.build)
    with tempfile.TemporaryDirectory(prefix="pp-cc-objs-") as tmp:
        fn(a, tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--clang", required=True)
    scenario_main(ap, globals(), call=in_tmp)


if __name__ == "__main__":
    main()
