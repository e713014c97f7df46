#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_generator.py - the accuracy benchmark's generated programs are what
they claim to be.

    check_generator.py --gen bench/accuracy/gen.py --cc pinpoint-cc --layers pinpoint-layers

For one regression at depth 2, one at depth 4 and two at once at depths 1
and 3 (each depth once, each build some seconds): generates the
previous and the current revision with gen.py's command line, builds both
with pinpoint-cc, and checks with pinpoint-layers that

  * the entry's call tree is the one gen.py describes, four layers deep: every
    function of depth k is a callee of its parent in layer k-1's call list;
  * the injected function is at the depth asked for, and every function on
    the path to it from the entry is a call of its parent;
  * both revisions have the same call lists (the regression adds no call);
  * the injected work is in that function's body in the current revision's
    source only, with the iterations asked for;
  * both programs run, and the same arguments give the same source;
  * the calibration's two-revision program (gen.generate_pair) holds the
    previous revision's functions as prev_* and the current one's as cur_*,
    body for body, builds without warnings and prints one pair of
    execution times per pair asked for, previous first.
No timing is checked but one: with an injection some fifty times the
entry's own work, the pair program's current executions must be the slow
ones (a swap of the two columns would pass every check above).
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: %s' % what)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        print('FAIL: %s exited with %d: %s' % (' '.join(cmd), p.returncode, p.stderr.strip()))
        sys.exit(1)
    return p.stdout


def layers(tool, exe):
    """{(layer, function): [callee, ...]} from pinpoint-layers --depth 4."""
    out = run([tool, exe, '--entry', 'bench_entry', '--depth', '4'])
    calls, layer, fn = {}, None, None
    for line in out.splitlines():
        m = re.match(r'layer (\d+)$', line)
        if m:
            layer = int(m.group(1))
            continue
        m = re.match(r'  (\S+) \(', line)
        if m:
            fn = m.group(1)
            calls.setdefault((layer, fn), [])
            continue
        m = re.match(r'\s+(\d+)\s+(\S+)\s', line)
        if m and fn:
            calls[(layer, fn)].append(m.group(2))
    return calls


def function_body(src, name):
    m = re.search(r'^NOINLINE uint64_t %s\(uint64_t seed\)\n\{\n(.*?)^\}' % re.escape(name),
                  src, re.M | re.S)
    return m.group(1) if m else None


def functions(src, prefix=''):
    """{name without prefix: body} of the tree's functions in @src."""
    return {m.group(1): m.group(2) for m in re.finditer(
        r'^NOINLINE uint64_t %s(\w+)\(uint64_t seed\)\n\{\n(.*?)^\}' % re.escape(prefix), src, re.M | re.S)}


def unprefix(body, prefix):
    return re.sub(r'\b%s(d\d_|bench_entry)' % re.escape(prefix), r'\1', body)


def pairs(out):
    rows = [line.split() for line in out.splitlines()]
    return [(int(r[1]), int(r[2])) for r in rows if len(r) == 3 and r[0] == 'pair']


def check_pair(gen, cc, tmp, i, seed, inject, srcs):
    """The two-revision program of case @i against its two revisions' sources."""
    src = gen.generate_pair(seed, 2, inject)
    for rev, prefix in (('previous', 'prev_'), ('current', 'cur_')):
        want = functions(srcs[rev])
        got = {n: unprefix(b, prefix) for n, b in functions(src, prefix).items()}
        check(len(want) == len(gen.paths()) + 1 and got == want,
              'case %d: the pair program\'s %s* functions are the %s revision\'s' % (i, prefix, rev))
    path = os.path.join(tmp, '%d' % i, 'pair.c')
    with open(path, 'w') as f:
        f.write(src)
    exe = os.path.join(tmp, '%d' % i, 'pair')
    run([cc, '-O2', '-Wall', '-Werror', path, '-o', exe])
    got = pairs(run([exe, '5']))
    check(len(got) == 5 and all(p > 0 and c > 0 for p, c in got),
          'case %d: the pair program prints 5 pairs of execution times' % i)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gen', required=True)
    ap.add_argument('--cc', required=True)
    ap.add_argument('--layers', required=True)
    args = ap.parse_args()
    spec = importlib.util.spec_from_file_location('gen', args.gen)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)

    cases = [[2], [4], [1, 3]]
    with tempfile.TemporaryDirectory() as tmp:
        for i, depths in enumerate(cases):
            seed = 7 + i
            picked = gen.pick_paths(seed, depths)
            check([len(p) for p in picked] == depths, 'pick_paths(%d, %s) depths' % (seed, depths))
            check(len({p[0] for p in picked}) == len(picked),
                  'regressions %s are in different subtrees' % picked)
            names = [gen.name(p) for p in picked]
            iters = [1000 + 111 * k for k in range(len(picked))]
            srcs = {}
            exes = {}
            for rev in ('previous', 'current'):
                d = os.path.join(tmp, '%d' % i, rev)
                os.makedirs(d)
                cmd = [sys.executable, args.gen, '--out', os.path.join(d, 'prog.c'),
                       '--seed', str(seed), '--outer', '2']
                if rev == 'current':
                    for n, it in zip(names, iters):
                        cmd += ['--inject', '%s:%d' % (n, it)]
                run(cmd)
                with open(os.path.join(d, 'prog.c')) as f:
                    srcs[rev] = f.read()
                exes[rev] = os.path.join(d, 'prog')
                run([args.cc, '-O2', '-Wall', '-Werror', os.path.join(d, 'prog.c'), '-o', exes[rev]])
                run([exes[rev], '2'])
                again = os.path.join(d, 'again.c')
                run(cmd[:2] + ['--out', again] + cmd[4:])
                with open(again) as f:
                    check(f.read() == srcs[rev], 'case %d %s: the same arguments give the same file'
                          % (i, rev))
            tree = {rev: layers(args.layers, exes[rev]) for rev in exes}
            check(tree['previous'] == tree['current'],
                  'case %d: both revisions have the same call lists' % i)
            cur = tree['current']
            # the whole tree, layer by layer
            for p in gen.paths():
                parent = p[:-1]
                callees = cur.get((len(parent), gen.name(parent)))
                check(callees is not None and gen.name(p) in callees,
                      'case %d: %s is a call of %s in layer %d' % (i, gen.name(p), gen.name(parent),
                                                                  len(parent)))
                check((len(p), gen.name(p)) in cur,
                      'case %d: %s is in layer %d' % (i, gen.name(p), len(p)))
            for p, n, it in zip(picked, names, iters):
                check((len(p), n) in cur, 'case %d: injected %s is at depth %d' % (i, n, len(p)))
                body = function_body(srcs['current'], n)
                check(body is not None and 'injected regression: %d dependent iterations' % it in body,
                      'case %d: the injected work is in the body of %s' % (i, n))
            check('injected regression' not in srcs['previous'],
                  'case %d: the previous revision has no injected work' % i)
            check(srcs['current'].count('injected regression') == len(picked),
                  'case %d: one injection per regression' % i)
            check_pair(gen, args.cc, tmp, i, seed, dict(zip(picked, iters)), srcs)
        # which column is which: an injection far larger than the entry's own work
        big = gen.pick_paths(3, [2])[0]
        path = os.path.join(tmp, 'big.c')
        with open(path, 'w') as f:
            f.write(gen.generate_pair(3, 2, {big: 2000000}))
        run([args.cc, '-O2', path, '-o', os.path.join(tmp, 'big')])
        got = pairs(run([os.path.join(tmp, 'big'), '9']))
        slow = sorted(c / p for p, c in got)
        check(len(got) == 9 and slow[len(slow) // 2] > 5,
              'pair program: the current revision\'s executions are the ones with the injected '
              'work (median current/previous %s)' % (slow[len(slow) // 2] if slow else None))
    if failures:
        print('%d checks failed' % len(failures))
        return 1
    print('generator: all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
