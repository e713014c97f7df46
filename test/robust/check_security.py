#!/usr/bin/env python3
"""Another local user's code never runs as the user of pinpoint (SECURITY.md).

  check_security.py --pinpoint P --cc PINPOINT_CC --source placement.c SCENARIO

The user is root (as under sudo -E, the worst case); the attacker is a second
account, pinpoint-attacker, made by the test (useradd), acting through setpriv.  The
attacker's code is a script that, run by anyone, leaves a marker file: every
scenario ends by checking that no marker was left.  Run as another user than
root, the scenarios are skipped with one line (ctest: skipped).

layout    a layout planted where the user's cache would be: XDG_CACHE_HOME on
          a directory both can write (sticky, as /tmp), the attacker having
          made pinpoint's directories there first, with scripts in place of
          the layouts of the user's build and sums forged to match; the
          user's own layouts directory made writable by others, its layouts
          replaced and sums forged by the attacker; and the user's cache
          under a directory of the attacker's (root given another user's
          ~/.cache).  Each time: one line refusing the cache, the session
          runs as built, nothing of the attacker's runs
command   a remembered command planted: in a cache of the attacker's, in the
          user's own cache as a file the attacker owns, and as a link to the
          attacker's file: no command runs, exit 2 with one line; the user's
          own remembered command still runs
midlink   a symbolic link in the middle of the cache's path (pinpoint/, and
          pinpoint/layouts) to a directory of the attacker's: refused, and
          nothing is made in the attacker's directory
"""
import argparse
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import check, fail, run, scenario_main, skip  # noqa: E402
from pinpoint_test import pinpoint as harness_pinpoint  # noqa: E402

ARGS = None
ATTACKER = "pinpoint-attacker"
SHORT = ["--entry", "run", "--depth", "0", "--measurements", "6", "--max-runs", "40"]


def attacker():
    """The attacker's (uid, gid): pinpoint-attacker, made when missing."""
    try:
        pw = pwd.getpwnam(ATTACKER)
    except KeyError:
        # (9: made meanwhile by another scenario)
        p = run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                 ATTACKER])
        if p.returncode not in (0, 9):
            fail("cannot make the attacker's account", p)
        pw = pwd.getpwnam(ATTACKER)
    return pw.pw_uid, pw.pw_gid


def as_attacker(script):
    """Run the shell @script as the attacker; it must succeed."""
    uid, gid = attacker()
    return run(["setpriv", "--reuid=%d" % uid, "--regid=%d" % gid, "--clear-groups", "--",
                "/bin/sh", "-ec", script], expect=0)


def pinpoint(*args, status=None, env=None):
    return harness_pinpoint(ARGS.pinpoint, *args, status=status, env=env)


def build(tmp, name):
    """placement.c built with pinpoint-cc (a link record: it can be linked in layouts)."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    run([ARGS.cc, "-O2", "-fno-inline-functions", "-c", ARGS.source, "-o", "placement.o"],
        cwd=d, expect=0)
    run([ARGS.cc, "placement.o", "-o", "placement"], cwd=d, expect=0)
    return d


def fnv(data):
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def payload(tmp):
    """The attacker's program (a shell script leaving @tmp/pwned), and the marker's path."""
    marker = os.path.join(tmp, "pwned")
    return "#!/bin/sh\nid > %s\nexit 0\n" % marker, marker


def dev_ino(d):
    st = os.stat(d)
    return "%x-%x" % (st.st_dev, st.st_ino)


def setup():
    """A world-readable temporary directory with two revisions of placement.c."""
    tmp = tempfile.mkdtemp(prefix="pp-security-")
    os.chmod(tmp, 0o755)
    prev, cur = build(tmp, "previous"), build(tmp, "current")
    return tmp, prev, cur


def session(cache, prev, cur, *extra, command=("--", "./placement"), status=None):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    return pinpoint(*SHORT, *extra, "--previous", prev, "--current", cur, *command,
                    status=status, env=env)


def plant_layouts(own_dir, target_dir, script):
    """Shell commands (for the attacker) that fill @target_dir with @own_dir's layout
    files replaced by @script, with forged sums, and its seeds."""
    data = script.encode()
    same = os.path.realpath(own_dir) == os.path.realpath(target_dir)
    cmds = [] if same else ["mkdir -p %s" % target_dir, "chmod 0777 %s" % target_dir]
    for n in sorted(os.listdir(own_dir)):
        if n.endswith(".sum") or "." not in n or n in ("dir", "seeds", "lock", "relink.log"):
            continue
        dst = os.path.join(target_dir, n)
        cmds.append("rm -f %s %s.sum" % (dst, dst))
        cmds.append("printf '%%s' '%s' > %s && chmod 0755 %s"
                    % (script.replace("'", "'\\''"), dst, dst))
        cmds.append("printf '%d %016x\\n' > %s.sum" % (len(data), fnv(data), dst))
    seeds = os.path.join(own_dir, "seeds")
    if not same:
        cmds.append("cat > %s/seeds <<'EOF'\n%sEOF" % (target_dir, open(seeds).read()))
    return "\n".join(cmds)


def refused(p, what):
    check("cannot use the layouts cache" in p.stderr and what in p.stderr,
          "no line refusing the cache (%s): %s" % (what, p.stderr[-800:]))
    check(p.returncode in (0, 1, 4), "the session did not run as built: exit %d\n%s"
          % (p.returncode, p.stderr[-800:]))


def scenario_layout():
    tmp, prev, cur = setup()
    script, marker = payload(tmp)
    uid, _ = attacker()
    try:
        # The user's own cache first: the names of the layouts of this build.
        own = os.path.join(tmp, "own-cache")
        p = session(own, prev, cur, "--layouts", "3", "--max-layouts", "3")
        check(p.returncode in (0, 1, 4), "first session: exit %d" % p.returncode)
        own_dir = os.path.join(own, "pinpoint", "layouts", dev_ino(cur))
        check(any(n.startswith("placement.") and n[-1].isdigit() for n in os.listdir(own_dir)),
              "no layouts made in the user's cache: %s" % os.listdir(own_dir))

        # 1. XDG_CACHE_HOME on a directory both can write: the attacker made pinpoint's first.
        shared = os.path.join(tmp, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        planted = os.path.join(shared, "pinpoint", "layouts", dev_ino(cur))
        as_attacker("umask 0\n" + plant_layouts(own_dir, planted, script))
        p = session(shared, prev, cur, "--layouts", "3", "--max-layouts", "3")
        refused(p, "%s/pinpoint belongs to uid %d, not to you (uid 0)" % (shared, uid))
        check(not os.path.exists(marker), "the planted layout ran (shared cache)")

        # 2. The user's own layouts directory made writable by others: the attacker
        #    replaces the layouts and forges the sums.
        for d in (own, os.path.join(own, "pinpoint"), os.path.dirname(own_dir)):
            os.chmod(d, 0o755)  # still private: others may look, not write
        os.chmod(own_dir, 0o777)
        as_attacker(plant_layouts(own_dir, own_dir, script))
        p = session(own, prev, cur, "--layouts", "3", "--max-layouts", "3")
        refused(p, "%s can be written by others (mode 0777)" % own_dir)
        check(not os.path.exists(marker), "the planted layout ran (own cache, others may write)")

        # 3. Root given another user's cache (sudo -E): a directory of the attacker's.
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        os.chown(home, uid, -1)
        planted = os.path.join(home, ".cache", "pinpoint", "layouts", dev_ino(cur))
        as_attacker(plant_layouts(own_dir, planted, script))
        p = session(os.path.join(home, ".cache"), prev, cur, "--layouts", "3",
                    "--max-layouts", "3")
        refused(p, "%s belongs to uid %d, neither to you (uid 0) nor to root" % (home, uid))
        check(not os.path.exists(marker), "the planted layout ran (another user's cache)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def command_file(cur, argv):
    """A remembered command's bytes for @cur (pinpoint/main.c)."""
    return b"\0".join([b"pinpoint-command-of", os.path.realpath(cur).encode()]
                      + [a.encode() for a in argv]) + b"\0"


def no_command(p, what):
    check(p.returncode == 2 and "no command" in p.stderr and what in p.stderr
          and len(p.stderr.strip().splitlines()) == 1,
          "expected one line refusing the command (%s), exit 2: exit %d\n%s"
          % (what, p.returncode, p.stderr[-800:]))


def scenario_command():
    tmp, prev, cur = setup()
    script, marker = payload(tmp)
    uid, _ = attacker()
    evil = os.path.join(tmp, "evil.sh")
    with open(evil, "w") as f:
        f.write(script)
    os.chmod(evil, 0o755)
    try:
        # 1. In a cache of the attacker's, on a directory both can write.
        shared = os.path.join(tmp, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        cmd = os.path.join(shared, "pinpoint", "commands", dev_ino(cur))
        src = os.path.join(tmp, "command-src")
        with open(src, "wb") as f:
            f.write(command_file(cur, [evil]))
        os.chmod(src, 0o644)
        as_attacker("mkdir -p %s\ncp %s %s" % (os.path.dirname(cmd), src, cmd))
        p = session(shared, prev, cur, command=())
        no_command(p, "belongs to uid %d" % uid)
        check(not os.path.exists(marker), "the planted command ran (shared cache)")

        # 2. The user's own cache: their command is remembered and runs again.
        own = os.path.join(tmp, "own-cache")
        p = session(own, prev, cur)
        check(p.returncode in (0, 1, 4), "a session with a command: exit %d" % p.returncode)
        p = session(own, prev, cur, command=())
        check(p.returncode in (0, 1, 4) and "[1] run" in p.stdout,
              "the user's own remembered command did not run: exit %d\n%s"
              % (p.returncode, p.stderr[-800:]))

        # 3. ... but not a file of the attacker's in its place (a planted file, a link).
        mine = os.path.join(own, "pinpoint", "commands", dev_ino(cur))
        with open(mine, "wb") as f:
            f.write(command_file(cur, [evil]))
        os.chown(mine, uid, -1)
        p = session(own, prev, cur, command=())
        no_command(p, "is not a file of yours that only you can write")
        os.unlink(mine)
        theirs = os.path.join(tmp, "theirs")
        with open(theirs, "wb") as f:
            f.write(command_file(cur, [evil]))
        os.chown(theirs, uid, -1)
        os.symlink(theirs, mine)
        p = session(own, prev, cur, command=())
        no_command(p, "is not a file of yours that only you can write")
        check(not os.path.exists(marker), "a planted command ran (own cache)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def scenario_midlink():
    tmp, prev, cur = setup()
    try:
        uid, _ = attacker()
        theirs = os.path.join(tmp, "theirs")
        os.mkdir(theirs)
        os.chown(theirs, uid, -1)
        os.chmod(theirs, 0o777)
        base = os.path.join(tmp, "cache")
        os.mkdir(base)
        # pinpoint/ itself a link to the attacker's directory
        os.symlink(theirs, os.path.join(base, "pinpoint"))
        p = session(base, prev, cur, "--layouts", "3", "--max-layouts", "3")
        refused(p, "%s/pinpoint is a symbolic link" % base)
        check("cannot remember the command: %s/pinpoint is a symbolic link" % base in p.stderr,
              "the command was not refused: %s" % p.stderr[-800:])
        check(os.listdir(theirs) == [], "made in the attacker's directory: %s"
              % os.listdir(theirs))
        # pinpoint/layouts a link, deeper
        os.unlink(os.path.join(base, "pinpoint"))
        os.mkdir(os.path.join(base, "pinpoint"))
        os.symlink(theirs, os.path.join(base, "pinpoint", "layouts"))
        p = session(base, prev, cur, "--layouts", "3", "--max-layouts", "3")
        refused(p, "%s/pinpoint/layouts is a symbolic link" % base)
        check(os.listdir(theirs) == [], "made in the attacker's directory: %s"
              % os.listdir(theirs))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--source", required=True)
    if os.geteuid() != 0:
        skip("not root: no second account can be made to play the attacker")
    if not shutil.which("setpriv") or not shutil.which("useradd"):
        skip("setpriv or useradd missing: no second account to play the attacker")
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
